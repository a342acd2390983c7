use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps with more than 50,000 `<url>` entries (or an index with more than 50,000
    /// `<sitemap>` entries).
    ///
    /// ## Why is this bad?
    /// 50,000 URLs per sitemap is the protocol's limit, and Google's: a sitemap over it is reported
    /// as an error in Search Console and the URLs past the limit may never be read.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml   60,000 <url> entries
    /// ```
    ///
    /// ## How to fix
    /// Split the list into several sitemaps of at most 50,000 URLs each (by section or by date) and
    /// list them in a sitemap index; submit the index in robots.txt (`Sitemap:`) instead.
    pub struct TooManyUrls {
        code: crawlgate_core::sitemap::Code::TooManyUrls,
        summary: "A sitemap lists more than 50,000 URLs",
    }
}

impl Rule for TooManyUrls {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
