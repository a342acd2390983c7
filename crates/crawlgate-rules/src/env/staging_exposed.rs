use super::home::{home, html_pages};
use crate::support::{profiles, response_evidence, verdict_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::Environment;
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// When the audit is told the site is a staging site (`--environment staging`), checks
    /// that search engines are kept out of it: it fires when the home page answers without
    /// authentication (a 2xx, not 401 or 403) and is indexable for an audited crawler (not
    /// disallowed by robots.txt, no noindex, no canonical elsewhere).
    ///
    /// ## Why is this bad?
    /// A staging site that Google can crawl and index competes with production for the same
    /// content: duplicates appear in search, unfinished pages and test data become public, and
    /// links to the staging host leak. Google's advice is to keep such sites out of search with
    /// authentication or noindex; `Disallow` alone does not stop a URL from being indexed.
    ///
    /// ## Example
    /// ```text
    /// $ curl -I https://staging.example.com/
    /// HTTP/2 200
    /// (no X-Robots-Tag, no <meta name="robots" content="noindex">, robots.txt allows all)
    /// ```
    ///
    /// ## How to fix
    /// Put the staging site behind authentication (HTTP basic auth, an IP allow list, a VPN).
    /// Failing that, send `X-Robots-Tag: noindex` on every response of the staging host, and
    /// make sure that header cannot reach production.
    pub struct StagingExposed {
        id: "env/staging-exposed",
        severity: Error,
        summary: "The staging site answers without authentication and can be indexed",
    }
}

impl Rule for StagingExposed {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        if site.environment.environment != Some(Environment::Staging) {
            return;
        }
        let Some((home, page)) = home(site) else {
            return; // not reachable: nothing is exposed
        };
        if !(200..300).contains(&page.status) {
            return;
        }
        let crawled = html_pages(site).count();
        for (index, profile) in profiles(site) {
            if !site.indexability(home, index).is_indexable() {
                continue;
            }
            let indexable = html_pages(site)
                .filter(|(resource, _)| site.indexability(resource, index).is_indexable())
                .count();
            out.report(
                Occurrence::new(
                    home.url.as_str(),
                    format!(
                        "this staging site answers {} without authentication and {} may crawl and \
                         index it: {indexable} of {crawled} crawled pages are indexable (no \
                         robots.txt block, no noindex)",
                        page.status,
                        profile.display_name()
                    ),
                )
                .profile(&profile.name)
                .evidence(response_evidence(home))
                .evidence(verdict_evidence(site, index, &home.url))
                .evidence(Evidence::Note {
                    text: format!(
                        "no noindex for {} in meta robots or X-Robots-Tag on {}",
                        profile.display_name(),
                        home.url
                    ),
                }),
            );
        }
    }
}
