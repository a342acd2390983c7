//! `crawlgate robots test` and `crawlgate robots lint`, end to end.

use crate::util::{crawlgate, crawlgate_in, scratch, text};
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
/// repository root, but for the file a command writes (`-o`): it goes to a scratch folder, not
/// into the source tree.
#[test]
fn readme_robots_examples_work_as_written() {
    let written = scratch("readme-robots-examples");
    let readme = std::fs::read_to_string(repo_dir().join("README.md")).expect("README.md");
    let commands: Vec<&str> = readme
        .lines()
        // `robots suggest` reads an audit first: robots_suggest_cmd runs its README block whole.
        .filter(|line| {
            line.starts_with("crawlgate robots ") && !line.starts_with("crawlgate robots suggest ")
        })
        .collect();
    assert!(commands.len() >= 2, "README.md has no robots examples");
    for command in commands {
        let mut args: Vec<String> = command
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect();
        let output_file = args.iter().position(|arg| arg == "-o").map(|at| {
            let file = written.join(&args[at + 1]);
            args[at + 1] = file.display().to_string();
            file
        });
        let output = crawlgate_in(&repo_dir(), &args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{command}: {}",
            stderr(&output)
        );
        assert!(!output.stdout.is_empty(), "{command}");
        if let Some(file) = output_file {
            assert!(file.is_file(), "{command}: {} not written", file.display());
        }
    }
    std::fs::remove_dir_all(&written).unwrap();
}

fn demo_robots() -> String {
    fixtures_dir()
        .join("sites/demo/www/robots.txt")
        .display()
        .to_string()
}

/// URLs of the demo shop that its robots.txt decides differently for different crawlers.
const DEMO_URLS: [&str; 10] = [
    "/",
    "/checkout/pay",
    "/media/lookbook/summer.jpg",
    "/account/orders",
    "/staging/new-home",
    "/shop/boots?sort=price",
    "/search?q=boots",
    "/private/x",
    "/tmp/x",
    "http://www.northwind.test/catalog/1",
];

/// The text matrix read back: (URL, crawler) → cell, and the crawlers in column order.
fn parse_matrix(
    text: &str,
) -> (
    Vec<String>,
    std::collections::BTreeMap<(String, String), String>,
) {
    let table = text.split("\n\nDeciding lines:").next().unwrap_or(text);
    let table = table.split("\n\nGroups:").next().unwrap_or(table);
    let mut bots = Vec::new();
    let mut cells = std::collections::BTreeMap::new();
    for block in table.split("\n\n") {
        let mut rows = block.lines().map(|line| {
            line.split("  ")
                .map(str::trim)
                .filter(|cell| !cell.is_empty())
                .map(str::to_owned)
                .collect::<Vec<String>>()
        });
        let header = rows.next().expect("a header row");
        assert_eq!(header[0], "URL", "{block}");
        let columns = header[1..].to_vec();
        for row in rows {
            assert_eq!(row.len(), columns.len() + 1, "{block}");
            for (bot, cell) in columns.iter().zip(&row[1..]) {
                cells.insert((row[0].clone(), bot.clone()), cell.clone());
            }
        }
        bots.extend(columns);
    }
    (bots, cells)
}

/// A single `robots test` run's line as a matrix cell: `disallowed (line 22)`, or `allowed`.
fn single_run_cells(file: &str, user_agent: &str, urls: &[&str]) -> Vec<String> {
    let mut args = vec!["robots", "test", file, "-u", user_agent];
    args.extend_from_slice(urls);
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let rule = fields[2];
            match rule.strip_prefix("line ").and_then(|r| r.split(':').next()) {
                Some(number) => format!("{} (line {number})", fields[0]),
                None => fields[0].to_owned(),
            }
        })
        .collect()
}

#[test]
fn matrix_cells_equal_single_runs_for_each_crawler_on_the_demo() {
    let file = demo_robots();
    let bots = ["Googlebot", "Googlebot-Image", "Bingbot", "GPTBot", "CCBot"];
    let mut args = vec!["robots", "test", file.as_str()];
    for bot in bots {
        args.extend(["-u", bot]);
    }
    args.extend_from_slice(&DEMO_URLS);
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let (columns, cells) = parse_matrix(&stdout(&output));
    assert_eq!(columns, bots);
    for bot in bots {
        let single = single_run_cells(&file, bot, &DEMO_URLS);
        for (url, expected) in DEMO_URLS.iter().zip(&single) {
            assert_eq!(
                cells.get(&((*url).to_owned(), bot.to_owned())),
                Some(expected),
                "{bot} on {url}"
            );
        }
    }
    // Not everyone agrees on the demo, so the comparison means something.
    let verdicts: std::collections::BTreeSet<&String> = cells.values().collect();
    assert!(verdicts.len() >= 4, "{verdicts:?}");

    // The JSON matrix says the same, object by object, as single `--json` runs.
    let mut json_args = args.clone();
    json_args.push("--json");
    let matrix: Vec<serde_json::Value> = stdout(&crawlgate(&json_args))
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    assert_eq!(matrix.len(), DEMO_URLS.len() * bots.len());
    for bot in bots {
        let mut single_args = vec!["robots", "test", file.as_str(), "-u", bot, "--json"];
        single_args.extend_from_slice(&DEMO_URLS);
        let single = stdout(&crawlgate(&single_args));
        let ours = matrix.iter().filter(|record| record["bot"] == bot);
        for (record, line) in ours.zip(single.lines()) {
            let expected: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            for key in [
                "url",
                "allowed",
                "user_agent",
                "line",
                "directive",
                "pattern",
            ] {
                assert_eq!(record[key], expected[key], "{bot}: {key} of {record}");
            }
        }
    }
}

#[test]
fn profile_all_lists_every_builtin_profile_within_100_columns() {
    let file = demo_robots();
    let mut args = vec!["robots", "test", file.as_str(), "--profile", "all"];
    args.extend_from_slice(&DEMO_URLS);
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let (columns, cells) = parse_matrix(&text);
    assert_eq!(
        columns,
        [
            "Googlebot",
            "Googlebot-Image",
            "Bingbot",
            "GPTBot",
            "ClaudeBot",
            "CCBot",
            "*"
        ]
    );
    assert_eq!(cells.len(), DEMO_URLS.len() * columns.len());
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }
    let groups = text
        .split("\nGroups:\n")
        .nth(1)
        .expect("the groups section");
    assert_eq!(groups.lines().count(), columns.len(), "{groups}");
    assert!(
        text.contains("\n  line 35: Disallow: /media/lookbook/\n"),
        "{text}"
    );

    // The JSON names each profile, with the profile's robots.txt tokens; on the demo no
    // profile falls back along its chain, so each equals a single run for its first token.
    args.push("--json");
    let records: Vec<serde_json::Value> = stdout(&crawlgate(&args))
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    let builtins = crawlgate::signals::Profile::builtins();
    let profiles: Vec<&str> = records[..builtins.len()]
        .iter()
        .map(|record| record["profile"].as_str().expect("a profile name"))
        .collect();
    let names: Vec<&str> = builtins.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(profiles, names);
    let image = &records[1];
    assert_eq!(
        image["tokens"],
        serde_json::json!(["googlebot-image", "googlebot"])
    );
    assert_eq!(image["group"], "specific");
    assert_eq!(image["group_token"], "googlebot-image");
    for profile in &builtins {
        let ours: Vec<&serde_json::Value> = records
            .iter()
            .filter(|record| record["profile"] == profile.name.as_str())
            .collect();
        assert_eq!(ours.len(), DEMO_URLS.len());
        // The `*` profile is what a token no group names gets.
        let token = profile
            .robots_tokens
            .first()
            .map_or("no-group-names-this-bot", String::as_str);
        let mut single_args = vec!["robots", "test", file.as_str(), "-u", token, "--json"];
        single_args.extend_from_slice(&DEMO_URLS);
        let single = stdout(&crawlgate(&single_args));
        for (record, line) in ours.iter().zip(single.lines()) {
            assert!(
                record["group_token"].is_null() || record["group_token"] == token,
                "{record}"
            );
            let expected: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            for key in ["url", "allowed", "line", "directive", "pattern"] {
                assert_eq!(
                    record[key], expected[key],
                    "{}: {key} of {record}",
                    profile.name
                );
            }
        }
    }
}

#[test]
fn a_crawler_without_a_group_of_its_own_falls_back_to_the_star_group() {
    let file = demo_robots();
    let output = crawlgate(&[
        "robots",
        "test",
        &file,
        "-u",
        "Googlebot",
        "-u",
        "GPTBot",
        "/checkout/pay",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("\n  GPTBot: falls back to the `*` group (lines 5, 37: User-agent: *)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  Googlebot: its own group (line 21: User-agent: Googlebot)\n"),
        "{text}"
    );

    // A profile whose first token has no group takes the next token's group, and says so.
    let chain = std::env::temp_dir().join(format!("crawlgate-chain-{}.txt", std::process::id()));
    std::fs::write(
        &chain,
        "User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n",
    )
    .expect("write robots.txt");
    let output = crawlgate(&[
        "robots",
        "test",
        &chain.display().to_string(),
        "--profile",
        "bingbot",
        "/m/x",
    ]);
    std::fs::remove_file(&chain).ok();
    let text = stdout(&output);
    assert!(
        text.contains("Bingbot: no group of its own; falls back to the `msnbot` group (line 1: User-agent: msnbot)"),
        "{text}"
    );
}

#[test]
fn matrix_json_carries_the_group_that_applied() {
    let file = std::env::temp_dir().join(format!("crawlgate-nostar-{}.txt", std::process::id()));
    std::fs::write(&file, "User-agent: foo\nDisallow: /\n").expect("write robots.txt");
    let path = file.display().to_string();
    let json = crawlgate(&[
        "robots", "test", &path, "-u", "foo", "-u", "bar", "--json", "/x",
    ]);
    let text = crawlgate(&["robots", "test", &path, "-u", "foo", "-u", "bar", "/x"]);
    std::fs::remove_file(&file).ok();
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let records: Vec<serde_json::Value> = stdout(&json)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    assert_eq!(
        records,
        vec![
            serde_json::json!({"url": "/x", "bot": "foo", "profile": null, "user_agent": "foo",
                "tokens": ["foo"], "allowed": false, "line": 2, "directive": "Disallow",
                "pattern": "/", "group": "specific", "group_token": "foo", "group_lines": [1]}),
            serde_json::json!({"url": "/x", "bot": "bar", "profile": null, "user_agent": "bar",
                "tokens": ["bar"], "allowed": true, "line": null, "directive": null,
                "pattern": null, "group": "none", "group_token": null, "group_lines": []}),
        ]
    );
    assert!(
        stdout(&text).contains("\n  bar: no group: everything allowed\n"),
        "{}",
        stdout(&text)
    );

    let demo = demo_robots();
    let star = crawlgate(&["robots", "test", &demo, "--profile", "*", "--json", "/"]);
    let record: serde_json::Value = serde_json::from_str(stdout(&star).trim()).expect("JSON");
    assert_eq!(record["group"], "global");
    assert_eq!(record["group_lines"], serde_json::json!([5, 37]));
}

#[test]
fn matrix_refuses_an_unknown_profile_and_too_many_crawlers() {
    let file = demo_robots();
    let output = crawlgate(&["robots", "test", &file, "--profile", "nobot", "/"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("`nobot` is not a built-in profile"),
        "{message}"
    );
    for profile in crawlgate::signals::Profile::builtins() {
        assert!(message.contains(&profile.name), "{message}");
    }
    assert!(stdout(&output).is_empty());

    let tokens: Vec<String> = (0..65).map(|i| format!("bot-{i}")).collect();
    let mut args = vec!["robots", "test", file.as_str(), "/"];
    for token in &tokens {
        args.extend(["-u", token.as_str()]);
    }
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("at most 64"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn matrix_escapes_what_the_file_and_the_urls_would_make_a_terminal_do() {
    let file = std::env::temp_dir().join(format!("crawlgate-hostile-{}.txt", std::process::id()));
    std::fs::write(&file, "User-agent: *\nDisallow: /\u{1b}[2J\n").expect("write robots.txt");
    let output = crawlgate(&[
        "robots",
        "test",
        &file.display().to_string(),
        "-u",
        "a",
        "-u",
        "b\u{9b}",
        "/\u{1b}[2Jx",
    ]);
    std::fs::remove_file(&file).ok();
    let text = stdout(&output);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{9b}'),
        "{text:?}"
    );
    assert!(text.contains("line 2: Disallow: /\\x1b[2J"), "{text}");
    assert!(text.contains("/\\x1b[2Jx"), "{text}");
}

/// The matrix README.md shows is the one the command prints.
#[test]
fn readme_robots_matrix_output_is_the_real_output() {
    let readme = std::fs::read_to_string(repo_dir().join("README.md")).expect("README.md");
    let command = readme
        .lines()
        .find(|line| line.starts_with("crawlgate robots test ") && line.contains("--profile all"))
        .expect("README.md shows a --profile all matrix");
    let after = &readme[readme.find(command).expect("the command")..];
    let shown = after
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .map(|(block, _)| block)
        .expect("the command's output block");
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let output = crawlgate_in(&repo_dir(), &args);
    assert_eq!(stdout(&output), shown);
}

#[test]
fn matrix_text_refuses_more_urls_than_it_lays_out_and_json_streams_them() {
    let list = std::env::temp_dir().join(format!("crawlgate-many-{}.txt", std::process::id()));
    let mut urls = String::new();
    for i in 0..10_001 {
        writeln!(urls, "/p/{i}").expect("write to a String");
    }
    std::fs::write(&list, urls).expect("write URL list");
    let path = list.display().to_string();
    let args = [
        "robots",
        "test",
        &example(),
        "-u",
        "a",
        "-u",
        "b",
        "--urls-from",
        &path,
    ];
    let text = crawlgate(&args);
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json = crawlgate(&json_args);
    std::fs::remove_file(&list).ok();
    assert_eq!(text.status.code(), Some(2));
    assert!(
        stderr(&text).contains("at most 10,000 URLs"),
        "{}",
        stderr(&text)
    );
    assert!(stdout(&text).is_empty());
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    assert_eq!(stdout(&json).lines().count(), 20_002);
}

/// `robots generate`: the shop policy's file lints clean and gives the policy's verdicts, bot by
/// bot, as `robots test` reads it; a policy that cannot be written as asked exits 2.
#[test]
fn a_generated_robots_txt_lints_clean_and_gives_the_policys_verdicts() {
    let dir = crate::util::scratch("robots-generate");
    let file = dir.join("robots.txt");
    let policy = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/policies/shop.toml"
    );
    let output = crawlgate(&["robots", "generate", policy, "-o", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let shown = text(&output.stdout);
    assert!(shown.contains("robots lint finds nothing"), "{shown}");
    assert!(shown.contains("GPTBot") && shown.contains("https://platform.openai.com/docs/bots"));
    let lint = crawlgate(&[
        "robots",
        "lint",
        file.to_str().unwrap(),
        "--user-agent",
        "googlebot",
        "--user-agent",
        "googlebot-image",
    ]);
    assert_eq!(lint.status.code(), Some(0), "{}", text(&lint.stdout));
    assert_eq!(text(&lint.stdout), "");
    for (bot, path, verdict) in [
        ("Googlebot", "/shoes/red", "allowed"),
        ("Googlebot", "/checkout/pay", "disallowed"),
        ("Googlebot", "/checkout/help", "allowed"),
        ("Googlebot", "/search?q=red", "disallowed"),
        // Its own group repeats the `*` rules, and adds one.
        ("Googlebot-Image", "/checkout/pay", "disallowed"),
        ("Googlebot-Image", "/lookbook/drafts/a.jpg", "disallowed"),
        ("Googlebot", "/lookbook/drafts/a.jpg", "allowed"),
        ("GPTBot", "/", "disallowed"),
        ("ClaudeBot", "/shoes/red", "disallowed"),
        ("Google-Extended", "/", "disallowed"),
    ] {
        let test = crawlgate(&[
            "robots",
            "test",
            file.to_str().unwrap(),
            "--user-agent",
            bot,
            path,
        ]);
        let answer = text(&test.stdout);
        assert_eq!(
            answer.split('\t').next(),
            Some(verdict),
            "{bot} {path}: {answer}"
        );
    }
    for (policy, message) in [
        (
            "[[group]]\nuser_agents = [\"Bad Bot\"]\n",
            "not a robots.txt product token",
        ),
        (
            "[[group]]\nuser_agents = [\"*\"]\ndisallow = [\"admin/\"]\n",
            "not a path pattern",
        ),
        (
            "block = [\"GPTBot\"]\nblock_ai_crawlers = true\n[[group]]\nuser_agents = [\"gptbot\"]\n",
            "named twice",
        ),
        ("sitemaps = [\"/sitemap.xml\"]\n", "not an absolute http"),
        ("blok = [\"GPTBot\"]\n", "unknown field"),
    ] {
        let path = dir.join("bad.toml");
        std::fs::write(&path, policy).unwrap();
        let output = crawlgate(&["robots", "generate", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{policy}");
        assert!(
            text(&output.stderr).contains(message),
            "{policy}: {}",
            text(&output.stderr)
        );
        assert_eq!(text(&output.stdout), "", "nothing written for {policy}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
