use super::{End, chain_evidence, chain_words, end, hops, inbound_evidence, last_location};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceKind;

declare_rule! {
    /// ## What it does
    /// Finds pages of the crawl whose redirects lead back to a URL already in the chain
    /// (`A → B → A`, or `A → A`), so no page is ever reached. The evidence is the chain, each
    /// hop's URL, status and `Location`, then the pages linking to the first URL.
    ///
    /// ## Why is this bad?
    /// A loop never ends in content: browsers stop with "too many redirects", and Googlebot gives
    /// up and reports a redirect error for the URL, which cannot be indexed ("Redirects and
    /// Google Search"). Loops usually come from two rules undoing each other: a trailing-slash
    /// rule against the application's, `http`/`https` or `www` rules between a CDN and the
    /// origin, or a language redirect keyed on a cookie crawlers do not keep.
    ///
    /// ## Example
    /// ```text
    /// /outlet    301 → /outlet/
    /// /outlet/   301 → /outlet
    /// ```
    ///
    /// ## How to fix
    /// Find the two rules in the chain that send the URL back and forth (web server, CDN,
    /// application), keep one, and make the URL answer 200 at its final address. Test with
    /// `curl -IL URL`.
    pub struct RedirectLoop {
        id: "http/redirect-loop",
        severity: Error,
        summary: "A URL redirects in a loop and never reaches a page",
    }
}

impl Rule for RedirectLoop {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if resource.kind != ResourceKind::Page || end(resource) != End::Loop {
                continue;
            }
            let chain = hops(resource);
            let back_to = last_location(chain).unwrap_or_else(|| resource.url.to_string());
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "redirects in a loop back to {back_to}: {}",
                        chain_words(chain, &back_to)
                    ),
                )
                .evidence(chain_evidence(resource, back_to.clone()))
                .evidence_all(inbound_evidence(site, resource)),
            );
        }
    }
}
