use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps whose root element is not `<urlset>` or `<sitemapindex>` (nor an RSS or Atom
    /// feed), or whose sitemaps.org namespace is missing or misspelled (`https://` instead of
    /// `http://`, a trailing slash, an old version number, an undeclared prefix). Inside the
    /// document, it finds elements the protocol does not define in its namespace (`<lastmodified>`,
    /// a `<sitemap>` in a `<urlset>`) and sitemaps.org elements taken out of the namespace
    /// (`<url xmlns="">`), whose entries or values Google does not read.
    ///
    /// ## Why is this bad?
    /// The sitemap protocol asks you to "specify the namespace (protocol standard) within the
    /// `<urlset>` tag". Search engines recognise a sitemap by its root element and namespace; a
    /// document with the wrong ones may be rejected as a whole, or its entries read by guesswork.
    ///
    /// ## Example
    /// ```xml
    /// <urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9/">
    ///   <url><loc>https://example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## How to fix
    /// Start the document exactly with
    /// `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` (or `<sitemapindex …>` with
    /// the same namespace for an index), and declare every prefix you use (`image:`, `video:`,
    /// `news:`, `xhtml:`). Most generators have a setting or template for this line. Spell the
    /// children as the protocol does (`<loc>`, `<lastmod>`, `<changefreq>`, `<priority>`) and put
    /// any element of your own in a namespace of your own.
    pub struct BadRootOrNamespace {
        code: crawlgate_core::sitemap::Code::BadRootOrNamespace,
        summary: "The sitemap's root element or namespace is not the sitemaps.org one",
    }
}

impl Rule for BadRootOrNamespace {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
