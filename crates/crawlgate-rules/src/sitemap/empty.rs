use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps (and sitemap indexes) with no entries: an empty body, or a `<urlset>` with no
    /// `<url>`. For a news sitemap the finding is only a notice.
    ///
    /// ## Why is this bad?
    /// An empty sitemap tells search engines nothing, and usually means the generator failed: a
    /// filter that dropped everything, a cache that stored an empty page, a database that was not
    /// reachable when the file was built. News sitemaps are the exception: Google's news sitemaps
    /// list only articles from the last two days, so an empty one is acceptable on a quiet site.
    ///
    /// ## Example
    /// ```xml
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    /// </urlset>
    /// ```
    ///
    /// ## How to fix
    /// Check the generator's settings and logs and rebuild the file. If the sitemap is no longer
    /// needed, remove it and its `Sitemap:` line or index entry rather than serving it empty.
    pub struct Empty {
        code: crawlgate_core::sitemap::Code::Empty,
        summary: "A sitemap lists no URLs",
    }
}

impl Rule for Empty {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
