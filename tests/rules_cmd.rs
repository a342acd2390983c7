//! `crawlgate rules` and `crawlgate explain`.

use crate::util::crawlgate;

#[test]
fn rules_lists_every_rule_with_its_severity() {
    let out = crawlgate(&["rules"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("robots/blocked-noindex "))
        .expect("robots/blocked-noindex listed");
    assert!(line.contains(" error "), "{line}");
}

#[test]
fn rules_json_is_one_object_per_rule() {
    let out = crawlgate(&["rules", "--json"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(value["id"].as_str().unwrap().contains('/'));
        assert!(
            ["notice", "warning", "error", "critical"]
                .contains(&value["severity"].as_str().unwrap())
        );
    }
    assert!(text.lines().count() >= 4);
}

#[test]
fn explain_prints_the_rule_docs() {
    let out = crawlgate(&["explain", "robots/blocked-noindex"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for section in [
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## How to fix",
    ] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
}

#[test]
fn explain_an_unknown_rule_suggests_close_ones_and_exits_2() {
    let out = crawlgate(&["explain", "blocked-noindex"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("robots/blocked-noindex"), "{err}");
}
