use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds URLs outside the directory of a sitemap that is not at the site root: a sitemap at
    /// `/catalog/sitemap.xml` listing `/images/…`.
    ///
    /// ## Why is this bad?
    /// The sitemap protocol: "The location of a Sitemap file determines the set of URLs that can be
    /// included in that Sitemap." A sitemap at `/catalog/sitemap.xml` speaks only for
    /// `/catalog/…`; search engines that apply the rule drop the other URLs.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/catalog/sitemap.xml   <loc>https://example.com/about</loc>
    /// ```
    ///
    /// ## How to fix
    /// Serve the sitemap from the site root (or from a directory that contains every URL it lists),
    /// or move the outside URLs into a sitemap that covers them.
    pub struct OutOfPathScope {
        code: crawlgate_core::sitemap::Code::OutOfPathScope,
        summary: "A sitemap lists URLs outside its own directory",
    }
}

impl Rule for OutOfPathScope {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Loc, out);
    }
}
