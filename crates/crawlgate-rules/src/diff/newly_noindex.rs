use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits that was not noindex for a profile before and is
    /// after (meta robots or `X-Robots-Tag`), quoting the directives on each side.
    ///
    /// ## Why is this bad?
    /// A noindex removes the page from search results at the next crawl. A new one after a
    /// migration is almost always a staging header or template setting that came along.
    ///
    /// ## Example
    /// ```text
    /// before: indexable directives (none)
    /// after:  noindex, nofollow
    /// ```
    ///
    /// ## How to fix
    /// Remove the noindex from the page template or the server configuration that sends
    /// `X-Robots-Tag`, unless the page is meant to leave the index.
    pub struct NewlyNoindex {
        id: "diff/newly-noindex",
        severity: Error,
        summary: "A page that could be indexed before is noindex after",
    }
}
