use crate::support::{link_evidence, listing_evidence, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{ReferenceKind, Resource, ResourceKind, ResourceState};
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds URLs that crawled pages link to, that a sitemap lists, or that the audit starts from,
    /// and that redirect to a URL robots.txt disallows for the audited crawler (at the end of the
    /// chain or at any hop along it).
    ///
    /// ## Why is this bad?
    /// Google checks robots.txt before each hop of a redirect and stops at a disallowed one: the
    /// redirect leads nowhere it may go, so neither URL gets crawled, and the links and sitemap
    /// entries pointing to the first URL are wasted. It usually follows a migration, when old URLs
    /// are redirected into a section robots.txt still blocks, or a login redirect (`/account` →
    /// `/login?next=…`) that robots.txt disallows.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /shop/old/
    /// /sale        301 → /shop/old/sale
    /// ```
    ///
    /// ## How to fix
    /// Redirect to a crawlable URL (update the redirect to the page's current address), or allow
    /// the target if it should be crawled. Update links and sitemaps to point straight to the final
    /// URL.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): a
    /// redirect that ends where they may not go keeps them out, as wanted.
    pub struct RedirectToBlocked {
        id: "robots/redirect-to-blocked",
        severity: Warning,
        summary: "A linked or listed URL redirects to a URL that robots.txt disallows",
    }
}

impl Rule for RedirectToBlocked {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for resource in site.resources() {
                let ResourceState::Redirected {
                    hops, final_url, ..
                } = &resource.state
                else {
                    continue;
                };
                // A disallowed source is never requested: blocked-linked covers it.
                if resource.kind != ResourceKind::Page
                    || !pointed_at(site, resource)
                    || resource.verdict(index).is_none_or(|v| !v.allowed)
                {
                    continue;
                }
                // Every URL the chain leads to, in order: the hops after the first, then the end.
                let targets = hops
                    .iter()
                    .skip(1)
                    .filter_map(|hop| Url::parse(&hop.url).ok())
                    .chain(std::iter::once(Url::clone(final_url)));
                let Some(blocked) = targets
                    .into_iter()
                    .find(|target| !site.verdict(index, target).allowed)
                else {
                    continue;
                };
                let place = if blocked == **final_url {
                    "redirects to"
                } else {
                    "redirects through"
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "{place} {blocked}, which robots.txt disallows for {crawler}; \
                             {crawler} stops there",
                            crawler = profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(verdict_evidence(site, index, &blocked))
                    .evidence(Evidence::Redirect {
                        url: resource.url.to_string(),
                        hops: hops.to_vec(),
                        final_url: final_url.to_string(),
                    })
                    .evidence_all(
                        site.link_samples(resource)
                            .iter()
                            .map(|sample| link_evidence(sample, &resource.url)),
                    )
                    .evidence_all(
                        site.listings(resource)
                            .iter()
                            .map(|listing| listing_evidence(listing, &resource.url)),
                    ),
                );
            }
        }
    }
}

/// Whether a link, a sitemap entry, the audit's start or its list points at `resource`.
fn pointed_at(site: &Site, resource: &Resource) -> bool {
    let links = &resource.inbound_links;
    links.followed > 0
        || links.qualified > 0
        || resource.is_listed()
        || site
            .references(resource)
            .iter()
            .any(|reference| matches!(reference.kind, ReferenceKind::Start | ReferenceKind::Listed))
}
