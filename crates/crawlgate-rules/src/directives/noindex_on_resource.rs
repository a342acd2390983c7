use super::read::{readable_pages, rules_words};
use crate::support::directives_evidence;
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Lists non-HTML responses (PDFs, images, videos, documents) that carry an effective
    /// `noindex` through the `X-Robots-Tag` header.
    ///
    /// ## Why is this bad?
    /// It is not bad in itself: the `X-Robots-Tag` header is how Google documents keeping files
    /// that have no `<head>` out of search. The inventory exists because such headers are usually
    /// set by a server or CDN rule that matches by path or file type and can reach further than
    /// intended (every PDF of the site, every image of a product catalogue). Sitemaps and image
    /// checks rely on it too.
    ///
    /// ## Example
    /// ```text
    /// GET /guides/setup.pdf
    /// Content-Type: application/pdf
    /// X-Robots-Tag: noindex
    /// ```
    ///
    /// ## How to fix
    /// Check the list. If files that should be found are included, narrow the server or CDN rule
    /// that adds the header (the evidence quotes it as received).
    pub struct NoindexOnResource {
        id: "directives/noindex-on-resource",
        severity: Notice,
        summary: "A non-HTML file (PDF, image, video) carries noindex in X-Robots-Tag",
    }
}

impl Rule for NoindexOnResource {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                if page.signals.is_html {
                    continue; // directives/noindex lists pages
                }
                let directives = page.signals.directives(profile, site.audit_time);
                let sources = directives.noindex_sources();
                if sources.is_empty() {
                    continue;
                }
                let kind = page.signals.content_type.as_deref().unwrap_or("untyped");
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "noindex for {} on this `{kind}` file: {}",
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
