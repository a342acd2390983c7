use super::{End, chain_evidence, chain_words, end, hops, inbound_evidence, last_location};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{ResourceKind, ResourceState};
use crawlgate_core::{Severity, Site};

declare_rule! {
    /// ## What it does
    /// Finds pages of the crawl reached through more than one redirect hop (`A → B → C`),
    /// whatever led to them (a link, a sitemap, a canonical, the start URL). The evidence is
    /// the full chain, each hop's URL, status and `Location`, then the pages linking to the
    /// first URL. A chain longer than the crawler follows (10 hops, as Googlebot) never reaches
    /// a page and is an error. Redirect loops are `http/redirect-loop`.
    ///
    /// ## Why is this bad?
    /// Googlebot follows up to 10 redirect hops; past that it gives up and Search Console
    /// reports a redirect error ("Redirects and Google Search"). Well before that, each hop is
    /// one more request for crawlers and one more round trip for visitors, and chains grow with
    /// every migration (`http` → `https` → `www` → new path). Google advises redirecting to the
    /// final destination and keeping chains short.
    ///
    /// ## Example
    /// ```text
    /// http://example.com/shoes   301 → https://example.com/shoes
    /// https://example.com/shoes  301 → https://www.example.com/shoes/
    /// ```
    ///
    /// ## How to fix
    /// Make the first URL redirect straight to the final one (update the old redirect rules
    /// when adding new ones), and update internal links, sitemaps and canonicals to the final
    /// URL.
    pub struct RedirectChain {
        id: "http/redirect-chain",
        severity: Warning,
        summary: "A URL reaches its page through more than one redirect hop, or never does",
    }
}

impl Rule for RedirectChain {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for resource in site.resources() {
            if resource.kind != ResourceKind::Page {
                continue;
            }
            let chain = hops(resource);
            let report = match (end(resource), &resource.state) {
                (End::Status { .. }, ResourceState::Redirected { final_url, .. })
                    if chain.len() > 1 =>
                {
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "reaches {final_url} through {} redirects: {}",
                            chain.len(),
                            chain_words(chain, final_url.as_str())
                        ),
                    )
                    .evidence(chain_evidence(resource, final_url.to_string()))
                }
                (End::TooManyRedirects, _) => {
                    let next = last_location(chain).unwrap_or_default();
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "redirects more than {} times without reaching a page (Googlebot \
                             follows up to 10 hops): {}",
                            chain.len().saturating_sub(1),
                            chain_words(chain, &format!("{next} …"))
                        ),
                    )
                    .severity(Severity::Error)
                    .evidence(chain_evidence(resource, next))
                }
                _ => continue,
            };
            out.report(report.evidence_all(inbound_evidence(site, resource)));
        }
    }
}
