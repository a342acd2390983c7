//! Canned reports for the renderer tests: fixture mini-sites crawled offline (no network) through
//! the same crawl as real audits, checked by the built-in rules, built into a Report.

use crawlgate_core::rule::Rule;
use crawlgate_core::{Finding, RuleMeta, Site};
use crawlgate_report::{BuildOptions, Report, build, build_owned};
use crawlgate_test_support::fixture;
use std::path::{Path, PathBuf};

/// A fixture site of this crate's tests (`tests/sites/<name>.toml`, the shape of the rule
/// fixtures: [`fixture::Fixture`]).
pub(crate) fn site_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sites")
        .join(format!("{name}.toml"))
}

/// The rules the canned reports run, by id: the snapshots stay the same while the catalogue grows.
pub(crate) const CANNED_RULES: [&str; 4] = [
    "robots/blocked-noindex",
    "robots/blocked-linked",
    "canonical/outside-head",
    "sitemap/url-blocked",
];

/// Crawl a fixture site offline, run the [`CANNED_RULES`], and build the report.
pub(crate) fn report_of(name: &str) -> Report {
    let rules: Vec<&dyn Rule> = CANNED_RULES
        .iter()
        .map(|id| crawlgate_rules::find(id).unwrap_or_else(|| panic!("no rule {id}")))
        .collect();
    report_with_rules(name, &rules)
}

/// Crawl a fixture site offline, run every built-in rule, and build the report.
pub(crate) fn report_with_every_rule(name: &str) -> Report {
    report_with_rules(name, crawlgate_rules::RULES)
}

fn report_with_rules(name: &str, rules: &[&dyn Rule]) -> Report {
    let (site, findings, metas) = checked(name, rules);
    build(&site, findings, &metas, &build_options())
}

/// The report of [`report_with_every_rule`] built twice, from the site lent ([`build`]) and
/// from the site given ([`build_owned`]).
pub(crate) fn reports_lent_and_owned(name: &str) -> (Report, Report) {
    let (site, findings, metas) = checked(name, crawlgate_rules::RULES);
    let lent = build(&site, findings.clone(), &metas, &build_options());
    let owned = build_owned(site, findings, &metas, &build_options());
    (lent, owned)
}

/// A fixture site crawled offline, the findings of `rules` on it, and the rules' metas.
fn checked<'r>(name: &str, rules: &[&'r dyn Rule]) -> (Site, Vec<Finding>, Vec<&'r RuleMeta>) {
    let site = fixture::load_site(&site_path(name)).unwrap_or_else(|e| panic!("{e}"));
    let findings: Vec<Finding> = rules
        .iter()
        .flat_map(|rule| fixture::run(*rule, &site))
        .collect();
    let metas = rules.iter().map(|r| r.meta()).collect();
    (site, findings, metas)
}

fn build_options() -> BuildOptions {
    BuildOptions {
        tool_version: "0.1.0".to_owned(),
        generated_at: None,
    }
}

/// The repository's `reports/` folder.
pub(crate) fn reports_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reports")
}

/// A fresh, empty folder under the target directory for one test.
pub(crate) fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
