use crate::support::{
    count, link_evidence, listing_evidence, profiles_meant_to_crawl, response_evidence,
    verdict_evidence,
};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{NotFetchedReason, ResourceKind, ResourceState};

declare_rule! {
    /// ## What it does
    /// With `--obey-robots`, crawlgate does not fetch URLs that robots.txt disallows. This rule
    /// lists the disallowed URLs that crawled pages link to or a sitemap lists, whose robots meta
    /// tags and headers therefore could not be checked.
    ///
    /// ## Why is this bad?
    /// Such a URL can still be indexed from the links or the sitemap, without its content
    /// ("Indexed, though blocked by robots.txt"). If it carries a `noindex`, Google never sees it
    /// (that is `robots/blocked-noindex`), but with the page unfetched crawlgate cannot tell. The
    /// finding says what remains unknown, not that something is wrong.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /private/
    /// /            <a href="/private/report">Report</a>
    /// crawlgate audit https://example.com --obey-robots
    /// ```
    ///
    /// ## How to fix
    /// Run the audit without `--obey-robots` (crawlgate then fetches disallowed URLs for diagnosis
    /// only, and reports `robots/blocked-noindex` where it applies). If these URLs should not be
    /// indexed, allow crawling and give them a `noindex` instead of the Disallow.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): what the
    /// page says does not matter to a crawler meant never to read it.
    pub struct BlockedUnverifiable {
        id: "robots/blocked-unverifiable",
        severity: Notice,
        summary: "A disallowed URL is linked or listed but was not fetched, so its directives are unknown",
    }
}

impl Rule for BlockedUnverifiable {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for resource in site.resources() {
                if !matches!(
                    resource.state,
                    ResourceState::NotFetched(NotFetchedReason::Disallowed)
                ) {
                    continue;
                }
                let links = &resource.inbound_links;
                let linked = links.followed.saturating_add(links.qualified) as usize;
                let listed = resource.listing_count();
                if resource.kind != ResourceKind::Page
                    || (linked == 0 && listed == 0)
                    || resource.verdict(index).is_none_or(|v| v.allowed)
                {
                    continue;
                }
                let times = count(linked, "time", "times");
                let entries = count(listed, "sitemap entry", "sitemap entries");
                let found = match (linked, listed) {
                    (0, _) => format!("listed in {entries}"),
                    (_, 0) => format!("linked {times}"),
                    _ => format!("linked {times} and listed in {entries}"),
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "disallowed for {} and not fetched (--obey-robots), so whether it \
                             carries a noindex is unknown; it is {found}",
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(verdict_evidence(site, index, &resource.url))
                    .evidence_all(
                        site.link_samples(resource)
                            .iter()
                            .map(|sample| link_evidence(sample, &resource.url)),
                    )
                    .evidence_all(
                        site.listings(resource)
                            .iter()
                            .map(|listing| listing_evidence(listing, &resource.url)),
                    )
                    .evidence(response_evidence(resource)),
                );
            }
        }
    }
}
