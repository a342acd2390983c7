use super::annotations::{self, SitemapAlternates, codes_listed, quoted};
use crate::support::ok_pages;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages whose hreflang set (`<link>`s, `Link` header and sitemap alternates together)
    /// names two or more languages or regions but no `x-default`.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page", reserves `x-default` "to
    /// match any language not explicitly listed by an hreflang tag on the page", and recommends
    /// a fallback for searchers the set does not cover. Without it, a searcher whose language is
    /// none of the set's gets whichever version Google picks, rather than the page (often a
    /// language selector or the international version) the site would choose. Recommended, not
    /// required: a notice.
    ///
    /// ## Example
    /// ```html
    /// <link rel="alternate" hreflang="en" href="https://example.com/en/">
    /// <link rel="alternate" hreflang="de" href="https://example.com/de/">
    /// ```
    ///
    /// ## How to fix
    /// Add the fallback to every version's set:
    /// `<link rel="alternate" hreflang="x-default" href="https://example.com/">`. Not reported for
    /// pages canonicalised elsewhere.
    pub struct MissingXDefault {
        id: "hreflang/missing-x-default",
        severity: Notice,
        summary: "A page's hreflang set has several languages and no x-default",
    }
}

impl Rule for MissingXDefault {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            // A page read only in part may name x-default past the cut.
            if page.canonical_elsewhere(&resource.url).is_some() || page.read_in_part() {
                continue;
            }
            let all = annotations::all(resource, &page, &sitemaps);
            if all.iter().any(annotations::Annotation::is_x_default) {
                continue;
            }
            let mut languages: Vec<String> =
                all.iter().map(annotations::Annotation::code_key).collect();
            languages.sort_unstable();
            languages.dedup();
            if languages.len() < 2 {
                continue;
            }
            let all: Vec<&annotations::Annotation<'_>> = all.iter().collect();
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the page's hreflang set names {} but no `x-default` for searchers in other languages",
                        codes_listed(&all)
                    ),
                )
                .evidence_all(quoted(&resource.url, &all)),
            );
        }
    }
}
