use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `<lastmod>` dates later than the audit time plus one day (the day of margin absorbs
    /// time zones).
    ///
    /// ## Why is this bad?
    /// `lastmod` must be the date the page last changed significantly. Google uses it only when it
    /// is "consistently and verifiably accurate"; future dates prove it is not (a wrong time zone,
    /// a scheduled publication date, a placeholder), and Google may stop trusting every `lastmod` of
    /// the site.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/a</loc><lastmod>2031-01-01</lastmod></url>
    /// ```
    ///
    /// ## How to fix
    /// Set `lastmod` from the content's real modification time, in the right time zone; don't put
    /// publication schedules or expiry dates in it.
    pub struct LastmodFuture {
        code: crawlgate_core::sitemap::Code::LastmodFuture,
        summary: "A lastmod date is in the future",
    }
}

impl Rule for LastmodFuture {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| entry.lastmod.is_some()),
            out,
        );
    }
}
