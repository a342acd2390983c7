use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits whose declared canonical changed (the earlier one
    /// mapped onto the new host first, so a move from staging or to https is not a change); an
    /// error when the new target is a page no audited profile can index.
    ///
    /// ## Why is this bad?
    /// The canonical tells Google which URL to index. A changed canonical moves the page's
    /// signals to another URL; a missing one leaves Google to choose.
    ///
    /// ## Example
    /// ```text
    /// before: canonical https://www.example.com/boots
    /// after:  canonical https://www.example.com/
    /// ```
    ///
    /// ## How to fix
    /// Check the canonical on the `after` side: point it back to the page itself, or to the
    /// page that is meant to replace it.
    pub struct CanonicalChanged {
        id: "diff/canonical-changed",
        severity: Warning,
        summary: "A page's canonical changed between the audits",
    }
}
