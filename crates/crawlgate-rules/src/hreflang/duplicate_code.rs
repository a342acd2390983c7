use super::annotations::{self, Origin, SitemapAlternates, Via, quoted};
use crate::support::ok_pages;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use std::collections::BTreeMap;

declare_rule! {
    /// ## What it does
    /// Finds one hreflang code given to two or more different URLs in one place: among a page's
    /// `<link>`s, in its `Link` header, or in one of its sitemap `<url>` entries (`en-GB` and
    /// `en-gb` are one code). The same code differing between those places is
    /// `hreflang/source-conflict`.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": each alternate is "the
    /// fully-qualified URL for the version of this page for the specified language or region".
    /// One language(-region) has one version. With two, Google has to guess which one German
    /// searchers should get, or ignores both; usually a template adds a tag twice, once with a
    /// stale URL.
    ///
    /// ## Example
    /// ```html
    /// <link rel="alternate" hreflang="de" href="https://example.com/de/">
    /// <link rel="alternate" hreflang="de" href="https://example.com/de-de/">
    /// ```
    ///
    /// ## How to fix
    /// Keep one URL per code. If the two pages really are for different German-speaking
    /// regions, give them region codes (`de-DE`, `de-AT`).
    pub struct DuplicateCode {
        id: "hreflang/duplicate-code",
        severity: Warning,
        summary: "One hreflang code names two different URLs",
    }
}

impl Rule for DuplicateCode {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let sitemaps = SitemapAlternates::new(site);
        for (resource, page) in ok_pages(site) {
            let all = annotations::all(resource, &page, &sitemaps);
            // (place, code) -> alternates, the place being the source and, for sitemaps, the entry.
            let mut groups: BTreeMap<
                (Via, String, u32, String),
                Vec<&annotations::Annotation<'_>>,
            > = BTreeMap::new();
            for annotation in &all {
                if annotation.key.is_none() {
                    continue;
                }
                let (sitemap, line) = match annotation.origin {
                    Origin::Sitemap {
                        sitemap,
                        entry_line,
                        ..
                    } => (sitemap.to_string(), entry_line),
                    Origin::Page(_) => (String::new(), 0),
                };
                groups
                    .entry((annotation.via(), sitemap, line, annotation.code_key()))
                    .or_default()
                    .push(annotation);
            }
            for ((via, _, _, _), group) in groups {
                let mut urls: Vec<&url::Url> = Vec::new();
                for annotation in &group {
                    if let Some(target) = annotation.target
                        && !urls.iter().any(|known| annotation.names(known))
                    {
                        urls.push(target);
                    }
                }
                if urls.len() < 2 {
                    continue;
                }
                let listed: Vec<String> = urls.iter().map(|url| format!("`{url}`")).collect();
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "in {}, hreflang `{}` names {} different URLs: {}; one code names one version",
                            via.words(),
                            group[0].code,
                            urls.len(),
                            listed.join(", ")
                        ),
                    )
                    .evidence_all(quoted(&resource.url, &group)),
                );
            }
        }
    }
}
