//! Bad invocations: exit 2 and a message naming what is wrong, never a panic, an OOM or a
//! silent wrong run; and a stdout that is closed or full never panics a command.

use crate::util::{crawlgate, scratch, text};
use crawlgate_test_support::served::serve_fixture_site;
use std::process::{Command, Stdio};

/// `args` exit 2 with `message` on stderr, quickly and without reading an endless input whole.
fn refused(args: &[&str], message: &str) {
    let output = crawlgate(args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn bad_arguments_and_endless_or_binary_input_files_exit_2_with_a_message() {
    let dir = scratch("bad-invocations");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let folder = dir.to_str().unwrap();
    let binary = dir.join("random.bin");
    let mut bytes: Vec<u8> = (0..=255).collect();
    bytes.extend_from_slice(b"{\"schema_version\": 1}");
    std::fs::write(&binary, bytes).unwrap();
    let binary = binary.to_str().unwrap();
    let big = dir.join("big.toml");
    std::fs::write(&big, "# a comment\n".repeat(200_000)).unwrap();
    let big = big.to_str().unwrap();
    for (args, message) in [
        (
            vec!["audit", "--demo", "-o", out, "--profile", ""],
            "`` is not a crawler name",
        ),
        (
            vec!["audit", "--demo", "-o", out, "--profile", "my bot"],
            "`my bot` is not a crawler name",
        ),
        (
            vec!["audit", "--demo", "-o", out, "--expect-blocked", "gpt/bot"],
            "`gpt/bot` is not a crawler name",
        ),
        (
            vec!["audit", "--demo", "-o", out, "--config", "/dev/zero"],
            "the config file `/dev/zero` is not a text file",
        ),
        (
            vec!["audit", "--demo", "-o", out, "--config", big],
            "is larger than 1048576 bytes",
        ),
        (
            vec!["audit", "--demo", "-o", out, "--baseline", "/dev/zero"],
            "the baseline `/dev/zero` is not a text file",
        ),
        (
            vec!["audit", "--demo", "-o", out, "--baseline", binary],
            "is not a text file",
        ),
        (
            vec![
                "audit",
                "--demo",
                "-o",
                out,
                "--sitemap",
                "file:///etc/passwd",
            ],
            "`file:///etc/passwd` is not an http or https URL",
        ),
        (vec!["sitemap", "check", folder], "is a folder"),
        (
            vec!["diff", "/dev/zero", "/dev/zero"],
            "the report `/dev/zero` is not a text file",
        ),
    ] {
        refused(&args, message);
    }
    // The config file's sitemaps are checked the same way.
    let config = dir.join("crawlgate.toml");
    std::fs::write(&config, "sitemaps = [\"ftp://example.com/sitemap.xml\"]\n").unwrap();
    refused(
        &[
            "audit",
            "--demo",
            "-o",
            out,
            "--config",
            config.to_str().unwrap(),
        ],
        "is not an http or https URL",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `args` with stdout sent to `/dev/full` and then into a pipe closed at once; returns the
/// two exit statuses and asserts neither run panicked.
fn with_stdout_full_and_closed(args: &[&str]) -> (Option<i32>, Option<i32>) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let run = |stdout: Stdio| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
            .args(args)
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the crawlgate binary runs");
        // A piped stdout is closed before the command writes: its reader is gone.
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("crawlgate finishes");
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(output.status.code(), Some(101), "{args:?}: {stderr}");
        output.status.code()
    };
    (run(Stdio::from(full)), run(Stdio::piped()))
}

#[test]
fn a_closed_or_full_stdout_never_panics_and_never_changes_an_audits_verdict() {
    let dir = scratch("closed-stdout");
    let robots = dir.join("robots.txt");
    std::fs::write(&robots, "User-agent: *\nDisallow: /private/\n").unwrap();
    let robots = robots.to_str().unwrap();
    let sitemap = dir.join("sitemap.xml");
    std::fs::write(
        &sitemap,
        "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
         <url><loc>https://example.com/</loc></url>\n</urlset>\n",
    )
    .unwrap();
    let sitemap = sitemap.to_str().unwrap();
    let server = serve_fixture_site("audit-small");
    let start = server.url("/").to_string();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    for args in [
        vec!["rules"],
        vec!["explain", "robots/blocked-noindex"],
        vec![
            "robots",
            "test",
            robots,
            "/private/x",
            "--user-agent",
            "googlebot",
        ],
        vec!["robots", "lint", robots],
        vec!["robots", "diff", robots, robots],
        vec!["sitemap", "check", sitemap],
        vec!["sitemap", "check", sitemap, "--urls"],
        vec!["crawl", &start, "--quiet"],
        vec!["crawl", &start, "--quiet", "--jsonl", "-"],
    ] {
        with_stdout_full_and_closed(&args);
    }
    // The audit still writes its reports and exits with its verdict (the small site has an
    // error: 1), only its summary is lost.
    let (full, closed) = with_stdout_full_and_closed(&["audit", &start, "-o", out, "--quiet"]);
    assert_eq!((full, closed), (Some(1), Some(1)));
    assert!(dir.join("out/report.html").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The controls that would drive a terminal: ESC (clear the screen, set the title), BEL, CR and
/// the C1 CSI, U+009B.
const CONTROLS: [char; 4] = ['\u{1b}', '\u{7}', '\r', '\u{9b}'];

#[test]
fn hostile_bytes_from_a_site_are_escaped_in_every_commands_terminal_output() {
    use crawlgate_serve::{ServedSite, SiteServer};
    let hostile = "\u{1b}[2J\u{1b}]0;owned\u{7}\r\u{9b}31m";
    let robots = format!(
        "User-agent: *\nDisallow: /private/\nDissalow: /x{hostile}\nCrawl-delay: {hostile}\n"
    );
    let sitemap = format!(
        "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
         <url><loc>http://127.0.0.1/</loc><lastmod>2026{hostile}</lastmod></url>\n</urlset>\n"
    );
    let server = SiteServer::start_in_background(
        ServedSite::new()
            .file("robots.txt", robots.clone())
            .file("sitemap.xml", sitemap)
            .file(
                "index.html",
                format!(
                    "<!doctype html><title>t</title><meta name=robots content=\"noindex{hostile}\">"
                ),
            ),
    )
    .expect("served");
    let dir = scratch("terminal-controls");
    let robots_file = dir.join("robots.txt");
    std::fs::write(&robots_file, &robots).unwrap();
    let robots_file = robots_file.to_str().unwrap();
    let start = server.url("/").to_string();
    let sitemap_url = server.url("/sitemap.xml").to_string();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    for args in [
        vec!["robots", "lint", robots_file],
        vec!["robots", "lint", robots_file, "--json"],
        vec![
            "robots",
            "test",
            robots_file,
            "/x",
            "--user-agent",
            "googlebot",
        ],
        vec!["robots", "diff", robots_file, robots_file],
        vec!["sitemap", "check", &sitemap_url],
        vec!["sitemap", "check", &sitemap_url, "--json"],
        vec!["crawl", &start, "--quiet", "--jsonl", "-"],
        vec!["audit", &start, "-o", out, "--quiet"],
        vec!["sitemap", "check", "http://127.0.0.1:1/\u{1b}[2J"],
    ] {
        let output = crawlgate(&args);
        let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
        for control in CONTROLS {
            assert!(
                !stdout.contains(control) && !stderr.contains(control),
                "{args:?} wrote {control:?}:\n{stdout}\n{stderr}"
            );
        }
    }
    // What was escaped is still said, visibly.
    let lint = text(&crawlgate(&["robots", "lint", robots_file]).stdout);
    assert!(lint.contains("`\\u{9b}31m` is neither"), "{lint}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_output_paths_fail_before_the_crawl_and_a_late_failure_keeps_the_other_reports() {
    let dir = scratch("output-paths");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let file = file.to_str().unwrap();
    let folder = dir.to_str().unwrap();
    let missing = dir.join("no-such-folder/crawl.jsonl");
    let missing = missing.to_str().unwrap();
    // A start URL nothing answers: had the crawl run first, the error would be another one.
    let nowhere = "http://127.0.0.1:1/";
    for (args, message) in [
        (
            vec!["audit", nowhere, "-o", file],
            "is a file; -o takes a folder",
        ),
        (
            vec!["audit", nowhere, "-o", folder, "--write-baseline", folder],
            "--write-baseline",
        ),
        (vec!["crawl", nowhere, "--jsonl", folder], "is a folder"),
        (vec!["crawl", nowhere, "--jsonl", missing], "does not exist"),
    ] {
        refused(&args, message);
    }
    // A report file that cannot be replaced (a folder stands in its name) costs only itself.
    let server = serve_fixture_site("audit-small");
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("report.md")).unwrap();
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "-o",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the md report"), "{stderr}");
    assert!(out.join("report.html").is_file() && out.join("report.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
