//! `crawlgate robots diff`, end to end, on the robots.txt pairs of `fixtures/robots-diff/`.

use crate::util::crawlgate;
use crawlgate_serve::{Route, ServedSite, SiteServer};
use crawlgate_test_support::fixtures_dir;
use crawlgate_test_support::served::serve_fixture_site;
use serde_json::Value;
use std::process::Output;

fn pair(name: &str) -> String {
    fixtures_dir()
        .join("robots-diff")
        .join(name)
        .display()
        .to_string()
}

fn urls() -> String {
    pair("urls.txt")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The flip lines of the text output: `profile\tchange\turl\tbefore → after`.
fn flips(output: &Output) -> Vec<String> {
    stdout(output)
        .lines()
        .filter(|line| line.matches('\t').count() == 3)
        .map(str::to_owned)
        .collect()
}

fn diff(new: &str, extra: &[&str]) -> Output {
    let (old, new, urls) = (pair("production.txt"), pair(new), urls());
    let mut args = vec!["robots", "diff", &old, &new, "--urls-from", &urls];
    args.extend_from_slice(extra);
    crawlgate(&args)
}

#[test]
fn disallow_all_shipped_to_production_blocks_every_allowed_url_and_exits_1() {
    let output = diff("staging-shipped.txt", &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("    added: line 3: Disallow: /\n"), "{text}");
    assert!(
        text.contains("  sitemap added: line 5: https://staging.outfitters.test/sitemap.xml"),
        "{text}"
    );
    assert!(
        text.contains("  group bingbot removed (was line 8)"),
        "{text}"
    );
    let flips = flips(&output);
    assert_eq!(flips.len(), 6, "{flips:#?}");
    assert!(
        flips
            .iter()
            .all(|f| f.starts_with("googlebot\tnewly disallowed\t"))
    );
    assert!(flips.contains(
        &"googlebot\tnewly disallowed\thttps://www.outfitters.test/checkout/help\tallowed (line 5: \
          Allow: /checkout/help) → disallowed (line 3: Disallow: /)"
            .to_owned()
    ));
    assert!(text.contains("googlebot: 9 URLs, 6 newly disallowed, 0 newly allowed, 3 unchanged"));
    assert!(stderr(&output).contains("6 URL verdict(s) become disallowed"));
}

#[test]
fn a_newly_blocked_folder_flips_only_its_urls() {
    let output = diff("folder-blocked.txt", &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        format!(
            "--- {}\n+++ {}\n\nRule changes:\n  group * changed (old line 2, new line 2)\n    \
             added: line 8: Disallow: /shop/\n\ngooglebot: group * (line 2) → group * (line 2)\n  \
             now applies: new line 8: Disallow: /shop/\n\nVerdict flips:\n\
             googlebot\tnewly disallowed\thttps://www.outfitters.test/shop/\tallowed (no rule) → \
             disallowed (line 8: Disallow: /shop/)\n\
             googlebot\tnewly disallowed\thttps://www.outfitters.test/shop/boots?colour=red\t\
             allowed (no rule) → disallowed (line 8: Disallow: /shop/)\n\nSummary:\n  \
             googlebot: 9 URLs, 2 newly disallowed, 0 newly allowed, 7 unchanged\n",
            pair("production.txt"),
            pair("folder-blocked.txt")
        )
    );
}

#[test]
fn a_googlebot_group_loses_the_global_rules_for_googlebot_only() {
    let output = diff(
        "googlebot-group.txt",
        &["--profile", "googlebot", "--profile", "bingbot"],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains("googlebot: group * (line 2) → group googlebot (line 12)"),
        "{text}"
    );
    assert!(text.contains("  no longer applies: old line 4: Disallow: /checkout/\n"));
    assert!(
        text.contains("bingbot: group bingbot (line 8) → group bingbot (line 8)\n  same rules")
    );
    assert_eq!(
        flips(&output),
        [
            "googlebot\tnewly allowed\thttps://www.outfitters.test/cart\tdisallowed (line 3: \
             Disallow: /cart) → allowed (no rule)",
            "googlebot\tnewly allowed\thttps://www.outfitters.test/checkout/pay\tdisallowed (line \
             4: Disallow: /checkout/) → allowed (no rule)",
            "googlebot\tnewly disallowed\thttps://www.outfitters.test/beta/new-home\tallowed (no \
             rule) → disallowed (line 13: Disallow: /beta/)",
            "googlebot\tnewly allowed\t/blog/?sessionid=42\tdisallowed (line 6: Disallow: \
             /*?sessionid=) → allowed (no rule)",
        ]
    );
    assert!(text.contains("bingbot: 9 URLs, 0 newly disallowed, 0 newly allowed, 9 unchanged"));
}

#[test]
fn reordered_rules_are_no_change_and_exit_0() {
    let output = diff("reordered.txt", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("none (comments, blank lines, order or line numbers only)"));
    assert!(text.contains("Verdict flips: none"));
    assert!(flips(&output).is_empty());
}

#[test]
fn newly_allowed_urls_alone_do_not_fail_and_the_gate_can_be_turned_off() {
    // Reversed, the folder pair only opens URLs: exit 0.
    let (old, new, urls) = (pair("folder-blocked.txt"), pair("production.txt"), urls());
    let output = crawlgate(&["robots", "diff", &old, &new, "--urls-from", &urls]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(flips(&output).len(), 2);
    let output = diff("staging-shipped.txt", &["--no-fail-on-newly-blocked"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(flips(&output).len(), 6);
}

#[test]
fn json_lines_carry_the_rule_change_each_flip_with_both_sides_and_the_counts() {
    let output = diff("folder-blocked.txt", &["--json"]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let kinds: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["rules", "profile", "flip", "flip", "summary"]);
    assert_eq!(
        lines[0]["groups_changed"][0]["added"][0]["pattern"],
        "/shop/"
    );
    assert_eq!(lines[1]["new"]["kind"], "global");
    let flip = &lines[3];
    assert_eq!(
        flip["url"],
        "https://www.outfitters.test/shop/boots?colour=red"
    );
    assert_eq!(flip["change"], "newly-disallowed");
    assert_eq!(flip["old"]["decided_by"], "no rule");
    assert_eq!(flip["new"]["line"], 8);
    assert_eq!(flip["new"]["directive"], "Disallow");
    assert_eq!(lines[4]["newly_disallowed"], 2);
    assert_eq!(lines[4]["unchanged"], 7);
}

#[test]
fn markdown_has_a_table_of_flips_with_the_rules_quoted() {
    let output = diff("folder-blocked.txt", &["--format", "md"]);
    let text = stdout(&output);
    assert!(text.starts_with("# robots.txt diff\n"), "{text}");
    assert!(text.contains(
        "- group `*` changed (old line 2, new line 2)\n  - added: line 8: `Disallow: /shop/`"
    ));
    assert!(text.contains(
        "| googlebot | newly disallowed | `https://www.outfitters.test/shop/` | allowed (no rule) \
         | disallowed (line 8: `Disallow: /shop/`) |"
    ));
    assert!(text.contains("| googlebot | 9 | 2 | 0 | 7 |"));
}

#[test]
fn a_side_given_as_a_url_is_fetched_with_googles_status_semantics() {
    let production = std::fs::read_to_string(pair("production.txt")).unwrap();
    let live =
        SiteServer::start_in_background(ServedSite::new().file("robots.txt", production)).unwrap();
    let down = SiteServer::start_in_background(ServedSite::new().route(Route::status(
        "/robots.txt",
        503,
        "busy",
    )))
    .unwrap();
    let live_url = live.url("/robots.txt").to_string();
    let down_url = down.url("/robots.txt").to_string();
    // Live file against an identical local copy: nothing flips.
    let output = crawlgate(&[
        "robots",
        "diff",
        &live_url,
        &pair("production.txt"),
        "/cart",
        "/shop/",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with(&format!("--- {live_url}\n")));
    // A robots.txt answering 503 disallows everything.
    let output = crawlgate(&["robots", "diff", &live_url, &down_url, "/cart", "/shop/"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        flips(&output),
        [
            "googlebot\tnewly disallowed\t/shop/\tallowed (no rule) → disallowed (robots.txt \
          unreachable)"
        ]
    );
}

/// The live robots.txt of a new server, fetched under the production host name before the DNS
/// switch (`--resolve`), against the one in the repository.
#[test]
fn a_side_given_as_a_url_is_fetched_under_a_resolved_host_name() {
    let production = std::fs::read_to_string(pair("production.txt")).unwrap();
    let new_server =
        SiteServer::start_in_background(ServedSite::new().file("robots.txt", production)).unwrap();
    let port = new_server.url("/").port().unwrap();
    let diff_resolving = |resolve: &str| {
        crawlgate(&[
            "robots",
            "diff",
            "http://www.shop.test/robots.txt",
            &pair("production.txt"),
            "/cart",
            "--resolve",
            resolve,
        ])
    };
    let output = diff_resolving(&format!("www.shop.test=127.0.0.1:{port}"));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("--- http://www.shop.test/robots.txt\n"));
    // A malformed override is a usage error.
    let output = diff_resolving("www.shop.test");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn a_url_source_is_required() {
    let (old, new) = (pair("production.txt"), pair("folder-blocked.txt"));
    let output = crawlgate(&["robots", "diff", &old, &new]);
    assert_eq!(output.status.code(), Some(2));
    let empty = std::env::temp_dir().join(format!("crawlgate-empty-{}.txt", std::process::id()));
    std::fs::write(&empty, "\n").unwrap();
    let output = crawlgate(&[
        "robots",
        "diff",
        &old,
        &new,
        "--urls-from",
        &empty.display().to_string(),
    ]);
    std::fs::remove_file(&empty).ok();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no URL to compare"));
}

#[test]
fn urls_can_come_from_a_sitemap_or_a_crawl() {
    let server = serve_fixture_site("migration-before");
    let live = server.url("/robots.txt").to_string();
    let deploy = fixtures_dir()
        .join("sites/migration-after/robots.txt")
        .display()
        .to_string();
    let sitemap = server.url("/sitemap.xml").to_string();
    let output = crawlgate(&["robots", "diff", &live, &deploy, "--sitemap", &sitemap]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let boots = server.url("/shop/boots").to_string();
    assert_eq!(
        flips(&output),
        [format!(
            "googlebot\tnewly disallowed\t{boots}\tallowed (no rule) → disallowed (line 3: \
             Disallow: /shop/)"
        )]
    );
    assert!(stdout(&output).contains("googlebot: 5 URLs, 1 newly disallowed"));

    let start = server.url("/").to_string();
    let output = crawlgate(&["robots", "diff", &live, &deploy, "--crawl", &start]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(flips(&output).len(), 1);
    assert!(
        stdout(&output).contains(", 1 newly disallowed, 0 newly allowed"),
        "{}",
        stdout(&output)
    );
}
