use super::targets::targets;
use crate::support::{canonical_evidence, hreflang_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::Hreflang;
use crawlgate_core::site::normalized_for_compare;
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds pages that list themselves and their canonical URL as different language versions
    /// in their own hreflang annotations (`<link rel="alternate" hreflang>` in `<head>` or `Link`
    /// headers): the German page names the English page as canonical.
    ///
    /// ## Why is this bad?
    /// A canonical says "this page duplicates that one"; hreflang says "these are translations of
    /// each other". Together they tell Google to fold the German version into the English one,
    /// so the German page drops out of German results, and the hreflang set loses a member.
    /// Google's guidance for localized pages: the canonical must be a page in the same language
    /// (usually the page itself).
    ///
    /// ## Example
    /// ```html
    /// <!-- on https://example.com/de/schuhe -->
    /// <link rel="alternate" hreflang="de" href="https://example.com/de/schuhe">
    /// <link rel="alternate" hreflang="en" href="https://example.com/en/shoes">
    /// <link rel="canonical" href="https://example.com/en/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Give each language version a self-referencing canonical, and keep the hreflang
    /// annotations to connect them.
    pub struct CrossLanguage {
        id: "canonical/cross-language",
        severity: Error,
        summary: "The page's canonical is another language version from its own hreflang set",
    }
}

/// The alternates whose URL is `url` (compared as [`crawlgate_core::site::same_document`] does).
fn alternates_naming<'a>(alternates: &[(String, &'a Hreflang)], url: &Url) -> Vec<&'a Hreflang> {
    let wanted = normalized_for_compare(url);
    alternates
        .iter()
        .filter(|(normalized, _)| *normalized == wanted)
        .map(|(_, alternate)| *alternate)
        .collect()
}

impl Rule for CrossLanguage {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            // Normalised once: a page may list hundreds of alternates.
            let alternates: Vec<(String, &Hreflang)> = page
                .signals
                .effective_hreflang()
                .into_iter()
                .filter_map(|alternate| {
                    let url = alternate.resolved.as_ref()?;
                    Some((normalized_for_compare(url), alternate))
                })
                .collect();
            let own = alternates_naming(&alternates, &resource.url);
            if own.is_empty() {
                continue;
            }
            for (canonical, target) in targets(&resource.url, &page.signals) {
                let theirs = alternates_naming(&alternates, target);
                let shares_a_code = theirs.iter().any(|t| {
                    own.iter()
                        .any(|o| o.hreflang.eq_ignore_ascii_case(&t.hreflang))
                });
                let (Some(own_first), Some(their_first)) = (own.first(), theirs.first()) else {
                    continue;
                };
                if shares_a_code {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "this page is the `{}` version in its hreflang set, but names the `{}` version `{target}` as canonical",
                            own_first.hreflang, their_first.hreflang
                        ),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical))
                    .evidence(hreflang_evidence(&resource.url, own_first))
                    .evidence(hreflang_evidence(&resource.url, their_first)),
                );
            }
        }
    }
}
