use super::{End, end, inbound_evidence, linked_words, links_total};
use crate::support::response_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;

declare_rule! {
    /// ## What it does
    /// Finds URLs of the site that crawled pages link to (`<a href>`, followed or not) and that
    /// answer with a client error, 4xx other than 429, directly or at the end of their
    /// redirects. One finding per broken URL, with the linking pages (the first few, and how
    /// many links there are) as evidence. `429 Too Many Requests` is a server error for Google
    /// and is reported by `http/internal-link-5xx`.
    ///
    /// ## Why is this bad?
    /// Google treats every 4xx but 429 the same way: the content does not exist. Its indexing
    /// pipeline does not index such URLs and drops them from the index when they were indexed
    /// ("How HTTP status codes, and network and DNS errors affect Google Search"). A link to one
    /// leads visitors to an error page, spends crawling on a dead end, and passes no signal to
    /// any content. A 401 or 403 on a linked page usually means a sign-in or a firewall rule
    /// that also shuts out search engines.
    ///
    /// ## Example
    /// ```text
    /// /shop/          <a href="/shop/old-tent">Old tent</a>
    /// /shop/old-tent  404 Not Found
    /// ```
    ///
    /// ## How to fix
    /// Point the links at the page that replaced the content, or remove them. If the content
    /// moved, also redirect (301) the old URL to its new home; if it is gone for good, a 404
    /// or 410 is right, but nothing should link to it. For 401/403, check whether the page is
    /// meant to be public.
    pub struct InternalLink4xx {
        id: "http/internal-link-4xx",
        severity: Error,
        summary: "Crawled pages link to a URL of the site that answers 4xx",
    }
}

impl Rule for InternalLink4xx {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if links_total(resource) == 0 {
                continue;
            }
            let End::Status { status, redirected } = end(resource) else {
                continue;
            };
            if !(400..500).contains(&status) || status == 429 {
                continue;
            }
            let answer = match &resource.state {
                ResourceState::Redirected { final_url, .. } if redirected => {
                    format!("redirects to {final_url}, which answers {status}")
                }
                _ => format!("answers {status}"),
            };
            let mut report = Occurrence::new(
                resource.url.as_str(),
                format!("{answer}; {}", linked_words(resource)),
            )
            .evidence(response_evidence(resource));
            if let ResourceState::Redirected { final_url, .. } = &resource.state
                && let Some(target) = site.resource(final_url)
            {
                report = report.evidence(response_evidence(target));
            }
            out.report(report.evidence_all(inbound_evidence(site, resource)));
        }
    }
}
