use super::read::{readable_pages, rules_words};
use crate::support::directives_evidence;
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Lists the HTML pages that carry an effective `noindex` for the audited crawler, with where
    /// it comes from: a robots meta tag (`robots`, or one addressed to the crawler such as
    /// `googlebot`, in `<head>` or `<body>`), an `X-Robots-Tag` header, the rule `none`, or an
    /// `unavailable_after` date that has passed.
    ///
    /// ## Why is this bad?
    /// It is not bad in itself: `noindex` tells Google "Do not show this page, media, or resource
    /// in search results." This inventory is here so that an unintended noindex (a staging setting
    /// left on after launch, a CMS checkbox, a header added by a CDN or server rule) is seen before
    /// traffic drops. The dangerous combinations have their own, more severe rules: a noindex page
    /// listed in a sitemap (`sitemap/url-noindex`), disallowed in robots.txt
    /// (`robots/blocked-noindex`), or named as another page's canonical
    /// (`canonical/target-noindex`). Pages that robots.txt disallows are left out here: Google
    /// never reads their noindex.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="noindex, follow">
    /// ```
    /// or the response header `X-Robots-Tag: noindex`.
    ///
    /// ## How to fix
    /// Check that each listed page is meant to stay out of search results. If one is not, remove
    /// `noindex` (or `none`, or the past `unavailable_after`) from every source quoted in the
    /// evidence (meta tag and header alike), then ask Google to recrawl the page with the URL
    /// Inspection tool in Search Console.
    pub struct Noindex {
        id: "directives/noindex",
        severity: Notice,
        summary: "The page carries an effective noindex (inventory, with its source)",
    }
}

impl Rule for Noindex {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                if !page.signals.is_html {
                    continue; // directives/noindex-on-resource lists PDFs, images and the like
                }
                let directives = page.signals.directives(profile, site.audit_time);
                let sources = directives.noindex_sources();
                if sources.is_empty() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "noindex for {}: {}",
                            profile.display_name(),
                            rules_words(&sources)
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(directives_evidence(&resource.url, &sources)),
                );
            }
        }
    }
}
