use super::annotations::{self, SitemapAlternates, codes_listed, quoted};
use crate::support::ok_pages;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages that declare hreflang alternates (`<link>` in `<head>` or `Link` header) of
    /// which none names the page itself, nor does any of its sitemap entries' alternates.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": "Each language version must
    /// list itself as well as all other language versions." A set that leaves the page out does
    /// not say which language the page itself is for, and the other versions' return links
    /// then point at a page outside the set.
    ///
    /// ## Example
    /// ```html
    /// <!-- on https://example.com/en/ -->
    /// <link rel="alternate" hreflang="de" href="https://example.com/de/">
    /// <link rel="alternate" hreflang="fr" href="https://example.com/fr/">
    /// ```
    ///
    /// ## How to fix
    /// Add the page to its own set, with its code:
    /// `<link rel="alternate" hreflang="en" href="https://example.com/en/">`. The set should be
    /// identical on every version. Not reported for pages canonicalised elsewhere.
    pub struct MissingSelfReference {
        id: "hreflang/missing-self-reference",
        severity: Warning,
        summary: "A page's hreflang alternates do not include the page itself",
    }
}

impl Rule for MissingSelfReference {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            let own = annotations::on_page(&page);
            // A page read only in part may list itself past the cut (http/page-read-in-part).
            if own.is_empty()
                || page.canonical_elsewhere(&resource.url).is_some()
                || page.read_in_part()
            {
                continue;
            }
            let all = annotations::all(resource, &page, &sitemaps);
            if all.iter().any(|annotation| annotation.names(&resource.url)) {
                continue;
            }
            let own: Vec<&annotations::Annotation<'_>> = own.iter().collect();
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the page lists hreflang alternates for {}, none of them itself: each version must list itself too",
                        codes_listed(&own)
                    ),
                )
                .evidence_all(quoted(&resource.url, &own)),
            );
        }
    }
}
