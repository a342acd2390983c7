use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Notes a robots.txt without any `Sitemap:` line.
    ///
    /// ## Why is this bad?
    /// It is not an error. A `Sitemap:` line is the one way every crawler can discover your
    /// sitemaps without being told elsewhere; without it, crawlers other than those you submitted
    /// the sitemap to (Search Console, Bing Webmaster Tools) may not find it.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /cart/
    /// ```
    ///
    /// ## How to fix
    /// Add a line with the full URL of each sitemap or sitemap index: `Sitemap:
    /// https://www.example.com/sitemap.xml`. It may go anywhere in the file.
    pub struct NoSitemapField {
        code: crawlgate_core::robots::lint::Code::NoSitemapField,
        summary: "robots.txt names no sitemap",
    }
}

impl Rule for NoSitemapField {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
