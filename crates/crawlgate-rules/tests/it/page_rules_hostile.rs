//! The directive and canonical rules on pages built to hurt: thousands of robots tags, canonicals
//! and alternates on one page. Every rule must finish, and every finding must stay readable:
//! messages and evidence are capped however much the page repeats itself.

use crawlgate_core::Site;
use crawlgate_core::crawl::{CannedResponse, CrawlConfig, OfflineSite};
use crawlgate_rules::RULES;
use crawlgate_test_support::fixture;
use std::fmt::Write as _;

/// Evidence items one finding may carry: 20 quoted sources plus a few facts around them.
const MAX_EVIDENCE: usize = 24;
/// Characters of one message.
const MAX_MESSAGE: usize = 2_000;

fn hostile_page() -> String {
    let mut head = String::from("<!doctype html><html><head><title>Hostile</title>\n");
    // 1,000 robots tags (the per-page cap of the signals) of 200 rules each, mixing
    // restrictions, their opposites, typos, obsolete and invalid values.
    let tokens = [
        "noindex",
        "index",
        "nofollow",
        "follow",
        "no-index",
        "noarchive",
        "max-snippet:x",
        "nosnippet",
        "max-snippet:50",
    ];
    for tag in 0..1_000 {
        let name = if tag % 2 == 0 { "robots" } else { "googlebot" };
        let content: Vec<&str> = (0..200).map(|i| tokens[(tag + i) % tokens.len()]).collect();
        let _ = writeln!(
            head,
            r#"<meta name="{name}" content="{}">"#,
            content.join(", ")
        );
    }
    // 900 canonicals to different URLs, relative and with fragments, and 900 alternates naming
    // the same URLs (under the signals' cap of 1,000, so the canonical after the break counts).
    for i in 0..900 {
        let _ = writeln!(head, r#"<link rel="canonical" href="/c/{i}#part">"#);
        let _ = writeln!(
            head,
            r#"<link rel="alternate" hreflang="x{i}" href="/c/{i}">"#
        );
    }
    head.push_str("<img src=/pixel.gif><link rel=canonical href=/after-break></head><body>");
    for i in 0..500 {
        let _ = write!(head, r#"<a href="/c/{i}">{i}</a>"#);
    }
    head.push_str("</body></html>");
    head
}

fn site() -> Site {
    let mut headers = vec!["Content-Type: text/html".to_owned()];
    let value: Vec<String> = (0..300)
        .map(|i| format!("googlebot: noindex, index, nofollow{i}"))
        .collect();
    headers.push(format!("X-Robots-Tag: {}", value.join(", ")));
    headers.push(format!("Robots-Tag: {}", value.join(", ")));
    headers.push("Link: </a>; rel=canonical, </b>; rel=canonical".to_owned());
    let site = OfflineSite::default().with(
        "http://site.test/",
        CannedResponse {
            status: 200,
            headers,
            body: hostile_page(),
            ..CannedResponse::default()
        },
    );
    let mut config = CrawlConfig::new(
        url::Url::parse("http://site.test/").unwrap(),
        "2026-06-01T00:00:00Z".parse().unwrap(),
    );
    config.bounds.max_pages = 50;
    site.crawl(config).unwrap()
}

#[test]
fn findings_stay_bounded_on_a_page_that_repeats_everything() {
    let site = site();
    let mut fired = Vec::new();
    for rule in RULES {
        let family = rule.meta().family();
        if family != "directives" && family != "canonical" {
            continue;
        }
        let findings = fixture::run(*rule, &site);
        for finding in &findings {
            assert!(
                !finding.evidence.is_empty() && finding.evidence.len() <= MAX_EVIDENCE,
                "{}: {} evidence items",
                finding.rule,
                finding.evidence.len()
            );
            assert!(
                finding.message.chars().count() <= MAX_MESSAGE,
                "{}: a message of {} characters",
                finding.rule,
                finding.message.chars().count()
            );
        }
        if !findings.is_empty() {
            fired.push(rule.meta().id);
        }
    }
    // The page really is hostile: the rules that judge it found what they look for.
    for id in [
        "directives/meta-header-conflict",
        "directives/unknown-token",
        "directives/obsolete-token",
        "directives/invalid-value",
        "directives/robots-tag-header",
        "canonical/multiple-conflicting",
        "canonical/relative",
        "canonical/fragment",
        "canonical/after-invalid-head-element",
        "canonical/outside-head",
    ] {
        assert!(
            fired.contains(&id),
            "{id} did not fire on the hostile page; fired: {fired:?}"
        );
    }
}
