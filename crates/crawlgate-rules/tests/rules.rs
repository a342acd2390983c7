//! Every rule fires on its `fires.toml` mini-site (findings snapshot-tested) and stays quiet on its
//! `clean.toml`; plus the meta-tests of the rule catalogue.

use crawlgate_rules::{RULES, rules_markdown};
use crawlgate_test_support::fixture;
use std::collections::BTreeSet;

#[test]
fn every_rule_fires_on_its_fixture_and_stays_quiet_on_its_clean_site() {
    let mut failures = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let dir = fixture::rule_dir(id);
        match fixture::load_site(&dir.join("fires.toml")) {
            Err(e) => failures.push(format!("{id}: fires.toml: {e}")),
            Ok(site) => {
                let findings = fixture::run(*rule, &site);
                if findings.is_empty() {
                    failures.push(format!("{id}: no finding on fires.toml"));
                }
                if let Some(empty) = findings.iter().find(|f| f.evidence.is_empty()) {
                    failures.push(format!("{id}: a finding without evidence: {empty:?}"));
                }
                insta::assert_json_snapshot!(id.replace('/', "__"), findings);
            }
        }
        match fixture::load_site(&dir.join("clean.toml")) {
            Err(e) => failures.push(format!("{id}: clean.toml: {e}")),
            Ok(site) => {
                let findings = fixture::run(*rule, &site);
                if !findings.is_empty() {
                    failures.push(format!("{id}: findings on clean.toml: {findings:#?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rule_ids_are_unique_and_family_slash_kebab_case() {
    let mut seen = BTreeSet::new();
    for rule in RULES {
        let id = rule.meta().id;
        assert!(seen.insert(id), "duplicate rule id {id}");
        let (family, name) = id.split_once('/').expect("id has a family");
        for part in [family, name] {
            assert!(
                !part.is_empty()
                    && part.split('-').all(|w| !w.is_empty()
                        && w.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "rule id {id} is not family/kebab-case"
            );
        }
    }
}

#[test]
fn every_rule_documents_what_why_example_and_fix() {
    for rule in RULES {
        let meta = rule.meta();
        for section in ["What it does", "Why is this bad?", "Example", "How to fix"] {
            assert!(
                meta.doc_section(section)
                    .is_some_and(|text| !text.is_empty()),
                "{} lacks a `## {section}` section",
                meta.id
            );
        }
        assert!(
            !meta.summary.ends_with('.'),
            "{}: summary ends with a period",
            meta.id
        );
    }
}

#[test]
fn rules_md_is_generated_from_the_rules() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("RULES.md");
    let expected = rules_markdown(RULES);
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    if actual != expected {
        std::fs::write(&path, &expected).expect("write RULES.md");
        panic!("RULES.md was out of date and has been regenerated; review and commit it");
    }
}
