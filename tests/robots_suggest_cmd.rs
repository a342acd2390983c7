//! `crawlgate robots suggest`: the edits it writes resolve their findings on a re-audit with the
//! suggested files (`--robots-override`), and flip no other URL's verdict.

use crate::util::{crawlgate, crawlgate_in, exits_2_saying, report_json, scratch, text};
use std::collections::BTreeSet;
use std::path::Path;

/// `audit --demo` into `dir` with `extra` arguments; exits 1 (the demo has errors).
fn audit_demo(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "audit",
        "--demo",
        "--quiet",
        "--format",
        "json",
        "-o",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    report_json(dir)
}

/// `(rule, url, profile)` of every finding.
fn findings(report: &serde_json::Value) -> BTreeSet<(String, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["url"].as_str().unwrap().to_owned(),
                f["profile"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// `(url, profile) → allowed` of every page record.
fn verdicts(report: &serde_json::Value) -> std::collections::BTreeMap<(String, String), bool> {
    let mut verdicts = std::collections::BTreeMap::new();
    for page in report["pages"].as_array().unwrap() {
        for (profile, view) in page["profiles"].as_object().unwrap() {
            verdicts.insert(
                (page["url"].as_str().unwrap().to_owned(), profile.clone()),
                view["allowed"].as_bool().unwrap(),
            );
        }
    }
    verdicts
}

#[test]
fn suggested_files_resolve_their_findings_and_flip_nothing_else() {
    let dir = scratch("robots-suggest-demo");
    let (before_dir, after_dir, written) = (dir.join("before"), dir.join("after"), dir.join("s"));
    let before = audit_demo(&before_dir, &[]);

    let output = crawlgate(&["robots", "suggest", before_dir.to_str().unwrap(), "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let suggestions: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The same suggestions as the report's own section.
    assert_eq!(suggestions, before["robots_suggestions"]);

    let output = crawlgate(&[
        "robots",
        "suggest",
        before_dir.to_str().unwrap(),
        "--write",
        written.to_str().unwrap(),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        stdout.contains("+Allow: /assets/css/legacy.css$"),
        "{stdout}"
    );
    assert!(stdout.contains("-Disallow: /"), "{stdout}");
    assert!(
        stdout.contains("no edit resolves 2 findings of https://www.northwind.test/robots.txt")
    );

    let mut resolved = BTreeSet::new();
    let mut intended = BTreeSet::new();
    let mut overrides = Vec::new();
    for file in suggestions["files"].as_array().unwrap() {
        let robots_url = file["robots_url"].as_str().unwrap();
        assert_eq!(file["proof"]["exact"], true, "{robots_url}");
        for edit in file["edits"].as_array().unwrap() {
            assert_eq!(edit["proof"]["exact"], true, "{edit}");
            for finding in edit["resolves"].as_array().unwrap() {
                resolved.insert((
                    finding["rule"].as_str().unwrap().to_owned(),
                    finding["url"].as_str().unwrap().to_owned(),
                    finding["profile"].as_str().unwrap().to_owned(),
                ));
            }
        }
        for flip in file["proof"]["flips"].as_array().unwrap() {
            assert_eq!(flip["intended"], true);
            intended.insert((
                flip["url"].as_str().unwrap().to_owned(),
                flip["profile"].as_str().unwrap().to_owned(),
            ));
        }
        let origin = robots_url.trim_end_matches("/robots.txt");
        let name = format!("{}.robots.txt", origin.replace("://", "-"));
        overrides.push(format!("{origin}={}", written.join(name).display()));
    }
    // Every kind of finding a robots.txt edit resolves is on the demo, and resolved.
    let kinds: BTreeSet<&str> = resolved.iter().map(|(rule, _, _)| rule.as_str()).collect();
    for kind in [
        "canonical/target-blocked",
        "robots/blocked-canonicalised",
        "robots/blocked-css",
        "robots/blocked-image",
        "robots/blocked-js",
        "robots/blocked-noindex",
        "robots/disallow-all",
        "robots/redirect-to-blocked",
        "sitemap/blocked-by-robots",
        "sitemap/image-blocked",
        "sitemap/url-blocked",
    ] {
        assert!(kinds.contains(kind), "{kind} not resolved: {kinds:?}");
    }
    let before_findings = findings(&before);
    assert!(resolved.is_subset(&before_findings));

    let mut extra = Vec::new();
    for entry in &overrides {
        extra.extend(["--robots-override", entry.as_str()]);
    }
    let after = audit_demo(&after_dir, &extra);
    let after_findings = findings(&after);
    let still: Vec<_> = resolved.intersection(&after_findings).collect();
    assert!(still.is_empty(), "still reported after the fix: {still:?}");

    // No URL both audits know changes verdict, but the intended ones.
    let after_verdicts = verdicts(&after);
    let mut flipped = BTreeSet::new();
    for (key, allowed) in verdicts(&before) {
        if let Some(now) = after_verdicts.get(&key)
            && *now != allowed
        {
            flipped.insert(key);
        }
    }
    let unintended: Vec<_> = flipped.difference(&intended).collect();
    assert!(unintended.is_empty(), "flipped unasked: {unintended:?}");
    assert!(!flipped.is_empty());
}

#[test]
fn a_file_not_wholly_in_the_report_is_read_from_robots_origin_file() {
    let dir = scratch("robots-suggest-partial");
    let audit = dir.join("audit");
    audit_demo(&audit, &[]);
    let path = audit.join("report.json");
    let mut report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let www = report["robots"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["url"] == "http://www.northwind.test/robots.txt")
        .unwrap();
    let lines: Vec<String> = www["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    let file = dir.join("live-robots.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    // As a report lists a file past 1,000 lines: the first ones only.
    www["lines"].as_array_mut().unwrap().truncate(10);
    std::fs::write(&path, serde_json::to_string(&report).unwrap()).unwrap();

    let output = crawlgate(&["robots", "suggest", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "not checked: http://www.northwind.test/robots.txt is not wholly in the report"
        ) && stderr.contains("--robots http://www.northwind.test=FILE"),
        "{stderr}"
    );
    assert!(!text(&output.stdout).contains("http://www.northwind.test/robots.txt:"));

    let given = format!("http://www.northwind.test={}", file.display());
    let output = crawlgate(&[
        "robots",
        "suggest",
        path.to_str().unwrap(),
        "--robots",
        &given,
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        stdout.contains("http://www.northwind.test/robots.txt: 9 edits resolving 14 findings"),
        "{stdout}"
    );
}

/// README.md's `robots suggest` block, run as written (continuation lines joined) in a folder of
/// its own: the audit exits 1, the suggestion 0, and the re-audit no longer reports the blocked
/// stylesheet.
#[test]
fn readme_suggest_example_works_as_written() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme
        .split("### Fix robots.txt, proven against the crawl")
        .nth(1)
        .expect("README.md has the section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the section has a sh block");
    let dir = scratch("robots-suggest-readme");
    let commands: Vec<String> = block
        .replace("\\\n", " ")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_owned)
        .collect();
    assert_eq!(commands.len(), 3, "{block}");
    for (command, expected) in commands.iter().zip([1, 0, 1]) {
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let output = crawlgate_in(&dir, &args);
        assert_eq!(
            output.status.code(),
            Some(expected),
            "{command}: {}",
            text(&output.stderr)
        );
    }
    let after = report_json(&dir.join("crawlgate-report"));
    assert!(
        !findings(&after)
            .iter()
            .any(|(rule, _, _)| rule == "robots/blocked-css"),
        "the suggested file still blocks the stylesheet"
    );
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let dir = scratch("robots-suggest-bad");
    let not_json = dir.join("report.json");
    std::fs::write(&not_json, "{}").unwrap();
    exits_2_saying(
        &["robots", "suggest", not_json.to_str().unwrap()],
        "is not a crawlgate report.json",
    );
    exits_2_saying(
        &[
            "robots",
            "suggest",
            dir.to_str().unwrap(),
            "--robots",
            "/x=y",
        ],
        "is not an origin",
    );
}
