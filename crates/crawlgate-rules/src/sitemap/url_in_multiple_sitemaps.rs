use super::evidence::listings_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use std::collections::BTreeSet;

declare_rule! {
    /// ## What it does
    /// Finds URLs listed in more than one sitemap (repeats within one sitemap are
    /// `sitemap/duplicate-url`).
    ///
    /// ## Why is this bad?
    /// Nothing breaks, but the sitemaps overlap: the entries can disagree (different `lastmod`
    /// dates, one copy left behind when the page is removed), and Search Console's per-sitemap
    /// indexing counts stop adding up. It usually means two generators, or one generator with
    /// overlapping sections (a product in two category sitemaps).
    ///
    /// ## Example
    /// ```text
    /// sitemap-products.xml   <loc>https://example.com/red-shoes</loc>
    /// sitemap-sale.xml       <loc>https://example.com/red-shoes</loc>
    /// ```
    ///
    /// ## How to fix
    /// Give every URL one home sitemap: split sections so they do not overlap, or drop the
    /// duplicate generator.
    pub struct UrlInMultipleSitemaps {
        id: "sitemap/url-in-multiple-sitemaps",
        severity: Notice,
        summary: "A URL is listed in more than one sitemap",
    }
}

impl Rule for UrlInMultipleSitemaps {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            // The count is at hand; the listings may have to be read back from the page store.
            if resource.listing_count() < 2 {
                continue;
            }
            let listings = site.listings(resource);
            let sitemaps: BTreeSet<&str> = listings
                .iter()
                .map(|listing| listing.sitemap.as_str())
                .collect();
            if sitemaps.len() < 2 {
                continue;
            }
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "listed in {} sitemaps: {}",
                        sitemaps.len(),
                        sitemaps.into_iter().collect::<Vec<_>>().join(", ")
                    ),
                )
                .evidence_all(listings_evidence(site, resource)),
            );
        }
    }
}
