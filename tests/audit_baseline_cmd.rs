//! `crawlgate audit --baseline` and `--write-baseline`, end to end: the round trip on one site,
//! and a baseline taken on another host, mapped.

use crate::util::{crawlgate, report_json};
use crawlgate_serve::SiteServer;
use crawlgate_test_support::served::serve_fixture_site;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("crawlgate-baseline-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn audit(server: &SiteServer, out: &str, extra: &[&str]) -> Output {
    let start = server.url("/").to_string();
    let mut args = vec![
        "audit",
        &start,
        "--quiet",
        "--no-assets",
        "--format",
        "json",
        "--format",
        "md",
        "-o",
        out,
        "--fail-on",
        "warning",
    ];
    args.extend_from_slice(extra);
    crawlgate(&args)
}

/// `(rule, baseline marker)` of each finding of a report.json.
fn markers(dir: &str) -> Vec<(String, String)> {
    let report = report_json(Path::new(dir));
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["baseline"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_baseline_written_by_one_run_makes_every_finding_known_in_the_next() {
    let scratch = Scratch::new("round-trip");
    let server = serve_fixture_site("migration-after");
    let baseline = scratch.path("baseline.json");
    let first = audit(
        &server,
        &scratch.path("first"),
        &["--write-baseline", &baseline],
    );
    assert_eq!(first.status.code(), Some(1), "the site has findings");
    let unmarked = markers(&scratch.path("first"));
    assert!(!unmarked.is_empty());
    assert!(unmarked.iter().all(|(_, marker)| marker == "-"));

    let second = audit(
        &server,
        &scratch.path("second"),
        &["--baseline", &baseline, "--format", "junit"],
    );
    assert_eq!(
        second.status.code(),
        Some(0),
        "known findings do not fail: {}",
        String::from_utf8_lossy(&second.stdout)
    );
    let marked = markers(&scratch.path("second"));
    assert_eq!(marked.len(), unmarked.len());
    assert!(
        marked.iter().all(|(_, marker)| marker == "known"),
        "{marked:?}"
    );
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert!(
        stdout.contains(&format!(
            "against the baseline: 0 new, {} known",
            marked.len()
        )),
        "{stdout}"
    );
    let markdown =
        std::fs::read_to_string(Path::new(&scratch.path("second")).join("report.md")).unwrap();
    assert!(
        markdown.contains("- **Against the baseline:** 0 new,"),
        "{markdown}"
    );
    // JUnit agrees with the exit status: known findings are skipped, not failed, and the rules
    // that found nothing are passing test cases.
    let junit =
        std::fs::read_to_string(Path::new(&scratch.path("second")).join("report.junit.xml"))
            .unwrap();
    let root = junit.lines().nth(1).unwrap_or_default();
    assert!(root.contains(" failures=\"0\" errors=\"0\""), "{root}");
    assert!(
        junit.contains("<skipped message=\"known in the baseline: "),
        "{junit}"
    );
    assert!(
        junit.contains("<system-out>no findings</system-out>"),
        "{junit}"
    );
}

#[test]
fn a_baseline_from_the_site_before_the_deploy_shows_what_the_deploy_adds() {
    let scratch = Scratch::new("mapped");
    let (before, after) = (
        serve_fixture_site("migration-before"),
        serve_fixture_site("migration-after"),
    );
    let baseline = scratch.path("before.json");
    audit(
        &before,
        &scratch.path("before"),
        &["--write-baseline", &baseline],
    );
    let mapping = format!("{}={}", before.addr(), after.addr());
    let output = audit(
        &after,
        &scratch.path("after"),
        &["--baseline", &baseline, "--baseline-map-host", &mapping],
    );
    assert_eq!(output.status.code(), Some(1));
    let marked = markers(&scratch.path("after"));
    let new: Vec<&str> = marked
        .iter()
        .filter(|(_, m)| m == "new")
        .map(|(rule, _)| rule.as_str())
        .collect();
    assert!(!new.is_empty(), "{marked:?}");
    // Without the mapping nothing is known: every URL is on another port.
    let output = audit(
        &after,
        &scratch.path("unmapped"),
        &["--baseline", &baseline],
    );
    assert_eq!(output.status.code(), Some(1));
    let unmapped = markers(&scratch.path("unmapped"));
    assert!(unmapped.iter().all(|(_, m)| m == "new"), "{unmapped:?}");
    assert!(
        new.len() < unmapped.len(),
        "mapped: {marked:?}\nunmapped: {unmapped:?}"
    );
}

#[test]
fn a_file_that_is_not_a_baseline_is_refused() {
    let scratch = Scratch::new("bad");
    let bad = scratch.path("bad.json");
    std::fs::write(&bad, "{\"x\": 1}").unwrap();
    let server = serve_fixture_site("migration-after");
    let output = audit(&server, &scratch.path("out"), &["--baseline", &bad]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("in the baseline"));
}
