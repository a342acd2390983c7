use super::evidence::{first_sitemap, listings_evidence};
use crate::support::{directive_evidence, ok_page, profiles};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds URLs listed in a sitemap whose page carries an effective `noindex` for the audited
    /// crawler (a robots meta tag, an `X-Robots-Tag` header, `none`, or an `unavailable_after`
    /// date that has passed). URLs robots.txt disallows are left to `sitemap/url-blocked`.
    ///
    /// ## Why is this bad?
    /// The sitemap says "index this URL", the page says "don't". Google obeys the noindex, so
    /// the URL is reported as "Submitted URL marked 'noindex'" in Search Console and crawl
    /// effort goes to pages that can never rank. Often the noindex is the mistake: a staging
    /// setting left on after launch, or a template that marks a whole section noindex.
    ///
    /// ## Example
    /// ```text
    /// sitemap.xml      <loc>https://example.com/guides/setup</loc>
    /// /guides/setup    <meta name="robots" content="noindex">
    /// ```
    ///
    /// ## How to fix
    /// If the page should be found in search, remove the noindex (quoted in the evidence). If
    /// it should not, take it out of the sitemap: sitemaps should list only indexable URLs.
    pub struct UrlNoindex {
        id: "sitemap/url-noindex",
        severity: Error,
        summary: "A sitemap lists a URL whose page says noindex",
    }
}

impl Rule for UrlNoindex {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for resource in site.resources() {
                if !resource.is_listed() || resource.verdict(index).is_some_and(|v| !v.allowed) {
                    continue;
                }
                let Some(page) = ok_page(site, resource) else {
                    continue;
                };
                let directives = page.signals.directives(profile, site.audit_time);
                if !directives.is_noindex() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "listed in {} but noindex for {}: the sitemap asks for a URL the page \
                             keeps out of the index",
                            first_sitemap(site, resource),
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(
                        directives
                            .noindex_sources()
                            .into_iter()
                            .map(|d| directive_evidence(&resource.url, &d.source)),
                    )
                    .evidence_all(listings_evidence(site, resource)),
                );
            }
        }
    }
}
