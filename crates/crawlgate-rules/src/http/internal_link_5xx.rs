use super::{
    End, chain_evidence, end, hops, inbound_evidence, last_location, linked_words, links_total,
};
use crate::support::response_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;

declare_rule! {
    /// ## What it does
    /// Finds URLs of the site that crawled pages link to (`<a href>`, followed or not) and that
    /// answer with a server error (5xx) or `429 Too Many Requests`, directly or at the end of
    /// their redirects, or give no usable response at all: the host name does not resolve, the
    /// connection is refused, reset or times out, TLS fails, the response is not valid HTTP or
    /// its body breaks off, or a redirect has an unusable `Location`. Redirect loops and chains
    /// too long to follow are `http/redirect-loop` and `http/redirect-chain`.
    ///
    /// ## Why is this bad?
    /// Google treats 5xx and 429 as server errors and network failures (timeouts, resets, DNS
    /// errors) "similarly to 5xx server errors": its crawlers slow down for the whole site, and
    /// URLs that keep failing are eventually dropped from the index, even when they were indexed
    /// ("How HTTP status codes, and network and DNS errors affect Google Search"). Visitors
    /// following the link get an error page or nothing.
    ///
    /// ## Example
    /// ```text
    /// /            <a href="/reports/2025">Annual report</a>
    /// /reports/2025   503 Service Unavailable
    /// ```
    ///
    /// ## How to fix
    /// Look in the server's logs for the URL at the time of the audit: a crashing template, a
    /// timeout of a slow back end, an overloaded server or a firewall rule. A page that is down
    /// on purpose (maintenance) should answer 503 with a `Retry-After` header, briefly. If the
    /// page is gone, remove the links (and let it answer 404 or 410).
    pub struct InternalLink5xx {
        id: "http/internal-link-5xx",
        severity: Error,
        summary: "Crawled pages link to a URL of the site that answers 5xx or 429, or gives no response",
    }
}

impl Rule for InternalLink5xx {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if links_total(resource) == 0 {
                continue;
            }
            let answer = match end(resource) {
                End::Status { status, redirected } if status >= 500 || status == 429 => {
                    match &resource.state {
                        ResourceState::Redirected { final_url, .. } if redirected => {
                            format!("redirects to {final_url}, which answers {status}")
                        }
                        _ => format!("answers {status}"),
                    }
                }
                End::NoResponse { kind, message } => {
                    format!("gives no usable response ({}: {message})", kind.as_str())
                }
                _ => continue,
            };
            let mut report = Occurrence::new(
                resource.url.as_str(),
                format!("{answer}; {}", linked_words(resource)),
            )
            .evidence(response_evidence(resource));
            if let ResourceState::Failed { hops: chain, .. } = &resource.state
                && !chain.is_empty()
            {
                let to = last_location(hops(resource)).unwrap_or_default();
                report = report.evidence(chain_evidence(resource, to));
            }
            if let ResourceState::Redirected { final_url, .. } = &resource.state
                && let Some(target) = site.resource(final_url)
            {
                report = report.evidence(response_evidence(target));
            }
            out.report(report.evidence_all(inbound_evidence(site, resource)));
        }
    }
}
