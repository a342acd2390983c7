use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `news:news` entries whose `news:publication_date` is more than two days before the
    /// audit time.
    ///
    /// ## Why is this bad?
    /// Google's news sitemaps should only hold articles from the "last two days"; older ones are not
    /// picked up from it, and a news sitemap full of old articles is usually one the generator
    /// stopped pruning.
    ///
    /// ## Example
    /// ```xml
    /// <news:publication_date>2026-01-05</news:publication_date>   (audited on 2026-06-01)
    /// ```
    ///
    /// ## How to fix
    /// Make the generator drop articles older than two days (they stay in your regular sitemap), or
    /// fix the publication dates if they are wrong.
    pub struct NewsStale {
        code: crawlgate_core::sitemap::Code::NewsStale,
        summary: "A news sitemap lists articles older than two days",
    }
}

impl Rule for NewsStale {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| entry.news.is_some()),
            out,
        );
    }
}
