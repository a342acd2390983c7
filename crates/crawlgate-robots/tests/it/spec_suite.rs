//! Google's robots.txt conformance suite (google/robotstxt-spec-test, Apache-2.0), run in full.
//!
//! The suite's textproto files are in `fixtures/corpus/robots-spec-test/textproto/` with their
//! LICENSE; `cases/spec_cases.tsv` lists the same 400 expectations flat, each with its robots.txt
//! bytes in `cases/robots/`. Google's own library passes all 400.

use crawlgate_robots::{RobotsTxt, path_params_query};
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/corpus/robots-spec-test/cases")
}

struct Case {
    robots_file: String,
    user_agent: String,
    url: String,
    allowed: bool,
    test_type: String,
    source: String,
}

fn cases() -> Vec<Case> {
    let tsv = std::fs::read_to_string(suite_dir().join("spec_cases.tsv")).expect("spec_cases.tsv");
    let mut lines = tsv.lines();
    assert_eq!(
        lines.next(),
        Some("robots_file\tuser_agent\turl\texpected\ttest_type\tsource\texplanation")
    );
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 7, "malformed row: {line}");
            Case {
                robots_file: fields[0].to_owned(),
                user_agent: fields[1].to_owned(),
                url: fields[2].to_owned(),
                allowed: match fields[3] {
                    "allowed" => true,
                    "disallowed" => false,
                    other => panic!("unknown expectation {other}"),
                },
                test_type: fields[4].to_owned(),
                source: fields[5].to_owned(),
            }
        })
        .collect()
}

#[test]
fn google_spec_suite_400_of_400() {
    let cases = cases();
    assert_eq!(cases.len(), 400);
    let mut failures = Vec::new();
    for case in &cases {
        let body = std::fs::read(suite_dir().join(&case.robots_file)).expect("robots body");
        // The suite feeds the library the body as is: no 500 KiB cut (all bodies are small).
        let robots = RobotsTxt::parse(&body);
        let verdict = robots.verdict(&case.user_agent, &path_params_query(&case.url));
        if verdict.allowed != case.allowed {
            failures.push(format!(
                "{} [{} {}] ua={:?} url={:?}: expected {}, got {} (decided by {:?})",
                case.robots_file,
                case.test_type,
                case.source,
                case.user_agent,
                case.url,
                if case.allowed {
                    "allowed"
                } else {
                    "disallowed"
                },
                if verdict.allowed {
                    "allowed"
                } else {
                    "disallowed"
                },
                verdict.decided_by,
            ));
        }
    }
    let passed = cases.len() - failures.len();
    assert!(
        failures.is_empty(),
        "{passed}/400 spec expectations pass; failures:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_suite_has_both_standard_and_google_specific_expectations() {
    let cases = cases();
    let google = cases
        .iter()
        .filter(|c| c.test_type == "GOOGLE_SPECIFIC")
        .count();
    assert_eq!((cases.len() - google, google), (378, 22));
}

/// Compiling once per agent and reusing it gives the same verdicts as the one-shot call.
#[test]
fn compiled_agents_agree_with_one_shot_verdicts_on_the_suite() {
    for case in cases() {
        let body = std::fs::read(suite_dir().join(&case.robots_file)).expect("robots body");
        let robots = RobotsTxt::parse(&body);
        let path = path_params_query(&case.url);
        let agent = robots.agent(&[case.user_agent.as_str()]);
        assert_eq!(
            agent.verdict(&path),
            robots.verdict(&case.user_agent, &path)
        );
        assert_eq!(agent.is_allowed(&path), case.allowed);
    }
}
