use super::evidence::MAX_QUOTED;
use crate::robots::files::audited_files;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{RobotsEffect, SitemapSource, origin_of, robots_url_of};
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Reports a site for which no sitemap was found: its robots.txt has no `Sitemap:` line
    /// that leads to one, none was given in the audit's configuration, and none was found at
    /// `/sitemap.xml` (a sitemap found only there is reported as `sitemap/unadvertised`).
    /// `Sitemap:` lines that cannot be used (a relative or non-http URL) are quoted. Each further
    /// origin the audit covers (a help centre, a blog on its own host) is checked too: one whose
    /// robots.txt was read but that has no sitemap of its own, named or found, is reported.
    ///
    /// ## Why is this bad?
    /// A sitemap is how a site tells search engines which URLs it wants crawled and when they
    /// changed. Without one, new and deep pages are found only through links, later or not at
    /// all. Small, well-linked sites manage without; large, new or fast-changing sites do not.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/robots.txt
    /// User-agent: *
    /// Disallow: /cart/
    /// (no Sitemap: line)
    /// ```
    ///
    /// ## How to fix
    /// Generate an XML sitemap of the pages you want in search results (most CMSs and
    /// frameworks have a plugin or setting), then add a line with its absolute URL to
    /// robots.txt, `Sitemap: https://example.com/sitemap.xml`, and submit it in Search Console.
    pub struct NoneFound {
        id: "sitemap/none-found",
        severity: Notice,
        summary: "No sitemap is listed in robots.txt or configured",
    }
}

/// The audited origins besides the start's whose robots.txt was read (status 2xx, rules
/// parsed) yet no sitemap is on the origin or named by that robots.txt.
fn check_other_origins(site: &Site, out: &mut Findings<'_>) {
    let start = origin_of(&site.start_url);
    for file in audited_files(site) {
        if file.origin == start || file.effect != RobotsEffect::Rules {
            continue;
        }
        let robots_url = file.url.as_str();
        let has_sitemap = site.sitemaps.iter().any(|sitemap| {
                origin_of(&sitemap.url) == file.origin
                    || sitemap.sources.iter().any(|source| {
                        matches!(source, SitemapSource::RobotsTxt { robots_url: named, .. } if named == robots_url)
                    })
            });
        if has_sitemap {
            continue;
        }
        out.report(
            Occurrence::new(
                robots_url,
                format!(
                    "no sitemap found for {}: {robots_url} names none and none was found on the \
                     origin, so its pages are found only through links",
                    file.origin
                ),
            )
            .evidence(file.fetch_evidence()),
        );
    }
}

impl Rule for NoneFound {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        check_other_origins(site, out);
        // Any sitemap met at all (even one that failed) was named somewhere: other rules speak.
        if !site.sitemaps.is_empty() {
            return;
        }
        let robots_url = robots_url_of(&site.start_url);
        let robots = site.robots_for(&site.start_url);
        let mut report = Occurrence::new(
            robots_url.as_str(),
            format!(
                "no sitemap found for {}: {robots_url} lists none that can be read and none was \
                 configured",
                site.start_url.origin().ascii_serialization()
            ),
        );
        match robots {
            Some(robots) => {
                report = report.evidence(robots.fetch_evidence());
                // `Sitemap:` lines that name no usable sitemap (relative, or robots.txt itself).
                for line in robots.parsed.sitemaps().iter().take(MAX_QUOTED) {
                    let text = robots
                        .line_text(line.line)
                        .unwrap_or_else(|| format!("Sitemap: {}", line.url));
                    let why = match Url::parse(line.url.trim()) {
                        Err(_) => "is not an absolute URL, so it is ignored",
                        Ok(url) if !matches!(url.scheme(), "http" | "https") => {
                            "is not an http(s) URL, so it is ignored"
                        }
                        Ok(_) => "names a robots.txt, not a sitemap",
                    };
                    report = report
                        .evidence(Evidence::RobotsLine {
                            robots_url: robots.url.to_string(),
                            line: line.line,
                            text,
                        })
                        .evidence(Evidence::Note {
                            text: format!("line {}: `{}` {why}", line.line, line.url),
                        });
                }
            }
            None => {
                report = report.evidence(Evidence::Note {
                    text: format!("{robots_url} was not fetched"),
                });
            }
        }
        out.report(report);
    }
}
