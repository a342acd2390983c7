use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps of at least 100 entries where 90 % or more share one `<lastmod>` value:
    /// typically the time the file was generated, stamped on every URL.
    ///
    /// ## Why is this bad?
    /// Google uses `lastmod` only if it is "consistently and verifiably accurate". A build-time
    /// stamp says every page changed at once, which Google can check is false; it then learns to
    /// ignore the site's `lastmod` altogether, and real updates are found later.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml   4,980 of 5,000 entries: <lastmod>2026-05-31T02:00:00Z</lastmod>
    /// ```
    ///
    /// ## How to fix
    /// Fill `lastmod` from each page's own last significant change (the CMS's modified date), or
    /// leave it out; an absent `lastmod` is better than a wrong one.
    pub struct LastmodUniform {
        code: crawlgate_core::sitemap::Code::LastmodUniform,
        summary: "Nearly every entry of a sitemap has the same lastmod",
    }
}

impl Rule for LastmodUniform {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Document, out);
    }
}
