//! `crawlgate audit --environment`, end to end: a staging configuration shipped to production,
//! and a staging site open to search engines, served on 127.0.0.1.

use crate::util::{audit_json_without_assets, report_json};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use std::path::PathBuf;
use std::process::Output;

/// A report folder of its own per test, removed when dropped.
struct ReportDir(PathBuf);

impl ReportDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("crawlgate-audit-env-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        ReportDir(dir)
    }

    /// `(rule, url, message)` of every finding of report.json.
    fn findings(&self) -> Vec<(String, String, String)> {
        let report = report_json(&self.0);
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| {
                let text = |key: &str| f[key].as_str().unwrap_or_default().to_owned();
                (text("rule"), text("url"), text("message"))
            })
            .collect()
    }
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// The staging settings, served as production: `Disallow: /`, noindex everywhere, a canonical
/// to the staging host.
fn staging_settings() -> ServedSite {
    ServedSite::new()
        .file("robots.txt", "User-agent: *\nDisallow: /\n")
        .file(
            "index.html",
            "<!doctype html><title>Home</title>\
             <link rel=canonical href=\"http://staging.outfitters.test/\">\
             <a href=/boots>Boots</a>",
        )
        .file("boots", "<!doctype html><title>Boots</title>")
        .route(Route::new("/").header("X-Robots-Tag: noindex"))
}

fn audit(server: &SiteServer, dir: &ReportDir, extra: &[&str]) -> Output {
    audit_json_without_assets(server.url("/").as_str(), &dir.0, extra)
}

fn env_rules(findings: &[(String, String, String)]) -> Vec<&(String, String, String)> {
    findings
        .iter()
        .filter(|f| f.0.starts_with("env/"))
        .collect()
}

#[test]
fn production_with_staging_settings_is_critical() {
    let server = SiteServer::start_in_background(staging_settings()).unwrap();
    let dir = ReportDir::new("production");
    let output = audit(&server, &dir, &["--environment", "production"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let findings = dir.findings();
    let env = env_rules(&findings);
    assert!(
        env.iter()
            .any(|f| f.0 == "env/staging-artifact-on-production"
                && f.2
                    .contains("disallows the whole site for Googlebot (line 2: `Disallow: /`)")),
        "{env:#?}"
    );
    assert!(
        env.iter().any(
            |f| f.2.contains("home page of the production site is noindex")
                || f.2.contains("canonical `http://staging.outfitters.test/`")
        ),
        "{env:#?}"
    );
}

#[test]
fn without_an_environment_the_env_rules_stay_quiet() {
    let server = SiteServer::start_in_background(staging_settings()).unwrap();
    let dir = ReportDir::new("unsaid");
    audit(&server, &dir, &[]);
    assert!(env_rules(&dir.findings()).is_empty());
}

#[test]
fn a_staging_site_open_to_search_engines_is_exposed_and_a_closed_one_is_not() {
    let open = SiteServer::start_in_background(
        ServedSite::new()
            .file("robots.txt", "User-agent: *\nDisallow: /cart\n")
            .file("index.html", "<!doctype html><title>Staging</title>"),
    )
    .unwrap();
    let dir = ReportDir::new("staging-open");
    let output = audit(&open, &dir, &["--environment", "staging"]);
    assert_eq!(output.status.code(), Some(1));
    let findings = dir.findings();
    let env = env_rules(&findings);
    assert_eq!(env.len(), 1, "{env:#?}");
    assert_eq!(env[0].0, "env/staging-exposed");

    let closed = SiteServer::start_in_background(
        ServedSite::new()
            .file("index.html", "<!doctype html><title>Staging</title>")
            .route(Route::new("/").header("X-Robots-Tag: noindex")),
    )
    .unwrap();
    let dir = ReportDir::new("staging-closed");
    audit(&closed, &dir, &["--environment", "staging"]);
    assert!(env_rules(&dir.findings()).is_empty());
}

#[test]
fn a_configured_non_production_host_is_recognised() {
    let server = SiteServer::start_in_background(ServedSite::new().file(
        "index.html",
        "<!doctype html><title>Home</title><link rel=canonical href=\"https://shop.internal.test/\">",
    ))
    .unwrap();
    let dir = ReportDir::new("configured");
    audit(&server, &dir, &["--environment", "production"]);
    assert!(env_rules(&dir.findings()).is_empty());
    let dir = ReportDir::new("configured-2");
    audit(
        &server,
        &dir,
        &[
            "--environment",
            "production",
            "--non-production-host",
            "*.internal.test",
        ],
    );
    let findings = dir.findings();
    let env = env_rules(&findings);
    assert_eq!(env.len(), 1, "{env:#?}");
    assert!(env[0].2.contains("matches `*.internal.test`"), "{env:#?}");
}

#[test]
fn the_environment_can_come_from_the_config_file() {
    let server = SiteServer::start_in_background(ServedSite::new().file(
        "index.html",
        "<!doctype html><title>Home</title><link rel=canonical href=\"https://shop.internal.test/\">",
    ))
    .unwrap();
    let dir = ReportDir::new("config");
    let config = std::env::temp_dir().join(format!("crawlgate-env-{}.toml", std::process::id()));
    std::fs::write(
        &config,
        "environment = \"production\"\nnon_production_hosts = [\"*.internal.test\"]\n",
    )
    .unwrap();
    audit(&server, &dir, &["--config", &config.display().to_string()]);
    std::fs::remove_file(&config).ok();
    let findings = dir.findings();
    let env = env_rules(&findings);
    assert_eq!(env.len(), 1, "{env:#?}");
    assert!(env[0].2.contains("matches `*.internal.test`"));
}
