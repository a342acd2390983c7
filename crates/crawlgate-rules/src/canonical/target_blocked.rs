use super::targets::targets;
use crate::support::{canonical_evidence, ok_pages, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages whose canonical URL robots.txt disallows for the audited crawler.
    ///
    /// ## Why is this bad?
    /// Google cannot crawl the URL the page names as its main version, so it cannot confirm the
    /// pages are duplicates, cannot read the canonical URL's content, and may index it without
    /// content or ignore the canonical. Google warns against using robots.txt for
    /// canonicalization for this reason. A Disallow rule that is wider than intended (a
    /// parameter pattern, a folder) is the usual cause.
    ///
    /// ## Example
    /// ```text
    /// robots.txt        Disallow: /shop/
    /// /sale/red-shoes   <link rel="canonical" href="https://example.com/shop/red-shoes">
    /// ```
    ///
    /// ## How to fix
    /// Allow crawling of the canonical URL (narrow the Disallow rule quoted in the evidence), or
    /// point the canonical at a crawlable URL.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): they are
    /// meant to crawl neither the page nor its canonical URL.
    pub struct TargetBlocked {
        id: "canonical/target-blocked",
        severity: Error,
        summary: "The canonical URL is disallowed by robots.txt",
    }
}

impl Rule for TargetBlocked {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for (resource, page) in ok_pages(site) {
                if resource.verdict(index).is_some_and(|v| !v.allowed) {
                    continue; // the crawler never reads this page's canonical
                }
                for (canonical, target_url) in targets(&resource.url, &page.signals) {
                    if site.verdict(index, target_url).allowed {
                        continue;
                    }
                    out.report(
                        Occurrence::new(
                            resource.url.as_str(),
                            format!(
                                "the canonical `{target_url}` is disallowed for {crawler} by robots.txt, so {crawler} cannot crawl the URL this page names as its main version",
                                crawler = profile.display_name()
                            ),
                        )
                        .profile(&profile.name)
                        .evidence(canonical_evidence(&resource.url, canonical))
                        .evidence(verdict_evidence(site, index, target_url)),
                    );
                }
            }
        }
    }
}
