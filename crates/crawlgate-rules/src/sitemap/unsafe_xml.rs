use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps that declare a `<!DOCTYPE …>` (and with it, possibly, `<!ENTITY …>`
    /// definitions), and gzip sitemaps that decompress past the safety limit (a ratio only a
    /// decompression bomb has). crawlgate stops reading them, as careful crawlers do.
    ///
    /// ## Why is this bad?
    /// Entity definitions are the classic way to attack XML readers ("billion laughs": a few
    /// kilobytes that expand to gigabytes), so crawlers refuse or ignore them, and the URLs of such
    /// a sitemap may never be read. A sitemap never needs a DOCTYPE.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <!DOCTYPE urlset [ <!ENTITY site "https://example.com"> ]>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>&site;/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## How to fix
    /// Remove the `<!DOCTYPE …>` declaration and write URLs out in full. If a compressed sitemap is
    /// enormous when decompressed, split it into sitemaps within the 50 MB limit.
    pub struct UnsafeXml {
        code: crawlgate_core::sitemap::Code::UnsafeXml,
        summary: "The sitemap declares a DOCTYPE or decompresses past the safety limit, so it is not read",
    }
}

impl Rule for UnsafeXml {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
