use crate::robots::assets::{BlockedAsset, blocked_asset_report, used_as};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::robots::AgentRules;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::signals::{AssetKind, Profile};
use crawlgate_core::site::{RobotsEffect, UrlVerdict, path_and_query};
use std::collections::BTreeMap;
use url::Url;

/// Google's image crawler, whose robots.txt group decides whether an image may be fetched.
const IMAGE_CRAWLER: &str = "googlebot-image";

declare_rule! {
    /// ## What it does
    /// Finds images (`<img src>`, `srcset` candidates, `<picture><source>`, `og:image`, `<link
    /// rel="preload" as="image">`) that indexable pages use and robots.txt disallows for Google's
    /// image crawler. Googlebot-Image obeys the `Googlebot-Image` group if there is one, else the
    /// `Googlebot` group, else `*`; crawlgate evaluates that chain whatever crawlers the audit
    /// evaluates. The finding is reported under the audited Google profile (`googlebot-image` when
    /// audited, else `googlebot`; audits of other crawlers only do not report it). The finding is
    /// about the image; the pages using it are in the evidence.
    ///
    /// ## Why is this bad?
    /// Google cannot fetch a disallowed image, so it cannot show it in Google Images, use it as the
    /// page's thumbnail in search results or Discover, or read it when it renders the page. Images
    /// are often blocked by accident, by a rule written for something else (`Disallow: /media/`
    /// also covering `/media/images/`).
    ///
    /// ## Example
    /// ```text
    /// robots.txt   User-agent: Googlebot-Image
    ///              Disallow: /uploads/
    /// /product/1   <img src="/uploads/shoe.jpg">
    /// ```
    ///
    /// ## How to fix
    /// Allow crawling of the images you want in search: remove or narrow the Disallow rule quoted
    /// in the evidence, or add `Allow: /uploads/` to the group Googlebot-Image obeys. If the images
    /// should stay out of Google Images, the block is intended: declare it with
    /// `--expect-blocked googlebot-image` (this rule then stays quiet) or turn the rule off.
    pub struct BlockedImage {
        id: "robots/blocked-image",
        severity: Warning,
        summary: "An image that indexable pages use is disallowed for Googlebot-Image",
    }
}

impl Rule for BlockedImage {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let Some((index, reporting)) = reporting_profile(site) else {
            return;
        };
        if site.expects_blocked(index) {
            return; // Google's image crawler is meant to stay out
        }
        let Some(mut verdicts) = ImageVerdicts::new(site) else {
            return;
        };
        for asset in site.resources() {
            if !used_as(site, asset, AssetKind::Image) {
                continue;
            }
            let robots = site.robots_for(&asset.url);
            let Some(verdict) = verdicts.disallowed(&asset.url) else {
                continue;
            };
            let blocked = BlockedAsset {
                asset,
                kind: AssetKind::Image,
                verdict: &verdict,
                crawler: "Googlebot-Image",
                verdict_evidence: verdict.evidence(IMAGE_CRAWLER, robots),
                profile_index: index,
                consequence: "Google cannot show it in Google Images or as a page's image"
                    .to_owned(),
            };
            if let Some(report) = blocked_asset_report(site, &blocked) {
                out.report(report.profile(&reporting.name));
            }
        }
    }
}

/// The audited profile image findings are reported under: `googlebot-image` if audited, else the
/// first profile that obeys Googlebot's group (`googlebot`).
fn reporting_profile(site: &Site) -> Option<(usize, &Profile)> {
    let profiles = || site.profiles.iter().enumerate();
    profiles()
        .find(|(_, profile)| profile.name == IMAGE_CRAWLER)
        .or_else(|| {
            profiles().find(|(_, profile)| {
                profile
                    .robots_tokens
                    .iter()
                    .any(|token| token.eq_ignore_ascii_case("googlebot"))
            })
        })
}

/// Googlebot-Image's verdicts, its rules compiled once per robots.txt (a site may have thousands of
/// images).
struct ImageVerdicts<'a> {
    site: &'a Site,
    crawler: Profile,
    compiled: BTreeMap<&'a str, AgentRules<'a>>,
}

impl<'a> ImageVerdicts<'a> {
    fn new(site: &'a Site) -> Option<Self> {
        Some(Self {
            site,
            crawler: Profile::builtin(IMAGE_CRAWLER)?,
            compiled: BTreeMap::new(),
        })
    }

    /// The verdict on `url` when it is disallowed (most images are not: their verdict is not
    /// built).
    fn disallowed(&mut self, url: &Url) -> Option<UrlVerdict> {
        let robots = self.site.robots_for(url);
        let Some(file) = robots.filter(|file| file.effect == RobotsEffect::Rules) else {
            let verdict = UrlVerdict::compute(robots, &self.crawler, url);
            return (!verdict.allowed).then_some(verdict);
        };
        let crawler = &self.crawler;
        let agent = self
            .compiled
            .entry(file.origin.as_str())
            .or_insert_with(|| {
                let tokens: Vec<&str> = crawler.robots_tokens.iter().map(String::as_str).collect();
                file.parsed.agent(&tokens)
            });
        if agent.is_allowed(path_and_query(url)) {
            return None;
        }
        Some(UrlVerdict::with_rules(file, agent, url))
    }
}
