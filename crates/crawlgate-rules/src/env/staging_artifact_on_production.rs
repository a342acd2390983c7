use super::home::{home, html_pages};
use crate::support::{
    canonical_evidence, count, directives_evidence, ok_pages, profiles, profiles_meant_to_crawl,
    verdict_evidence,
};
use crawlgate_core::declare_rule;
use crawlgate_core::robots::Directive;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::LinkSource;
use crawlgate_core::site::{Environment, HostPattern, RobotsEffect};
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// When the audit is told the site is production (`--environment production`), looks for
    /// what staging sites carry and production must not:
    ///
    /// - robots.txt disallowing `/` for an audited crawler (not one declared expected-blocked,
    ///   `--expect-blocked gptbot`: keeping it out is a production setting too);
    /// - a site-wide noindex: on the home page, or on nine in ten crawled pages (meta robots or
    ///   `X-Robots-Tag`);
    /// - canonical, hreflang, sitemap or robots.txt `Sitemap:` URLs on a non-production host
    ///   (by default `localhost`, `staging.…`, `dev.…`, `preview.…`, `*.vercel.app`,
    ///   `*.netlify.app` and the like; configurable).
    ///
    /// ## Why is this bad?
    /// These are the settings that keep a staging site out of search, deployed to production by
    /// a configuration copied across environments. Each one takes the site out of search or
    /// hands its rankings to a host that should not exist publicly: `Disallow: /` stops
    /// crawling, a site-wide noindex drops every page, a canonical to `staging.` tells Google
    /// the staging copy is the original.
    ///
    /// ## Example
    /// ```text
    /// # https://www.example.com/robots.txt, just after a deploy
    /// User-agent: *
    /// Disallow: /
    /// ```
    /// ```html
    /// <link rel="canonical" href="https://staging.example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Make these settings depend on the environment (an environment variable read by the
    /// robots.txt, header and canonical templates), remove the artefact quoted in the evidence,
    /// and run `crawlgate audit --environment production` after every deploy so it cannot come
    /// back unnoticed.
    pub struct StagingArtifactOnProduction {
        id: "env/staging-artifact-on-production",
        severity: Critical,
        summary: "The production site carries a staging setting (Disallow: /, site-wide noindex, URLs on a non-production host)",
    }
}

/// Pages that must be noindex, out of the crawled ones, for a noindex to count as site-wide.
const SITE_WIDE_SHARE_PERCENT: usize = 90;
/// Crawled pages needed before a share of noindex pages means anything.
const SITE_WIDE_MIN_PAGES: usize = 3;
/// Sitemap entries quoted per sitemap.
const MAX_ENTRIES_QUOTED: usize = 10;
/// hreflang alternates quoted per page.
const MAX_ALTERNATES_QUOTED: usize = 10;

impl Rule for StagingArtifactOnProduction {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        if site.environment.environment != Some(Environment::Production) {
            return;
        }
        disallow_all(site, out);
        site_wide_noindex(site, out);
        canonicals(site, out);
        hreflang(site, out);
        sitemap_entries(site, out);
        robots_sitemap_lines(site, out);
    }
}

/// robots.txt of the start origin disallows `/` for an audited crawler meant to crawl.
fn disallow_all(site: &Site, out: &mut Findings<'_>) {
    let Some(file) = site.robots_for(&site.start_url) else {
        return;
    };
    if file.effect != RobotsEffect::Rules {
        return; // robots/unreachable says what a failed fetch means
    }
    let Ok(root) = site.start_url.join("/") else {
        return;
    };
    for (index, profile) in profiles_meant_to_crawl(site) {
        let tokens: Vec<&str> = profile.robots_tokens.iter().map(String::as_str).collect();
        let agent = file.parsed.agent(&tokens);
        let Some(rule) = agent
            .deciding_rule("/")
            .filter(|rule| rule.directive == Directive::Disallow)
        else {
            continue;
        };
        out.report(
            Occurrence::new(
                file.url.as_str(),
                format!(
                    "the production robots.txt disallows the whole site for {} (line {}: \
                     `Disallow: {}`), the setting of a staging site",
                    profile.display_name(),
                    rule.line,
                    rule.pattern
                ),
            )
            .profile(&profile.name)
            .evidence(verdict_evidence(site, index, &root)),
        );
    }
}

/// The home page, or nearly every crawled page, carries noindex for an audited crawler.
fn site_wide_noindex(site: &Site, out: &mut Findings<'_>) {
    let home = home(site);
    for (index, profile) in profiles(site) {
        let mut crawled = 0usize;
        let mut noindex = 0usize;
        let mut first_noindex = None;
        for (resource, page) in html_pages(site) {
            if resource
                .verdict(index)
                .is_some_and(|verdict| !verdict.allowed)
            {
                continue; // a disallowed page's noindex is never read
            }
            crawled += 1;
            if page
                .signals
                .directives(profile, site.audit_time)
                .is_noindex()
            {
                noindex += 1;
                first_noindex.get_or_insert((resource, page));
            }
        }
        let home_noindex = home.as_ref().filter(|(resource, page)| {
            resource
                .verdict(index)
                .is_none_or(|verdict| verdict.allowed)
                && (200..300).contains(&page.status)
                && page
                    .signals
                    .directives(profile, site.audit_time)
                    .is_noindex()
        });
        let share =
            crawled >= SITE_WIDE_MIN_PAGES && noindex * 100 >= crawled * SITE_WIDE_SHARE_PERCENT;
        let chosen = home_noindex.or(first_noindex.as_ref().filter(|_| share));
        let Some((resource, page)) = chosen else {
            continue;
        };
        let directives = page.signals.directives(profile, site.audit_time);
        let sources = directives.noindex_sources();
        let where_ = if home_noindex.is_some() {
            "the home page"
        } else {
            "nearly every page"
        };
        out.report(
            Occurrence::new(
                site.start_url.as_str(),
                format!(
                    "{where_} of the production site is noindex for {} ({noindex} of {} \
                     crawled): the setting of a staging site",
                    profile.display_name(),
                    count(crawled, "page", "pages")
                ),
            )
            .profile(&profile.name)
            .evidence_all(directives_evidence(&resource.url, &sources))
            .evidence(Evidence::Note {
                text: format!(
                    "{noindex} of {} crawled HTML pages carry noindex for {}",
                    count(crawled, "page", "pages"),
                    profile.display_name()
                ),
            }),
        );
    }
}

/// The pattern a referenced URL's host matches, unless it is the audited host itself (declared
/// production, whatever its name).
fn off_production<'a>(site: &'a Site, url: &Url) -> Option<&'a HostPattern> {
    if url.host_str() == site.start_url.host_str() {
        return None;
    }
    site.environment.non_production(url)
}

fn canonicals(site: &Site, out: &mut Findings<'_>) {
    for (resource, page) in ok_pages(site) {
        for canonical in page.signals.effective_canonicals() {
            let Some(target) = &canonical.resolved else {
                continue;
            };
            let Some(pattern) = off_production(site, target) else {
                continue;
            };
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the canonical `{target}` is on a non-production host (matches \
                         `{pattern}`): Google is told the staging copy is the original"
                    ),
                )
                .evidence(canonical_evidence(&resource.url, canonical)),
            );
        }
    }
}

fn hreflang(site: &Site, out: &mut Findings<'_>) {
    for (resource, page) in ok_pages(site) {
        let off: Vec<(&HostPattern, Evidence)> = page
            .signals
            .hreflang
            .iter()
            .filter_map(|alternate| {
                let target = alternate.resolved.as_ref()?;
                let pattern = off_production(site, target)?;
                let (via, line) = match &alternate.source {
                    LinkSource::Html { line, .. } => ("html", *line),
                    LinkSource::Header { .. } => ("header", None),
                };
                Some((
                    pattern,
                    Evidence::Hreflang {
                        url: resource.url.to_string(),
                        hreflang: alternate.hreflang.clone(),
                        href: alternate.href.clone(),
                        via: via.to_owned(),
                        line,
                    },
                ))
            })
            .collect();
        let Some((pattern, _)) = off.first() else {
            continue;
        };
        out.report(
            Occurrence::new(
                resource.url.as_str(),
                format!(
                    "{} on a non-production host (matches `{pattern}`)",
                    count(
                        off.len(),
                        "hreflang alternate is",
                        "hreflang alternates are"
                    )
                ),
            )
            .evidence_all(
                off.iter()
                    .take(MAX_ALTERNATES_QUOTED)
                    .map(|(_, evidence)| evidence.clone()),
            ),
        );
    }
}

/// One finding per sitemap listing URLs on non-production hosts (read from the sitemap's
/// entries: the crawl does not record URLs of other hosts that only a sitemap names).
fn sitemap_entries(site: &Site, out: &mut Findings<'_>) {
    for sitemap in &site.sitemaps {
        let off: Vec<(&HostPattern, Evidence)> = sitemap
            .entries()
            .iter()
            .filter_map(|entry| {
                let url = Url::parse(entry.loc.trim()).ok()?;
                let pattern = off_production(site, &url)?;
                Some((
                    pattern,
                    Evidence::SitemapEntry {
                        sitemap_url: sitemap.url.to_string(),
                        line: entry.line,
                        loc: entry.loc.clone(),
                    },
                ))
            })
            .collect();
        let Some((pattern, _)) = off.first() else {
            continue;
        };
        out.report(
            Occurrence::new(
                sitemap.url.as_str(),
                format!(
                    "the sitemap lists {} on a non-production host (matches `{pattern}`)",
                    count(off.len(), "URL", "URLs")
                ),
            )
            .evidence_all(
                off.iter()
                    .take(MAX_ENTRIES_QUOTED)
                    .map(|(_, evidence)| evidence.clone()),
            ),
        );
    }
}

/// `Sitemap:` lines of the audited site's robots.txt naming a non-production host.
fn robots_sitemap_lines(site: &Site, out: &mut Findings<'_>) {
    let Some(file) = site.robots_for(&site.start_url) else {
        return;
    };
    if file.effect != RobotsEffect::Rules {
        return;
    }
    for sitemap in file.parsed.sitemaps() {
        let Ok(url) = Url::parse(sitemap.url.trim()) else {
            continue;
        };
        let Some(pattern) = off_production(site, &url) else {
            continue;
        };
        out.report(
            Occurrence::new(
                file.url.as_str(),
                format!(
                    "line {}: robots.txt names a sitemap on a non-production host (matches \
                     `{pattern}`): `Sitemap: {}`",
                    sitemap.line, sitemap.url
                ),
            )
            .evidence(Evidence::RobotsLine {
                robots_url: file.url.to_string(),
                line: sitemap.line,
                text: file
                    .line_text(sitemap.line)
                    .unwrap_or_else(|| format!("Sitemap: {}", sitemap.url)),
            }),
        );
    }
}
