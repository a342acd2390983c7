//! An audit whose pages are in the page store (`--pages-in-memory`) reports what one holding
//! them does: every rule fixture, audited by every rule with the pages held and with every page
//! stored, the page-local rules run a window of two resources at a time (the smallest window
//! that still puts a page's neighbours in other windows).

use crawlgate::Auditor;
use crawlgate_test_support::{fixture, fixtures_dir};
use std::path::{Path, PathBuf};

/// Every `fires.toml` and `clean.toml` under `fixtures/rules/`.
fn rule_fixtures() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![fixtures_dir().join("rules")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "toml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The report of `path`'s site audited by `auditor`, pages (and the report's page records)
/// held or stored, as JSON without the count of pages stored (the one thing that differs).
fn report(auditor: &Auditor, path: &Path, stored: bool) -> serde_json::Value {
    let fixture = fixture::load_fixture(path).unwrap();
    let site = if stored {
        fixture.crawl_stored()
    } else {
        fixture.crawl()
    }
    .unwrap();
    let expect_stored = stored
        && site
            .resources()
            .iter()
            .any(crawlgate::site::Resource::is_fetched);
    if expect_stored {
        assert!(
            site.stats.pages_stored > 0,
            "{}: nothing stored",
            path.display()
        );
        // The start URL's own reference at least went through a spill and a merge.
        assert!(
            site.resources()
                .iter()
                .any(crawlgate::site::Resource::has_stored_lists),
            "{}: no lists stored",
            path.display()
        );
    }
    let report = auditor.check_owned(site);
    // The report's page records went to the page store too, and come back in report.json.
    assert_eq!(
        report.pages.is_stored(),
        expect_stored,
        "{}",
        path.display()
    );
    let mut report = serde_json::to_value(report).unwrap();
    report["crawl"]
        .as_object_mut()
        .unwrap()
        .remove("pages_stored");
    report
}

#[test]
fn every_rule_fixture_gives_the_same_report_with_its_pages_stored_and_read_a_window_at_a_time() {
    let auditor = Auditor::builder().page_window(2).build().unwrap();
    let fixtures = rule_fixtures();
    assert!(fixtures.len() > 200, "{} fixtures", fixtures.len());
    let mut differ = Vec::new();
    for path in &fixtures {
        let (held, stored) = (report(&auditor, path, false), report(&auditor, path, true));
        if held != stored {
            differ.push(format!(
                "{}:\n  only held: {}\n  only stored: {}",
                path.display(),
                only_in(&held, &stored),
                only_in(&stored, &held)
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The findings of `report` that `other` lacks, by rule, URL and message (the whole report when
/// the findings agree: something else differs).
fn only_in(report: &serde_json::Value, other: &serde_json::Value) -> String {
    let findings = |report: &serde_json::Value| report["findings"].as_array().cloned().unwrap();
    let theirs = findings(other);
    let mine: Vec<String> = findings(report)
        .iter()
        .filter(|finding| !theirs.contains(finding))
        .map(|f| format!("{} {} {}", f["rule"], f["url"], f["message"]))
        .collect();
    if mine.is_empty() && findings(report) == theirs {
        return report.to_string();
    }
    format!("{mine:?}")
}
