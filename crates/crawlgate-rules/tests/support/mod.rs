//! Fixture mini-sites for rule tests: `fixtures/rules/<family>/<name>/{fires,clean}.toml`, crawled
//! offline (no network) through the same crawl logic as real audits.

use crawlgate_core::crawl::{CrawlConfig, OfflineSite};
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::{Finding, Site};
use serde::Deserialize;
use std::path::PathBuf;

/// A mini-site description.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Fixture {
    /// Where the crawl starts (default `http://site.test/`).
    #[serde(default = "default_start")]
    pub start: String,
    /// Crawler profiles (default `["googlebot"]`).
    #[serde(default)]
    pub profiles: Vec<String>,
    #[serde(default)]
    pub obey_robots: bool,
    /// The audit time (default 2026-06-01T12:00:00Z).
    #[serde(default)]
    pub audit_time: Option<String>,
    /// Sitemaps given on the command line.
    #[serde(default)]
    pub sitemaps: Vec<String>,
    /// Probe `/sitemap.xml` (default true).
    #[serde(default = "yes")]
    pub probe_sitemap: bool,
    #[serde(default)]
    pub max_pages: Option<u64>,
    #[serde(flatten)]
    pub site: OfflineSite,
}

fn default_start() -> String {
    "http://site.test/".to_owned()
}

fn yes() -> bool {
    true
}

/// The repository's fixture folder for a rule id.
pub(crate) fn fixture_dir(rule_id: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/rules")
        .join(rule_id)
}

/// Crawl a fixture file offline into a Site.
pub(crate) fn load_site(path: &std::path::Path) -> Result<Site, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let fixture: Fixture = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let start = url::Url::parse(&fixture.start).map_err(|e| e.to_string())?;
    let audit_time = fixture
        .audit_time
        .as_deref()
        .unwrap_or("2026-06-01T12:00:00Z")
        .parse()
        .map_err(|e| format!("audit_time: {e}"))?;
    let mut config = CrawlConfig::new(start, audit_time);
    if !fixture.profiles.is_empty() {
        config.profiles = fixture
            .profiles
            .iter()
            .map(|name| Profile::builtin(name).unwrap_or_else(|| Profile::custom(name)))
            .collect();
    }
    config.obey_robots = fixture.obey_robots;
    config.probe_sitemap = fixture.probe_sitemap;
    if let Some(max) = fixture.max_pages {
        config.bounds.max_pages = max;
    }
    config.sitemaps = fixture
        .sitemaps
        .iter()
        .filter_map(|s| url::Url::parse(s).ok())
        .collect();
    fixture.site.crawl(config).map_err(|e| e.to_string())
}

/// Run one rule over a site.
pub(crate) fn run(rule: &dyn Rule, site: &Site) -> Vec<Finding> {
    let mut findings = Vec::new();
    rule.check(site, &mut Findings::new(rule.meta(), None, &mut findings));
    findings.sort_by(Finding::report_order);
    findings
}
