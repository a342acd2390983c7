use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds canonical URLs that contain a fragment (`#section`).
    ///
    /// ## Why is this bad?
    /// Google's canonicalization guidelines: "Don't specify a URL fragment as canonical." A
    /// fragment names a place inside a document, not a document; search engines drop it, so at
    /// best it is noise, and at worst (single-page apps using `#/route` URLs) every route names
    /// the same bare URL as canonical.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" href="https://example.com/guide#installation">
    /// ```
    ///
    /// ## How to fix
    /// Remove the fragment: `https://example.com/guide`. If different fragments show different
    /// content, give that content real URLs (paths or query parameters) and canonicalise each to
    /// itself.
    pub struct Fragment {
        id: "canonical/fragment",
        severity: Warning,
        summary: "The canonical URL contains a #fragment",
    }
}

impl Rule for Fragment {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for canonical in page.signals.effective_canonicals() {
                let Some(fragment) = canonical.resolved.as_ref().and_then(|url| url.fragment())
                else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the canonical `{}` contains the fragment `#{fragment}`; Google says not to use a fragment in a canonical",
                            canonical.href
                        ),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical)),
                );
            }
        }
    }
}
