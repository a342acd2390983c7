//! `crawlgate audit --expect-blocked`, end to end: a shop that keeps GPTBot out on purpose, and
//! one whose GPTBot group lets pages through, served on 127.0.0.1; the same from crawlgate.toml,
//! with per-profile levels and suppressions.

use crate::util::{audit_json_without_assets, report_json as report, scratch, text};
use crawlgate_serve::{ServedSite, SiteServer};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const HOME: &str = "<!doctype html><title>Home</title>\
                    <a href=/shoes>Shoes</a> <a href=/press/>Press</a> <a href=/cart>Cart</a>";

/// A shop whose robots.txt gives GPTBot `gptbot_rules` (the `*` group keeps out /cart).
fn shop(gptbot_rules: &str) -> ServedSite {
    ServedSite::new()
        .file(
            "robots.txt",
            format!("User-agent: *\nDisallow: /cart\n\nUser-agent: GPTBot\n{gptbot_rules}\n"),
        )
        .file("index.html", HOME)
        .file("shoes", "<!doctype html><title>Shoes</title>")
        .file("press/index.html", "<!doctype html><title>Press</title>")
        .file("cart", "<!doctype html><title>Cart</title>")
}

fn audit(server: &SiteServer, out: &Path, extra: &[&str]) -> Output {
    audit_json_without_assets(server.url("/").as_str(), out, extra)
}

/// `(rule, severity, message)` of the findings about `profile`.
fn about(report: &Value, profile: &str) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["profile"] == profile)
        .map(|f| {
            let text = |key: &str| f[key].as_str().unwrap_or_default().to_owned();
            (text("rule"), text("severity"), text("message"))
        })
        .collect()
}

#[test]
fn blocking_gptbot_on_purpose_passes_once_declared_and_is_critical_when_not() {
    let server = SiteServer::start_in_background(shop("Disallow: /")).unwrap();
    let declared = scratch("intent-declared");
    let output = audit(&server, &declared, &["--expect-blocked", "gptbot"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(" for googlebot, gptbot (expected blocked): "),
        "{stdout}"
    );
    let declared_report = report(&declared);
    assert_eq!(declared_report["target"]["expected_blocked"][0], "gptbot");
    let gptbot = about(&declared_report, "gptbot");
    assert!(
        gptbot
            .iter()
            .all(|(_, severity, _)| severity == "notice" || severity == "warning"),
        "{gptbot:#?}"
    );
    assert!(
        gptbot
            .iter()
            .any(|(rule, severity, message)| rule == "robots/disallow-all"
                && severity == "notice"
                && message.contains("GPTBot")
                && message.contains("as declared (expected blocked)")),
        "{gptbot:#?}"
    );
    assert!(
        gptbot
            .iter()
            .all(|(_, _, message)| !message.contains("Google")),
        "{gptbot:#?}"
    );

    // The same site with GPTBot merely audited: an emergency, exit 1.
    let undeclared = scratch("intent-undeclared");
    let output = audit(
        &server,
        &undeclared,
        &["--profile", "googlebot", "--profile", "gptbot"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let gptbot = about(&report(&undeclared), "gptbot");
    assert!(
        gptbot
            .iter()
            .any(|(rule, severity, _)| rule == "robots/disallow-all" && severity == "critical"),
        "{gptbot:#?}"
    );
    for dir in [declared, undeclared] {
        std::fs::remove_dir_all(dir).ok();
    }
}

#[test]
fn a_page_gptbot_may_still_crawl_is_the_finding() {
    let server =
        SiteServer::start_in_background(shop("Disallow: /shoes\nDisallow: /cart")).unwrap();
    let out = scratch("intent-leak");
    let output = audit(&server, &out, &["--expect-blocked", "gptbot"]);
    // A warning: the default --fail-on error passes.
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let gptbot = about(&report(&out), "gptbot");
    let leaks: Vec<&(String, String, String)> = gptbot
        .iter()
        .filter(|(rule, _, _)| rule == "robots/expected-blocked-allowed")
        .collect();
    assert_eq!(leaks.len(), 1, "{gptbot:#?}");
    let (_, severity, message) = leaks[0];
    assert_eq!(severity, "warning");
    assert!(
        message.contains("GPTBot is declared expected-blocked, but robots.txt allows it 2 crawled indexable pages"),
        "{message}"
    );
    assert!(message.contains("/press/"), "{message}");
    let strict = audit(
        &server,
        &out,
        &["--expect-blocked", "gptbot", "--fail-on", "warning"],
    );
    assert_eq!(strict.status.code(), Some(1), "{}", text(&strict.stderr));
    std::fs::remove_dir_all(out).ok();
}

#[test]
fn the_intent_levels_and_suppressions_can_come_from_crawlgate_toml() {
    let server =
        SiteServer::start_in_background(shop("Disallow: /shoes\nDisallow: /cart")).unwrap();
    let dir = scratch("intent-config");
    let config = dir.join("crawlgate.toml");
    let out = dir.join("report");
    let config_arg = config.display().to_string();

    std::fs::write(
        &config,
        "expect_blocked = [\"gptbot\"]\n\
         [rules]\n\"robots/expected-blocked-allowed@gptbot\" = \"error\"\n",
    )
    .unwrap();
    let output = audit(&server, &out, &["--config", &config_arg]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(
        about(&report(&out), "gptbot")
            .iter()
            .any(
                |(rule, severity, _)| rule == "robots/expected-blocked-allowed"
                    && severity == "error"
            )
    );

    std::fs::write(
        &config,
        "expect_blocked = [\"gptbot\"]\n\
         [[suppress]]\nrule = \"robots/expected-blocked-allowed\"\nprofile = \"gptbot\"\n\
         urls = \"*\"\nreason = \"the press pages are open to GPTBot\"\n",
    )
    .unwrap();
    let output = audit(&server, &out, &["--config", &config_arg]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let gptbot = about(&report(&out), "gptbot");
    assert!(
        !gptbot
            .iter()
            .any(|(rule, _, _)| rule == "robots/expected-blocked-allowed"),
        "{gptbot:#?}"
    );
    assert_eq!(report(&out)["summary"]["suppressed"], 1);

    // A profile name that is neither built in nor audited is a usage error naming it.
    std::fs::write(
        &config,
        "[rules]\n\"robots/blocked-linked@gtpbot\" = \"off\"\n",
    )
    .unwrap();
    let output = audit(&server, &out, &["--config", &config_arg]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("unknown crawler profile `gtpbot`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).ok();
}
