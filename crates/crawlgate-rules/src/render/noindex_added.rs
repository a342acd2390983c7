use super::{RAW, RENDERED, directive_sides, side};
use crate::support::profiles_meant_to_crawl;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds rendered pages whose raw HTML lets the audited crawler index them and whose scripts
    /// add a `noindex` (a robots meta tag written, or changed, by JavaScript).
    ///
    /// ## Why is this bad?
    /// Google renders indexable pages and reads the robots meta tag of the rendered page too: a
    /// noindex added by JavaScript takes the page out of the index, although its HTML says
    /// index. Google warns that "using JavaScript to change or remove the robots meta tag might
    /// not work as expected" (JavaScript SEO basics); a framework that writes a noindex while it
    /// loads, or on an error path, removes pages silently.
    ///
    /// ## Example
    /// ```html
    /// <script>
    ///   const m = document.createElement('meta'); m.name = 'robots'; m.content = 'noindex';
    ///   document.head.append(m);
    /// </script>
    /// ```
    ///
    /// ## How to fix
    /// If the page is to be indexed, find the script that writes the noindex (the rendered tag
    /// is quoted) and stop it. If it is not, put the noindex in the HTML the server sends, where
    /// every crawler reads it without rendering.
    pub struct NoindexAdded {
        id: "render/noindex-added",
        severity: Error,
        summary: "Rendering adds a noindex that the raw HTML does not have: the page drops out",
    }
}

impl Rule for NoindexAdded {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for (resource, page, rendered) in site.rendered() {
                // A raw HTML read in part may hold a noindex past the cut.
                if resource.verdict(index).is_some_and(|v| !v.allowed)
                    || page.read_in_part()
                    || !rendered.has_dom()
                    || page
                        .signals
                        .directives(profile, site.audit_time)
                        .is_noindex()
                {
                    continue;
                }
                let after = rendered.signals.directives(profile, site.audit_time);
                let added = after.noindex_sources();
                if added.is_empty() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "rendering adds a noindex for {} that the raw HTML does not have: {}",
                            profile.display_name(),
                            if profile.is_google() {
                                "Google reads the rendered page and leaves it out of the index"
                            } else {
                                "a crawler that renders the page leaves it out, one that does not keeps it: the page is indexed or not by chance"
                            }
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(side(RAW, &resource.url, "no noindex in the raw HTML", None))
                    .evidence_all(directive_sides(RENDERED, &resource.url, "noindex", &added)),
                );
            }
        }
    }
}
