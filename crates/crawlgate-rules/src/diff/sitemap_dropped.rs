use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each page listed in a sitemap in the earlier audit and in none in the later one
    /// (unless it now redirects to a page a sitemap lists).
    ///
    /// ## Why is this bad?
    /// Sitemaps tell search engines which URLs matter and when they change. A page dropped from
    /// every sitemap is discovered and recrawled more slowly, and may be a page that was lost in
    /// the migration.
    ///
    /// ## Example
    /// ```text
    /// before: listed in https://www.example.com/sitemap.xml
    /// after:  in no sitemap
    /// ```
    ///
    /// ## How to fix
    /// Add the page back to the sitemap generator's input, or redirect it if it is gone.
    pub struct SitemapDropped {
        id: "diff/sitemap-dropped",
        severity: Warning,
        summary: "A page listed in a sitemap before is in none after",
    }
}
