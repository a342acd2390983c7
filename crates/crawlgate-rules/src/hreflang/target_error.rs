use super::annotations::{self, SitemapAlternates, by_target, quoted};
use crate::support::{ok_pages, response_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{ResourceState, same_document};

declare_rule! {
    /// ## What it does
    /// Finds hreflang alternates (`<link>`, `Link` header or sitemap `xhtml:link`) whose URL
    /// redirects, answers 4xx or 5xx, or gets no response. Following links (the default mode),
    /// the crawl fetches the in-scope alternates of the pages it crawls and of the sitemaps'
    /// entries, within its page and sitemap URL bounds; alternates it did not fetch (outside the
    /// scope, past a bound, list and `--sitemap-only` modes) are not judged.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": each alternate is "the
    /// fully-qualified URL for the version of this page for the specified language or region".
    /// A URL that answers an error is no version of anything: the language drops out of the set,
    /// and the missing page cannot return the link. A redirecting alternate names a URL Google
    /// does not index; the redirect's target is the version, and its hreflang is the one read.
    ///
    /// ## Example
    /// ```html
    /// <link rel="alternate" hreflang="fr" href="https://example.com/fr/old-name/">
    /// <!-- https://example.com/fr/old-name/ answers 301 to /fr/new-name/ -->
    /// ```
    ///
    /// ## How to fix
    /// Name each version by its final URL (the redirect's target); remove alternates for
    /// versions that no longer exist, on every page of the set.
    pub struct TargetError {
        id: "hreflang/target-error",
        severity: Error,
        summary: "An hreflang alternate redirects, answers 4xx/5xx or no response",
    }
}

impl Rule for TargetError {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            let all = annotations::all(resource, &page, &sitemaps);
            for (target, naming) in by_target(&all) {
                if same_document(target, &resource.url) {
                    continue;
                }
                let Some(other) = site.resource(target) else {
                    continue;
                };
                let outcome = match &other.state {
                    ResourceState::Fetched(other_page)
                        if !(200..300).contains(&other_page.status()) =>
                    {
                        format!("answers {}", other_page.status())
                    }
                    ResourceState::Redirected {
                        final_url,
                        final_status,
                        ..
                    } => match final_status {
                        Some(status) => {
                            format!("redirects to `{final_url}` (which answers {status})")
                        }
                        None => format!("redirects to `{final_url}`"),
                    },
                    ResourceState::Failed { kind, message, .. } => {
                        format!("gets no response ({}: {message})", kind.as_str())
                    }
                    _ => continue,
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the `{}` alternate `{target}` {outcome}: an hreflang alternate must be the version's final, working URL",
                            naming[0].code
                        ),
                    )
                    .evidence_all(quoted(&resource.url, &naming))
                    .evidence(response_evidence(other)),
                );
            }
        }
    }
}
