use super::document::{Anchor, issues};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::site::{RobotsEffect, SitemapFile, SitemapState};
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds URLs on another scheme, host or port than the sitemap that lists them, unless the
    /// robots.txt of the URL's host lists this sitemap (a cross-submit, which proves one owner
    /// controls both hosts). crawlgate reads those robots.txt files to check.
    ///
    /// ## Why is this bad?
    /// The protocol requires all URLs of a sitemap to be on the sitemap's own host. A sitemap
    /// on one host may list URLs of another only when the other host's robots.txt names the
    /// sitemap (or both are verified together in Search Console). Without that proof search
    /// engines ignore the URLs, so those pages are not announced at all.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml   <loc>https://shop.example.com/cart</loc>
    /// https://shop.example.com/robots.txt   (no Sitemap: line naming it)
    /// ```
    ///
    /// ## How to fix
    /// Either list each host's URLs in a sitemap on that host, or add
    /// `Sitemap: https://example.com/sitemap.xml` to the robots.txt of every other host the
    /// sitemap lists. Check that `http://` and `https://`, and `www.` and the bare domain, are
    /// not mixed by mistake.
    pub struct CrossHostUrl {
        code: crawlgate_core::sitemap::Code::CrossHostUrl,
        summary: "A sitemap lists a URL on another host without proof that one owner controls both",
    }
}

impl Rule for CrossHostUrl {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for found in issues(site, Self::META.id, Anchor::Loc) {
            let url = found
                .entry
                .and_then(|entry| Url::parse(entry.loc.trim()).ok());
            let mut report = found.report();
            if let Some(url) = url {
                match proof(site, found.sitemap, &url) {
                    Proof::Given => continue,
                    Proof::Missing(robots_fetch) => {
                        report = report.evidence(robots_fetch).evidence(Evidence::Note {
                            text: format!(
                                "no `Sitemap:` line of {}/robots.txt names {}",
                                url.origin().ascii_serialization(),
                                found.sitemap.url
                            ),
                        });
                    }
                    Proof::Unknown => {
                        report = report.evidence(Evidence::Note {
                            text: format!(
                                "{}/robots.txt was not read during the audit (a crawl bound was \
                                 reached), so a cross-submit could not be checked",
                                url.origin().ascii_serialization()
                            ),
                        });
                    }
                }
            }
            out.report(report);
        }
    }
}

/// Whether the robots.txt of `url`'s host vouches for `sitemap`.
enum Proof {
    /// It lists the sitemap.
    Given,
    /// It was read and does not (its fetch, as evidence).
    Missing(Evidence),
    /// It was not read.
    Unknown,
}

fn proof(site: &Site, sitemap: &SitemapFile, url: &Url) -> Proof {
    let Some(robots) = site.robots_for(url) else {
        return Proof::Unknown;
    };
    let final_url = match &sitemap.state {
        SitemapState::Parsed { final_url, .. } => Some(final_url),
        _ => None,
    };
    let names_it = robots.effect == RobotsEffect::Rules
        && robots.parsed.sitemaps().iter().any(|line| {
            Url::parse(line.url.trim())
                .is_ok_and(|named| named == sitemap.url || Some(&named) == final_url)
        });
    if names_it {
        Proof::Given
    } else {
        Proof::Missing(robots.fetch_evidence())
    }
}
