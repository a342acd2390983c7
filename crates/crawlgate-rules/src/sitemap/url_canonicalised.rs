use super::evidence::{first_sitemap, listings_evidence};
use crate::support::{canonical_evidence, ok_page};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::same_document;

declare_rule! {
    /// ## What it does
    /// Finds URLs listed in a sitemap whose page declares another URL as its canonical (an
    /// effective `<link rel="canonical">` in `<head>` or a `Link` header, compared after
    /// normalisation).
    ///
    /// ## Why is this bad?
    /// Google: "All pages listed in a sitemap are suggested as canonicals." A listed URL that
    /// canonicalises elsewhere sends two opposite signals, so Google has to pick, and may
    /// pick the one you did not mean. Typical causes: the sitemap lists tracking or filter
    /// variants, or the trailing-slash/`www.` form the site does not use.
    ///
    /// ## Example
    /// ```text
    /// sitemap.xml            <loc>https://example.com/shoes?colour=red</loc>
    /// /shoes?colour=red      <link rel="canonical" href="https://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// List the canonical URL (quoted in the evidence) in the sitemap instead. If the listed
    /// URL is the one you want in search, fix the page's canonical to point at itself.
    pub struct UrlCanonicalised {
        id: "sitemap/url-canonicalised",
        severity: Warning,
        summary: "A sitemap lists a URL whose page names another URL as canonical",
    }
}

impl Rule for UrlCanonicalised {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if !resource.is_listed() {
                continue;
            }
            let Some(page) = ok_page(site, resource) else {
                continue;
            };
            let elsewhere = page.signals.effective_canonicals().into_iter().find(|c| {
                c.resolved
                    .as_ref()
                    .is_some_and(|target| !same_document(target, &resource.url))
            });
            let Some(canonical) = elsewhere else {
                continue;
            };
            let target = canonical
                .resolved
                .as_ref()
                .map_or_else(|| canonical.href.to_string(), ToString::to_string);
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "listed in {} but its canonical is {target}: the sitemap and the page \
                         disagree on the URL to index",
                        first_sitemap(site, resource)
                    ),
                )
                .evidence(canonical_evidence(&resource.url, canonical))
                .evidence_all(listings_evidence(site, resource)),
            );
        }
    }
}
