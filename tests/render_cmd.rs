//! `crawlgate audit --render`: the fixture site `fixtures/sites/render/` (one page per thing a
//! script can change, plain inline JavaScript and a client-rendered app) audited in headless
//! Chromium over 127.0.0.1. Without Chromium the tests say they skipped, unless
//! `CRAWLGATE_REQUIRE_CHROMIUM=1` (CI sets it), when they fail.

use crate::util::{crawlgate, report_json, scratch, text};
use crawlgate_test_support::chromium;
use crawlgate_test_support::served::serve_fixture_site;
use serde_json::Value;
use std::process::Command;

/// Whether a browser is here; without one, whether that is allowed (then the caller returns).
#[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
fn chromium_here() -> bool {
    if chromium::find().is_some() {
        return true;
    }
    assert!(
        std::env::var_os("CRAWLGATE_REQUIRE_CHROMIUM").is_none_or(|v| v != "1"),
        "CRAWLGATE_REQUIRE_CHROMIUM=1 and no chromium on PATH"
    );
    println!("note: chromium is not installed; rendering tests skipped");
    false
}

/// The findings of `rule` in `report`, by URL path.
fn fired_on(report: &Value, rule: &str) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            url::Url::parse(f["url"].as_str().unwrap())
                .unwrap()
                .path()
                .to_owned()
        })
        .collect()
}

fn page<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["url"].as_str().unwrap().ends_with(path))
        .unwrap_or_else(|| panic!("no page {path}"))
}

#[test]
fn every_render_rule_fires_on_its_page_and_the_report_shows_both_versions() {
    if !chromium_here() {
        return;
    }
    let server = serve_fixture_site("render");
    let out = scratch("render-audit");
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "--render",
        "--quiet",
        "--fail-on",
        "never",
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = report_json(&out);
    for (rule, path) in [
        ("render/noindex-removed", "/noindex-removed.html"),
        ("render/noindex-added", "/noindex-added.html"),
        ("render/canonical-changed", "/canonical-changed.html"),
        ("render/links-only-rendered", "/menu.html"),
        ("render/blocked-resource", "/api/products.json"),
        ("render/failed", "/broken.html"),
    ] {
        assert_eq!(fired_on(&report, rule), [path], "{rule}");
    }
    let clean_findings: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["rule"].as_str().unwrap().starts_with("render/")
                && f["url"].as_str().unwrap().ends_with("/clean.html")
        })
        .collect();
    assert!(clean_findings.is_empty(), "{clean_findings:?}");
    assert_eq!(report["crawl"]["pages_rendered"], 8);

    // Raw and rendered signals side by side, per page.
    let added = &page(&report, "/noindex-added.html")["rendered"];
    assert_eq!(added["outcome"], "settled");
    assert_eq!(added["raw"]["robots"]["googlebot"], serde_json::json!([]));
    assert_eq!(
        added["rendered"]["robots"]["googlebot"],
        serde_json::json!(["noindex"])
    );
    let canonical = &page(&report, "/canonical-changed.html")["rendered"];
    assert!(
        canonical["raw"]["canonical"]
            .as_str()
            .unwrap()
            .ends_with("/canonical-changed.html")
    );
    assert!(
        canonical["rendered"]["canonical"]
            .as_str()
            .unwrap()
            .ends_with("/canonical-changed.html?sort=price")
    );
    let menu = &page(&report, "/menu.html")["rendered"];
    assert_eq!(menu["links_added_count"], 2);
    assert_eq!(
        (
            menu["raw"]["links"].as_u64(),
            menu["rendered"]["links"].as_u64()
        ),
        (Some(0), Some(2))
    );
    let app = &page(&report, "/app.html")["rendered"];
    assert_eq!(app["blocked_count"], 1);
    assert_eq!(
        (
            app["raw"]["title"].as_str(),
            app["rendered"]["title"].as_str()
        ),
        (Some("App"), Some("Catalogue"))
    );
    assert!(
        app["text_length"].as_u64().unwrap() > 0,
        "the app rendered its shell"
    );
    assert_eq!(page(&report, "/broken.html")["rendered"]["errors"], 1);
    // The first render was refused /api/; only the second, measuring what it costs, fetched it.
    let api = server
        .requests()
        .iter()
        .filter(|r| r.starts_with("/api/"))
        .count();
    assert_eq!(api, 1, "{:?}", server.requests());

    // The HTML report quotes both versions in the evidence.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("ev-side-raw") && html.contains("ev-side-rendered"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn render_without_chromium_fails_fast_naming_the_package_and_writes_nothing() {
    let server = serve_fixture_site("render");
    let out = scratch("render-no-chromium");
    let output = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(["audit", server.url("/").as_str(), "--render", "--quiet"])
        .arg("--output-dir")
        .arg(&out)
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("chromium"), "{stderr}");
    assert!(stderr.contains("apt-get install chromium"), "{stderr}");
    assert!(
        server.requests().is_empty(),
        "the crawl started: {:?}",
        server.requests()
    );
    assert!(!out.join("report.json").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_audit_without_render_has_no_rendered_side() {
    let server = serve_fixture_site("render");
    let out = scratch("render-off");
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "--quiet",
        "--fail-on",
        "never",
        "--format",
        "json",
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = report_json(&out);
    assert!(
        report["pages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p.get("rendered").is_none())
    );
    assert!(fired_on(&report, "render/noindex-added").is_empty());
    assert!(report["crawl"].get("pages_rendered").is_none());
    let _ = std::fs::remove_dir_all(&out);
}
