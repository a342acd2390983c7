use super::evidence::sources_evidence;
use crate::support::{profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps whose own URL robots.txt disallows for the audited crawler.
    ///
    /// ## Why is this bad?
    /// Google follows a sitemap named in robots.txt only if the sitemap's own URL is not
    /// disallowed: a crawler that obeys robots.txt does not fetch a disallowed sitemap, so none
    /// of the URLs it lists are announced. The rule responsible is usually a broad one (`Disallow: /*.xml$`,
    /// `Disallow: /wp-content/`) written for other files.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /*.xml$
    ///              Sitemap: https://example.com/sitemap.xml
    /// ```
    ///
    /// ## How to fix
    /// Add an `Allow:` for the sitemap's path (a longer rule wins: `Allow: /sitemap.xml`) or
    /// narrow the Disallow rule quoted in the evidence.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): sitemaps
    /// announce URLs to the crawlers meant to crawl them.
    pub struct BlockedByRobots {
        id: "sitemap/blocked-by-robots",
        severity: Error,
        summary: "robots.txt disallows a sitemap, so crawlers will not fetch it",
    }
}

impl Rule for BlockedByRobots {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for sitemap in &site.sitemaps {
                if site.verdict(index, &sitemap.url).allowed {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        sitemap.url.as_str(),
                        format!(
                            "robots.txt disallows this sitemap for {}, so it will not be fetched \
                             and none of its URLs announced",
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(verdict_evidence(site, index, &sitemap.url))
                    .evidence_all(sources_evidence(site, sitemap)),
                );
            }
        }
    }
}
