//! `crawlgate robots test` and `crawlgate robots lint`, end to end.

use crate::util::crawlgate;
use crawlgate_test_support::{fixtures_dir, repo_dir};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn example() -> String {
    fixtures_dir()
        .join("robots/example.txt")
        .display()
        .to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn test_prints_one_tab_separated_line_per_url_with_the_deciding_rule() {
    let output = crawlgate(&[
        "robots",
        "test",
        &example(),
        "--user-agent",
        "Googlebot",
        "/drafts/a",
        "https://example.com/tmp/x?y#z",
        "/elsewhere",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "disallowed\t/drafts/a\tline 9: Disallow: /drafts/\n\
         disallowed\thttps://example.com/tmp/x?y#z\tline 10: Disallow: /tmp/\n\
         allowed\t/elsewhere\tno matching rule\n"
    );
}

#[test]
fn test_json_has_one_object_per_url() {
    let output = crawlgate(&[
        "robots",
        "test",
        &example(),
        "-u",
        "bingbot",
        "--json",
        "/private/press-kit.pdf",
        "/a.json",
        "/x",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let records: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    assert_eq!(
        records,
        vec![
            serde_json::json!({"url": "/private/press-kit.pdf", "allowed": true, "user_agent": "bingbot",
                "line": 4, "directive": "Allow", "pattern": "/private/press-kit.pdf"}),
            serde_json::json!({"url": "/a.json", "allowed": false, "user_agent": "bingbot",
                "line": 5, "directive": "Disallow", "pattern": "/*.json$"}),
            serde_json::json!({"url": "/x", "allowed": true, "user_agent": "bingbot",
                "line": null, "directive": null, "pattern": null}),
        ]
    );
}

#[test]
fn test_compares_bare_tokens_verbatim_like_googles_library() {
    // `User-agent: AB42bot` is read as `AB`: the caller `AB` matches it, `AB42bot` does not.
    let ab = crawlgate(&["robots", "test", &example(), "-u", "AB", "/anything"]);
    assert_eq!(stdout(&ab), "disallowed\t/anything\tline 13: Disallow: /\n");
    let whole = crawlgate(&["robots", "test", &example(), "-u", "AB42bot", "/anything"]);
    assert_eq!(stdout(&whole), "allowed\t/anything\tno matching rule\n");
    assert!(!stderr(&whole).contains("note:"));
}

#[test]
fn test_reduces_a_full_user_agent_header_and_says_so() {
    let output = crawlgate(&[
        "robots",
        "test",
        &example(),
        "-u",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "--json",
        "/drafts/a",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("product token `Googlebot`"),
        "{}",
        stderr(&output)
    );
    let record: serde_json::Value = serde_json::from_str(stdout(&output).trim()).expect("JSON");
    assert_eq!(record["user_agent"], "Googlebot");
    assert_eq!(record["allowed"], false);
}

#[test]
fn test_takes_the_url_text_as_given_and_has_no_robots_txt_exception() {
    let file = fixtures_dir()
        .join("robots/non-ascii.txt")
        .display()
        .to_string();
    let output = crawlgate(&[
        "robots",
        "test",
        &file,
        "-u",
        "a",
        "/ツ/x",
        "/%E3%83%84/x",
        "/robots.txt",
    ]);
    assert_eq!(
        stdout(&output),
        "disallowed\t/ツ/x\tline 4: Disallow: /\n\
         disallowed\t/%E3%83%84/x\tline 3: Disallow: /ツ/\n\
         disallowed\t/robots.txt\tline 4: Disallow: /\n"
    );
}

#[test]
fn test_streams_urls_from_a_file_and_from_stdin() {
    let list = std::env::temp_dir().join(format!("crawlgate-urls-{}.txt", std::process::id()));
    let mut urls = String::new();
    for i in 0..20_000 {
        write!(urls, "/drafts/{i}\r\n\n/ok/{i}\n").expect("write to a String");
    }
    std::fs::write(&list, &urls).expect("write URL list");
    let output = crawlgate(&[
        "robots",
        "test",
        &example(),
        "-u",
        "googlebot",
        "--urls-from",
        &list.display().to_string(),
    ]);
    std::fs::remove_file(&list).ok();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 40_000);
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("disallowed\t/drafts/"))
            .count(),
        20_000
    );

    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args([
            "robots",
            "test",
            &example(),
            "-u",
            "googlebot",
            "--urls-from",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"/drafts/x\nhttps://example.com/y\n")
        .expect("write stdin");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(
        stdout(&output),
        "disallowed\t/drafts/x\tline 9: Disallow: /drafts/\nallowed\thttps://example.com/y\tno matching rule\n"
    );
}

#[test]
fn test_refuses_an_empty_url_list_and_a_missing_file() {
    // (A robots.txt URL is fetched: tests/crawl_cmd.rs, against a local server.)
    let none = crawlgate(&["robots", "test", &example(), "-u", "a"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no URL to test"));
    let missing = crawlgate(&["robots", "test", "no/such/file.txt", "-u", "a", "/"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no/such/file.txt"));
}

#[test]
fn test_reads_a_file_as_googlebot_does_only_its_first_500_kib() {
    let file = std::env::temp_dir().join(format!("crawlgate-big-{}.txt", std::process::id()));
    let mut body = String::from("User-agent: *\nDisallow: /early\n");
    while body.len() < 520_000 {
        body.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    body.push_str("Disallow: /late\n");
    std::fs::write(&file, &body).expect("write robots.txt");
    let path = file.display().to_string();
    let output = crawlgate(&["robots", "test", &path, "-u", "a", "/early", "/late"]);
    let lint = crawlgate(&["robots", "lint", &path]);
    std::fs::remove_file(&file).ok();
    assert_eq!(
        stdout(&output),
        "disallowed\t/early\tline 2: Disallow: /early\nallowed\t/late\tno matching rule\n"
    );
    let lint = stdout(&lint);
    assert!(lint.contains("error[robots/oversize]"), "{lint}");
    assert!(lint.contains("Disallow: /late"), "{lint}");
}

#[test]
fn test_rejects_an_overlong_url_line() {
    let list = std::env::temp_dir().join(format!("crawlgate-long-{}.txt", std::process::id()));
    std::fs::write(&list, format!("/ok\n/{}\n", "a".repeat(70_000))).expect("write URL list");
    let output = crawlgate(&[
        "robots",
        "test",
        &example(),
        "-u",
        "a",
        "--urls-from",
        &list.display().to_string(),
    ]);
    std::fs::remove_file(&list).ok();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("line 2"), "{}", stderr(&output));
    assert_eq!(stdout(&output), "allowed\t/ok\tno matching rule\n");
}

#[test]
fn test_help_explains_token_matching() {
    let help = stdout(&crawlgate(&["robots", "test", "--help"]));
    assert!(help.contains("AB42bot"), "{help}");
    assert!(help.contains("contains `/` or `(`"), "{help}");
    assert!(help.contains("--urls-from"));
}

#[test]
fn lint_prints_compiler_style_lines_and_exits_zero_by_default() {
    let file = example();
    let output = crawlgate(&["robots", "lint", &file]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.contains(&format!(
            "{file}:10: warning[robots/typo-field]: `Dissalow`"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{file}:6: notice[robots/unsupported-field]:")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{file}:8: warning[robots/group-shadows-global]:")),
        "{text}"
    );
    for line in text.lines() {
        assert!(line.starts_with(&format!("{file}:")), "{line}");
    }
}

#[test]
fn lint_prints_whole_file_issues_without_a_line() {
    let file = fixtures_dir()
        .join("robots/no-sitemap.txt")
        .display()
        .to_string();
    let text = stdout(&crawlgate(&["robots", "lint", &file]));
    assert!(
        text.contains(&format!("{file}: notice[robots/no-sitemap-field]:")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{file}:3: warning[robots/noindex-field]:")),
        "{text}"
    );
}

#[test]
fn lint_fail_on_sets_the_exit_status() {
    let file = example();
    assert_eq!(
        crawlgate(&["robots", "lint", &file, "--fail-on", "warning"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        crawlgate(&["robots", "lint", &file, "--fail-on", "error"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        crawlgate(&["robots", "lint", &file, "--fail-on", "bogus"])
            .status
            .code(),
        Some(2)
    );
    // A profile whose group disallows everything is critical.
    let critical = crawlgate(&["robots", "lint", &file, "-u", "AB", "--fail-on", "critical"]);
    assert_eq!(critical.status.code(), Some(1));
    assert!(stdout(&critical).contains("critical[robots/disallow-all]"));
}

#[test]
fn lint_json_has_one_object_per_issue() {
    let file = example();
    let output = crawlgate(&["robots", "lint", &file, "--json"]);
    let records: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    assert_eq!(records.len(), 4);
    let typo = records
        .iter()
        .find(|r| r["rule"] == "robots/typo-field")
        .expect("typo issue");
    assert_eq!(typo["file"], file.as_str());
    assert_eq!(typo["line"], 10);
    assert_eq!(typo["severity"], "warning");
}

#[test]
fn lint_reads_a_large_real_file_as_a_200_response() {
    // www.hermes.com: 1.37 MB of HTML served as robots.txt.
    let file = fixtures_dir()
        .join("corpus/robots/protego/www.hermes.com.robots.txt")
        .display()
        .to_string();
    let text = stdout(&crawlgate(&["robots", "lint", &file]));
    assert!(text.contains("warning[robots/served-as-html]"), "{text}");
    assert!(text.contains("[robots/oversize]"), "{text}");
}

/// The `crawlgate robots …` commands of README.md's robots.txt section, run as written from the
/// repository root.
#[test]
fn readme_robots_examples_work_as_written() {
    let readme = std::fs::read_to_string(repo_dir().join("README.md")).expect("README.md");
    let commands: Vec<&str> = readme
        .lines()
        .filter(|line| line.starts_with("crawlgate robots "))
        .collect();
    assert!(commands.len() >= 2, "README.md has no robots examples");
    for command in commands {
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let output = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
            .args(&args)
            .current_dir(repo_dir())
            .output()
            .expect("run");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{command}: {}",
            stderr(&output)
        );
        assert!(!output.stdout.is_empty(), "{command}");
    }
}
