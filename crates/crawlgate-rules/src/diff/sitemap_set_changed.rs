use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Compares the sitemaps each audit met (named by robots.txt, by an index, or probed), URLs
    /// mapped, and reports the ones that appear or disappear.
    ///
    /// ## Why is this bad?
    /// A sitemap that disappears takes its URLs out of search engines' discovery; one that
    /// appears may list URLs of the wrong host or environment.
    ///
    /// ## Example
    /// ```text
    /// before: https://www.example.com/sitemap-products.xml
    /// after:  (not met)
    /// ```
    ///
    /// ## How to fix
    /// Check that the sitemaps named by robots.txt and by the index are the intended ones, and
    /// resubmit them in Search Console.
    pub struct SitemapSetChanged {
        id: "diff/sitemap-set-changed",
        severity: Notice,
        summary: "The set of sitemaps changed between the audits",
    }
}
