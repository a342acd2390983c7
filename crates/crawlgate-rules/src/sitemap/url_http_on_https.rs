use crate::support::{canonical_evidence, response_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds sitemap URLs on the site's own host whose scheme is not the one the site settles
    /// on: `http://` URLs when the site canonicalises to `https://`, or the reverse. The site's
    /// scheme is read from its start URL: the scheme it redirects to on the same host, or else
    /// the scheme of its canonical. Without either, the rule stays quiet.
    ///
    /// ## Why is this bad?
    /// Google: "Don't include the HTTP version" of an HTTPS site's URLs in your sitemap. Each
    /// such URL is a redirect or a duplicate, and a sitemap is a canonical signal, so listing
    /// the other scheme argues against the site's own redirects and canonicals.
    ///
    /// ## Example
    /// ```text
    /// http://example.com/      301 → https://example.com/
    /// sitemap.xml              <loc>http://example.com/pricing</loc>
    /// ```
    ///
    /// ## How to fix
    /// Make the generator write the site's canonical scheme and host (the base URL setting of
    /// most CMSs), so the sitemap lists `https://example.com/pricing`.
    pub struct UrlHttpOnHttps {
        id: "sitemap/url-http-on-https",
        severity: Warning,
        summary: "A sitemap lists http:// URLs of an https:// site, or the reverse",
    }
}

impl Rule for UrlHttpOnHttps {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let Some(preferred) = preferred_scheme(site) else {
            return;
        };
        for sitemap in site.sitemaps.iter().filter(|sitemap| !sitemap.is_index()) {
            for entry in sitemap.entries() {
                let Ok(url) = Url::parse(entry.loc.trim()) else {
                    continue; // sitemap/loc-invalid reports it
                };
                if url.host_str() != preferred.host.as_deref()
                    || !matches!(url.scheme(), "http" | "https")
                    || url.scheme() == preferred.scheme
                {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        url.as_str(),
                        format!(
                            "listed in {} as {}:// while the site uses {}:// ({})",
                            sitemap.url,
                            url.scheme(),
                            preferred.scheme,
                            preferred.because
                        ),
                    )
                    .evidence(Evidence::SitemapEntry {
                        sitemap_url: sitemap.url.to_string(),
                        line: entry.line,
                        loc: entry.loc.clone(),
                    })
                    .evidence(preferred.evidence.clone()),
                );
            }
        }
    }
}

/// The scheme the site settles on, and the fact that shows it.
struct Preferred {
    scheme: String,
    host: Option<String>,
    because: String,
    evidence: Evidence,
}

/// Where the start URL redirects on its own host, or else the scheme of the start page's
/// canonical on its own host.
fn preferred_scheme(site: &Site) -> Option<Preferred> {
    let start = site.resource(&site.start_url)?;
    let host = site.start_url.host_str().map(str::to_owned);
    let same_host = |url: &Url| url.host_str() == host.as_deref();
    let home = match &start.state {
        ResourceState::Redirected { final_url, .. } if same_host(final_url) => {
            if final_url.scheme() != site.start_url.scheme() {
                return Some(Preferred {
                    scheme: final_url.scheme().to_owned(),
                    host,
                    because: format!("{} redirects to {final_url}", site.start_url),
                    evidence: response_evidence(start),
                });
            }
            site.resource(final_url)?
        }
        _ => start,
    };
    let page = site.page(home)?;
    let canonical = page
        .signals
        .effective_canonicals()
        .into_iter()
        .find(|c| c.resolved.as_deref().is_some_and(same_host))?;
    let target = canonical.resolved.as_deref()?;
    Some(Preferred {
        scheme: target.scheme().to_owned(),
        host,
        because: format!("{} declares the canonical {target}", home.url),
        evidence: canonical_evidence(&home.url, canonical),
    })
}
