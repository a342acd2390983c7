//! Each lint rule fires on a small file made to trigger it and stays quiet on a near miss.

use super::{LintOptions, lint, rule_ids};
use crate::Severity;
use crate::{GOOGLE_MAX_ROBOTS_BYTES, RobotsTxt};
use std::fmt::Write as _;

/// A clean base: one `*` group and a sitemap, so only the rule under test fires.
fn with_base(body: &str) -> String {
    format!("{body}\nSitemap: https://example.com/sitemap.xml\n")
}

/// The (line, severity, message) of each issue of `rule` for `body`.
fn fired(body: &[u8], rule: &str) -> Vec<(Option<u32>, Severity, String)> {
    let robots = RobotsTxt::parse_fetched(body);
    lint(&robots, body, &LintOptions::default())
        .into_iter()
        .filter(|issue| issue.rule() == rule)
        .map(|issue| (issue.line, issue.severity, issue.message))
        .collect()
}

fn lines_of(body: &str, rule: &str) -> Vec<u32> {
    fired(with_base(body).as_bytes(), rule)
        .into_iter()
        .filter_map(|(line, _, _)| line)
        .collect()
}

fn severities_of(body: &str, rule: &str) -> Vec<Severity> {
    fired(with_base(body).as_bytes(), rule)
        .into_iter()
        .map(|(_, severity, _)| severity)
        .collect()
}

#[test]
fn a_clean_file_has_no_issue() {
    let body = with_base("User-agent: *\nDisallow: /cart/\nAllow: /cart/help\n");
    let robots = RobotsTxt::parse(body.as_bytes());
    assert_eq!(
        lint(&robots, body.as_bytes(), &LintOptions::default()),
        vec![]
    );
}

#[test]
fn typo_field_flags_typos_prefixes_and_missing_colons() {
    let body = "useragent: *\nDissalow: /a\nDisallowed: /b\nDisallow /c\nDisallow: /d";
    assert_eq!(lines_of(body, rule_ids::TYPO_FIELD), vec![1, 2, 3, 4]);
    assert_eq!(
        severities_of(body, rule_ids::TYPO_FIELD)[0],
        Severity::Warning
    );
    assert_eq!(
        lines_of("User-agent: *\nDisallow: /d", rule_ids::TYPO_FIELD),
        vec![]
    );
}

#[test]
fn unsupported_field_is_a_notice_never_an_error() {
    let body = "User-agent: *\nCrawl-delay: 10\nHost: example.com\nUnicorns: yes\nDisallow: /x";
    assert_eq!(lines_of(body, rule_ids::UNSUPPORTED_FIELD), vec![2, 3, 4]);
    assert!(
        severities_of(body, rule_ids::UNSUPPORTED_FIELD)
            .iter()
            .all(|s| *s == Severity::Notice)
    );
    assert_eq!(
        lines_of("User-agent: *\nDisallow: /x", rule_ids::UNSUPPORTED_FIELD),
        vec![]
    );
}

#[test]
fn noindex_field_is_a_warning_of_its_own() {
    let body = "User-agent: *\nNoindex: /old/\nDisallow: /x";
    assert_eq!(lines_of(body, rule_ids::NOINDEX_FIELD), vec![2]);
    assert_eq!(
        severities_of(body, rule_ids::NOINDEX_FIELD),
        vec![Severity::Warning]
    );
    assert_eq!(lines_of(body, rule_ids::UNSUPPORTED_FIELD), vec![]);
    assert_eq!(
        lines_of(
            "User-agent: *\nDisallow: /noindex/",
            rule_ids::NOINDEX_FIELD
        ),
        vec![]
    );
}

#[test]
fn rule_outside_group_flags_rules_before_the_first_user_agent() {
    let body = "Disallow: /a\nAllow: /b\nUser-agent: *\nDisallow: /c";
    assert_eq!(lines_of(body, rule_ids::RULE_OUTSIDE_GROUP), vec![1, 2]);
    assert_eq!(
        lines_of("User-agent: *\nDisallow: /c", rule_ids::RULE_OUTSIDE_GROUP),
        vec![]
    );
}

#[test]
fn empty_user_agent_is_flagged() {
    assert_eq!(
        lines_of("User-agent:\nDisallow: /x", rule_ids::EMPTY_USER_AGENT),
        vec![1]
    );
    assert_eq!(
        lines_of("User-agent: a\nDisallow: /x", rule_ids::EMPTY_USER_AGENT),
        vec![]
    );
}

#[test]
fn line_unparseable_flags_lines_google_cannot_split() {
    let body =
        "User-agent: *\nthis is not a directive\nDisallow /a /b\nDisallow: /x\n# comment\n\n";
    assert_eq!(lines_of(body, rule_ids::LINE_UNPARSEABLE), vec![2, 3]);
    // The two-token fallback is accepted, so not unparseable.
    assert_eq!(
        lines_of("User-agent: *\nDisallow /x", rule_ids::LINE_UNPARSEABLE),
        vec![]
    );
}

#[test]
fn line_too_long_flags_lines_over_googles_limit() {
    let long = format!("User-agent: *\nDisallow: /{}", "x".repeat(17_000));
    assert_eq!(lines_of(&long, rule_ids::LINE_TOO_LONG), vec![2]);
    let fine = format!("User-agent: *\nDisallow: /{}", "x".repeat(16_000));
    assert_eq!(lines_of(&fine, rule_ids::LINE_TOO_LONG), vec![]);
}

#[test]
fn pattern_not_rooted_flags_values_not_starting_with_slash_or_star() {
    let body = "User-agent: *\nDisallow: private\nDisallow: *.gif$\nDisallow: /ok\nAllow:";
    assert_eq!(lines_of(body, rule_ids::PATTERN_NOT_ROOTED), vec![2]);
}

#[test]
fn dollar_not_last_flags_inner_dollars_only() {
    let body = "User-agent: *\nDisallow: /a$b\nDisallow: /*.pdf$\nDisallow: /a$$";
    assert_eq!(lines_of(body, rule_ids::DOLLAR_NOT_LAST), vec![2, 4]);
}

#[test]
fn empty_rule_is_flagged_only_beside_real_rules() {
    let body = "User-agent: a\nDisallow:\nDisallow: /x\nUser-agent: b\nDisallow:";
    assert_eq!(lines_of(body, rule_ids::EMPTY_RULE), vec![2]);
    assert_eq!(
        severities_of(body, rule_ids::EMPTY_RULE),
        vec![Severity::Notice]
    );
}

#[test]
fn sitemap_url_invalid_requires_an_absolute_http_or_ftp_url() {
    let body = "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\nSitemap: mailto:a@b.c\nSitemap: ftp://example.com/s.xml";
    assert_eq!(lines_of(body, rule_ids::SITEMAP_URL_INVALID), vec![3, 4]);
    assert_eq!(
        severities_of(body, rule_ids::SITEMAP_URL_INVALID),
        vec![Severity::Error, Severity::Error]
    );
}

#[test]
fn no_sitemap_field_is_a_whole_file_notice() {
    let issues = fired(b"User-agent: *\nDisallow: /x", rule_ids::NO_SITEMAP_FIELD);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].0, None);
    assert_eq!(issues[0].1, Severity::Notice);
    assert!(
        fired(
            with_base("User-agent: *").as_bytes(),
            rule_ids::NO_SITEMAP_FIELD
        )
        .is_empty()
    );
}

#[test]
fn bom_is_a_notice_on_line_one() {
    let body = format!("\u{FEFF}{}", with_base("User-agent: *\nDisallow: /x"));
    let issues = fired(body.as_bytes(), rule_ids::BOM);
    assert_eq!(issues.len(), 1);
    assert_eq!((issues[0].0, issues[0].1), (Some(1), Severity::Notice));
    assert_eq!(lines_of("User-agent: *", rule_ids::BOM), vec![]);
}

#[test]
fn not_utf8_points_at_the_first_invalid_line_and_recognises_utf16() {
    let body = b"User-agent: *\nDisallow: /caf\xE9\nDisallow: /x\xFF\nSitemap: https://e.com/s.xml";
    let issues = fired(body, rule_ids::NOT_UTF8);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].0, Some(2));
    assert!(issues[0].2.contains("2 line(s)"), "{}", issues[0].2);
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("User-agent: *".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let issues = fired(&utf16, rule_ids::NOT_UTF8);
    assert!(issues[0].2.contains("UTF-16LE"), "{}", issues[0].2);
    assert!(
        fired(
            with_base("User-agent: *\nDisallow: /é").as_bytes(),
            rule_ids::NOT_UTF8
        )
        .is_empty()
    );
}

#[test]
fn oversize_lists_the_rules_past_the_cut_as_an_error() {
    let mut body = String::from("User-agent: *\nDisallow: /kept\n");
    while body.len() < GOOGLE_MAX_ROBOTS_BYTES + 10 {
        body.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    body.push_str("Disallow: /lost-one\nAllow: /lost-two\n");
    let issues = fired(body.as_bytes(), rule_ids::OVERSIZE);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].1, Severity::Error);
    assert!(
        issues[0].2.contains("Disallow: /lost-one"),
        "{}",
        issues[0].2
    );
    assert!(issues[0].2.contains("Allow: /lost-two"), "{}", issues[0].2);
    assert!(!issues[0].2.contains("/kept"));
    // Over the limit with nothing but comments past it: a warning.
    let only_comments = format!("User-agent: *\nDisallow: /kept\n{}", "#\n".repeat(300_000));
    let issues = fired(only_comments.as_bytes(), rule_ids::OVERSIZE);
    assert_eq!(issues[0].1, Severity::Warning);
    assert!(fired(b"User-agent: *", rule_ids::OVERSIZE).is_empty());
}

#[test]
fn served_as_html_sniffs_markup_and_silences_per_line_noise() {
    let page = b"<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>oops: page</body></html>";
    let robots = RobotsTxt::parse(page);
    let issues = lint(&robots, page, &LintOptions::default());
    assert!(issues.iter().any(|i| i.rule() == rule_ids::SERVED_AS_HTML));
    assert!(
        !issues
            .iter()
            .any(|i| i.rule() == rule_ids::LINE_UNPARSEABLE)
    );
    assert!(
        !issues
            .iter()
            .any(|i| i.rule() == rule_ids::UNSUPPORTED_FIELD)
    );
    assert_eq!(
        lines_of("User-agent: *\nDisallow: /<html>", rule_ids::SERVED_AS_HTML),
        vec![]
    );
}

#[test]
fn disallow_all_fires_for_star_and_for_googlebot() {
    let star = "User-agent: *\nDisallow: /";
    let issues = fired(with_base(star).as_bytes(), rule_ids::DISALLOW_ALL);
    assert_eq!(issues.len(), 1);
    assert_eq!((issues[0].0, issues[0].1), (Some(2), Severity::Critical));
    assert!(
        issues[0].2.contains("googlebot among them"),
        "{}",
        issues[0].2
    );
    let googlebot = "User-agent: Googlebot\nDisallow: /\nUser-agent: *\nDisallow: /x";
    assert_eq!(lines_of(googlebot, rule_ids::DISALLOW_ALL), vec![2]);
    // Only `/` itself counts: `Allow: /$` keeps the home page crawlable.
    assert_eq!(
        lines_of(
            "User-agent: *\nDisallow: /\nAllow: /$",
            rule_ids::DISALLOW_ALL
        ),
        vec![]
    );
    assert_eq!(
        lines_of("User-agent: *\nDisallow: /x", rule_ids::DISALLOW_ALL),
        vec![]
    );
}

#[test]
fn disallow_all_explains_a_group_merged_across_other_lines() {
    // google/robotstxt issue #51.
    let body = "User-agent: *\nCrawl-delay: 10\nUser-agent: BadBot\nDisallow: /";
    let issues = fired(with_base(body).as_bytes(), rule_ids::DISALLOW_ALL);
    assert_eq!(issues.len(), 1);
    assert!(issues[0].2.contains("form one group"), "{}", issues[0].2);
}

#[test]
fn group_shadows_global_lists_the_lost_star_rules() {
    let body = "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\nUser-agent: Googlebot\nDisallow: /tmp/";
    let issues = fired(with_base(body).as_bytes(), rule_ids::GROUP_SHADOWS_GLOBAL);
    assert_eq!(issues.len(), 1);
    assert_eq!((issues[0].0, issues[0].1), (Some(4), Severity::Warning));
    assert!(
        issues[0].2.contains("line 2: Disallow: /private/"),
        "{}",
        issues[0].2
    );
    assert!(!issues[0].2.contains("/tmp/"), "{}", issues[0].2);
    let same = "User-agent: *\nDisallow: /tmp/\nUser-agent: Googlebot\nDisallow: /tmp/";
    assert_eq!(lines_of(same, rule_ids::GROUP_SHADOWS_GLOBAL), vec![]);
}

/// Found profiling the fuzz target: the check scanned the crawler's rules once per `*` rule, so a file with
/// thousands of rules in both groups took seconds to lint. Each lost rule is still found, and
/// the file (at Google's size limit) lints in one pass over each group.
#[test]
fn group_shadows_global_stays_linear_in_big_groups() {
    let per_group = 13_000;
    let mut body = String::from("User-agent: *\n");
    for n in 0..per_group {
        writeln!(body, "Disallow: /a{n}").unwrap();
    }
    body.push_str("User-agent: Googlebot\n");
    // Every other `*` rule repeated in the crawler's group: half of them are lost.
    for n in 0..per_group {
        let path = if n % 2 == 0 { "a" } else { "b" };
        writeln!(body, "Disallow: /{path}{n}").unwrap();
    }
    assert!(body.len() <= GOOGLE_MAX_ROBOTS_BYTES, "{}", body.len());
    let issues = fired(body.as_bytes(), rule_ids::GROUP_SHADOWS_GLOBAL);
    assert_eq!(issues.len(), 1);
    let lost = per_group / 2;
    assert!(
        issues[0].2.ends_with(&format!("and {} more", lost - 10)),
        "{}",
        issues[0].2
    );
    assert!(
        issues[0].2.contains("line 3: Disallow: /a1,"),
        "{}",
        issues[0].2
    );
}

#[test]
fn duplicate_groups_flags_a_name_in_two_groups() {
    let body = "User-agent: Googlebot\nDisallow: /a\nUser-agent: *\nDisallow: /b\nUser-agent: googlebot\nDisallow: /c";
    assert_eq!(lines_of(body, rule_ids::DUPLICATE_GROUPS), vec![5]);
    // Google reads `bot1` and `bot2` as `bot`: the same name.
    let issues = fired(
        with_base("User-agent: bot1\nDisallow: /a\nUser-agent: bot2\nDisallow: /b").as_bytes(),
        rule_ids::DUPLICATE_GROUPS,
    );
    assert_eq!(issues.len(), 1);
    assert!(
        issues[0].2.contains("lines 1 (`bot1`), 3 (`bot2`)"),
        "{}",
        issues[0].2
    );
    let once = "User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /a";
    assert_eq!(lines_of(once, rule_ids::DUPLICATE_GROUPS), vec![]);
}

#[test]
fn sensitive_path_disclosed_warns_and_cms_defaults_are_notices() {
    let body = "User-agent: *\nDisallow: /admin/\nDisallow: /.git/\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /shop/\nUser-agent: bingbot\nDisallow: /admin/";
    let issues = fired(
        with_base(body).as_bytes(),
        rule_ids::SENSITIVE_PATH_DISCLOSED,
    );
    let found: Vec<_> = issues
        .iter()
        .map(|(line, severity, _)| (*line, *severity))
        .collect();
    assert_eq!(
        found,
        vec![
            (Some(2), Severity::Warning),
            (Some(3), Severity::Warning),
            (Some(4), Severity::Notice),
        ]
    );
    assert!(issues[0].2.contains("also on line 8"), "{}", issues[0].2);
}

#[test]
fn profiles_are_configurable() {
    let body = with_base("User-agent: Bingbot\nDisallow: /\nUser-agent: *\nDisallow: /x");
    let robots = RobotsTxt::parse(body.as_bytes());
    let options = LintOptions {
        user_agents: vec!["bingbot".to_owned()],
        ..LintOptions::default()
    };
    let issues = lint(&robots, body.as_bytes(), &options);
    assert!(
        issues
            .iter()
            .any(|i| i.rule() == rule_ids::DISALLOW_ALL && i.line == Some(2))
    );
    let default = lint(&robots, body.as_bytes(), &LintOptions::default());
    assert!(!default.iter().any(|i| i.rule() == rule_ids::DISALLOW_ALL));
}

#[test]
fn issues_are_sorted_and_every_rule_id_is_known() {
    let body =
        b"Disallow: /a\nUser-agent: *\nDissalow: /\nCrawl-delay: 4\nNoindex: /x\nfoo bar baz";
    let robots = RobotsTxt::parse(body);
    let issues = lint(&robots, body, &LintOptions::default());
    let keys: Vec<_> = issues.iter().map(|i| (i.line, i.rule())).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(issues.iter().all(|i| rule_ids::ALL.contains(&i.rule())));
    assert!(
        !issues
            .iter()
            .any(|i| i.severity > Severity::Warning && i.rule() == rule_ids::TYPO_FIELD)
    );
}
