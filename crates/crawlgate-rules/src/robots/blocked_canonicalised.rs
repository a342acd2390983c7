use crate::support::{canonical_evidence, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::same_document;

declare_rule! {
    /// ## What it does
    /// Finds URLs that robots.txt disallows for the audited crawler and that declare a canonical
    /// pointing to another URL. crawlgate fetches disallowed URLs for diagnosis, so it sees the
    /// canonical Google cannot.
    ///
    /// ## Why is this bad?
    /// Google never fetches a disallowed page, so it never reads its canonical: the duplicate is
    /// not consolidated into the canonical URL, and links pointing to it pass nothing on. It
    /// usually means robots.txt is being used to handle duplicates (filter, sort or tracking
    /// parameters), which Google advises against: "Don't use the robots.txt file for
    /// canonicalization purposes."
    ///
    /// ## Example
    /// ```text
    /// robots.txt            Disallow: /*?sort=
    /// /shoes?sort=price     <link rel="canonical" href="https://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Let Google crawl the duplicates so it can read their canonical: remove or narrow the
    /// Disallow rule quoted in the evidence. Keep the `rel="canonical"`, and link internally to the
    /// canonical URL.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): they are
    /// meant to read neither the page nor its canonical.
    pub struct BlockedCanonicalised {
        id: "robots/blocked-canonicalised",
        severity: Warning,
        summary: "A disallowed URL declares a canonical elsewhere, which Google can never read",
    }
}

impl Rule for BlockedCanonicalised {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for (resource, page) in site.fetched() {
                // Google uses canonicals of 200 pages only.
                if page.status != 200 || resource.verdict(index).is_none_or(|v| v.allowed) {
                    continue;
                }
                let Some(target) = page.canonical_elsewhere(&resource.url) else {
                    continue;
                };
                let declarations = page.signals.effective_canonicals().into_iter().filter(|c| {
                    c.resolved
                        .as_ref()
                        .is_some_and(|r| same_document(r, &target))
                });
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "disallowed for {crawler} but declares {target} canonical; \
                             {crawler} cannot read the canonical of a page it may not crawl",
                            crawler = profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(verdict_evidence(site, index, &resource.url))
                    .evidence_all(declarations.map(|c| canonical_evidence(&resource.url, c))),
                );
            }
        }
    }
}
