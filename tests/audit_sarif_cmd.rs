//! `crawlgate audit --format sarif` for GitHub code scanning, end to end: `--sarif-map` (and the
//! config file's `sarif_map`) places robots.txt findings on the repository file and line, other
//! URLs on the fallback place, and `--baseline` marks become `baselineState`.

use crate::util::{crawlgate, scratch, text};
use crawlgate_test_support::sarif::locations;
use crawlgate_test_support::served::serve_fixture_site;
use serde_json::Value;
use std::path::Path;

/// `crawlgate audit START --format sarif -o OUT EXTRA…`, quiet, without assets, never failing.
fn sarif_audit(start: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "audit",
        start,
        "--quiet",
        "--no-assets",
        "--format",
        "sarif",
        "--fail-on",
        "never",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    crawlgate(&args)
}

fn sarif_of(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.sarif")).unwrap()).unwrap()
}

#[test]
fn sarif_map_places_robots_txt_findings_on_the_repository_file_and_baseline_state_follows() {
    let dir = scratch("audit-sarif");
    let server = serve_fixture_site("migration-after");
    let start = server.url("/").to_string();
    let robots = server.url("/robots.txt").to_string();
    let mapping = format!("{robots}=public/robots.txt");
    let baseline = dir.join("baseline.json");
    let first_dir = dir.join("first");
    let output = sarif_audit(
        &start,
        &first_dir,
        &[
            "--sarif-map",
            &mapping,
            "--write-baseline",
            baseline.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let first = sarif_of(&first_dir);
    let places = locations(&first);
    assert!(!places.is_empty());
    assert!(
        places
            .iter()
            .any(|(uri, line)| uri == "public/robots.txt" && line.is_some()),
        "{places:?}"
    );
    for (uri, _) in &places {
        assert!(!uri.contains("://"), "{uri}");
        assert!(
            uri == "public/robots.txt" || uri.starts_with("crawlgate/site/http/127.0.0.1_"),
            "{uri}"
        );
    }
    let results = first["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["baselineState"].is_null()));

    // The same audit against its own baseline, the map from crawlgate.toml this time.
    let config = dir.join("crawlgate.toml");
    std::fs::write(&config, format!("sarif_map = [\"{mapping}\"]\n")).unwrap();
    let second_dir = dir.join("second");
    let output = sarif_audit(
        &start,
        &second_dir,
        &[
            "--config",
            config.to_str().unwrap(),
            "--baseline",
            baseline.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let second = sarif_of(&second_dir);
    assert_eq!(locations(&second), places);
    let results = second["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.iter().all(|r| r["baselineState"] == "unchanged"),
        "{results:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sarif_map_entry_that_is_not_url_eq_relative_path_is_refused() {
    for bad in [
        "https://example.com/robots.txt",
        "https://example.com/robots.txt=/srv/robots.txt",
    ] {
        let output = crawlgate(&["audit", "https://example.com/", "--sarif-map", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        assert!(
            text(&output.stderr).contains("sarif map"),
            "{}",
            text(&output.stderr)
        );
    }
}
