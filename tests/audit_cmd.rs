//! `crawlgate audit`: the bundled demo (every rule fires, clean pages stay clean) and a small
//! fixture site served on 127.0.0.1 (exit codes, config file, --obey-robots).

use crate::util::{audit_to_json, crawlgate, report_json, text};
use crawlgate_test_support::served::serve_fixture_site;
use crawlgate_test_support::{chromium, repo_dir};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;

/// Pages of the demo's `www` site that are indexable, self-canonical, linked, listed once in a
/// sitemap and carry valid directives: no finding may be about them.
const DEMO_CLEAN_PAGES: &[&str] = &[
    "/",
    "/about/",
    "/contact/",
    "/shop/tents/",
    "/shop/tents/summit-2",
    "/shop/backpacks/",
    "/shop/backpacks/trail-28",
    "/journal/",
    "/journal/packing-list",
    "/stores/",
];

/// Rules the demo cannot make fire, with the reason.
const DEMO_CANNOT_FIRE: &[(&str, &str)] = &[
    (
        "env/staging-exposed",
        "needs --environment staging; the demo is audited as production (its _demo.toml), so \
         env/staging-artifact-on-production fires instead (tests/audit_env_cmd.rs covers both)",
    ),
    (
        "http/start-url-error",
        "needs a start URL that answers an error, and the demo's home page is one of its clean \
         pages (a_start_url_answering_500_or_401_is_a_finding_a_message_and_inconclusive covers it)",
    ),
    (
        "http/page-read-in-part",
        "needs a page longer than the body bound (10 MiB by default) or past a page's signal bounds; the demo's pages are a few \
         KB (fixtures/rules/http/page-read-in-part reads 8,000 bytes of longer pages)",
    ),
    (
        "robots/expected-blocked-allowed",
        "needs --expect-blocked; the demo audits Googlebot and Bingbot, which it means to let in \
         (tests/audit_intent_cmd.rs covers it)",
    ),
];

/// The rules the demo cannot fire: [`DEMO_CANNOT_FIRE`], and the render/ rules, which need
/// --render (headless Chromium): the demo is audited from its raw HTML, so its report does not
/// depend on a browser (`tests/render_cmd.rs` fires them on `fixtures/sites/render`).
fn demo_cannot_fire() -> BTreeSet<&'static str> {
    DEMO_CANNOT_FIRE
        .iter()
        .map(|(id, _)| *id)
        .chain(
            crawlgate::RULES
                .iter()
                .map(|rule| rule.meta().id)
                .filter(|id| crawlgate::rules::render::needs_rendering(id)),
        )
        .collect()
}

/// A fresh, empty output folder for one test.
fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crawlgate-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn findings(report: &Value) -> &Vec<Value> {
    report["findings"].as_array().expect("findings is a list")
}

fn rules_fired(report: &Value) -> BTreeSet<String> {
    findings(report)
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_owned())
        .collect()
}

fn run(args: &[&str]) -> Output {
    crawlgate(args)
}

#[test]
fn the_demo_fires_every_rule_and_leaves_its_clean_pages_alone() {
    let dir = out_dir("demo");
    let output = run(&["audit", "--demo", "-o", dir.to_str().unwrap(), "--quiet"]);
    // Errors exist, and the default --fail-on is error.
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    for name in ["report.html", "report.md", "report.json"] {
        assert!(dir.join(name).is_file(), "{name} is written");
    }
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("crawlgate audited http://www.northwind.test/ for googlebot, bingbot"),
        "{stdout}"
    );
    assert!(stdout.contains("reports: "), "{stdout}");

    let report = report_json(&dir);
    assert!(report["schema_version"].as_u64().is_some_and(|v| v >= 1));
    let fired = rules_fired(&report);
    let cannot = demo_cannot_fire();
    let missing: Vec<&str> = crawlgate::RULES
        .iter()
        .map(|rule| rule.meta().id)
        .filter(|id| !fired.contains(*id) && !cannot.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "rules that do not fire in the demo: {missing:?}"
    );
    for (id, why) in DEMO_CANNOT_FIRE {
        assert!(
            !fired.contains(*id),
            "{id} fires in the demo now: take it off DEMO_CANNOT_FIRE (it said: {why})"
        );
    }

    // Every finding has evidence.
    for finding in findings(&report) {
        assert!(
            finding["evidence"]
                .as_array()
                .is_some_and(|e| !e.is_empty()),
            "{finding}"
        );
    }

    // The key cross-checks, about the URLs they should be about, with their evidence.
    let start = report["target"]["start_url"].as_str().unwrap().to_owned();
    let origin = start.trim_end_matches('/');
    let about = |rule: &str, url: &str| {
        findings(&report)
            .iter()
            .find(|f| f["rule"] == rule && f["url"] == url)
            .unwrap_or_else(|| panic!("no {rule} finding about {url}"))
            .clone()
    };
    let blocked_noindex = about(
        "robots/blocked-noindex",
        &format!("{origin}/account/orders"),
    );
    let evidence = blocked_noindex["evidence"].to_string();
    assert!(
        evidence.contains(r#""pattern":"/account/""#)
            && evidence.contains(r#""content":"noindex""#),
        "{blocked_noindex}"
    );
    about("sitemap/url-blocked", &format!("{origin}/account/orders"));
    about(
        "robots/blocked-css",
        &format!("{origin}/assets/css/legacy.css"),
    );
    about(
        "robots/blocked-js",
        &format!("{origin}/assets/js/configurator.js"),
    );
    assert_https_page_canonical_to_http(&report, origin);
    let disclosed = findings(&report)
        .iter()
        .filter(|f| f["rule"] == "robots/sensitive-path-disclosed")
        .map(ToString::to_string)
        .collect::<String>();
    assert!(disclosed.contains("/admin/") && disclosed.contains("/backup/"));

    // No finding is about a clean page.
    let clean: BTreeSet<String> = DEMO_CLEAN_PAGES
        .iter()
        .map(|path| format!("{origin}{path}"))
        .collect();
    let on_clean: Vec<String> = findings(&report)
        .iter()
        .filter(|f| clean.contains(f["url"].as_str().unwrap()))
        .map(|f| format!("{} {}", f["rule"], f["url"]))
        .collect();
    assert!(on_clean.is_empty(), "findings on clean pages: {on_clean:?}");
    assert_the_demo_stays_on_its_own_hosts(&report);
    // The clean pages were crawled (so the assertion above means something).
    let pages = report.to_string();
    for url in &clean {
        assert!(
            pages.contains(&format!("\"{url}\"")),
            "{url} is in the report"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The demo never leaves the machine: every robots.txt fetched is on one of its own hosts
/// (resolved by the audit to 127.0.0.1; no DNS server answers for `.test`), named without a port.
fn assert_the_demo_stays_on_its_own_hosts(report: &Value) {
    for robots in report["robots"].as_array().unwrap() {
        let url = url::Url::parse(robots["url"].as_str().unwrap()).unwrap();
        assert!(
            url.host_str()
                .is_some_and(|host| host.ends_with(".northwind.test"))
                && url.port().is_none(),
            "the demo reached {url}"
        );
    }
}

/// The secure site is served over HTTPS (the audit trusts the demo's own certificate): its
/// product page names the shop's `http://` page (on `origin`) as canonical.
fn assert_https_page_canonical_to_http(report: &Value, origin: &str) {
    let finding = findings(report)
        .iter()
        .find(|f| f["rule"] == "canonical/https-to-http")
        .expect("canonical/https-to-http fires");
    let page = finding["url"].as_str().unwrap();
    assert_eq!(
        page, "https://secure.northwind.test/products/summit-2",
        "{finding}"
    );
    let evidence = finding["evidence"].to_string();
    assert!(
        evidence.contains(&format!(r#""href":"{origin}/shop/tents/summit-2""#)),
        "{finding}"
    );
}

/// The demo's sites are named by host (`http://www.northwind.test/`), not by the ports they
/// happen to get, and audited at a fixed time: two runs write the same bytes.
#[test]
fn two_demo_runs_write_identical_reports() {
    let dirs = [out_dir("demo-run-1"), out_dir("demo-run-2")];
    // Both at once: the test costs one run's time on two cores.
    let runs: Vec<std::process::Child> = dirs
        .iter()
        .map(|dir| {
            std::process::Command::new(env!("CARGO_BIN_EXE_crawlgate"))
                .args(["audit", "--demo", "--quiet", "-o", dir.to_str().unwrap()])
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("the crawlgate binary runs")
        })
        .collect();
    for mut run in runs {
        assert_eq!(run.wait().unwrap().code(), Some(1));
    }
    for name in ["report.json", "report.md", "report.html"] {
        let [first, second] = dirs
            .each_ref()
            .map(|dir| std::fs::read(dir.join(name)).unwrap());
        if first != second {
            let (first, second) = (text(&first), text(&second));
            let differ = first
                .lines()
                .zip(second.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .map(|(n, (a, b))| format!("line {}:\n  {a}\n  {b}", n + 1));
            panic!("{name} differs between two runs, first at {differ:?}");
        }
    }
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
#[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
fn the_demo_and_a_clean_site_render_in_headless_chromium_at_desktop_and_phone_widths() {
    let Some(chromium) = chromium::find() else {
        println!("note: chromium is not installed; the headless rendering check is skipped");
        return;
    };
    let server = serve_fixture_site("clean");
    let clean = out_dir("clean-html");
    let output = run(&[
        "audit",
        server.url("/").as_str(),
        "-o",
        clean.to_str().unwrap(),
    ]);
    let report = report_json(&clean);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(findings(&report).is_empty(), "{:#?}", findings(&report));
    let demo = out_dir("demo-html");
    assert_eq!(
        run(&["audit", "--demo", "--quiet", "-o", demo.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    for dir in [&clean, &demo] {
        let file = dir.join("report.html");
        let (dom, console) = chromium::load(&chromium, &file);
        assert!(
            dom.contains("data-report-ready=\"true\""),
            "{}",
            file.display()
        );
        assert!(console.is_empty(), "{}: {console:#?}", file.display());
        chromium::assert_fits(&chromium, &file);
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn the_demo_writes_every_built_in_format_and_a_plugin() {
    let dir = out_dir("demo-formats");
    let output = run(&[
        "audit",
        "--demo",
        "-o",
        dir.to_str().unwrap(),
        "--quiet",
        // A flag wins over the demo's own settings (googlebot and bingbot).
        "--profile",
        "googlebot",
        "--format",
        "html",
        "--format",
        "md",
        "--format",
        "sarif",
        "--format",
        "junit",
        "--report-dir",
        repo_dir().join("reports/csv-findings").to_str().unwrap(),
        "--format",
        "csv-findings",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains(" for googlebot: "), "{stdout}");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("robots/blocked-noindex"));
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("robots/blocked-noindex"));
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let junit = std::fs::read_to_string(dir.join("report.junit.xml")).unwrap();
    assert!(junit.contains("<testsuite"));
    let csv = std::fs::read_to_string(dir.join("report.csv")).unwrap();
    assert!(csv.lines().count() > 100, "one line per finding");
    assert!(csv.contains("robots/blocked-noindex"));
    assert!(!dir.join("report.json").exists(), "json was not asked for");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_small_site_exits_1_on_errors_and_0_when_told_never_to_fail() {
    let server = serve_fixture_site("audit-small");
    let start = server.url("/");
    let dir = out_dir("small");
    let output = run(&[
        "audit",
        start.as_str(),
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let report = report_json(&dir);
    let fired = rules_fired(&report);
    assert!(fired.contains("robots/blocked-noindex"), "{fired:?}");
    assert!(fired.contains("robots/blocked-linked"), "{fired:?}");
    // The home and about pages are clean.
    for path in ["/", "/about"] {
        let url = server.url(path).to_string();
        assert!(
            findings(&report).iter().all(|f| f["url"] != url.as_str()),
            "a finding about {url}"
        );
    }

    audit_to_json(start.as_str(), &[], &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_config_file_turns_rules_off_and_suppresses_findings() {
    let server = serve_fixture_site("audit-small");
    let dir = out_dir("config");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("crawlgate.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[rules]
"robots/blocked-noindex" = "off"

[[suppress]]
rule = "robots/blocked-linked"
urls = "{}workshop/*"
reason = "the workshop report is linked for staff on purpose"
"#,
            server.url("/")
        ),
    )
    .unwrap();
    let reports = dir.join("reports");
    let output = run(&[
        "audit",
        server.url("/").as_str(),
        "--config",
        config.to_str().unwrap(),
        "-o",
        reports.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
        "--fail-on",
        "warning",
    ]);
    let stdout = text(&output.stdout);
    let report = report_json(&reports);
    let fired = rules_fired(&report);
    assert!(!fired.contains("robots/blocked-noindex"), "{fired:?}");
    assert!(!fired.contains("robots/blocked-linked"), "{fired:?}");
    assert!(stdout.contains("suppressed by the config file"), "{stdout}");
    // Nothing at warning or above is left.
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn obeying_robots_leaves_the_blocked_page_unverifiable() {
    let server = serve_fixture_site("audit-small");
    let dir = out_dir("obey");
    let output = run(&[
        "audit",
        server.url("/").as_str(),
        "--obey-robots",
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let report = report_json(&dir);
    let blocked = server.url("/workshop/report").to_string();
    assert!(
        findings(&report)
            .iter()
            .any(|f| f["rule"] == "robots/blocked-unverifiable" && f["url"] == blocked.as_str()),
        "{:?}",
        rules_fired(&report)
    );
    assert!(!rules_fired(&report).contains("robots/blocked-noindex"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_robots_override_is_audited_instead_of_the_live_file() {
    let server = serve_fixture_site("audit-small");
    let dir = out_dir("robots-override");
    std::fs::create_dir_all(&dir).unwrap();
    let draft = dir.join("robots-new.txt");
    std::fs::write(&draft, "User-agent: *\nDisallow: /about\n").unwrap();
    let origin = server.url("/").origin().ascii_serialization();
    let output = run(&[
        "audit",
        server.url("/").as_str(),
        "--robots-override",
        &format!("{origin}={}", draft.display()),
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        stdout.contains("(--robots-override), not fetched"),
        "{stdout}"
    );
    assert!(!server.requests().iter().any(|r| r == "/robots.txt"));
    let report = report_json(&dir);
    assert_eq!(
        report["robots"][0]["overridden_by"],
        draft.display().to_string()
    );
    // The live file blocks /workshop/ (whose noindex Google then can't see); the draft doesn't,
    // and blocks /about instead, which is linked.
    let fired = rules_fired(&report);
    assert!(!fired.contains("robots/blocked-noindex"), "{fired:?}");
    assert!(
        findings(&report)
            .iter()
            .any(|f| f["rule"] == "robots/blocked-linked"
                && f["url"] == server.url("/about").as_str()),
        "{fired:?}"
    );
    for bad in [
        "www.example.com=robots.txt".to_owned(),
        format!("{origin}/shop/={}", draft.display()),
        format!("{origin}="),
        format!("{origin}={}", dir.join("missing.txt").display()),
    ] {
        let refused = dir.join("refused");
        let output = run(&[
            "audit",
            server.url("/").as_str(),
            "--robots-override",
            &bad,
            "-o",
            refused.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        assert!(text(&output.stderr).contains("robots"), "{bad}");
        // A usage error leaves no report folder, nor a crawl store in it.
        assert!(!refused.exists(), "{bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreachable_start_url_is_a_message_and_no_report() {
    // A port nothing listens on any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = out_dir("unreachable");
    let output = run(&[
        "audit",
        &format!("http://127.0.0.1:{port}/"),
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
        "--timeout",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stderr),
        format!(
            "crawlgate: cannot reach the start URL http://127.0.0.1:{port}/: connection refused \
             (is the server running and the port right?); nothing was audited, so no report was \
             written\n"
        )
    );
    assert!(text(&output.stdout).is_empty(), "{}", text(&output.stdout));
    assert!(!dir.exists(), "no report: nothing was audited");
}

#[test]
fn a_start_url_whose_host_does_not_resolve_names_the_host() {
    // `.invalid` never resolves (RFC 6761); crawlgate answers it without asking a DNS server.
    let dir = out_dir("dns");
    let output = run(&[
        "audit",
        "http://shop.invalid/",
        "-o",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with(
            "crawlgate: cannot reach the start URL http://shop.invalid/: the host name \
             `shop.invalid` does not resolve"
        ) && stderr.ends_with("no report was written\n"),
        "{stderr}"
    );
    assert!(!dir.exists(), "no report: nothing was audited");
}

/// A site whose start URL answers `status` (with `headers`), robots.txt answering 200.
fn start_answering(status: u16, headers: &[&str]) -> crawlgate_serve::SiteServer {
    let mut route = crawlgate_serve::Route::status("/", status, "<!doctype html><title>No</title>");
    for line in headers {
        route = route.header(*line);
    }
    let site = crawlgate_serve::ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .route(route);
    crawlgate_serve::SiteServer::start_in_background(site).unwrap()
}

#[test]
fn a_start_url_answering_500_or_401_is_a_finding_a_message_and_inconclusive() {
    for (status, headers, said) in [
        (500, &[][..], "answers 500: the server fails"),
        (
            401,
            &["WWW-Authenticate: Basic realm=\"staging\""][..],
            "answers 401: the site asks for credentials",
        ),
    ] {
        let server = start_answering(status, headers);
        let start = server.url("/");
        let dir = out_dir(&format!("start-{status}"));
        let output = run(&[
            "audit",
            start.as_str(),
            "-o",
            dir.to_str().unwrap(),
            "--format",
            "json",
            "--quiet",
        ]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(3), "{stderr}");
        assert!(
            stderr.starts_with(&format!("crawlgate: the start URL {start} {said}"))
                && stderr.contains("the audit is inconclusive (exit status 3)"),
            "{stderr}"
        );
        if status == 401 {
            assert!(stderr.contains("--basic-auth USER:PASS"), "{stderr}");
        }
        assert!(
            text(&output.stdout).contains("reports: "),
            "{}",
            text(&output.stdout)
        );
        let report = report_json(&dir);
        let finding = findings(&report)
            .iter()
            .find(|f| f["rule"] == "http/start-url-error")
            .unwrap_or_else(|| panic!("no http/start-url-error: {:?}", rules_fired(&report)));
        assert_eq!(finding["severity"], "critical");
        assert_eq!(finding["url"], start.as_str());
        assert!(!rules_fired(&report).contains("robots/unreachable"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_config_file_sets_the_pace_and_refuses_rate_with_delay() {
    let server = serve_fixture_site("audit-small");
    let dir = out_dir("config-pace");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("crawlgate.toml");
    let audit = |toml: &str| {
        std::fs::write(&config, toml).unwrap();
        run(&[
            "audit",
            server.url("/").as_str(),
            "--config",
            config.to_str().unwrap(),
            "-o",
            dir.join("reports").to_str().unwrap(),
            "--format",
            "json",
            "--quiet",
            "--fail-on",
            "never",
        ])
    };
    let paced = audit("rate = 50\n");
    assert_eq!(paced.status.code(), Some(0), "{}", text(&paced.stderr));
    let stdout = text(&paced.stdout);
    assert!(
        stdout.contains("pace: at most 50 requests/s per host\n"),
        "{stdout}"
    );
    let both = audit("rate = 2\ndelay = 0.5\n");
    assert_eq!(both.status.code(), Some(2));
    assert!(
        text(&both.stderr).contains("`rate` or `delay`, not both"),
        "{}",
        text(&both.stderr)
    );
    let negative = audit("delay = -1\n");
    assert_eq!(negative.status.code(), Some(2));
    assert!(
        text(&negative.stderr).contains("config: delay: `-1` is out of range"),
        "{}",
        text(&negative.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
