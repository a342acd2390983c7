use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `<lastmod>` values that are not W3C Datetime: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a date
    /// and time with a time zone (`2026-03-01T14:30:00+01:00`, `…Z`). RSS sitemaps are checked for
    /// RFC 822 dates instead.
    ///
    /// ## Why is this bad?
    /// A date in another format (`01/03/2026`, `March 1, 2026`) or a time without a zone cannot be
    /// read reliably, so search engines ignore it, and with it the one hint that tells them which
    /// pages changed since their last visit.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/a</loc><lastmod>2026-03-01 14:30:00</lastmod></url>
    /// ```
    ///
    /// ## How to fix
    /// Output ISO 8601 / W3C Datetime: the date alone (`2026-03-01`) or the date, `T`, the time and
    /// a zone (`2026-03-01T14:30:00+00:00`).
    pub struct LastmodInvalid {
        code: crawlgate_core::sitemap::Code::LastmodInvalid,
        summary: "A lastmod date is not in W3C Datetime format",
    }
}

impl Rule for LastmodInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| entry.lastmod.is_some()),
            out,
        );
    }
}
