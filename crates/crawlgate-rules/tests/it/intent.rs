//! Profiles with intent: crawlers declared expected-blocked (`--expect-blocked`), and messages that
//! name the crawler they are about (never Google for another crawler). Every rule of [`RULES`]
//! runs over the fixtures here.

use crawlgate_core::signals::Profile;
use crawlgate_core::{Finding, Severity, Site};
use crawlgate_rules::RULES;
use crawlgate_test_support::fixture::{self, Fixture};
use std::path::{Path, PathBuf};

/// Every finding of every rule on `site`, in report order.
fn all_findings(site: &Site) -> Vec<Finding> {
    let mut findings: Vec<Finding> = RULES
        .iter()
        .flat_map(|rule| fixture::run(*rule, site))
        .collect();
    findings.sort_by(Finding::report_order);
    findings
}

fn on_purpose() -> Fixture {
    let path = fixture::rule_dir("robots/expected-blocked-allowed").join("on-purpose.toml");
    fixture::load_fixture(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn about(findings: &[Finding], profile: &str) -> Vec<Finding> {
    findings
        .iter()
        .filter(|f| f.profile.as_deref() == Some(profile))
        .cloned()
        .collect()
}

#[test]
fn blocking_ai_crawlers_on_purpose_is_no_emergency_once_declared() {
    let fixture = on_purpose();
    let site = fixture.crawl().unwrap_or_else(|e| panic!("{e}"));
    let findings = all_findings(&site);
    for crawler in ["gptbot", "ccbot"] {
        let theirs = about(&findings, crawler);
        let loud: Vec<&Finding> = theirs
            .iter()
            .filter(|f| f.severity > Severity::Notice)
            .collect();
        assert!(loud.is_empty(), "{crawler}: {loud:#?}");
        // The block is confirmed once, by the line that makes it.
        let confirmed: Vec<&str> = theirs.iter().map(|f| f.rule.as_str()).collect();
        assert_eq!(confirmed, ["robots/disallow-all"], "{theirs:#?}");
        assert!(
            theirs[0].message.contains("as declared (expected blocked)"),
            "{theirs:#?}"
        );
    }
    insta::assert_json_snapshot!("intent__on_purpose_declared", findings);
}

#[test]
fn the_same_block_undeclared_reads_as_the_emergencies_it_would_be() {
    // Without the declaration the very same site is critical and full of errors for GPTBot: what
    // the declaration turns into a confirmation.
    let mut fixture = on_purpose();
    fixture.profiles = vec!["googlebot".into(), "gptbot".into(), "ccbot".into()];
    fixture.expect_blocked.clear();
    let site = fixture.crawl().unwrap_or_else(|e| panic!("{e}"));
    let findings = about(&all_findings(&site), "gptbot");
    let rules: Vec<(&str, Severity)> = findings
        .iter()
        .map(|f| (f.rule.as_str(), f.severity))
        .collect();
    for (rule, severity) in [
        ("robots/disallow-all", Severity::Critical),
        ("env/staging-artifact-on-production", Severity::Critical),
        ("robots/blocked-noindex", Severity::Error),
        ("sitemap/url-blocked", Severity::Error),
        ("sitemap/blocked-by-robots", Severity::Error),
        ("robots/blocked-linked", Severity::Warning),
        ("robots/blocked-canonicalised", Severity::Warning),
    ] {
        assert!(
            rules.contains(&(rule, severity)),
            "{rule} ({severity}) expected for undeclared GPTBot: {rules:?}"
        );
    }
}

/// Every rule fixture (all families), sorted; those with generated bodies (the size limits of
/// sitemaps, tens of MiB) are left out: they say nothing per crawler and would slow the test.
fn all_rule_fixtures() -> Vec<(PathBuf, Fixture)> {
    let mut paths = Vec::new();
    collect_toml(
        &crawlgate_test_support::fixtures_dir().join("rules"),
        &mut paths,
    );
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let fixture = fixture::load_fixture(&path).unwrap_or_else(|e| panic!("{e}"));
            (path, fixture)
        })
        .filter(|(_, fixture)| fixture.generated.is_empty())
        .collect()
}

fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("fixture folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            collect_toml(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "toml") {
            out.push(path);
        }
    }
}

fn profile(name: &str) -> Profile {
    Profile::builtin(name).unwrap_or_else(|| Profile::custom(name))
}

/// The failures of one site's findings: a message about a crawler that is not Google's
/// mentioning Google, or not naming its crawler.
fn message_failures(context: &str, findings: &[Finding]) -> Vec<String> {
    let mut failures = Vec::new();
    for finding in findings {
        let Some(name) = finding.profile.as_deref() else {
            continue;
        };
        let crawler = profile(name);
        if !crawler.is_google() {
            for google in ["Google", "AI Overviews"] {
                if finding.message.contains(google) {
                    failures.push(format!(
                        "{context}: {} for {name} mentions {google}: {}",
                        finding.rule, finding.message
                    ));
                }
            }
        }
        let message = finding.message.to_ascii_lowercase();
        if !message.contains(&crawler.name)
            && !message.contains(&crawler.display_name().to_ascii_lowercase())
        {
            failures.push(format!(
                "{context}: {} for {name} does not name its crawler: {}",
                finding.rule, finding.message
            ));
        }
    }
    failures
}

#[test]
fn no_message_about_another_crawler_mentions_google_and_each_names_its_crawler() {
    // Each fixture audited as search engines and AI crawlers other than Google's, then as
    // Googlebot beside them with GPTBot and CCBot declared expected-blocked.
    let audits: [(&[&str], &[&str]); 3] = [
        (&["bingbot", "gptbot"], &[]),
        (&["claudebot", "*", "mybot"], &[]),
        (&["googlebot", "bingbot"], &["gptbot", "ccbot"]),
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for (path, mut fixture) in all_rule_fixtures() {
        for (profiles, expected) in audits {
            fixture.profiles = profiles.iter().map(|&name| name.to_owned()).collect();
            fixture.expect_blocked = expected.iter().map(|&name| name.to_owned()).collect();
            let site = fixture
                .crawl()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let findings = all_findings(&site);
            checked += findings.iter().filter(|f| f.profile.is_some()).count();
            let context = format!("{} as {profiles:?}", path.display());
            failures.extend(message_failures(&context, &findings));
        }
    }
    assert!(
        checked > 100,
        "only {checked} findings with a profile checked"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
