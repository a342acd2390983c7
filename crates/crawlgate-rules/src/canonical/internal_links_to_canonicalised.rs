use super::targets::first_elsewhere;
use crate::support::{canonical_evidence, link_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages that name another URL as canonical and still receive followed internal links
    /// from crawled pages.
    ///
    /// ## Why is this bad?
    /// Google: link internally to the canonical URL rather than a duplicate. Links are a
    /// canonicalization signal too; linking to the duplicate tells Google it matters, weakens the
    /// canonical hint, and spends crawling on a URL you have asked not to be indexed.
    ///
    /// ## Example
    /// ```text
    /// /              <a href="/shoes?sort=price">Shoes</a>
    /// /shoes?sort=price   <link rel="canonical" href="https://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Change the links quoted in the evidence to point at the canonical URL (in navigation,
    /// breadcrumbs and templates first: they repeat on every page).
    pub struct InternalLinksToCanonicalised {
        id: "canonical/internal-links-to-canonicalised",
        severity: Notice,
        summary: "Internal links point at a URL that names another URL as canonical",
    }
}

impl Rule for InternalLinksToCanonicalised {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let links = &resource.inbound_links;
            if links.followed == 0 {
                continue;
            }
            let Some((canonical, target)) = first_elsewhere(&resource.url, &page.signals) else {
                continue;
            };
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "{} followed internal link(s) point here, but this page names `{target}` as canonical; link to the canonical URL instead",
                        links.followed
                    ),
                )
                .evidence(canonical_evidence(&resource.url, canonical))
                .evidence_all(
                    site
                        .link_samples(resource)
                        .iter()
                        .filter(|sample| !sample.rel.is_qualified())
                        .map(|sample| link_evidence(sample, &resource.url)),
                ),
            );
        }
    }
}
