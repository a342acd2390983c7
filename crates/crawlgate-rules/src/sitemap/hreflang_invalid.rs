use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Checks the `xhtml:link rel="alternate" hreflang=…` alternates of each `<url>`: the language
    /// code must be valid (ISO 639-1, optional script and region, or `x-default`), the `href`
    /// absolute, the `<url>` must list itself among its alternates, and an alternate that has its
    /// own `<url>` in the sitemap must list the first URL back.
    ///
    /// ## Why is this bad?
    /// Google: "Each language version must list itself as well as all other language versions",
    /// and "if two pages don't both point to each other, the tags will be ignored". An invalid code
    /// or a relative URL is ignored too, so searchers get the wrong language version.
    ///
    /// ## Example
    /// ```xml
    /// <url>
    ///   <loc>https://example.com/en/</loc>
    ///   <xhtml:link rel="alternate" hreflang="en-UK" href="https://example.com/en-gb/"/>
    /// </url>
    /// ```
    /// (The United Kingdom's ISO code is `GB`; and the URL does not list itself.)
    ///
    /// ## How to fix
    /// Give every `<url>` the full set of alternates, itself included, with absolute URLs and valid
    /// codes (`en-GB`, not `en-UK`), and make every alternate's own `<url>` list the same set.
    pub struct HreflangInvalid {
        code: crawlgate_core::sitemap::Code::HreflangInvalid,
        summary: "An hreflang alternate in a sitemap is invalid or not reciprocated",
    }
}

impl Rule for HreflangInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, line| {
                entry
                    .alternates
                    .iter()
                    .any(|alternate| alternate.line == line)
            }),
            out,
        );
    }
}
