use super::read::{readable_pages, rules_words};
use crate::support::directives_evidence;
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Lists pages that carry `noimageindex`.
    ///
    /// ## Why is this bad?
    /// Google does not index the images on such a page, so they cannot bring visitors from image
    /// search. That is a deliberate choice for some sites (stock photography, private galleries),
    /// and a costly accident for others (product pages, recipes).
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="noimageindex">
    /// ```
    ///
    /// ## How to fix
    /// If the images should be found, remove `noimageindex` from the tag or header quoted in the
    /// evidence.
    pub struct Noimageindex {
        id: "directives/noimageindex",
        severity: Notice,
        summary: "The page asks Google not to index its images",
    }
}

impl Rule for Noimageindex {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let sources = directives.noimageindex_sources();
                if sources.is_empty() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "{} won't index the images on this page: {}",
                            profile.display_name(),
                            rules_words(&sources)
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(directives_evidence(&resource.url, &sources)),
                );
            }
        }
    }
}
