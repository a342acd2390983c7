//! Sitemap rules on the cases their `fires.toml` / `clean.toml` pair does not show, kept beside
//! them as `fires-<case>.toml` / `clean-<case>.toml`.

use crawlgate_core::{Evidence, Finding, Severity};
use crawlgate_test_support::fixture;

/// Run `rule_id` on the fixture `file` of the rule `fixture_of`.
fn run_on(rule_id: &str, fixture_of: &str, file: &str) -> Vec<Finding> {
    let rule = crawlgate_rules::find(rule_id).expect("a built-in rule");
    let path = fixture::rule_dir(fixture_of).join(format!("{file}.toml"));
    let site = fixture::load_site(&path).unwrap_or_else(|e| panic!("{e}"));
    fixture::run(rule, &site)
}

/// Run `rule_id` on one of its own fixtures.
fn findings(rule_id: &str, file: &str) -> Vec<Finding> {
    run_on(rule_id, rule_id, file)
}

fn urls(findings: &[Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.url.as_str()).collect()
}

#[test]
fn an_orphan_is_only_a_notice_when_the_crawl_was_cut_short() {
    let found = findings("sitemap/orphan-url", "fires-partial");
    assert_eq!(urls(&found), ["http://site.test/spring-sale"]);
    assert_eq!(found[0].severity, Severity::Notice);
    assert!(
        found[0].message.contains("cut short"),
        "{}",
        found[0].message
    );
}

#[test]
fn the_site_scheme_is_read_from_where_the_start_url_redirects() {
    let found = findings("sitemap/url-http-on-https", "fires-redirect");
    assert_eq!(urls(&found), ["http://site.test/pricing"]);
    assert!(
        matches!(
            found[0].evidence.get(1),
            Some(Evidence::Redirect { final_url, .. }) if final_url == "https://site.test/"
        ),
        "{:#?}",
        found[0].evidence
    );
}

#[test]
fn a_configured_sitemap_robots_txt_does_not_name_is_unadvertised() {
    let found = findings("sitemap/unadvertised", "fires-configured");
    assert_eq!(urls(&found), ["http://site.test/sitemap-2026.xml"]);
    assert!(found[0].message.contains("given in the configuration"));
    // The sitemap robots.txt does name is quoted: often an older file.
    assert!(found[0].evidence.iter().any(|e| matches!(
        e,
        Evidence::RobotsLine { text, .. } if text.contains("sitemap-old.xml")
    )));
}

#[test]
fn a_page_missing_from_the_sitemaps_says_which_could_not_be_read() {
    let found = findings("sitemap/missing-indexable-url", "fires-unread");
    assert_eq!(urls(&found), ["http://site.test/blog/launch"]);
    let caveat = found[0].evidence.last();
    assert!(
        matches!(caveat, Some(Evidence::Note { text }) if text.starts_with("1 sitemap could not be read")),
        "{caveat:?}"
    );
}

#[test]
fn without_a_sitemap_no_page_is_missing_from_one() {
    assert!(findings("sitemap/missing-indexable-url", "clean-no-sitemap").is_empty());
}

#[test]
fn sitemaps_past_the_count_bound_are_reported_at_the_index_naming_them() {
    let found = findings("sitemap/limits-exceeded", "fires-count");
    assert_eq!(urls(&found), ["http://site.test/sitemap_index.xml"]);
    assert!(
        found[0]
            .message
            .starts_with("2 sitemaps named here were not read: the sitemap count bound"),
        "{}",
        found[0].message
    );
    // The index entries naming them, then the bound.
    let lines: Vec<u32> = found[0]
        .evidence
        .iter()
        .filter_map(|e| match e {
            Evidence::SitemapEntry { line, .. } => Some(*line),
            _ => None,
        })
        .collect();
    assert_eq!(lines, [1001, 1002]);
}

#[test]
fn a_listed_noindex_page_robots_txt_disallows_is_left_to_url_blocked() {
    assert!(findings("sitemap/url-noindex", "clean-blocked").is_empty());
    let blocked = run_on(
        "sitemap/url-blocked",
        "sitemap/url-noindex",
        "clean-blocked",
    );
    assert_eq!(urls(&blocked), ["http://site.test/guide"]);
}

#[test]
fn video_files_robots_txt_disallows_are_reported_per_file() {
    let found = findings("sitemap/video-invalid", "fires-disallowed");
    let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(found.len(), 2, "{messages:#?}");
    assert!(messages[0].contains("video:content_loc `http://site.test/videos/files/intro.mp4`"));
    assert!(messages[1].contains("video:thumbnail_loc"));
    assert!(found.iter().all(|f| f.profile.as_deref() == Some("googlebot")
        && matches!(&f.evidence[0], Evidence::RobotsRule { pattern, .. } if pattern == "/videos/files/")));
}
