use super::read::{readable_pages, source_words};
use crate::support::{directive_evidence, profiles};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Lists pages with an `unavailable_after` date still in the future: the date they will
    /// drop out of Google's results.
    ///
    /// ## Why is this bad?
    /// It is not, when intended (a sale, an event, a time-limited offer). It is listed because
    /// the rule takes effect silently on that date, long after anyone remembers setting it, and
    /// the page then behaves as `noindex`.
    ///
    /// ## Example
    /// ```text
    /// X-Robots-Tag: unavailable_after: 2027-01-15
    /// ```
    ///
    /// ## How to fix
    /// Nothing to do if the date is intended. Otherwise remove the rule from the tag or header
    /// quoted in the evidence before that date.
    pub struct UnavailableAfterScheduled {
        id: "directives/unavailable-after-scheduled",
        severity: Notice,
        summary: "The page will drop out of search on its unavailable_after date",
    }
}

impl Rule for UnavailableAfterScheduled {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let Some(expiry) = directives.unavailable_after().filter(|e| !e.is_past) else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "`{}` in {}: from {}, {} will treat the page as noindex",
                            expiry.raw,
                            source_words(&expiry.source),
                            expiry.instant,
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(directive_evidence(&resource.url, &expiry.source)),
                );
            }
        }
    }
}
