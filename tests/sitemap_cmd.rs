//! `crawlgate sitemap check`, end to end.

use crate::util::{crawlgate, crawlgate_in};
use crawlgate_test_support::{fixtures_dir, repo_dir};
use std::io::Write as _;
use std::process::{Command, Output, Stdio};

const CHECK_TIME: &str = "2026-11-30T12:00:00Z";

fn fixture(relative: &str) -> String {
    fixtures_dir()
        .join("sitemaps")
        .join(relative)
        .display()
        .to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn check(args: &[&str]) -> Output {
    let mut all = vec!["sitemap", "check", "--check-time", CHECK_TIME];
    all.extend_from_slice(args);
    crawlgate(&all)
}

#[test]
fn prints_the_summary_then_one_line_per_issue() {
    let file = fixture("hreflang-invalid/fires.xml");
    let output = check(&[&file]);
    assert_eq!(output.status.code(), Some(1), "errors fail by default");
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("{file}: urlset, 5 entries, 1097 bytes"));
    assert_eq!(
        lines[1],
        format!(
            "{file}:6:5: error[sitemap/hreflang-invalid]: hreflang `en-UK` is invalid: `UK` is not \
             an ISO 3166-1 code; the United Kingdom is `GB`"
        )
    );
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(lines[7], "6 issues: 6 errors");
}

#[test]
fn fail_on_sets_the_threshold() {
    let notices = fixture("duplicate-url/fires.xml");
    assert_eq!(check(&[&notices]).status.code(), Some(0));
    assert_eq!(
        check(&[&notices, "--fail-on", "notice"]).status.code(),
        Some(1)
    );
    let errors = fixture("loc-invalid/fires.xml");
    assert_eq!(
        check(&[&errors, "--fail-on", "never"]).status.code(),
        Some(0)
    );
    assert_eq!(
        check(&[&errors, "--fail-on", "critical"]).status.code(),
        Some(0)
    );
    let clean = check(&[&fixture("empty/clean.xml")]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(stdout(&clean).ends_with("urlset, 1 entry, 163 bytes\nno issues\n"));
}

#[test]
fn url_places_the_sitemap_for_the_location_rules() {
    let file = fixture("out-of-path-scope/fires.xml");
    let unplaced = stdout(&check(&[&file]));
    assert!(unplaced.ends_with("no issues\n"), "{unplaced}");
    let placed = stdout(&check(&[
        &file,
        "--url",
        "https://example.com/catalog/sitemap.xml",
    ]));
    assert!(
        placed.contains(":7:5: warning[sitemap/out-of-path-scope]: "),
        "{placed}"
    );
}

#[test]
fn gzip_sizes_and_index_children_are_shown() {
    let gz = fixture("gzip-invalid/clean.xml.gz");
    let text = stdout(&check(&[&gz]));
    assert!(
        text.starts_with(&format!(
            "{gz}: urlset, 2 entries, 218 bytes uncompressed, 155 gzip\n"
        )),
        "{text}"
    );
    let index = fixture("kinds/index.xml");
    let text = stdout(&check(&[&index]));
    assert_eq!(
        text,
        format!(
            "{index}: index, 2 child sitemaps, 280 bytes\nchild sitemaps:\n  \
             https://example.com/sitemap-products.xml\n  https://example.com/sitemap-blog.xml\n\
             no issues\n"
        )
    );
}

#[test]
fn json_is_one_object_with_the_same_facts() {
    let index = fixture("index-child-out-of-scope/fires.xml");
    let output = check(&[
        &index,
        "--json",
        "--url",
        "https://example.com/sitemaps/index.xml",
    ]);
    assert_eq!(output.status.code(), Some(0), "warnings only");
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
    assert_eq!(json["file"], index.as_str());
    assert_eq!(json["url"], "https://example.com/sitemaps/index.xml");
    assert_eq!(json["kind"], "index");
    assert_eq!(json["gzip"], false);
    assert_eq!(json["entry_count"], 3);
    assert_eq!(json["bytes_uncompressed"], 361);
    assert_eq!(json["truncated"], false);
    assert_eq!(json["children"].as_array().unwrap().len(), 3);
    let issues = json["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 2);
    assert_eq!(issues[0]["rule"], "sitemap/index-child-out-of-scope");
    assert_eq!(issues[0]["severity"], "warning");
    assert_eq!(issues[0]["line"], 7);
    assert_eq!(issues[0]["column"], 5);
    // Not an index: no children listed.
    let urlset = check(&[&fixture("empty/clean.xml"), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&urlset)).unwrap();
    assert_eq!(json["children"], serde_json::json!([]));
}

#[test]
fn urls_prints_only_the_urls_and_issues_go_to_stderr() {
    let file = fixture("kinds/text.txt");
    let output = check(&[&file, "--urls"]);
    assert_eq!(
        stdout(&output),
        "https://example.com/\nhttps://example.com/about\nhttps://example.com/contact\n",
        "a line that is no URL is reported, not printed as one"
    );
    assert_eq!(
        stderr(&output),
        format!(
            "{file}:5:1: error[sitemap/loc-invalid]: `not a url` is not an absolute URL \
             (sitemaps need fully-qualified URLs, with scheme and host); not read as an entry of \
             the sitemap\n"
        )
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(["sitemap", "check", "-", "--urls"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run");
    let bytes = std::fs::read(fixtures_dir().join("sitemaps/gzip-invalid/clean.xml.gz")).unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        stdout(&output),
        "https://example.com/a\nhttps://example.com/b\n"
    );
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let output = crawlgate(&["sitemap", "check", "no/such/sitemap.xml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot open `no/such/sitemap.xml`"));
}

/// The `crawlgate sitemap check` example of README.md's Sitemaps section, run as written from the
/// repository root, prints exactly the output shown under it.
#[test]
fn readme_sitemap_example_works_as_written() {
    let readme = std::fs::read_to_string(repo_dir().join("README.md")).expect("README.md");
    let section = readme
        .split("\n## Sitemaps\n")
        .nth(1)
        .expect("README.md has a Sitemaps section");
    let command = section
        .lines()
        .find(|line| line.starts_with("crawlgate sitemap check "))
        .expect("an example command");
    let shown = section
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the example's output");
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let output = crawlgate_in(&repo_dir(), &args);
    assert_eq!(stdout(&output), shown, "{command}");
    assert_eq!(output.status.code(), Some(1), "the example has errors");
}
