use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits that answered 2xx before and answers an error
    /// (4xx, 5xx) or nothing after, or now redirects to the home page (the usual catch-all for
    /// URLs a migration did not map).
    ///
    /// ## Why is this bad?
    /// A page that stops answering loses its rankings; its links and traffic go nowhere. A
    /// migration that should redirect old URLs often leaves some as 404.
    ///
    /// ## Example
    /// ```text
    /// before: answered 200
    /// after:  answered 404
    /// ```
    ///
    /// ## How to fix
    /// Restore the page or redirect it (301) to its replacement.
    pub struct StatusRegressed {
        id: "diff/status-regressed",
        severity: Error,
        summary: "A page that answered 2xx before answers an error after",
    }
}
