use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `<sitemap>` entries of an index that point to another scheme, host or port, or to a
    /// directory above the index's own.
    ///
    /// ## Why is this bad?
    /// Google's sitemap index rules: an index may only list sitemaps on the same site, in the same
    /// directory as the index or deeper. Children elsewhere are ignored unless the other site is
    /// verified for the same owner (cross-site submission in Search Console).
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemaps/index.xml   <loc>https://cdn.example.net/sitemap-1.xml</loc>
    /// ```
    ///
    /// ## How to fix
    /// Host the child sitemaps next to the index (or in a subdirectory of it), or move the index up
    /// to a directory that contains all its children.
    pub struct IndexChildOutOfScope {
        code: crawlgate_core::sitemap::Code::IndexChildOutOfScope,
        summary: "A sitemap index lists a child sitemap on another site or outside its directory",
    }
}

impl Rule for IndexChildOutOfScope {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Loc, out);
    }
}
