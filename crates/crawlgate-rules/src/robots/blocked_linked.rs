use crate::support::{link_evidence, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceKind;

declare_rule! {
    /// ## What it does
    /// Finds URLs that robots.txt disallows for the audited crawler and that crawled pages link to
    /// with ordinary (followed) links.
    ///
    /// ## Why is this bad?
    /// Disallow stops crawling, not indexing: "Google can't index the content of pages which are
    /// disallowed for crawling, but it may still index the URL and show it in search results
    /// without a snippet." Internal links are exactly what makes Google index such a URL anyway,
    /// shown without a description.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /search
    /// /            <a href="/search?q=shoes">Search shoes</a>
    /// ```
    ///
    /// ## How to fix
    /// If the URL must stay out of search results, allow crawling and use `noindex` instead. If it
    /// only wastes crawling, stop linking to it (or mark the links `rel="nofollow"`).
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): linking to
    /// pages such a crawler must not read is normal, and the block is what you want.
    pub struct BlockedLinked {
        id: "robots/blocked-linked",
        severity: Warning,
        summary: "A disallowed URL receives followed internal links, so it can be indexed without content",
    }
}

impl Rule for BlockedLinked {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for resource in site.resources() {
                let links = &resource.inbound_links;
                if resource.kind != ResourceKind::Page
                    || links.followed == 0
                    || resource.verdict(index).is_none_or(|v| v.allowed)
                {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "disallowed for {} but linked {} from crawled pages with followed links",
                            profile.display_name(),
                            if links.followed == 1 {
                                "once".to_owned()
                            } else {
                                format!("{} times", links.followed)
                            }
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(verdict_evidence(site, index, &resource.url))
                    .evidence_all(
                        site
                            .link_samples(resource)
                            .iter()
                            .filter(|s| !s.rel.is_qualified())
                            .map(|s| link_evidence(s, &resource.url)),
                    ),
                );
            }
        }
    }
}
