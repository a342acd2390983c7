//! `--resume DIR`: an audit killed mid-crawl (SIGKILL: no chance to write anything) continues
//! from its crawl store and reports the same findings as an audit that was never stopped,
//! asking the site only for what the store does not hold. Also `crawl --store` / `--resume`,
//! and the store refusing another crawl.
//!
//! The waits are bounded and generous (no timed assertions).

use crate::util::{exits_2_saying, files_in, report_json, scratch, text};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(60);

/// Pages of the site; each answers after [`PAGE_DELAY_MS`], two at a time (`--per-host 2`), so
/// the crawl takes a few seconds and is killed half way.
const PAGES: usize = 80;
const PAGE_DELAY_MS: u64 = 40;

/// A site with findings of several kinds: robots.txt blocks `/private/`, which a sitemap lists
/// and pages link to; some pages are noindex, some canonicalise to a blocked or a noindex page.
fn site() -> SiteServer {
    let mut site = ServedSite::new().file(
        "robots.txt",
        "User-agent: *\nDisallow: /private/\nSitemap: {{origin}}/sitemap.xml\n",
    );
    let mut sitemap = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for i in 0..PAGES {
        let path = if i == 0 {
            "index.html".to_owned()
        } else if i % 9 == 0 {
            format!("private/{i}.html")
        } else {
            format!("p/{i}.html")
        };
        let mut html = String::from("<!doctype html><html><head><title>page</title>");
        if i % 7 == 3 {
            html.push_str("<meta name=\"robots\" content=\"noindex\">");
        }
        if i % 11 == 5 {
            html.push_str("<link rel=\"canonical\" href=\"/private/9.html\">");
        }
        html.push_str("</head><body>");
        for child in [2 * i + 1, 2 * i + 2] {
            if child < PAGES {
                let target = if child % 9 == 0 {
                    format!("/private/{child}.html")
                } else {
                    format!("/p/{child}.html")
                };
                write!(html, "<a href=\"{target}\">{child}</a> ").unwrap();
            }
        }
        html.push_str("</body></html>");
        if i % 5 == 0 {
            writeln!(sitemap, "<url><loc>{{{{origin}}}}/{path}</loc></url>").unwrap();
        }
        let route = if i == 0 {
            "/".to_owned()
        } else {
            format!("/{path}")
        };
        site = site
            .file(&path, html)
            .route(Route::new(route).delay_ms(PAGE_DELAY_MS));
    }
    sitemap.push_str("</urlset>\n");
    site = site.file("sitemap.xml", sitemap);
    SiteServer::start_in_background(site).unwrap()
}

/// `crawlgate audit` of `server`, JSON only, slowly (two requests at a time), then
/// `folder_flag` (`--output-dir` or `--resume`) and `folder`.
fn audit_command(server: &SiteServer, folder_flag: &str, folder: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crawlgate"));
    command
        .args([
            "audit",
            server.url("/").as_str(),
            "--quiet",
            "--format",
            "json",
            "--fail-on",
            "never",
            "--per-host",
            "2",
            "--no-assets",
            folder_flag,
        ])
        .arg(folder);
    command
}

fn run(mut command: Command) -> Output {
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    output
}

/// What must be equal between two audits of the same site: all of report.json but its origin's
/// port (each run has a server of its own) and the findings' fingerprints (hashes of it).
fn essentials(report: &serde_json::Value, server: &SiteServer) -> String {
    let mut report = report.clone();
    for finding in report["findings"].as_array_mut().unwrap() {
        finding.as_object_mut().unwrap().remove("fingerprint");
    }
    let origin = server.url("/").to_string();
    report
        .to_string()
        .replace(origin.trim_end_matches('/'), "ORIGIN")
}

/// Where two JSON values first differ: the path and both values.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|key| {
                let (left, right) = (
                    &x.get(key).cloned().unwrap_or_default(),
                    &y.get(key).cloned().unwrap_or_default(),
                );
                first_difference(left, right, &format!("{path}.{key}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (left, right))| {
                first_difference(left, right, &format!("{path}[{i}]"))
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            let only = |p: &[Value], q: &[Value]| -> Vec<String> {
                p.iter()
                    .filter(|item| !q.contains(item))
                    .map(Value::to_string)
                    .collect()
            };
            Some(format!(
                "at {path}: {} items resumed, {} clean; only resumed: {:?}; only clean: {:?}",
                x.len(),
                y.len(),
                only(x, y),
                only(y, x)
            ))
        }
        _ if a == b => None,
        _ => Some(format!("at {path}: resumed {a} vs clean {b}")),
    }
}

/// Run `command` and SIGKILL it (nothing flushed) once `server` has answered `requests`
/// requests in all.
fn kill_mid_crawl(mut command: Command, server: &SiteServer, requests: usize) {
    let mut child: Child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_requests(server, requests);
    // The store commits a batch as soon as its writer is free; give it a moment to catch up.
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Wait (bounded) until the server has answered at least `n` requests.
fn wait_for_requests(server: &SiteServer, n: usize) {
    let started = Instant::now();
    while server.requests().len() < n {
        assert!(started.elapsed() < PATIENCE, "fewer than {n} requests came");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn an_audit_killed_mid_crawl_resumes_to_the_same_findings_as_a_clean_run() {
    // The clean run: never stopped. Its store goes once the crawl is complete.
    let clean_server = site();
    let clean_dir = scratch("resume-clean");
    run(audit_command(&clean_server, "--output-dir", &clean_dir));
    let clean = report_json(&clean_dir);
    assert_eq!(files_in(&clean_dir), ["report.json"]);
    let all_requests = clean_server.requests().len();
    assert!(
        clean["findings"].as_array().unwrap().len() >= 3,
        "{clean:#}"
    );
    // Every page, and `/index.html` (the sitemap lists the home page so).
    assert_eq!(clean["summary"]["pages_crawled"], PAGES as u64 + 1);

    // Killed once about a third of the site has answered: SIGKILL, nothing is flushed.
    let server = site();
    let dir = scratch("resume-killed");
    kill_mid_crawl(
        audit_command(&server, "--output-dir", &dir),
        &server,
        all_requests / 3,
    );
    let before_kill = server.requests().len();
    assert!(
        before_kill < all_requests,
        "the audit finished before the kill"
    );
    assert!(!dir.join("report.json").exists());

    // Resumed: the reports go to the store's folder; the site is asked only for the rest.
    let resumed = run(audit_command(&server, "--resume", &dir));
    let asked_after = server.requests().len() - before_kill;
    assert!(
        asked_after < all_requests - 5,
        "the resumed audit asked {asked_after} of {all_requests} again: {}",
        text(&resumed.stderr)
    );
    let report = report_json(&dir);
    let (resumed, clean) = (
        essentials(&report, &server),
        essentials(&clean, &clean_server),
    );
    if resumed != clean {
        let (resumed, clean): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(&resumed).unwrap(),
            serde_json::from_str(&clean).unwrap(),
        );
        panic!(
            "the resumed report differs: {}",
            first_difference(&resumed, &clean, "").unwrap_or_default()
        );
    }
    // Complete now: the store went with it.
    assert_eq!(files_in(&dir), ["report.json"]);
    let _ = std::fs::remove_dir_all(&clean_dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_audit_reading_its_pages_back_from_the_page_store_reports_what_one_holding_them_does() {
    let server = site();
    let held_dir = scratch("pages-held");
    run(audit_command(&server, "--output-dir", &held_dir));
    let held = report_json(&held_dir);
    assert!(
        held["crawl"].get("pages_stored").is_none(),
        "{:#}",
        held["crawl"]
    );

    // Killed mid-crawl with every page going to the page store, resumed with none held.
    let stored_dir = scratch("pages-stored");
    let mut killed = audit_command(&server, "--output-dir", &stored_dir);
    killed.args(["--pages-in-memory", "0"]);
    let asked = server.requests().len();
    kill_mid_crawl(killed, &server, asked + 20);
    assert!(
        !stored_dir.join("report.json").exists(),
        "the audit finished before the kill"
    );
    let mut resumed = audit_command(&server, "--resume", &stored_dir);
    resumed.args(["--pages-in-memory", "0"]);
    run(resumed);
    assert_same_but_pages_stored(report_json(&stored_dir), &held);
    // The page file has no name: nothing is left beside the report.
    assert_eq!(files_in(&stored_dir), ["report.json"]);
    let _ = std::fs::remove_dir_all(&held_dir);
    let _ = std::fs::remove_dir_all(&stored_dir);
}

/// `stored`, the report.json of an audit whose every fetched page and asset went to the page
/// store, is `held`'s but for `pages_stored`, which counts them all.
fn assert_same_but_pages_stored(mut stored: serde_json::Value, held: &serde_json::Value) {
    let crawl = stored["crawl"].as_object_mut().unwrap();
    assert_eq!(
        crawl.remove("pages_stored"),
        Some(held["crawl"]["pages_fetched"].clone())
    );
    assert!(
        stored == *held,
        "the report differs: {}",
        first_difference(&stored, held, "").unwrap_or_default()
    );
}

/// Every report format written with the report's page records in the page store (read back
/// as each format is written) is the one written with them in memory, byte for byte; in
/// report.json only `pages_stored` tells them apart.
#[test]
fn every_format_is_the_same_with_the_report_pages_in_the_page_store() {
    let server = site();
    let formats = [
        "--format", "html", "--format", "md", "--format", "sarif", "--format", "junit", "--format",
        "parquet",
    ];
    let held_dir = scratch("formats-held");
    let mut held = audit_command(&server, "--output-dir", &held_dir);
    held.args(formats);
    run(held);
    let stored_dir = scratch("formats-stored");
    let mut stored = audit_command(&server, "--output-dir", &stored_dir);
    stored.args(formats).args(["--pages-in-memory", "0"]);
    run(stored);
    let names = files_in(&held_dir);
    assert_eq!(files_in(&stored_dir), names);
    assert!(names.len() >= 11, "{names:?}");
    for name in &names {
        let read = |dir: &Path| std::fs::read(dir.join(name)).unwrap();
        let (held_bytes, stored_bytes) = (read(&held_dir), read(&stored_dir));
        if name == "report.json" {
            let held: serde_json::Value = serde_json::from_slice(&held_bytes).unwrap();
            let stored: serde_json::Value = serde_json::from_slice(&stored_bytes).unwrap();
            assert!(
                stored["pages"]
                    .as_array()
                    .is_some_and(|pages| pages.len() >= PAGES)
            );
            assert_same_but_pages_stored(stored, &held);
        } else {
            assert!(held_bytes == stored_bytes, "{name} differs");
        }
    }
    let _ = std::fs::remove_dir_all(&held_dir);
    let _ = std::fs::remove_dir_all(&stored_dir);
}

#[test]
fn a_store_resumes_only_the_crawl_that_made_it_and_a_missing_one_is_an_error() {
    let server = site();
    let dir = scratch("resume-other");
    let store = dir.join("store");
    let store_arg = store.to_str().unwrap();
    // `crawl --store` keeps its store, complete or not.
    let output = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args([
            "crawl",
            server.url("/").as_str(),
            "--quiet",
            "--store",
            store_arg,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(store.join("crawl-store.sqlite").is_file());
    let asked = server.requests().len();

    // The same crawl again from the store: nothing is asked of the site.
    let output = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args([
            "crawl",
            server.url("/").as_str(),
            "--quiet",
            "--resume",
            store_arg,
            "--jsonl",
            "-",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(server.requests().len(), asked);
    assert!(text(&output.stdout).lines().count() > PAGES);

    // Another crawl (other bounds, another start) is refused before anything is fetched.
    let url = server.url("/");
    exits_2_saying(
        &[
            "crawl",
            url.as_str(),
            "--max-pages",
            "11",
            "--resume",
            store_arg,
        ],
        "was made by another crawl (its options differ)",
    );
    let other = server.url("/p/1.html");
    exits_2_saying(
        &[
            "crawl",
            other.as_str(),
            "--max-pages",
            "10",
            "--resume",
            store_arg,
        ],
        "it started at",
    );
    assert_eq!(server.requests().len(), asked);
    let missing = dir.join("none");
    exits_2_saying(
        &["audit", url.as_str(), "--resume", missing.to_str().unwrap()],
        "holds no crawl store to resume",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A complete crawl whose reports could not all be written keeps its store: the same command
/// with `--resume` writes them from it, asking the site for nothing, and the store goes then.
#[test]
fn an_audit_whose_reports_fail_keeps_its_store_and_a_resume_writes_them_without_fetching() {
    let server = site();
    let dir = scratch("resume-after-failed-reports");
    // A report plugin that fails when it renders: it asks for a field the report has not.
    let plugin = scratch("resume-failing-plugin");
    std::fs::write(
        plugin.join("report.toml"),
        "name = \"failing\"\nextension = \"txt\"\nmedia_type = \"text/plain\"\ndescription = \"fails\"\n",
    )
    .unwrap();
    std::fs::write(
        plugin.join("report.txt.tera"),
        "{{ report.no_such_field.anywhere }}\n",
    )
    .unwrap();
    let mut failing = audit_command(&server, "--output-dir", &dir);
    failing.args([
        "--report-dir",
        plugin.to_str().unwrap(),
        "--format",
        "failing",
    ]);
    let output = failing.output().unwrap();
    let stderr = text(&output.stderr);
    assert_ne!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "is kept: run the same command with --resume {}",
            dir.display()
        )),
        "{stderr}"
    );
    assert!(
        files_in(&dir).contains(&"crawl-store.sqlite".to_owned()),
        "{:?}",
        files_in(&dir)
    );
    let first = report_json(&dir);
    let asked = server.requests().len();

    run(audit_command(&server, "--resume", &dir));
    assert_eq!(server.requests().len(), asked, "the resume fetched again");
    assert_eq!(
        essentials(&report_json(&dir), &server),
        essentials(&first, &server)
    );
    // Written now: the store went.
    assert_eq!(files_in(&dir), ["report.json"]);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&plugin);
}
