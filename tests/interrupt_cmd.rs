//! Interrupting a running `crawlgate audit` or `crawlgate crawl` with SIGINT or SIGTERM: the first
//! signal stops the crawl and the report of what was seen is still written, marked interrupted;
//! a second one ends the process at once (status 130), even while the report is being written;
//! once the crawl is over, both say what quitting costs (the crawl store stays for --resume).
//!
//! Signals are sent with `kill(1)`; the waits are bounded and generous (no timed assertions).

use crate::util::{files_in, report_json, scratch};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use crawlgate_test_support::html::page;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for anything here; reached only when something is broken.
const PATIENCE: Duration = Duration::from_secs(30);

/// A site whose home page links to a page that answers after 30 s, so the crawl is under way
/// (and stays so) once that page has been asked for.
fn slow_site() -> SiteServer {
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file(
            "index.html",
            "<a href=\"/a\">a</a> <a href=\"/slow\">slow</a>",
        )
        .file("a", "<p>a</p>")
        .route(Route::status("/slow", 200, "<p>late</p>").delay_ms(30_000));
    SiteServer::start_in_background(site).unwrap()
}

/// Wait (bounded) until the server has been asked for `path`.
fn wait_for_request(server: &SiteServer, path: &str) {
    let started = Instant::now();
    while !server.requests().iter().any(|r| r == path) {
        assert!(started.elapsed() < PATIENCE, "{path} was never requested");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{name} failed");
}

/// Wait (bounded) for the child to end; kills it and fails when it does not.
fn wait_bounded(child: &mut Child) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("crawlgate did not end within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn audit(server: &SiteServer, output: &Path) -> Child {
    audit_with(server, output, &[])
}

/// `crawlgate audit` of `server`, JSON only, with `extra` flags, then `folder_flag`
/// (`--output-dir` or `--resume`) and `folder`.
fn audit_command(server: &SiteServer, extra: &[&str], folder_flag: &str, folder: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crawlgate"));
    command
        .args([
            "audit",
            server.url("/").as_str(),
            "--quiet",
            "--format",
            "json",
        ])
        .args(extra)
        .arg(folder_flag)
        .arg(folder);
    command
}

/// `crawlgate audit` of `server` into `output`, JSON only, with `extra` flags, started.
fn audit_with(server: &SiteServer, output: &Path, extra: &[&str]) -> Child {
    audit_command(server, extra, "--output-dir", output)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Audit the slow site, interrupt it once with `name` while the slow page is awaited, and check
/// the report written.
fn one_signal_writes_a_partial_report(name: &str) {
    let server = slow_site();
    let output = scratch(&format!("interrupt-{name}"));
    let mut child = audit(&server, &output);
    wait_for_request(&server, "/slow");
    signal(&child, name);
    let status = wait_bounded(&mut child);
    // Not killed by the signal: the command finished its work and chose its status.
    assert!(status.code().is_some(), "{status:?}");
    assert_ne!(status.code(), Some(130));
    // A stopped audit proves nothing clean: a CI gate must not pass on it.
    assert_ne!(status.code(), Some(0), "an interrupted audit exited 0");
    let report = report_json(&output);
    assert_eq!(report["summary"]["interrupted"], true);
    assert_eq!(report["summary"]["partial"], true);
    // What was seen before the signal is in it.
    assert!(report["summary"]["pages_crawled"].as_u64().unwrap() >= 1);
    // No temporary file beside the report; the crawl store stays, to resume the crawl.
    assert_eq!(files_in(&output), ["crawl-store.sqlite", "report.json"]);
    let _ = std::fs::remove_dir_all(&output);
}

#[test]
fn sigint_during_an_audit_writes_a_report_marked_interrupted() {
    one_signal_writes_a_partial_report("INT");
}

#[test]
fn sigterm_during_an_audit_writes_a_report_marked_interrupted() {
    one_signal_writes_a_partial_report("TERM");
}

#[test]
fn a_second_signal_during_an_audit_ends_it_at_once_and_leaves_no_half_report() {
    // `report.json` is a FIFO nobody reads (a device or FIFO is written in place, see
    // crawlgate_report's write_file_atomically): writing the report then blocks on opening it,
    // as a stalled disk would. The second signal must end the process there, leaving the FIFO
    // as it was and no temporary file.
    let server = slow_site();
    let output = scratch("second-signal-audit");
    let fifo = output.join("report.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut child = audit(&server, &output);
    wait_for_request(&server, "/slow");
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the report write did not block"
    );
    signal(&child, "INT");
    let status = wait_bounded(&mut child);
    assert_eq!(status.code(), Some(130), "{status:?}");
    {
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
    // No temporary file beside the report; the crawl store stays, to resume the crawl.
    assert_eq!(files_in(&output), ["crawl-store.sqlite", "report.json"]);
    let _ = std::fs::remove_dir_all(&output);
}

#[test]
fn a_second_signal_ends_the_process_at_once_even_while_output_is_written() {
    // 3,000 pages and the slow one: once all are asked for, the first signal ends the crawl and
    // its JSON lines (far more than a pipe holds) go to a standard output nobody reads, so the
    // process is stuck writing them. The second signal must end it there.
    let mut links: Vec<String> = (0..3_000).map(|i| format!("/g/{i}")).collect();
    links.push("/slow".to_owned());
    let links: Vec<&str> = links.iter().map(String::as_str).collect();
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file("index.html", page(&links))
        .generate("/g/", |_| Some("<p>generated</p>".into()))
        .route(Route::status("/slow", 200, "<p>late</p>").delay_ms(30_000));
    let server = SiteServer::start_in_background(site).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(["crawl", server.url("/").as_str(), "--quiet", "--jsonl", "-"])
        .args(["--no-assets", "--no-sitemap-probe"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_request(&server, "/slow");
    let started = Instant::now();
    while server
        .requests()
        .iter()
        .filter(|r| r.starts_with("/g/"))
        .count()
        < 3_000
    {
        assert!(
            started.elapsed() < PATIENCE,
            "the generated pages were not all asked for"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(&child, "INT");
    // Give the crawl time to end and fill the pipe; nothing reads it.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the output did not block"
    );
    signal(&child, "TERM");
    let status = wait_bounded(&mut child);
    assert_eq!(status.code(), Some(130), "{status:?}");
}

/// `--max-time` cuts the audit short: inconclusive (3) when no finding fails it already, and 0
/// only with `--fail-on never`.
#[test]
fn an_audit_out_of_time_is_inconclusive_unless_told_never_to_fail() {
    let server = slow_site();
    for (fail_on, expected) in [("critical", 3), ("never", 0)] {
        let output = scratch(&format!("max-time-{fail_on}"));
        let mut child = audit_with(&server, &output, &["--max-time", "1", "--fail-on", fail_on]);
        let status = wait_bounded(&mut child);
        assert_eq!(status.code(), Some(expected), "--fail-on {fail_on}");
        let report = report_json(&output);
        assert_eq!(report["summary"]["partial"], true);
    }
}

/// A site of endless pages that each cost the parser seconds of CPU (a `<meta>` flooded with
/// attributes up to the page byte cap), each linking to the next two: with the default
/// concurrency both cores parse without pause, and the queued work would take many minutes.
fn busy_parsing_site() -> SiteServer {
    let mut flood = String::new();
    for i in 0..1_000_000 {
        let _ = write!(flood, " a{i}=\"v\"");
    }
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .generate("/", move |target| {
            let n: u64 = target.trim_start_matches("/p").parse().unwrap_or(0);
            let head = format!(
                "<html><head><title>{n}</title></head><body><a href=\"/p{}\">a</a><a href=\"/p{}\">b</a><meta",
                2 * n + 1,
                2 * n + 2
            );
            Some(format!("{head}{flood}></body></html>").into())
        });
    SiteServer::start_in_background(site).unwrap()
}

/// Pages the server has been asked for.
fn pages_requested(server: &SiteServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|r| r.starts_with("/p"))
        .count()
}

/// Wait (bounded) until the server has been asked for at least `n` pages.
fn wait_for_pages(server: &SiteServer, n: usize) {
    let started = Instant::now();
    while pages_requested(server) < n {
        assert!(
            started.elapsed() < PATIENCE,
            "fewer than {n} pages were requested"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The deadline and a signal are watched by a loop that parsing never holds: pages are parsed
/// off it, and those still being parsed when the audit stops are recorded as interrupted.
#[test]
fn the_clock_and_a_signal_stop_an_audit_while_every_core_is_parsing() {
    let server = busy_parsing_site();
    let output = scratch("max-time-parsing");
    let mut child = audit_with(&server, &output, &["--max-time", "2", "--fail-on", "never"]);
    let status = wait_bounded(&mut child);
    assert_eq!(status.code(), Some(0), "{status:?}");
    let report = report_json(&output);
    assert_eq!(report["summary"]["partial"], true);
    assert!(
        report["summary"]["bounds_hit"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b.as_str().unwrap().starts_with("time bound")),
        "{}",
        report["summary"]
    );
    let interrupted = |report: &serde_json::Value| {
        report["pages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| {
                p["detail"]
                    .as_str()
                    .is_some_and(|d| d.contains("interrupted"))
            })
            .count()
    };
    assert!(interrupted(&report) > 0, "no page recorded as interrupted");

    let output = scratch("sigterm-parsing");
    let before = pages_requested(&server);
    let mut child = audit(&server, &output);
    wait_for_pages(&server, before + 4);
    signal(&child, "TERM");
    let status = wait_bounded(&mut child);
    assert!(status.code().is_some_and(|code| code != 130), "{status:?}");
    let report = report_json(&output);
    assert_eq!(report["summary"]["interrupted"], true);
    assert!(interrupted(&report) > 0, "no page recorded as interrupted");
    let _ = std::fs::remove_dir_all(&output);
}

#[test]
fn a_signal_while_the_reports_are_written_says_what_quitting_costs_and_a_resume_writes_them() {
    // A complete crawl; `report.json` and `report.md` are FIFOs. The test reads the first to
    // its end (so the reports are being written: the crawl is over), and nobody opens the
    // second, so the process waits there until it is signalled.
    let server = SiteServer::start_in_background(
        ServedSite::new()
            .file("robots.txt", "User-agent: *\nAllow: /\n")
            .file("index.html", page(&["/a"]))
            .file("a", "<p>a</p>"),
    )
    .unwrap();
    let output = scratch("signal-while-reporting");
    let (json, markdown) = (output.join("report.json"), output.join("report.md"));
    for fifo in [&json, &markdown] {
        assert!(Command::new("mkfifo").arg(fifo).status().unwrap().success());
    }
    let mut child = audit_with(&server, &output, &["--format", "md"]);
    let (sender, received) = std::sync::mpsc::channel();
    let reader = json.clone();
    std::thread::spawn(move || sender.send(std::fs::read(reader).unwrap()));
    let json_text = received
        .recv_timeout(PATIENCE)
        .expect("report.json is written");
    assert!(
        String::from_utf8(json_text)
            .unwrap()
            .contains("\"findings\"")
    );
    let asked = server.requests().len();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "report.md did not block"
    );
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "INT");
    let status = wait_bounded(&mut child);
    assert_eq!(status.code(), Some(130), "{status:?}");
    let stderr = {
        use std::io::Read as _;
        let mut text = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    let cost = format!(
        "the reports not yet written will not be, but the crawl store in `{}` stays: the same \
         command with --resume {} writes them",
        output.display(),
        output.display()
    );
    assert!(
        stderr.contains(&format!(
            "interrupted: the crawl is over, finishing its output (interrupt again to quit \
             now: {cost}"
        )),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("quit: {cost}")), "{stderr}");
    assert!(files_in(&output).contains(&"crawl-store.sqlite".to_owned()));

    // The reports, written from the store: the site is asked for nothing.
    std::fs::remove_file(&json).unwrap();
    std::fs::remove_file(&markdown).unwrap();
    let resumed = audit_command(&server, &["--format", "md"], "--resume", &output)
        .output()
        .unwrap();
    // The site has no finding at the default --fail-on (error): a complete audit, exit 0.
    assert_eq!(
        resumed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(server.requests().len(), asked, "the resume fetched again");
    assert_eq!(files_in(&output), ["report.json", "report.md"]);
    let _ = std::fs::remove_dir_all(&output);
}
