use super::annotations::{
    self, Origin, SitemapAlternates, by_target, codes_listed, fetched_ok, quoted,
};
use crate::support::ok_pages;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{normalized_for_compare, same_document};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds hreflang alternates that are not returned: page A lists page B as one of its
    /// language versions (in a `<link>` in `<head>`, a `Link` header or its sitemap entry), B
    /// was crawled, and B lists no alternate naming A, in any of the three places.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": "If two pages don't both
    /// point to each other, the tags will be ignored. This is so that someone else can't write a
    /// tag naming themselves as an alternative version of one of your pages." Without the return
    /// link Google drops the pair, and searchers in B's language may be shown A, or A's
    /// searchers B.
    ///
    /// ## Example
    /// ```html
    /// <!-- on https://example.com/en/ -->
    /// <link rel="alternate" hreflang="en" href="https://example.com/en/">
    /// <link rel="alternate" hreflang="de" href="https://example.com/de/">
    /// <!-- on https://example.com/de/: no hreflang link to /en/ -->
    /// ```
    ///
    /// ## How to fix
    /// Give every version of the page the same, complete set of alternates (itself included):
    /// add the missing `<link rel="alternate" hreflang=… href=…>` to B, naming A. Not reported
    /// for a page canonicalised elsewhere (its canonical's alternates are the ones that count),
    /// nor when A and B both have `<url>` entries in the same sitemap and only that sitemap
    /// pairs them (`sitemap/hreflang-invalid` checks those).
    pub struct MissingReturnLink {
        id: "hreflang/missing-return-link",
        severity: Error,
        summary: "A page lists an hreflang alternate that does not list it back",
    }
}

impl Rule for MissingReturnLink {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            if page.canonical_elsewhere(&resource.url).is_some() {
                continue;
            }
            let mine = annotations::all(resource, &page, &sitemaps);
            if mine.is_empty() {
                continue;
            }
            let me = normalized_for_compare(&resource.url);
            for (target, naming) in by_target(&mine) {
                if same_document(target, &resource.url) {
                    continue;
                }
                let Some((other, other_page)) = fetched_ok(site, target) else {
                    continue; // not crawled, or hreflang/target-error says why
                };
                if other_page.canonical_elsewhere(&other.url).is_some() {
                    continue; // hreflang/target-not-indexable says it
                }
                if other_page.read_in_part() {
                    continue; // its return link may come past the cut (http/page-read-in-part)
                }
                // Pairs written only in one sitemap holding both entries are that sitemap's check.
                let only_in_shared_sitemap =
                    naming.iter().all(|annotation| match annotation.origin {
                        Origin::Sitemap { sitemap, .. } => sitemaps.has_entry_in(target, sitemap),
                        Origin::Page(_) => false,
                    });
                if only_in_shared_sitemap {
                    continue;
                }
                let theirs = annotations::all(other, &other_page, &sitemaps);
                if theirs.iter().any(|annotation| annotation.names_key(&me)) {
                    continue;
                }
                let theirs: Vec<&annotations::Annotation<'_>> = theirs.iter().collect();
                let (what_they_list, their_evidence) = if theirs.is_empty() {
                    (
                        "declares no hreflang alternates at all".to_owned(),
                        vec![Evidence::Note {
                            text: format!("{target} declares no hreflang alternates"),
                        }],
                    )
                } else {
                    (
                        format!("lists {} but not this page", codes_listed(&theirs)),
                        quoted(&other.url, &theirs),
                    )
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "this page lists `{target}` as its `{}` version, but `{target}` {what_they_list}: Google ignores an hreflang pair that is not returned",
                            naming[0].code
                        ),
                    )
                    .evidence_all(quoted(&resource.url, &naming))
                    .evidence_all(their_evidence),
                );
            }
        }
    }
}
