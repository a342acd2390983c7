//! Every real robots.txt of `fixtures/corpus/robots/` (306 files, see its README.md for sources
//! and licences): parsed and linted without panic, and the features its MANIFEST.tsv lists are
//! seen by the parser.

use crawlgate_robots::lint::{LintOptions, lint, rule_ids};
use crawlgate_robots::{
    ByteOrderMark, GOOGLE_MAX_ROBOTS_BYTES, KeyMatch, LineKind, RobotsTxt, path_params_query,
};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/corpus/robots")
}

struct Entry {
    file: String,
    features: Vec<String>,
    body: Vec<u8>,
}

fn corpus() -> Vec<Entry> {
    let manifest =
        std::fs::read_to_string(corpus_dir().join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    manifest
        .lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let file = fields[0].to_owned();
            let body = std::fs::read(corpus_dir().join(&file)).expect("corpus file");
            assert_eq!(body.len().to_string(), fields[5], "size of {file}");
            Entry {
                file,
                features: fields
                    .get(8)
                    .unwrap_or(&"")
                    .split(',')
                    .filter(|feature| !feature.is_empty())
                    .map(str::to_owned)
                    .collect(),
                body,
            }
        })
        .collect()
}

fn has(entry: &Entry, feature: &str) -> bool {
    entry.features.iter().any(|f| f == feature)
}

/// Google numbers lines by counting line ends (CRLF as one), plus one.
fn expected_line_count(body: &[u8]) -> usize {
    let mut count = 1;
    let mut i = 0;
    while let Some(&byte) = body.get(i) {
        if byte == b'\r' {
            count += 1;
            if body.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
        } else if byte == b'\n' {
            count += 1;
        }
        i += 1;
    }
    count
}

#[test]
fn every_corpus_file_parses_matches_and_lints_without_panic() {
    let corpus = corpus();
    assert_eq!(corpus.len(), 306);
    let paths = [
        "/",
        "/admin/",
        "/search?q=x",
        "/a/b/c.html",
        "/%E3%83%84",
        "/ツ",
    ];
    for entry in &corpus {
        let robots = RobotsTxt::parse(&entry.body);
        assert_eq!(
            robots.lines().len(),
            expected_line_count(&entry.body),
            "line count of {}",
            entry.file
        );
        for token in ["googlebot", "bingbot", "*", ""] {
            let agent = robots.agent(&[token]);
            for path in paths {
                let verdict = agent.verdict(path);
                if let Some(rule) = &verdict.decided_by {
                    assert_eq!(verdict.allowed, rule.directive.as_str() == "Allow");
                }
            }
        }
        let fetched = RobotsTxt::parse_fetched(&entry.body);
        let issues = lint(&fetched, &entry.body, &LintOptions::default());
        for issue in &issues {
            assert!(rule_ids::ALL.contains(&issue.rule()), "{}", issue.rule());
            assert!(!issue.message.is_empty());
        }
    }
}

#[test]
fn manifest_features_are_seen_by_the_parser() {
    let corpus = corpus();
    let mut checked = 0;
    for entry in &corpus {
        let robots = RobotsTxt::parse(&entry.body);
        let lines = robots.lines();
        let name = &entry.file;
        if has(entry, "line_gt_16664") {
            assert!(lines.iter().any(|l| l.too_long), "{name}: too-long line");
            checked += 1;
        }
        if has(entry, "nul") {
            assert!(lines.iter().any(|l| l.has_nul), "{name}: NUL");
            checked += 1;
        }
        if has(entry, "missing_colon") {
            assert!(
                lines.iter().any(|l| l.missing_colon),
                "{name}: missing colon"
            );
            checked += 1;
        }
        if has(entry, "rules_without_ua") {
            // The manifest's flag misses Google's `User Agent` typo (www.talbots.com) and a BOM
            // before the first `User-agent` (www.shoprite.com); Google reads both as opening a
            // group.
            let typo_agent = lines
                .iter()
                .any(|l| l.kind == LineKind::UserAgent && l.key_match == Some(KeyMatch::Typo));
            let bom = robots.byte_order_mark() != ByteOrderMark::None;
            assert!(
                lines.iter().any(|l| l.outside_group) || typo_agent || bom,
                "{name}: rule outside group"
            );
            checked += 1;
        }
        // The manifest's typo flag comes from a text search, which also hits JavaScript inside
        // HTML served as robots.txt (`userAgent = "iOS";`), not a directive. (Its sitemap flag
        // also counts commented-out lines, so it is not checked here.)
        if has(entry, "typo") && !has(entry, "html_not_robots") {
            assert!(
                lines
                    .iter()
                    .any(|l| matches!(l.key_match, Some(KeyMatch::Typo | KeyMatch::Prefix))),
                "{name}: typo"
            );
            checked += 1;
        }
        if has(entry, "bom") && entry.body.starts_with(&[0xEF, 0xBB, 0xBF]) {
            assert_eq!(robots.byte_order_mark(), ByteOrderMark::Full, "{name}: BOM");
            let issues = lint(&robots, &entry.body, &LintOptions::default());
            assert!(
                issues.iter().any(|i| i.rule() == rule_ids::BOM),
                "{name}: bom lint"
            );
            checked += 1;
        }
        if has(entry, "html_not_robots") {
            let issues = lint(&robots, &entry.body, &LintOptions::default());
            assert!(
                issues.iter().any(|i| i.rule() == rule_ids::SERVED_AS_HTML),
                "{name}: served-as-html"
            );
            checked += 1;
        }
        if has(entry, "non_utf8") {
            let issues = lint(&robots, &entry.body, &LintOptions::default());
            assert!(
                issues.iter().any(|i| i.rule() == rule_ids::NOT_UTF8),
                "{name}: not-utf8"
            );
            checked += 1;
        }
        if has(entry, "gt500KiB") {
            let fetched = RobotsTxt::parse_fetched(&entry.body);
            let cut = fetched.fetch_cut().expect("cut");
            assert_eq!(cut.parsed_bytes, GOOGLE_MAX_ROBOTS_BYTES);
            assert_eq!(cut.total_bytes, entry.body.len());
            assert!(fetched.lines().len() < lines.len());
            let issues = lint(&fetched, &entry.body, &LintOptions::default());
            assert!(
                issues.iter().any(|i| i.rule() == rule_ids::OVERSIZE),
                "{name}: oversize"
            );
            checked += 1;
        }
        if has(entry, "cr_only") {
            assert!(entry.body.contains(&b'\r'));
            assert!(lines.len() > 1);
        }
    }
    assert!(checked >= 80, "only {checked} feature checks ran");
}

/// The merge hazard of google/robotstxt issue #51, in a real crawler-commons fixture.
#[test]
fn crawl_delay_lines_do_not_split_groups() {
    let body = std::fs::read(corpus_dir().join("crawler-commons/crawl-delay-group-merging.txt"))
        .expect("fixture");
    let robots = RobotsTxt::parse(&body);
    for group in robots.groups() {
        assert!(!group.user_agents.is_empty());
    }
    let with_delay_between = robots.groups().iter().any(|group| {
        let (Some(first), Some(last)) = (group.user_agents.first(), group.user_agents.last())
        else {
            return false;
        };
        robots
            .lines()
            .iter()
            .any(|l| l.line > first.line && l.line < last.line && l.kind == LineKind::Unsupported)
    });
    assert!(with_delay_between, "{}", String::from_utf8_lossy(&body));
}

/// A corpus URL given as an absolute URL and as its path get the same verdict.
#[test]
fn absolute_urls_and_their_paths_agree_on_the_texting_robots_files() {
    for entry in corpus()
        .iter()
        .filter(|e| e.file.starts_with("texting_robots/"))
    {
        let robots = RobotsTxt::parse(&entry.body);
        let agent = robots.agent(&["googlebot"]);
        for rule in robots.groups().iter().flat_map(|g| &g.rules).take(50) {
            let path = rule.pattern.replace(['*', '$'], "x");
            let path = if path.starts_with('/') {
                path
            } else {
                format!("/{path}")
            };
            let url = format!("https://example.com{path}#frag");
            assert_eq!(
                agent.verdict(&path_params_query(&url)),
                agent.verdict(&path_params_query(&path)),
                "{} {url}",
                entry.file
            );
        }
    }
}
