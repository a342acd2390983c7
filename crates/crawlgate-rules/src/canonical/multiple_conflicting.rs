use super::targets::{distinct_targets, listed};
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Canonical, LinkSource};

/// Canonical declarations quoted as evidence of one finding.
const MAX_QUOTED: usize = 20;

declare_rule! {
    /// ## What it does
    /// Finds pages that declare two or more different canonical URLs in `<head>` (several
    /// `<link rel="canonical">` elements), or in HTTP `Link` headers. URLs are compared after
    /// resolving relative ones; a difference in scheme, host, path or query counts, a fragment
    /// does not. (A header that disagrees with the HTML is reported by
    /// `canonical/header-html-mismatch`.)
    ///
    /// ## Why is this bad?
    /// Google: "Don't specify different URLs as canonical for the same page." Faced with
    /// contradictory canonicals, Google is likely to ignore all of them and pick a canonical
    /// itself, which may not be the one you want. It usually happens when a theme and an SEO
    /// plugin both write a canonical, or a tag manager adds one.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" href="https://example.com/shoes">
    /// <link rel="canonical" href="https://example.com/shoes?page=1">
    /// ```
    ///
    /// ## How to fix
    /// Keep exactly one canonical, with the URL you want indexed, and remove the other source
    /// (disable the canonical feature of either the theme or the plugin).
    pub struct MultipleConflicting {
        id: "canonical/multiple-conflicting",
        severity: Error,
        summary: "The page declares several different canonical URLs",
    }
}

impl Rule for MultipleConflicting {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let effective = page.signals.effective_canonicals();
            let (html, header): (Vec<&Canonical>, Vec<&Canonical>) = effective
                .iter()
                .partition(|canonical| matches!(canonical.source, LinkSource::Html { .. }));
            // Fewer than two declarations in each place cannot name two targets in one.
            if html.len() < 2 && header.len() < 2
                || distinct_targets(&html).len() < 2 && distinct_targets(&header).len() < 2
            {
                continue;
            }
            let targets = distinct_targets(&effective);
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "{} canonicals name {} different URLs ({}): Google is likely to ignore them all",
                        effective.len(),
                        targets.len(),
                        listed(&targets)
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
