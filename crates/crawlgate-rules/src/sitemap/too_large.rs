use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps larger than 52,428,800 bytes (50 MB) once decompressed. Compression does not
    /// help: the limit applies to the uncompressed document.
    ///
    /// ## Why is this bad?
    /// 50 MB uncompressed is the protocol's limit, and Google's. A larger file is reported as an
    /// error, and what lies past the limit may never be read. (Tools that still enforce the 10 MB
    /// limit of older documentation reject it sooner.)
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml.gz   6 MB compressed, 61 MB uncompressed
    /// ```
    ///
    /// ## How to fix
    /// Split the sitemap into smaller ones listed in a sitemap index. Very long entries usually come
    /// from extensions (hundreds of `image:image` or `xhtml:link` per URL): move those to their own
    /// sitemaps.
    pub struct TooLarge {
        code: crawlgate_core::sitemap::Code::TooLarge,
        summary: "A sitemap is larger than 50 MB uncompressed",
    }
}

impl Rule for TooLarge {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
