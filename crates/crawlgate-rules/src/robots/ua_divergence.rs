use crate::support::verdict_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::site::{NotFetchedReason, ResourceKind, ResourceState};

declare_rule! {
    /// ## What it does
    /// When the audit evaluates several crawlers (`--profile googlebot --profile bingbot …`), finds
    /// the site's URLs (crawled, linked or listed in a sitemap) that robots.txt allows for some of
    /// them and disallows for others.
    ///
    /// ## Why is this bad?
    /// Often it is deliberate (keeping AI crawlers out, say), and then the list confirms the rules
    /// do what you want. When it is not, it is usually a group for one crawler that forgot rules of
    /// the `*` group, or a crawler name that does not select the group you think: one search engine
    /// then crawls (or misses) a part of the site the others do not.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /beta/
    ///
    /// User-agent: Googlebot
    /// Disallow: /tmp/
    /// ```
    /// `/beta/page` is disallowed for Bingbot but allowed for Googlebot.
    ///
    /// ## How to fix
    /// If the difference is intended, nothing; for crawlers you block on purpose, declare them
    /// expected-blocked (`--expect-blocked gptbot`): they are then left out of this comparison,
    /// and `robots/expected-blocked-allowed` reports the pages they may still crawl. Otherwise
    /// align the groups: repeat in each crawler's group the rules that should apply to every
    /// crawler.
    pub struct UaDivergence {
        id: "robots/ua-divergence",
        severity: Notice,
        summary: "A URL is allowed for some audited crawlers and disallowed for others",
    }
}

impl Rule for UaDivergence {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        // Crawlers blocked on purpose differ from the others by design: left out.
        let compared: Vec<usize> = (0..site.profiles.len())
            .filter(|&index| !site.expects_blocked(index))
            .collect();
        if compared.len() < 2 {
            return;
        }
        for resource in site.resources() {
            // The audited site's pages: not assets, not other sites named by a canonical.
            if resource.kind != ResourceKind::Page
                || matches!(
                    resource.state,
                    ResourceState::NotFetched(NotFetchedReason::OutOfScope)
                )
            {
                continue;
            }
            // Profile positions, disallowed first: the Disallow rule is the primary fact.
            let (disallowed, allowed): (Vec<usize>, Vec<usize>) = compared
                .iter()
                .copied()
                .partition(|&index| resource.verdict(index).is_some_and(|v| !v.allowed));
            if allowed.is_empty() || disallowed.is_empty() {
                continue;
            }
            let names = |indices: &[usize]| {
                indices
                    .iter()
                    .filter_map(|&index| site.profiles.get(index))
                    .map(Profile::display_name)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "disallowed for {} but allowed for {}",
                        names(&disallowed),
                        names(&allowed)
                    ),
                )
                .evidence_all(
                    disallowed
                        .iter()
                        .chain(&allowed)
                        .map(|&index| verdict_evidence(site, index, &resource.url)),
                ),
            );
        }
    }
}
