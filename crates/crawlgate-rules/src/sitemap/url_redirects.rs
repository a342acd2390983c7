use super::evidence::{
    first_sitemap, listings_evidence, not_indexable_evidence, not_indexable_words,
};
use crate::support::{profiles, response_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{Indexability, ResourceState};
use crawlgate_core::{Evidence, Severity, Site};

declare_rule! {
    /// ## What it does
    /// Finds URLs listed in a sitemap that answer with a redirect. The finding names the final
    /// URL, and is an error when that final URL cannot be indexed either (an error status, a
    /// noindex, a canonical elsewhere, a robots.txt Disallow).
    ///
    /// ## Why is this bad?
    /// A sitemap should list the URLs you want indexed, and a redirecting URL is never indexed
    /// itself: search engines spend a request on it, reach the target later, and read the
    /// listing as a weak, contradictory canonical signal. When the target is not indexable
    /// either, the sitemap entry leads nowhere at all.
    ///
    /// ## Example
    /// ```text
    /// sitemap.xml    <loc>http://example.com/about</loc>
    /// http://example.com/about   301 → https://example.com/about/
    /// ```
    ///
    /// ## How to fix
    /// Replace the listed URL with the final URL quoted in the evidence (after checking that
    /// it is the page you want in search), or remove the entry if the redirect retires the
    /// page. Regenerate the sitemap after migrations so it lists the new URLs.
    pub struct UrlRedirects {
        id: "sitemap/url-redirects",
        severity: Warning,
        summary: "A sitemap lists a URL that redirects",
    }
}

impl Rule for UrlRedirects {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for resource in site.resources() {
                let ResourceState::Redirected {
                    hops, final_url, ..
                } = &resource.state
                else {
                    continue;
                };
                if !resource.is_listed() {
                    continue;
                }
                let status = hops.first().map_or(0, |hop| hop.status);
                let mut message = format!(
                    "listed in {} but answers {status}: {} is redirected to {final_url}",
                    first_sitemap(site, resource),
                    profile.display_name()
                );
                let mut severity = None;
                let mut target_evidence = Vec::new();
                match site.resource(final_url) {
                    Some(target) => {
                        if let Indexability::NotIndexable(reason) = site.indexability(target, index)
                        {
                            message = format!(
                                "{message}, which is not indexable for it: {}",
                                not_indexable_words(&reason)
                            );
                            severity = Some(Severity::Error);
                            target_evidence = not_indexable_evidence(site, target, index, &reason);
                        }
                    }
                    None => target_evidence.push(Evidence::Note {
                        text: format!("{final_url} was not recorded by the crawl"),
                    }),
                }
                let mut report = Occurrence::new(resource.url.as_str(), message)
                    .profile(&profile.name)
                    .evidence(response_evidence(resource))
                    .evidence_all(target_evidence)
                    .evidence_all(listings_evidence(site, resource));
                if let Some(severity) = severity {
                    report = report.severity(severity);
                }
                out.report(report);
            }
        }
    }
}
