use super::evidence::{error_status_words, first_sitemap, listings_evidence};
use crate::support::response_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;

declare_rule! {
    /// ## What it does
    /// Finds URLs listed in a sitemap that answer with an error status (4xx, 5xx) or give no
    /// response at all (timeout, DNS failure, connection reset, redirect loop). 401 and 403
    /// answers are called out: they usually mean access control or bot protection. Listed URLs
    /// that redirect to an error are reported by `sitemap/url-redirects`.
    ///
    /// ## Why is this bad?
    /// Every listed URL is a promise of an indexable page. Errors waste crawling, show up in
    /// Search Console's page indexing report ("Submitted URL not found (404)", "Submitted URL
    /// has crawl issue"), and a sitemap full of dead URLs teaches search engines to trust it
    /// less. A 403 served to crawlers but not to people hides the page from search entirely.
    ///
    /// ## Example
    /// ```text
    /// sitemap.xml    <loc>https://example.com/products/discontinued-item</loc>
    /// https://example.com/products/discontinued-item   404 Not Found
    /// ```
    ///
    /// ## How to fix
    /// Remove deleted pages from the sitemap (regenerate it from the live content), or restore
    /// the page. For 401/403, check the firewall, CDN or bot protection rules for search engine
    /// crawlers; for 5xx and timeouts, check the server's logs for those URLs.
    pub struct UrlError {
        id: "sitemap/url-error",
        severity: Error,
        summary: "A sitemap lists a URL that answers with an error or not at all",
    }
}

impl Rule for UrlError {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if !resource.is_listed() {
                continue;
            }
            let problem = match &resource.state {
                ResourceState::Fetched(page) if !(200..300).contains(&page.status()) => {
                    error_status_words(page.status())
                }
                ResourceState::Failed { kind, message, .. } => {
                    format!("gives no response ({}): {message}", kind.as_str())
                }
                _ => continue,
            };
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!("listed in {} but {problem}", first_sitemap(site, resource)),
                )
                .evidence(response_evidence(resource))
                .evidence_all(listings_evidence(site, resource)),
            );
        }
    }
}
