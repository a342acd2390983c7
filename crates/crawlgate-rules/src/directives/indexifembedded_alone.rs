use super::read::{readable_pages, rules_words};
use crate::support::directives_evidence;
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages that carry `indexifembedded` without a `noindex` for the same crawler.
    ///
    /// ## Why is this bad?
    /// `indexifembedded` only means something together with `noindex`: it lets Google index the
    /// content when it is embedded in another page (through an iframe), while the URL itself stays
    /// out of search. Alone it has no effect, so either the `noindex` it was meant to accompany
    /// is missing, or the rule is a leftover.
    ///
    /// ## Example
    /// ```text
    /// X-Robots-Tag: indexifembedded
    /// ```
    ///
    /// ## How to fix
    /// For embeddable content (a player, a widget) that should not appear on its own, add
    /// `noindex` next to it: `X-Robots-Tag: noindex, indexifembedded`. Otherwise remove
    /// `indexifembedded`.
    pub struct IndexifembeddedAlone {
        id: "directives/indexifembedded-alone",
        severity: Notice,
        summary: "indexifembedded without noindex has no effect",
    }
}

impl Rule for IndexifembeddedAlone {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let sources = directives.indexifembedded_sources();
                if sources.is_empty() || directives.is_noindex() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "{} without a noindex for {} has no effect",
                            rules_words(&sources),
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(directives_evidence(&resource.url, &sources)),
                );
            }
        }
    }
}
