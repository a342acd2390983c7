use super::read::{readable_pages, rules_words};
use crate::support::directives_evidence;
use crate::support::profiles;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Severity, Site};

/// From this many internal links on the page, a page-level nofollow is a warning: the page is
/// a hub (navigation, category, listing) whose links Google needs to discover the site.
pub(crate) const MANY_INTERNAL_OUTLINKS: u32 = 10;

declare_rule! {
    /// ## What it does
    /// Finds HTML pages with a page-level `nofollow` (or `none`) for the audited crawler. A
    /// notice; a warning when the page has 10 or more links to pages of the audited site (it is
    /// then a hub: navigation, a category, a listing).
    ///
    /// ## Why is this bad?
    /// A page-level `nofollow` asks Google not to follow any link on the page. Links are how
    /// Google discovers pages and how it weighs them, so pages reached only through nofollow
    /// pages may be found late or not at all, and receive no signal from them. On a hub page this
    /// cuts off a whole section; it is often copied from a staging template together with
    /// `noindex`.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="index, nofollow">
    /// ```
    ///
    /// ## How to fix
    /// Remove `nofollow` (or replace `none` with `noindex` if the page should stay out of search
    /// but its links should count). To keep Google from following particular links, mark those
    /// links `rel="nofollow"` (or `ugc`, `sponsored`) instead of the whole page.
    pub struct NofollowPage {
        id: "directives/nofollow-page",
        severity: Notice,
        summary: "A page-level nofollow: Google does not follow any link on the page",
    }
}

impl Rule for NofollowPage {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                if !page.signals.is_html {
                    continue;
                }
                let directives = page.signals.directives(profile, site.audit_time);
                let sources = directives.nofollow_sources();
                if sources.is_empty() {
                    continue;
                }
                let links = page.internal_outlinks;
                let mut report = Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "{} follows none of the {links} internal link(s) on this page: {}",
                        profile.display_name(),
                        rules_words(&sources)
                    ),
                )
                .profile(&profile.name)
                .evidence_all(directives_evidence(&resource.url, &sources));
                if links >= MANY_INTERNAL_OUTLINKS {
                    report = report.severity(Severity::Warning);
                }
                out.report(report);
            }
        }
    }
}
