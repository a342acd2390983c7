use super::evidence::{MAX_QUOTED, sources_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{SitemapSource, robots_url_of};
use crawlgate_core::sitemap::SitemapKind;
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps that exist (found at `/sitemap.xml`, or given in the audit's
    /// configuration, e.g. the one submitted in Search Console) but that no robots.txt
    /// `Sitemap:` line and no sitemap index names.
    ///
    /// ## Why is this bad?
    /// robots.txt is where every crawler looks for sitemaps. A sitemap submitted only in
    /// Search Console is unknown to Bing and other search engines, and one that merely sits at
    /// `/sitemap.xml` is found only by crawlers that guess the path.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml   a valid sitemap
    /// https://example.com/robots.txt    no `Sitemap:` line
    /// ```
    ///
    /// ## How to fix
    /// Add `Sitemap: https://example.com/sitemap.xml` (the full URL) to robots.txt. If the file
    /// is an old sitemap nobody maintains, delete it instead.
    pub struct Unadvertised {
        id: "sitemap/unadvertised",
        severity: Notice,
        summary: "A sitemap exists but robots.txt does not list it",
    }
}

impl Rule for Unadvertised {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let robots_url = robots_url_of(&site.start_url);
        let robots = site.robots_for(&site.start_url);
        for sitemap in &site.sitemaps {
            let named = sitemap.sources.iter().any(|source| {
                matches!(
                    source,
                    SitemapSource::RobotsTxt { .. } | SitemapSource::Index { .. }
                )
            });
            let is_sitemap = sitemap
                .summary()
                .is_some_and(|summary| summary.kind != SitemapKind::Unknown);
            if named || !is_sitemap {
                continue;
            }
            let found_by = if sitemap.sources.contains(&SitemapSource::Probe) {
                "found by probing the well-known path"
            } else {
                "given in the configuration"
            };
            let mut report = Occurrence::new(
                sitemap.url.as_str(),
                format!("a sitemap {found_by}, but no `Sitemap:` line of {robots_url} names it"),
            )
            .evidence_all(sources_evidence(site, sitemap));
            if let Some(robots) = robots {
                report = report.evidence(robots.fetch_evidence());
                // The sitemaps robots.txt does list, if any: often an older file.
                for line in robots.parsed.sitemaps().iter().take(MAX_QUOTED) {
                    report = report.evidence(Evidence::RobotsLine {
                        robots_url: robots.url.to_string(),
                        line: line.line,
                        text: robots
                            .line_text(line.line)
                            .unwrap_or_else(|| format!("Sitemap: {}", line.url)),
                    });
                }
            }
            out.report(report);
        }
    }
}
