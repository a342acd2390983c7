use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `news:news` entries without the tags Google News requires: `news:publication` with
    /// `news:name` and `news:language`, `news:publication_date` (W3C Datetime), and `news:title`.
    ///
    /// ## Why is this bad?
    /// Google ignores news entries that lack a required tag, so the article is not picked up from
    /// the news sitemap.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/news/a</loc>
    ///   <news:news><news:title>Headline</news:title></news:news>
    /// </url>
    /// ```
    ///
    /// ## How to fix
    /// Fill in the publication name (exactly as in Google News) and language, the article's
    /// publication date, and its title, for every article.
    pub struct NewsInvalid {
        code: crawlgate_core::sitemap::Code::NewsInvalid,
        summary: "A news sitemap entry lacks required tags",
    }
}

impl Rule for NewsInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| entry.news.is_some()),
            out,
        );
    }
}
