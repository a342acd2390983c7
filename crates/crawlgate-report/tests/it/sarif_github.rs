//! The SARIF output as GitHub code scanning takes it: valid against the OASIS SARIF 2.1.0 schema
//! (`fixtures/sarif/`, shipped with its licence note), and within the upload constraints GitHub
//! documents ("SARIF support for code scanning", docs.github.com), written down as assertions in
//! [`assert_github_constraints`]. Also: profiles folded into one result, fingerprints, helpUri
//! anchors, `baselineState`, and the `--sarif-map` placement.

use crate::report_render::hostile_report;
use crate::support;
use crawlgate_core::{Evidence, FailOn, Severity};
use crawlgate_report::{BaselineCounts, BaselineState, RenderOptions, Renderers, Report, SarifMap};
use crawlgate_test_support::sarif::locations;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn sarif(report: &Report, map: SarifMap) -> Value {
    let options = RenderOptions {
        fail_on: FailOn::at(Severity::Error),
        sarif_map: map,
    };
    let mut out = Vec::new();
    Renderers::builtin()
        .get("sarif")
        .unwrap()
        .render(report, &options, &mut out)
        .unwrap();
    serde_json::from_slice(&out).unwrap()
}

fn workspace_file(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn outfitters_map() -> SarifMap {
    SarifMap::new()
        .with_entry("https://www.outfitters.test/robots.txt=public/robots.txt")
        .unwrap()
        .with_entry("https://www.outfitters.test/sitemap-products.xml=public/sitemap-products.xml")
        .unwrap()
}

/// The reports every check runs on: canned, every rule, hostile content, against a baseline.
fn reports() -> Vec<(&'static str, Report)> {
    vec![
        ("outfitters", support::report_of("outfitters")),
        (
            "outfitters, every rule",
            support::report_with_every_rule("outfitters"),
        ),
        ("hostile", hostile_report()),
        ("baseline", with_baseline(support::report_of("outfitters"))),
    ]
}

/// Marks every other finding known, as `--baseline` would.
fn with_baseline(mut report: Report) -> Report {
    for (i, finding) in report.findings.iter_mut().enumerate() {
        finding.baseline = Some(if i % 2 == 0 {
            BaselineState::Known
        } else {
            BaselineState::New
        });
    }
    let known = report
        .findings
        .iter()
        .filter(|f| f.baseline == Some(BaselineState::Known));
    let known = known.count() as u64;
    report.summary.baseline = Some(BaselineCounts {
        new: report.findings.len() as u64 - known,
        known,
    });
    report
}

#[test]
fn sarif_validates_against_the_oasis_schema() {
    // The OASIS file's `language` pattern, `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$` (on `run`
    // and `toolComponent`), has a stray `]` that ECMA-262 reads as itself only outside unicode
    // mode; the validator checks schema patterns strictly, so (in memory only: the shipped file
    // is unmodified) it is escaped, `\]`, which means the same. crawlgate writes no `language`.
    let text = workspace_file("fixtures/sarif/sarif-schema-2.1.0.json");
    let stray = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(text.matches(stray).count(), 2);
    let text = text.replace(stray, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#);
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    let validator = jsonschema::validator_for(&schema).expect("the OASIS schema compiles");
    for (name, report) in reports() {
        for map in [SarifMap::new(), outfitters_map()] {
            let log = sarif(&report, map);
            let errors: Vec<String> = validator
                .iter_errors(&log)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{name}: {errors:#?}");
        }
    }
    // The validator is not a rubber stamp.
    let mut broken = sarif(&support::report_of("outfitters"), SarifMap::new());
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

/// GitHub code scanning's documented upload constraints ("SARIF support for code scanning":
/// supported properties and the limits table), as assertions.
fn assert_github_constraints(name: &str, log: &Value) {
    assert_eq!(log["version"], "2.1.0", "{name}");
    let runs = log["runs"].as_array().unwrap();
    // Limits: at most 20 runs per file.
    assert!(!runs.is_empty() && runs.len() <= 20, "{name}");
    for run in runs {
        let driver = &run["tool"]["driver"];
        assert!(
            driver["name"].as_str().is_some_and(|n| !n.is_empty()),
            "{name}"
        );
        let rules = driver["rules"].as_array().unwrap();
        // Limits: at most 25,000 rules and 25,000 results per run.
        assert!(rules.len() <= 25_000, "{name}");
        let ids: BTreeSet<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids.len(), rules.len(), "{name}: rule ids are unique");
        for rule in rules {
            // Every rule has help: a helpUri (https) and help text.
            let help_uri = rule["helpUri"].as_str().unwrap_or_default();
            assert!(help_uri.starts_with("https://"), "{name}: {rule}");
            assert!(
                rule["help"]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{name}"
            );
            // Limits: at most 20 tags per rule.
            assert!(
                rule["properties"]["tags"].as_array().unwrap().len() <= 20,
                "{name}"
            );
        }
        let results = run["results"].as_array().unwrap();
        assert!(results.len() <= 25_000, "{name}");
        let mut seen = BTreeSet::new();
        for result in results {
            // ruleId present, naming a rule of the run.
            let rule_id = result["ruleId"].as_str().expect("ruleId");
            assert!(ids.contains(rule_id), "{name}: {rule_id}");
            let message = result["message"]["text"].as_str().expect("message.text");
            assert!(!message.is_empty(), "{name}");
            assert!(
                result["partialFingerprints"]
                    .as_object()
                    .is_some_and(|f| !f.is_empty()),
                "{name}"
            );
            let locations = result["locations"].as_array().unwrap();
            let related = result["relatedLocations"].as_array().map_or(0, Vec::len);
            // Limits: at most 1,000 locations per result (related ones kept to it too).
            assert!(locations.len() == 1 && related <= 1_000, "{name}");
            let all = locations
                .iter()
                .chain(result["relatedLocations"].as_array().into_iter().flatten());
            for location in all {
                let physical = &location["physicalLocation"];
                let artifact = &physical["artifactLocation"];
                let uri = artifact["uri"].as_str().expect("artifactLocation.uri");
                // Relative to the checkout (github/codeql-action#754): no scheme, no root.
                assert!(!uri.contains("://"), "{name}: {uri}");
                assert!(
                    !["http:", "https:", "file:"]
                        .iter()
                        .any(|s| uri.starts_with(s)),
                    "{name}: {uri}"
                );
                assert!(!uri.starts_with('/') && !uri.is_empty(), "{name}: {uri}");
                assert!(
                    artifact["uriBaseId"].is_null() || artifact["uriBaseId"] == "%SRCROOT%",
                    "{name}"
                );
                if let Some(line) = physical["region"]["startLine"].as_u64() {
                    assert!(line >= 1, "{name}");
                }
            }
            // No two results share rule, location, line and message.
            let location = &locations[0]["physicalLocation"];
            let key = (
                rule_id.to_owned(),
                location["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                location["region"]["startLine"].as_u64(),
                message.to_owned(),
            );
            assert!(seen.insert(key.clone()), "{name}: duplicate {key:?}");
        }
    }
}

#[test]
fn sarif_meets_github_upload_constraints() {
    let template = SarifMap::new()
        .with_entry("https://www.outfitters.test/*=templates/page.html")
        .unwrap();
    for (name, report) in reports() {
        for map in [SarifMap::new(), outfitters_map(), template.clone()] {
            assert_github_constraints(name, &sarif(&report, map));
        }
    }
}

#[test]
fn every_help_uri_is_an_anchor_of_the_published_rules_md() {
    let rules_md = workspace_file("crates/crawlgate-rules/RULES.md");
    let log = sarif(
        &support::report_with_every_rule("outfitters"),
        SarifMap::new(),
    );
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.len() > 4);
    let base = "https://github.com/crawlgate/crawlgate/blob/main/crates/crawlgate-rules/RULES.md#";
    for rule in rules {
        let uri = rule["helpUri"].as_str().unwrap();
        let anchor = uri.strip_prefix(base).unwrap_or_else(|| panic!("{uri}"));
        assert!(rules_md.contains(&format!("](#{anchor})")), "{uri}");
        assert!(rules_md.contains(&format!("\n## {}\n", rule["id"].as_str().unwrap())));
    }
}

#[test]
fn findings_that_differ_only_by_profile_are_one_result() {
    let report = support::report_of("outfitters");
    let log = sarif(&report, SarifMap::new());
    let results = log["runs"][0]["results"].as_array().unwrap();
    let press_kit: Vec<&Value> = results
        .iter()
        .filter(|r| {
            r["ruleId"] == "sitemap/url-blocked"
                && r["properties"]["url"] == "https://www.outfitters.test/private/press-kit"
        })
        .collect();
    assert_eq!(press_kit.len(), 1);
    let folded = press_kit[0];
    assert_eq!(
        folded["properties"]["profiles"],
        serde_json::json!(["bingbot", "googlebot"])
    );
    assert_eq!(
        folded["properties"]["fingerprints"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // Fingerprints are distinct between results…
    let fingerprints: BTreeSet<&str> = results
        .iter()
        .map(|r| r["partialFingerprints"]["crawlgate/v2"].as_str().unwrap())
        .collect();
    assert_eq!(fingerprints.len(), results.len());
    // …and stable: the same with one profile's finding gone, or the robots.txt lines shifted.
    let v2 = |log: &Value| -> Vec<String> {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["properties"]["url"] == "https://www.outfitters.test/private/press-kit")
            .map(|r| {
                r["partialFingerprints"]["crawlgate/v2"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    let mut fewer = report.clone();
    let dropped = fewer
        .findings
        .iter()
        .position(|f| {
            f.finding.rule == "sitemap/url-blocked"
                && f.finding.url.ends_with("/private/press-kit")
                && f.finding.profile.as_deref() == Some("bingbot")
        })
        .unwrap();
    fewer.findings.remove(dropped);
    let mut shifted = report.clone();
    for finding in &mut shifted.findings {
        for evidence in &mut finding.finding.evidence {
            if let Evidence::RobotsRule { line, .. } = evidence {
                *line += 3;
            }
        }
    }
    let original = v2(&log);
    assert_eq!(v2(&sarif(&fewer, SarifMap::new())), original);
    assert_eq!(v2(&sarif(&shifted, SarifMap::new())), original);
    // Deterministic.
    assert_eq!(
        sarif(&report, outfitters_map()),
        sarif(&report, outfitters_map())
    );
}

#[test]
fn baseline_state_comes_from_the_baseline_marks() {
    let plain = sarif(&support::report_of("outfitters"), SarifMap::new());
    assert!(
        plain["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["baselineState"].is_null())
    );
    let report = with_baseline(support::report_of("outfitters"));
    let log = sarif(&report, SarifMap::new());
    for result in log["runs"][0]["results"].as_array().unwrap() {
        let members: Vec<&str> = result["properties"]["fingerprints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        let all_known = report
            .findings
            .iter()
            .filter(|f| members.contains(&f.fingerprint.as_str()))
            .all(|f| f.baseline == Some(BaselineState::Known));
        let expected = if all_known { "unchanged" } else { "new" };
        assert_eq!(result["baselineState"], expected, "{result}");
    }
}

#[test]
fn mapped_urls_land_on_their_file_and_line_and_others_on_the_fallback() {
    let log = sarif(&support::report_of("outfitters"), outfitters_map());
    let uris: BTreeSet<(String, Option<u64>)> = locations(&log).into_iter().collect();
    assert!(uris.contains(&("public/robots.txt".to_owned(), Some(5))));
    assert!(uris.contains(&("public/sitemap-products.xml".to_owned(), Some(7))));
    assert!(
        uris.iter()
            .any(|(uri, _)| uri == "crawlgate/site/www.outfitters.test/index")
    );
    assert!(
        uris.iter()
            .all(|(uri, _)| uri.starts_with("public/") || uri.starts_with("crawlgate/site/"))
    );
    // A pattern mapping (page templates) drops lines and names the URL in the message.
    let template = SarifMap::new()
        .with_entry("https://www.outfitters.test/shop/*=templates/shop.html")
        .unwrap();
    let log = sarif(&support::report_of("outfitters"), template);
    let on_template: Vec<&Value> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                == "templates/shop.html"
        })
        .collect();
    assert!(!on_template.is_empty());
    for result in on_template {
        assert!(result["locations"][0]["physicalLocation"]["region"].is_null());
        let url = result["properties"]["url"].as_str().unwrap();
        assert!(result["message"]["text"].as_str().unwrap().contains(url));
    }
}
