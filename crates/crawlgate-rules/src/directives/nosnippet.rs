use super::read::{readable_pages, rules_words};
use crate::support::directives_evidence;
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds indexable pages that carry `nosnippet` or `max-snippet:0`.
    ///
    /// ## Why is this bad?
    /// The page can rank, but Google shows it without a text snippet (and without a video
    /// preview), which usually lowers clicks. Google also documents that `nosnippet` keeps the
    /// page's content from being used as direct input for AI Overviews and AI Mode. Sometimes
    /// that is the goal (paywalled or licensed text); often it is a template setting nobody
    /// remembers choosing.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="max-snippet:0">
    /// ```
    ///
    /// ## How to fix
    /// If snippets are wanted, remove `nosnippet` / `max-snippet:0` from the tag or header quoted
    /// in the evidence. To limit rather than remove them, use `max-snippet:N` with a length, or
    /// mark only the sensitive passages with `data-nosnippet`.
    pub struct Nosnippet {
        id: "directives/nosnippet",
        severity: Warning,
        summary: "An indexable page asks Google to show no snippet",
    }
}

impl Rule for Nosnippet {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let sources = directives.nosnippet_sources();
                if sources.is_empty()
                    || !site
                        .indexability_of(resource, Some(&page), index)
                        .is_indexable()
                {
                    continue;
                }
                // AI Overviews are Google's; say it of Google's crawlers only.
                let ai = if profile.is_google() {
                    ", and won't use its content for AI Overviews"
                } else {
                    ""
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "{} may index this page but shows no snippet for it{ai}: {}",
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
