use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `news:news` entries without the tags Google News requires: `news:publication` with
    /// `news:name` and `news:language`, `news:publication_date` (W3C Datetime), and `news:title`;
    /// and a `news:language` that is not an ISO 639 code (`en`, `fil`; `zh-cn`/`zh-tw`), or a
    /// publication date that is not W3C Datetime.
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
    /// publication date, and its title, for every article. Write the language as its ISO 639
    /// code: `en`, not `en-US` or `English`.
    pub struct NewsInvalid {
        code: crawlgate_core::sitemap::Code::NewsInvalid,
        summary: "A news sitemap entry lacks required tags or has a malformed language or date",
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
