use super::{End, end, hops, inbound_evidence, linked_words, links_total};
use crate::support::response_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;

declare_rule! {
    /// ## What it does
    /// Finds URLs of the site that crawled pages link to (`<a href>`, followed or not) and that
    /// redirect to a URL that answers (2xx, or a 3xx that is not a redirect). The finding names
    /// the final URL to link to instead. Redirects that end in an error are reported by
    /// `http/internal-link-4xx` or `http/internal-link-5xx`, loops by `http/redirect-loop`.
    ///
    /// ## Why is this bad?
    /// A redirect works: Google follows it and a permanent one passes the link on to its target
    /// ("Redirects and Google Search"). But every internal link to a redirect costs a request
    /// for each visit and each crawl, slows the page down for visitors, and keeps the old URL
    /// alive as a signal that competes with the new one. Google's own advice after moving URLs
    /// is to update internal links to point to the new URLs. A best practice, hence a notice.
    ///
    /// ## Example
    /// ```text
    /// /          <a href="/shop/rainwear">Rainwear</a>
    /// /shop/rainwear   301 → /shop/rain-gear/
    /// ```
    ///
    /// ## How to fix
    /// Change the links (in templates, menus, the CMS's content) to the final URL quoted in the
    /// evidence. Keep the redirect for visitors and links from other sites.
    pub struct InternalLinkRedirect {
        id: "http/internal-link-redirect",
        severity: Notice,
        summary: "Crawled pages link to a URL of the site that redirects",
    }
}

impl Rule for InternalLinkRedirect {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if links_total(resource) == 0 {
                continue;
            }
            let End::Status {
                status,
                redirected: true,
            } = end(resource)
            else {
                continue;
            };
            let ResourceState::Redirected { final_url, .. } = &resource.state else {
                continue;
            };
            if status >= 400 {
                continue;
            }
            let first = hops(resource).first().map_or(0, |hop| hop.status);
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "redirects ({first}) to {final_url}; {}: link to {final_url} instead",
                        linked_words(resource)
                    ),
                )
                .evidence(response_evidence(resource))
                .evidence_all(inbound_evidence(site, resource)),
            );
        }
    }
}
