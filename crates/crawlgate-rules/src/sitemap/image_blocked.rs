use super::evidence::MAX_QUOTED;
use crate::support::profiles_meant_to_crawl;
use crawlgate_core::declare_rule;
use crawlgate_core::robots::AgentRules;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::site::{RobotsEffect, UrlVerdict, path_and_query};
use crawlgate_core::{Evidence, Site};
use std::collections::BTreeMap;
use url::Url;

/// The crawler that fetches images for Google Images (robots.txt group `googlebot-image`, then
/// `googlebot`, then `*`).
const IMAGE_CRAWLER: &str = "googlebot-image";

declare_rule! {
    /// ## What it does
    /// Finds images listed in an image sitemap (`image:image/image:loc`) that robots.txt
    /// disallows for Googlebot-Image, which obeys a `User-agent: Googlebot-Image` group, else
    /// the `Googlebot` group, else `*`. Checked when a Google profile is audited, for images on
    /// hosts whose robots.txt the audit read.
    ///
    /// ## Why is this bad?
    /// Listing an image asks Google to index it; the Disallow stops Googlebot-Image from
    /// fetching it, so it cannot appear in Google Images. Often the rule was meant for
    /// something else (`Disallow: /wp-content/` also blocks `/wp-content/uploads/`).
    ///
    /// ## Example
    /// ```text
    /// robots.txt   User-agent: *
    ///              Disallow: /media/
    /// sitemap.xml  <image:loc>https://example.com/media/red-shoes.jpg</image:loc>
    /// ```
    ///
    /// ## How to fix
    /// Allow the image paths for Googlebot-Image (narrow the rule quoted in the evidence, or add
    /// a longer `Allow:`), or drop the images you do not want in image search from the sitemap.
    ///
    /// Not reported when Googlebot-Image is declared expected-blocked
    /// (`--expect-blocked googlebot-image`): the images are then kept out on purpose.
    pub struct ImageBlocked {
        id: "sitemap/image-blocked",
        severity: Warning,
        summary: "An image listed in a sitemap is disallowed for Googlebot-Image",
    }
}

impl Rule for ImageBlocked {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        // Google's crawlers meant to crawl; none when Googlebot-Image is kept out on purpose.
        let audits_google = !site.expected_blocked.contains(IMAGE_CRAWLER)
            && profiles_meant_to_crawl(site)
                .any(|(_, profile)| profile.name.starts_with("googlebot"));
        let Some(crawler) = Profile::builtin(IMAGE_CRAWLER).filter(|_| audits_google) else {
            return;
        };
        let tokens: Vec<&str> = crawler.robots_tokens.iter().map(String::as_str).collect();
        // Each origin's rules compiled once for the crawler: compiling per image would dominate.
        let mut compiled: BTreeMap<&str, AgentRules<'_>> = BTreeMap::new();
        // Each blocked image once, with the entries that list it.
        let mut blocked: BTreeMap<String, (UrlVerdict, Url, Vec<Evidence>)> = BTreeMap::new();
        for sitemap in site.sitemaps.iter().filter(|sitemap| !sitemap.is_index()) {
            for entry in sitemap.entries() {
                for image in &entry.images {
                    let Ok(url) = Url::parse(image.loc.trim()) else {
                        continue;
                    };
                    let listing = || Evidence::SitemapEntry {
                        sitemap_url: sitemap.url.to_string(),
                        line: entry.line,
                        loc: entry.loc.clone(),
                    };
                    if let Some((_, _, listings)) = blocked.get_mut(url.as_str()) {
                        if listings.len() < MAX_QUOTED {
                            listings.push(listing());
                        }
                        continue;
                    }
                    // Not read: no verdict, as for any URL whose robots.txt is unknown.
                    let Some(robots) = site.robots_for(&url) else {
                        continue;
                    };
                    let allowed = match robots.effect {
                        RobotsEffect::AllowAll => true,
                        RobotsEffect::DisallowAll => false,
                        RobotsEffect::Rules => {
                            compiled
                                .entry(robots.origin.as_str())
                                .or_insert_with(|| robots.parsed.agent(&tokens))
                                .verdict(path_and_query(&url))
                                .allowed
                        }
                    };
                    if !allowed {
                        // The full verdict, with its evidence, for the few that are blocked.
                        let verdict = UrlVerdict::compute(Some(robots), &crawler, &url);
                        blocked.insert(url.to_string(), (verdict, url, vec![listing()]));
                    }
                }
            }
        }
        for (image, (verdict, url, listings)) in blocked {
            let pages: Vec<&str> = listings
                .iter()
                .filter_map(|listing| match listing {
                    Evidence::SitemapEntry { loc, .. } => Some(loc.as_str()),
                    _ => None,
                })
                .collect();
            out.report(
                Occurrence::new(
                    image.as_str(),
                    format!(
                        "listed as an image of {} but disallowed for Googlebot-Image, so it \
                         cannot appear in Google Images",
                        pages.join(", ")
                    ),
                )
                .profile(IMAGE_CRAWLER)
                .evidence(verdict.evidence(IMAGE_CRAWLER, site.robots_for(&url)))
                .evidence_all(listings),
            );
        }
    }
}
