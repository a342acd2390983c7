use super::{RAW, RENDERED, directive_sides, side};
use crate::support::profiles_meant_to_crawl;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds rendered pages whose raw HTML says `noindex` for the audited crawler and whose
    /// scripts remove it: the DOM after rendering has no noindex left.
    ///
    /// ## Why is this bad?
    /// Google reads the raw HTML first, and "if Google encounters the noindex tag, it skips
    /// rendering and JavaScript execution" (Google Search Central, JavaScript SEO basics). The
    /// script that removes the noindex never runs for Google: the page stays out of the index
    /// although the site means it to be indexed once rendered.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="noindex">
    /// <script>document.querySelector('meta[name=robots]').remove()</script>
    /// ```
    ///
    /// ## How to fix
    /// Decide in the HTML: leave the noindex out of the page the server sends when the page is
    /// to be indexed, and never rely on JavaScript to remove it.
    pub struct NoindexRemoved {
        id: "render/noindex-removed",
        severity: Error,
        summary: "The raw HTML says noindex and rendering removes it, but Google never renders it",
    }
}

impl Rule for NoindexRemoved {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for (resource, page, rendered) in site.rendered() {
                // Blocked pages are never read (robots/blocked-noindex); a DOM read in part may
                // hold its noindex past the cut.
                if resource.verdict(index).is_some_and(|v| !v.allowed) || rendered.read_in_part() {
                    continue;
                }
                let raw = page.signals.directives(profile, site.audit_time);
                let raw_sources = raw.noindex_sources();
                if raw_sources.is_empty()
                    || rendered
                        .signals
                        .directives(profile, site.audit_time)
                        .is_noindex()
                {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the raw HTML is noindex for {} and rendering removes it: {}",
                            profile.display_name(),
                            if profile.is_google() {
                                "Google skips rendering a page whose HTML says noindex, so the page stays out of the index"
                            } else {
                                "a crawler obeys the noindex it reads in the HTML, and one that does not render never sees it removed"
                            }
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(directive_sides(RAW, &resource.url, "noindex", &raw_sources))
                    .evidence(side(RENDERED, &resource.url, "no noindex after rendering", None)),
                );
            }
        }
    }
}
