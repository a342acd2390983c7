use super::targets::distinct_targets;
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::LinkSource;

/// Canonical declarations quoted as evidence of one finding.
const MAX_QUOTED: usize = 20;

declare_rule! {
    /// ## What it does
    /// Finds pages that declare the same canonical URL more than once: several identical
    /// `<link rel="canonical">` elements, or the same URL both in `<head>` and in an HTTP `Link`
    /// header.
    ///
    /// ## Why is this bad?
    /// Nothing breaks today: the declarations agree. But Google advises choosing one method
    /// ("using both methods at the same time is more error prone"), and two sources drift apart
    /// the first time one of them is changed, which turns this into
    /// `canonical/multiple-conflicting`.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" href="https://example.com/shoes">
    /// <link rel="canonical" href="https://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Keep one declaration and remove the others (for HTML pages, the `<link>` in `<head>` is
    /// the easiest to review; the `Link` header is for PDFs and other files).
    pub struct MultipleIdentical {
        id: "canonical/multiple-identical",
        severity: Notice,
        summary: "The page declares the same canonical URL more than once",
    }
}

/// "once", "twice", "3 times".
fn times(n: usize) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

impl Rule for MultipleIdentical {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let effective = page.signals.effective_canonicals();
            if effective.len() < 2 {
                continue;
            }
            let targets = distinct_targets(&effective);
            let [target] = targets.as_slice() else {
                continue;
            };
            let in_head = effective
                .iter()
                .filter(|c| matches!(c.source, LinkSource::Html { .. }))
                .count();
            let in_headers = effective.len() - in_head;
            let places = match (in_head, in_headers) {
                (n, 0) => format!("{} in <head>", times(n)),
                (0, n) => format!("{} in Link headers", times(n)),
                (h, l) => format!("{} in <head> and {} in a Link header", times(h), times(l)),
            };
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the canonical `{target}` is declared {places}; one declaration is enough"
                    ),
                )
                .evidence_all(
                    effective
                        .iter()
                        .take(MAX_QUOTED)
                        .map(|canonical| canonical_evidence(&resource.url, canonical)),
                ),
            );
        }
    }
}
