use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps whose body starts with gzip's magic bytes but does not decompress to the end:
    /// a file cut short (an interrupted upload, a generator that crashed mid-write, a proxy that
    /// truncated it) or corrupt data.
    ///
    /// ## Why is this bad?
    /// Search engines must decompress a `.gz` sitemap before they can read a single URL. A broken
    /// archive gives them nothing after the break, or nothing at all, and Search Console reports
    /// the sitemap as unreadable.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml.gz   200   1f 8b 08 00 … (the stream ends after 4 KB)
    /// ```
    ///
    /// ## How to fix
    /// Regenerate the file and check it locally (`gzip -t sitemap.xml.gz`). Compress once: if the
    /// server also sends `Content-Encoding: gzip` for a `.gz` file, make sure it does not compress
    /// the already-compressed file a second time.
    pub struct GzipInvalid {
        code: crawlgate_core::sitemap::Code::GzipInvalid,
        summary: "A gzip-compressed sitemap is corrupt or cut short",
    }
}

impl Rule for GzipInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
