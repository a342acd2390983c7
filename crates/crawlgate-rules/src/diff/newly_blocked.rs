use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Compares the robots.txt verdict of every page known to both audits, per crawler profile,
    /// and reports each page that was allowed before and is disallowed after, with the deciding
    /// robots.txt line on each side.
    ///
    /// ## Why is this bad?
    /// A page a crawler may no longer fetch drops out of its crawl: its content is no longer read,
    /// its links no longer followed, and after a while it leaves the index or stays as a bare
    /// URL. After a migration this is usually a robots.txt from staging, or a rule that now
    /// matches more than intended.
    ///
    /// ## Example
    /// ```text
    /// before: allowed (no rule)
    /// after:  disallowed (https://www.example.com/robots.txt line 7: Disallow: /shop)
    /// ```
    ///
    /// ## How to fix
    /// Remove or narrow the rule quoted on the `after` side (test the change with `crawlgate
    /// robots diff` before deploying it).
    ///
    /// For a crawler the later audit declares expected-blocked (`--expect-blocked gptbot`) the
    /// new block is what was wanted: the finding is then a notice that confirms it.
    pub struct NewlyBlocked {
        id: "diff/newly-blocked",
        severity: Error,
        summary: "A page allowed by robots.txt before is disallowed after",
    }
}
