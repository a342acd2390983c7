use super::targets::{first_elsewhere, targets};
use crate::support::{canonical_evidence, ok_page, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::same_document;

declare_rule! {
    /// ## What it does
    /// Finds pages whose canonical URL itself names a third URL as canonical: A → B → C.
    /// (When the chain comes back to A, `canonical/loop` reports it instead.)
    ///
    /// ## Why is this bad?
    /// Google treats a canonical as a hint and may not follow it through several steps; each
    /// step weakens it. The page may end up consolidated into B, into C, or into neither. Chains
    /// appear when a main version is itself retired (B now canonicalises to its successor C) and
    /// the pages pointing at B are not updated.
    ///
    /// ## Example
    /// ```text
    /// /shoes?colour=red   <link rel="canonical" href="https://example.com/shoes-2024">
    /// /shoes-2024         <link rel="canonical" href="https://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Point the canonical straight at the final URL (C in the message), the one whose canonical
    /// is itself.
    pub struct Chain {
        id: "canonical/chain",
        severity: Warning,
        summary: "The canonical URL canonicalises to a third URL (A → B → C)",
    }
}

impl Rule for Chain {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for (canonical, target_url) in targets(&resource.url, &page.signals) {
                let Some(target) = site.resource(target_url) else {
                    continue;
                };
                let Some(target_page) = ok_page(site, target) else {
                    continue; // target-error or target-redirects says it
                };
                let Some((next, third)) = first_elsewhere(&target.url, &target_page.signals) else {
                    continue;
                };
                if same_document(third, &resource.url) {
                    continue; // canonical/loop
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the canonical `{target_url}` names `{third}` as its own canonical (a chain: this page → `{target_url}` → `{third}`); point this page's canonical at the final URL"
                        ),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical))
                    .evidence(canonical_evidence(&target.url, next)),
                );
            }
        }
    }
}
