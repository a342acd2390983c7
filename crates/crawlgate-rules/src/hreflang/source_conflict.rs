use super::annotations::{self, Annotation, SitemapAlternates, Via, quoted};
use crate::support::ok_pages;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use std::collections::{BTreeMap, BTreeSet};

declare_rule! {
    /// ## What it does
    /// Compares a page's hreflang alternates in the three places they can be declared: its
    /// `<link>`s in `<head>`, its `Link` header and its sitemap entries' `xhtml:link`s. Reports a
    /// code that names one URL in one place and another URL in another, and a URL given one
    /// code in one place and another code in another. A code that one place lists and another
    /// leaves out is not a conflict (Google combines the places).
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page", describes the three methods
    /// as equivalent: "While you can use all three methods at the same time, there's no benefit
    /// in Search (in fact, it maybe be much harder to manage three implementations instead of
    /// just picking one)." When they disagree, one of them is stale, and Google has to choose
    /// which version to show for that language, or ignores the annotations.
    ///
    /// ## Example
    /// ```text
    /// <head>     <link rel="alternate" hreflang="de" href="https://example.com/de/">
    /// sitemap    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de-de/"/>
    /// ```
    ///
    /// ## How to fix
    /// Declare hreflang in one place; if several must stay, generate them from the same data
    /// so they cannot drift apart.
    pub struct SourceConflict {
        id: "hreflang/source-conflict",
        severity: Warning,
        summary: "A page's HTML, Link header and sitemap hreflang alternates disagree",
    }
}

/// The first alternate of each place for a key (a code, or a URL).
type ByPlace<'b, 'a> = BTreeMap<String, BTreeMap<Via, &'b Annotation<'a>>>;

impl Rule for SourceConflict {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            let all = annotations::all(resource, &page, &sitemaps);
            let mut by_code: ByPlace<'_, '_> = BTreeMap::new();
            let mut by_url: ByPlace<'_, '_> = BTreeMap::new();
            for annotation in &all {
                let Some(key) = &annotation.key else {
                    continue;
                };
                by_code
                    .entry(annotation.code_key())
                    .or_default()
                    .entry(annotation.via())
                    .or_insert(annotation);
                by_url
                    .entry(key.clone())
                    .or_default()
                    .entry(annotation.via())
                    .or_insert(annotation);
            }
            if by_code.values().all(|places| places.len() < 2) {
                continue;
            }
            let mut involved: BTreeSet<String> = BTreeSet::new();
            for places in by_code.values() {
                let Some((first_via, first)) = places.iter().next() else {
                    continue;
                };
                let Some((other_via, other)) = places.iter().find(|(_, a)| a.key != first.key)
                else {
                    continue;
                };
                involved.extend(places.values().filter_map(|a| a.key.clone()));
                report(
                    out,
                    resource,
                    &format!(
                        "hreflang `{}` names `{}` in {} but `{}` in {}",
                        first.code,
                        first.target.map_or(first.href, url::Url::as_str),
                        first_via.words(),
                        other.target.map_or(other.href, url::Url::as_str),
                        other_via.words()
                    ),
                    &places.values().copied().collect::<Vec<_>>(),
                );
            }
            for (key, places) in &by_url {
                if involved.contains(key) {
                    continue; // already reported as a code naming two URLs
                }
                let Some((first_via, first)) = places.iter().next() else {
                    continue;
                };
                let Some((other_via, other)) = places
                    .iter()
                    .find(|(_, a)| a.code_key() != first.code_key())
                else {
                    continue;
                };
                report(
                    out,
                    resource,
                    &format!(
                        "`{}` is the `{}` version in {} but the `{}` version in {}",
                        first.target.map_or(first.href, url::Url::as_str),
                        first.code,
                        first_via.words(),
                        other.code,
                        other_via.words()
                    ),
                    &places.values().copied().collect::<Vec<_>>(),
                );
            }
        }
    }
}

fn report(
    out: &mut Findings<'_>,
    resource: &crawlgate_core::site::Resource,
    what: &str,
    quotes: &[&Annotation<'_>],
) {
    out.report(
        Occurrence::new(
            resource.url.as_str(),
            format!("{what}: the page's hreflang declarations contradict each other"),
        )
        .evidence_all(quoted(&resource.url, quotes)),
    );
}
