use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Sitemap:` lines whose value is not an absolute `http://`, `https://` or `ftp://` URL,
    /// such as a relative path (`Sitemap: /sitemap.xml`).
    ///
    /// ## Why is this bad?
    /// Google's documentation says the sitemap location "must be a fully qualified URL". Crawlers
    /// do not resolve relative paths here, so they never find the sitemap through robots.txt.
    ///
    /// ## Example
    /// ```text
    /// Sitemap: /sitemap_index.xml
    /// ```
    ///
    /// ## How to fix
    /// Write the full URL: `Sitemap: https://www.example.com/sitemap_index.xml`.
    pub struct SitemapUrlInvalid {
        code: crawlgate_core::robots::lint::Code::SitemapUrlInvalid,
        summary: "A `Sitemap:` line is not an absolute http(s) or ftp URL",
    }
}

impl Rule for SitemapUrlInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
