use super::{RAW, RENDERED, side};
use crate::support::count;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds rendered pages with `<a href>` links that exist only after rendering: their targets
    /// are not linked from the raw HTML. The count and the first targets are given.
    ///
    /// ## Why is this bad?
    /// Google finds links in the rendered page too, but only once it renders the page: "Google
    /// can follow your links only if they are `<a>` HTML elements with an `href` attribute"
    /// (Google Search Central, Link best practices), and pages wait in a render queue before
    /// their script-made links are seen. Crawlers that do not render (most other search engines,
    /// AI crawlers, social previews) never see them, and no crawler renders a page whose HTML
    /// says noindex. Discovery of the targets depends on rendering.
    ///
    /// ## Example
    /// ```html
    /// <nav id="menu"></nav>
    /// <script>menu.innerHTML = '<a href="/shoes">Shoes</a>'</script>
    /// ```
    ///
    /// ## How to fix
    /// Render navigation and links to important pages on the server (server-side rendering,
    /// static generation or hydration of HTML the server already sent), and list the pages in
    /// a sitemap.
    pub struct LinksOnlyRendered {
        id: "render/links-only-rendered",
        severity: Notice,
        summary: "Links that exist only after rendering: their discovery depends on it",
    }
}

/// Link targets quoted per finding (all are counted).
const TARGETS_QUOTED: usize = 10;

impl Rule for LinksOnlyRendered {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, _page, rendered) in site.rendered() {
            if rendered.links_added_count == 0 || !rendered.has_dom() {
                continue;
            }
            let n = rendered.links_added_count as usize;
            let mut occurrence = Occurrence::new(
                resource.url.as_str(),
                format!(
                    "{} only after rendering: Google finds them once it renders the page; crawlers that do not render never do",
                    count(n, "link target appears", "link targets appear")
                ),
            )
            .evidence(side(
                RAW,
                &resource.url,
                count(rendered.raw_links as usize, "link", "links"),
                None,
            ))
            .evidence(side(
                RENDERED,
                &resource.url,
                count(rendered.rendered_links as usize, "link", "links"),
                None,
            ));
            for target in rendered.links_added.iter().take(TARGETS_QUOTED) {
                occurrence = occurrence.evidence(side(
                    RENDERED,
                    &resource.url,
                    format!("links to {target}, not linked in the raw HTML"),
                    None,
                ));
            }
            out.report(occurrence);
        }
    }
}
