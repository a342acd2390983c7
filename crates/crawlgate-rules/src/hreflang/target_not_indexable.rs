use super::annotations::{self, SitemapAlternates, by_target, fetched_ok, quoted};
use crate::canonical::first_elsewhere;
use crate::support::{
    canonical_evidence, directives_evidence, ok_pages, profiles_meant_to_crawl, verdict_evidence,
};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::same_document;

declare_rule! {
    /// ## What it does
    /// Finds hreflang alternates (`<link>`, `Link` header or sitemap `xhtml:link`) that the
    /// audited crawler cannot index: disallowed by robots.txt, answering with `noindex` (meta
    /// tag or `X-Robots-Tag`), or naming another URL as canonical. Redirects and errors are
    /// `hreflang/target-error`.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": "If two pages don't both
    /// point to each other, the tags will be ignored." A disallowed alternate cannot be crawled,
    /// so its return link is never read; a noindex alternate is not in the index to be shown;
    /// a canonicalised one is folded into its canonical, which is the URL Google would show.
    /// Either way that language's searchers are not sent to it.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /fr/
    /// /en/         <link rel="alternate" hreflang="fr" href="https://example.com/fr/">
    /// ```
    ///
    /// ## How to fix
    /// Name the canonical, indexable URL of each version; allow it in robots.txt and drop the
    /// noindex, or remove the alternate from every page of the set if the version is not
    /// meant to be found. Not reported for crawlers declared expected-blocked.
    pub struct TargetNotIndexable {
        id: "hreflang/target-not-indexable",
        severity: Error,
        summary: "An hreflang alternate is disallowed, noindex or canonicalised elsewhere",
    }
}

impl Rule for TargetNotIndexable {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            let all = annotations::all(resource, &page, &sitemaps);
            let targets = by_target(&all);
            for (index, profile) in profiles_meant_to_crawl(site) {
                if resource.verdict(index).is_some_and(|v| !v.allowed) {
                    continue; // the crawler never reads this page's alternates
                }
                let crawler = profile.display_name();
                for (target, naming) in &targets {
                    if same_document(target, &resource.url) {
                        continue;
                    }
                    let code = naming[0].code;
                    if !site.verdict(index, target).allowed {
                        out.report(
                            Occurrence::new(
                                resource.url.as_str(),
                                format!(
                                    "the `{code}` alternate `{target}` is disallowed for {crawler} by robots.txt, so {crawler} cannot read it or its return link"
                                ),
                            )
                            .profile(&profile.name)
                            .evidence_all(quoted(&resource.url, naming))
                            .evidence(verdict_evidence(site, index, target)),
                        );
                        continue;
                    }
                    let Some((other, other_page)) = fetched_ok(site, target) else {
                        continue;
                    };
                    let directives = other_page.signals.directives(profile, site.audit_time);
                    let sources = directives.noindex_sources();
                    if !sources.is_empty() {
                        out.report(
                            Occurrence::new(
                                resource.url.as_str(),
                                format!(
                                    "the `{code}` alternate `{target}` is noindex for {crawler}: the version for `{code}` asks not to be indexed"
                                ),
                            )
                            .profile(&profile.name)
                            .evidence_all(quoted(&resource.url, naming))
                            .evidence_all(directives_evidence(&other.url, &sources)),
                        );
                    }
                }
            }
            // A canonical is the same for every crawler: reported once.
            for (target, naming) in &targets {
                if same_document(target, &resource.url) {
                    continue;
                }
                let Some((other, other_page)) = fetched_ok(site, target) else {
                    continue;
                };
                let Some((declared, canonical)) = first_elsewhere(&other.url, &other_page.signals)
                else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the `{}` alternate `{target}` names `{canonical}` as its canonical: hreflang should name the canonical URL of each version",
                            naming[0].code
                        ),
                    )
                    .evidence_all(quoted(&resource.url, naming))
                    .evidence(canonical_evidence(&other.url, declared)),
                );
            }
        }
    }
}
