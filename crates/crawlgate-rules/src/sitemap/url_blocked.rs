use crate::support::{listing_evidence, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds URLs listed in a sitemap that robots.txt disallows for the audited crawler.
    ///
    /// ## Why is this bad?
    /// A sitemap says "crawl and index these URLs"; a Disallow says "don't crawl them". Google
    /// follows the Disallow, reports the URL as "Blocked by robots.txt" in the sitemap report, and
    /// may index it without content from the sitemap alone. The contradiction usually means a rule
    /// is wider than intended or the sitemap generator includes private sections.
    ///
    /// ## Example
    /// ```text
    /// robots.txt     Disallow: /shop/
    /// sitemap.xml    <loc>https://example.com/shop/shoes</loc>
    /// ```
    ///
    /// ## How to fix
    /// If the URL should be found in search, narrow or remove the Disallow rule quoted in the
    /// evidence. If it should not, take it out of the sitemap.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): a sitemap
    /// lists URLs for search engines, and keeping such a crawler off them is what you want.
    pub struct UrlBlocked {
        id: "sitemap/url-blocked",
        severity: Error,
        summary: "A sitemap lists a URL that robots.txt disallows",
    }
}

impl Rule for UrlBlocked {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for sitemap in &site.sitemaps {
            if sitemap.is_index() {
                continue;
            }
            for entry in sitemap.entries() {
                let Ok(url) = Url::parse(entry.loc.trim()) else {
                    continue; // sitemap/loc-invalid reports it
                };
                // The crawl's stored verdicts, when it knows the URL (most sitemap URLs).
                let known = site.resource(&url);
                for (index, profile) in profiles_meant_to_crawl(site) {
                    let allowed = match known.and_then(|resource| resource.verdict(index)) {
                        Some(verdict) => verdict.allowed,
                        None => site.verdict(index, &url).allowed,
                    };
                    if allowed {
                        continue;
                    }
                    let listing = crawlgate_core::site::SitemapListing {
                        sitemap: sitemap.url.clone().into(),
                        line: entry.line,
                    };
                    out.report(
                        Occurrence::new(
                            url.as_str(),
                            format!(
                                "listed in {} but disallowed for {} by robots.txt",
                                sitemap.url,
                                profile.display_name()
                            ),
                        )
                        .profile(&profile.name)
                        .evidence(verdict_evidence(site, index, &url))
                        .evidence(listing_evidence(&listing, &url)),
                    );
                }
            }
        }
    }
}
