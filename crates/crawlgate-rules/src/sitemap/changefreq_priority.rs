use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Reports `<changefreq>` and `<priority>` in a sitemap: one notice per sitemap, and a warning
    /// for each value that is invalid (a `changefreq` outside always, hourly, daily, weekly,
    /// monthly, yearly, never; a `priority` outside 0.0 to 1.0).
    ///
    /// ## Why is this bad?
    /// Google ignores both values, so they cost bytes and maintenance for nothing. Invalid values
    /// also show the generator is not following the protocol, and other search engines that read
    /// the fields may reject them.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/</loc><changefreq>often</changefreq><priority>2</priority></url>
    /// ```
    ///
    /// ## How to fix
    /// Remove both elements (most generators have a setting for this). Spend the effort on an
    /// accurate `<lastmod>` instead, which Google does use.
    pub struct ChangefreqPriority {
        code: crawlgate_core::sitemap::Code::ChangefreqPriority,
        summary: "A sitemap uses changefreq or priority, which Google ignores",
    }
}

impl Rule for ChangefreqPriority {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| entry.changefreq.is_some() || entry.priority.is_some()),
            out,
        );
    }
}
