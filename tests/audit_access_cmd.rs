//! `crawlgate audit` of a staging site behind a login, end to end: basic authentication (flag,
//! environment, URL, config file), a cookie and a token header reach the site's requests, never
//! a third-party host, and never a report, stdout or stderr.

use crate::util::{report_json, scratch, text};
use crawlgate_serve::{ServedSite, SiteServer};
use std::path::Path;
use std::process::{Command, Output};

const PASSWORD: &str = "s3cret-pw";
/// `alice:s3cret-pw`, base64.
const BASIC: &str = "Basic YWxpY2U6czNjcmV0LXB3";
const TOKEN: &str = "t0ps3cret-token";
const COOKIE_VALUE: &str = "c00kie-value";

/// Every byte a secret could be seen in.
const SECRETS: [&str; 4] = [PASSWORD, "YWxpY2U6czNjcmV0LXB3", TOKEN, COOKIE_VALUE];

fn third_party() -> SiteServer {
    SiteServer::start_in_background(
        ServedSite::new()
            .file("logo.png", "png")
            .file("landing", "<!doctype html><title>Partner</title>"),
    )
    .expect("served")
}

fn staging(other: &SiteServer) -> SiteServer {
    SiteServer::start_in_background(
        ServedSite::new()
            .file(
                "robots.txt",
                "User-agent: *\nDisallow: /private/\nSitemap: {{origin}}/sitemap.xml\n",
            )
            .file(
                "sitemap.xml",
                "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                 <url><loc>{{origin}}/</loc></url><url><loc>{{origin}}/about</loc></url></urlset>",
            )
            .file(
                "index.html",
                format!(
                    "<!doctype html><title>Staging home</title><img src=\"{}\">\
                     <a href=/about>About</a><a href=\"{}\">Partner</a>",
                    other.url("/logo.png"),
                    other.url("/landing")
                ),
            )
            .file("about", "<!doctype html><title>About</title>")
            .require_header("authorization", BASIC)
            .require_header("cookie", &format!("session={COOKIE_VALUE}"))
            .require_header("x-staging-token", TOKEN),
    )
    .expect("served")
}

fn audit(args: &[&str], env: &[(&str, &str)], out: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crawlgate"));
    command.arg("audit").args(args).args([
        "-o",
        out.to_str().unwrap(),
        "--format=html",
        "--format=md",
        "--format=json",
        "--format=sarif",
        "--format=junit",
        "--format=md-summary",
        "--fail-on=never",
        "--quiet",
    ]);
    command.env_remove("CRAWLGATE_BASIC_AUTH");
    command.env_remove("CRAWLGATE_COOKIE");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("crawlgate runs")
}

/// The audit crawled the site (every page answered 200), and no output holds a secret.
fn assert_audited_without_leaks(output: &Output, out: &Path, other: &SiteServer) {
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let report = report_json(out);
    assert_eq!(report["summary"]["pages_crawled"], 2, "{stdout}");
    assert!(
        stdout.contains("access: basic auth, cookie, header X-Staging-Token"),
        "{stdout}"
    );
    for secret in SECRETS {
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{secret}"
        );
        for entry in std::fs::read_dir(out).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            assert!(
                !text(&bytes).contains(secret),
                "{} holds {secret}",
                path.display()
            );
        }
    }
    assert!(!other.requests().is_empty(), "the third party was asked");
    for lines in other.request_headers() {
        for (name, value) in lines {
            assert!(
                !matches!(
                    name.as_str(),
                    "authorization" | "cookie" | "x-staging-token"
                ),
                "{name} sent to a third party"
            );
            assert!(SECRETS.iter().all(|s| !value.contains(s)));
        }
    }
}

#[test]
fn a_staging_site_is_audited_with_secrets_from_flags_and_the_environment() {
    let other = third_party();
    let site = staging(&other);
    let out = scratch("access-env");
    let token = format!("X-Staging-Token: {TOKEN}");
    let output = audit(
        &[site.url("/").as_str(), "--header", &token],
        &[
            ("CRAWLGATE_BASIC_AUTH", &format!("alice:{PASSWORD}")),
            ("CRAWLGATE_COOKIE", &format!("session={COOKIE_VALUE}")),
        ],
        &out,
    );
    assert_audited_without_leaks(&output, &out, &other);
}

#[test]
fn credentials_in_the_url_reach_neither_the_crawls_json_lines_nor_its_output() {
    let other = third_party();
    let site = staging(&other);
    let out = scratch("access-url-crawl");
    let mut start = site.url("/");
    start.set_username("alice").unwrap();
    start.set_password(Some(PASSWORD)).unwrap();
    let jsonl = out.join("crawl.jsonl");
    let token = format!("X-Staging-Token: {TOKEN}");
    let cookie = format!("session={COOKIE_VALUE}");
    let output = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args([
            "crawl",
            start.as_str(),
            "--header",
            &token,
            "--cookie",
            &cookie,
        ])
        .args(["--quiet", "--jsonl", jsonl.to_str().unwrap()])
        .env_remove("CRAWLGATE_BASIC_AUTH")
        .env_remove("CRAWLGATE_COOKIE")
        .output()
        .expect("crawlgate runs");
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    assert!(lines.lines().count() >= 2, "{lines}");
    assert!(lines.contains("\"status\":200"), "{lines}");
    for secret in SECRETS {
        for seen in [lines.as_str(), &text(&output.stdout), &text(&output.stderr)] {
            assert!(!seen.contains(secret), "{secret} in {seen}");
        }
    }
}

#[test]
fn credentials_in_the_url_are_used_and_never_shown() {
    let other = third_party();
    let site = staging(&other);
    let out = scratch("access-url");
    let mut start = site.url("/");
    start.set_username("alice").unwrap();
    start.set_password(Some(PASSWORD)).unwrap();
    let token = format!("X-Staging-Token: {TOKEN}");
    let cookie = format!("session={COOKIE_VALUE}");
    let output = audit(
        &[start.as_str(), "--header", &token, "--cookie", &cookie],
        &[],
        &out,
    );
    assert_audited_without_leaks(&output, &out, &other);
}

#[test]
fn a_config_file_gives_the_secrets() {
    let other = third_party();
    let site = staging(&other);
    let out = scratch("access-config");
    let config = out.with_extension("toml");
    std::fs::write(
        &config,
        format!(
            "headers = [\"X-Staging-Token: {TOKEN}\"]\ncookie = \"session={COOKIE_VALUE}\"\n\
             basic_auth = \"alice:{PASSWORD}\"\n"
        ),
    )
    .unwrap();
    let output = audit(
        &[site.url("/").as_str(), "--config", config.to_str().unwrap()],
        &[],
        &out,
    );
    std::fs::remove_file(&config).ok();
    assert_audited_without_leaks(&output, &out, &other);
}

#[test]
fn a_bad_access_setting_is_a_usage_error_that_quotes_no_secret() {
    let out = scratch("access-bad");
    for args in [
        &[
            "http://127.0.0.1:9/",
            "--header",
            "Authorization Bearer s3cret-pw",
        ][..],
        &[
            "http://127.0.0.1:9/",
            "--header",
            "X-Token: s3cret-pw\r\nX: y",
        ],
        &["http://127.0.0.1:9/", "--basic-auth", "s3cret-pw"],
        &["ftp://alice:s3cret-pw@example.com/"],
        &["http://alice:s3cret-pw@[::1/"],
    ] {
        let output = audit(args, &[], &out);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains(PASSWORD), "{args:?}: {stderr}");
    }
}
