use super::targets::first_elsewhere;
use crate::support::{canonical_evidence, ok_page, ok_pages};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::same_document;
use crawlgate_core::{Evidence, Site};
use url::Url;

/// Canonical steps followed from a page before giving up: longer cycles are not worth tracing.
const MAX_STEPS: usize = 16;

declare_rule! {
    /// ## What it does
    /// Finds pages whose canonical, followed from page to page, comes back to the page itself:
    /// A → B → A, or A → B → C → A. Each page on the cycle is reported.
    ///
    /// ## Why is this bad?
    /// Every page of the cycle says another one is the main version, so none of them is. Google
    /// cannot honour the hints and picks a canonical on its own, possibly one you did not want.
    /// Loops typically come from two templates (or two plugins) disagreeing about the preferred
    /// form of a URL: with and without trailing slash, with and without a parameter.
    ///
    /// ## Example
    /// ```text
    /// /shoes    <link rel="canonical" href="https://example.com/shoes/">
    /// /shoes/   <link rel="canonical" href="https://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Choose one URL as the main version and make it canonicalise to itself; point the others
    /// at it (better still, redirect them to it).
    pub struct Loop {
        id: "canonical/loop",
        severity: Error,
        summary: "The canonicals form a cycle back to the page (A → B → A)",
    }
}

impl Rule for Loop {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let mut path: Vec<&Url> = vec![&resource.url];
            let mut evidence: Vec<Evidence> = Vec::new();
            let (mut at_url, mut at_page) = (&resource.url, page);
            let mut closes = false;
            while path.len() <= MAX_STEPS {
                let Some((canonical, next)) = first_elsewhere(at_url, &at_page.signals) else {
                    break;
                };
                evidence.push(canonical_evidence(at_url, canonical));
                if same_document(next, &resource.url) {
                    closes = true;
                    break;
                }
                if path.iter().any(|seen| same_document(seen, next)) {
                    break; // a cycle this page leads into but is not part of
                }
                let Some(next_resource) = site.resource(next) else {
                    break;
                };
                let Some(next_page) = ok_page(site, next_resource) else {
                    break;
                };
                path.push(&next_resource.url);
                (at_url, at_page) = (&next_resource.url, next_page);
            }
            if !closes {
                continue;
            }
            let cycle: Vec<String> = path
                .iter()
                .chain(std::iter::once(&&*resource.url))
                .map(|url| format!("`{url}`"))
                .collect();
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the canonicals form a loop ({}): no page of it is the main version",
                        cycle.join(" → ")
                    ),
                )
                .evidence_all(evidence),
            );
        }
    }
}
