//! `crawlgate diff BEFORE.json AFTER.json`, end to end: two audits of the sites of
//! `fixtures/sites/migration-{before,after}`, served on two ports and mapped onto each other.

use crate::util::crawlgate;
use crawlgate_serve::SiteServer;
use crawlgate_test_support::served::serve_fixture_site;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("crawlgate-diff-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn text(path: &Path) -> String {
    path.display().to_string()
}

fn audit(server: &SiteServer, dir: &Path) -> Output {
    crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "--quiet",
        "--no-assets",
        "--format",
        "json",
        "-o",
        &text(dir),
    ])
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Audits both sites and diffs them, with `extra` flags; the diff's output and report.json.
fn migrate(scratch: &Scratch, extra: &[&str]) -> (Output, Value) {
    let (before, after) = (
        serve_fixture_site("migration-before"),
        serve_fixture_site("migration-after"),
    );
    audit(&before, &scratch.join("before"));
    audit(&after, &scratch.join("after"));
    let mapping = format!("{}={}", before.addr(), after.addr());
    let out = scratch.join("diff");
    let (before_json, after_json) = (
        text(&scratch.join("before/report.json")),
        text(&scratch.join("after/report.json")),
    );
    let mut args = vec![
        "diff",
        &before_json,
        &after_json,
        "--map-host",
        &mapping,
        "-o",
    ];
    let out_text = text(&out);
    args.push(&out_text);
    args.extend_from_slice(extra);
    let output = crawlgate(&args);
    let report = read_json(&out.join("report.json"));
    (output, report)
}

/// `(rule, path of the URL, profile)` of each finding.
fn findings(report: &Value) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let url = f["url"].as_str().unwrap_or_default();
            let path = url::Url::parse(url).map_or(url.to_owned(), |u| u.path().to_owned());
            (
                f["rule"].as_str().unwrap().to_owned(),
                path,
                f["profile"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_migration_is_diffed_page_by_page_with_both_sides_quoted() {
    let scratch = Scratch::new("migration");
    let (output, report) = migrate(
        &scratch,
        &[
            "--format", "json", "--format", "md", "--format", "html", "--format", "sarif",
            "--format", "junit",
        ],
    );
    for file in [
        "report.html",
        "report.md",
        "report.json",
        "report.sarif",
        "report.junit.xml",
    ] {
        let text = std::fs::read_to_string(scratch.join("diff").join(file)).unwrap();
        assert!(text.contains("diff/newly-blocked"), "{file}");
    }
    let html = std::fs::read_to_string(scratch.join("diff/report.html")).unwrap();
    assert!(html.contains("<h2>What changes</h2>"));
    assert!(html.contains("ev-side-after"));
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut found = findings(&report);
    found.sort();
    let expected: Vec<(String, String, String)> = [
        ("diff/canonical-changed", "/blog/launch", ""),
        ("diff/newly-blocked", "/shop/boots", "googlebot"),
        ("diff/newly-noindex", "/contact", "googlebot"),
        ("diff/sitemap-dropped", "/about", ""),
        ("diff/snippet-directives-changed", "/about", "googlebot"),
        ("diff/status-regressed", "/press", ""),
    ]
    .iter()
    .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
    .collect();
    assert_eq!(found, expected);
    // Both sides of the newly blocked page: the deciding robots.txt line after, none before.
    let blocked = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "diff/newly-blocked")
        .unwrap();
    let evidence = blocked["evidence"].as_array().unwrap();
    assert_eq!(evidence[0]["side"], "before");
    assert_eq!(evidence[0]["state"], "allowed (no rule)");
    assert_eq!(evidence[1]["side"], "after");
    assert_eq!(evidence[1]["state"], "disallowed");
    assert_eq!(evidence[1]["line"], 3);
    assert_eq!(evidence[1]["quote"], "Disallow: /shop/");
    // What changes: the mapping, and the audit rules with new findings.
    let diff = &report["diff"];
    assert_eq!(diff["pages_compared"], 6);
    assert_eq!(diff["pages_only_before"], 0);
    assert!(
        diff["url_map"][0]
            .as_str()
            .unwrap()
            .starts_with("host 127.0.0.1:")
    );
    assert!(
        diff["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["new"].as_u64() > Some(0)),
        "{diff:#}"
    );
    let markdown = std::fs::read_to_string(scratch.join("diff/report.md")).unwrap();
    assert!(markdown.contains("## What changes"), "{markdown}");
    // A comparison is titled as one, not as an audit (HTML and Markdown).
    assert!(
        markdown.starts_with("# Comparison of two audits: "),
        "{markdown}"
    );
    let html = std::fs::read_to_string(scratch.join("diff/report.html")).unwrap();
    assert!(html.contains("Comparison of two audits") && !html.contains("indexing audit"));
    assert!(
        markdown.contains("**after**: disallowed `Disallow: /shop/`"),
        "{markdown}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("6 changes for the worse"), "{stdout}");
}

#[test]
fn the_diffs_sarif_lands_on_the_files_sarif_map_names() {
    let scratch = Scratch::new("migration-sarif");
    let (_, report) = migrate(
        &scratch,
        &[
            "--format",
            "json",
            "--format",
            "sarif",
            "--sarif-map",
            "http://127.0.0.1:*/*=site/page.html",
        ],
    );
    assert!(!report["findings"].as_array().unwrap().is_empty());
    let sarif: Value = read_json(&scratch.join("diff/report.sarif"));
    let uris: BTreeSet<String> = crawlgate_test_support::sarif::locations(&sarif)
        .into_iter()
        .map(|(uri, _)| uri)
        .collect();
    assert_eq!(
        uris,
        BTreeSet::from(["site/page.html".to_owned()]),
        "{sarif:#}"
    );
}

#[test]
fn without_the_host_mapping_nothing_matches_and_nothing_is_compared() {
    let scratch = Scratch::new("unmapped");
    let (before, after) = (
        serve_fixture_site("migration-before"),
        serve_fixture_site("migration-after"),
    );
    audit(&before, &scratch.join("before"));
    audit(&after, &scratch.join("after"));
    let output = crawlgate(&[
        "diff",
        &text(&scratch.join("before/report.json")),
        &text(&scratch.join("after/report.json")),
        "-o",
        &text(&scratch.join("diff")),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let report = read_json(&scratch.join("diff/report.json"));
    assert_eq!(report["diff"]["pages_compared"], 0);
    assert_eq!(report["diff"]["pages_only_before"], 6);
}

#[test]
fn a_file_that_is_not_a_report_is_refused() {
    let scratch = Scratch::new("bad");
    let bad = scratch.join("x.json");
    std::fs::write(&bad, "{\"hello\": 1}").unwrap();
    let output = crawlgate(&["diff", &text(&bad), &text(&bad), "-o", &text(&scratch.0)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a crawlgate report.json"));
    let output = crawlgate(&["diff", &text(&bad), &text(&bad), "--map-host", "nonsense"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_diff_rules_are_listed_and_explained() {
    let output = crawlgate(&["rules"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("diff/newly-blocked"), "{text}");
    let output = crawlgate(&["explain", "diff/sitemap-dropped"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("## How to fix"));
}
