//! The http family beyond `fires.toml` / `clean.toml`: the further cases kept beside them in
//! `fixtures/rules/http/<name>/`, each checked for its point.

use crawlgate_core::{Evidence, Finding, Severity};
use crawlgate_rules::find;
use crawlgate_test_support::fixture;

/// `rule`'s findings on `fixtures/rules/<folder>/<file>.toml`.
fn findings_in(folder: &str, file: &str, rule: &str) -> Vec<Finding> {
    let path = fixture::rule_dir(folder).join(format!("{file}.toml"));
    let site = fixture::load_site(&path).unwrap_or_else(|e| panic!("{e}"));
    fixture::run(find(rule).expect("a registered rule"), &site)
}

fn findings(rule: &str, file: &str) -> Vec<Finding> {
    findings_in(rule, file, rule)
}

#[test]
fn a_start_url_redirecting_to_a_403_is_forbidden_and_says_how_to_get_in() {
    let found = findings("http/start-url-error", "forbidden");
    assert_eq!(found.len(), 1, "{found:#?}");
    let message = &found[0].message;
    assert!(
        message.contains("redirects to http://site.test/challenge, which answers 403")
            && message.contains("forbids crawlgate")
            && message.contains("--basic-auth USER:PASS"),
        "{message}"
    );
    assert!(matches!(found[0].evidence[0], Evidence::Redirect { .. }));
}

#[test]
fn an_unreachable_start_url_is_the_start_urls_finding_not_robots_txts() {
    let found = findings("http/start-url-error", "unreachable");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Critical);
    assert!(
        found[0]
            .message
            .contains("gives no usable response: the connection could not be made"),
        "{}",
        found[0].message
    );
    assert!(
        findings_in("http/start-url-error", "unreachable", "robots/unreachable").is_empty(),
        "robots/unreachable repeats the start URL's failure"
    );
    // The same robots.txt failure on a site whose pages answer is a robots.txt finding.
    let robots = findings("robots/unreachable", "fires");
    assert!(!robots.is_empty());
}
