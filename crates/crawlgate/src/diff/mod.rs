//! Two audits compared (`crawlgate diff BEFORE.json AFTER.json`): the URLs of the earlier report
//! mapped onto the later one ([`UrlMap`]), then page by page and profile by profile, what got
//! worse, as `diff/` findings with both sides as evidence; and per audit rule, the findings that
//! are new and the ones that are fixed.
//!
//! The result is a [`Report`]: the later audit's, with the `diff/` findings in place of its own
//! and a [`DiffSection`], so every renderer writes it.

mod pages;

use crawlgate_core::Finding;
use crawlgate_report::{
    DiffSection, PageRecord, RULE_CHANGE_URLS, Report, ReportFinding, RuleChange, Summary, Tally,
    UrlMap, fingerprint_mapped, rule_doc,
};
use crawlgate_rules::diff::DIFF_RULES;
use std::collections::{BTreeMap, BTreeSet};

/// Compares `before` with `after`, URLs of `before` mapped by `map`.
pub fn compare(before: &Report, after: &Report, map: &UrlMap) -> Report {
    let (before_rows, after_rows) = (before.pages.to_held(), after.pages.to_held());
    let before_pages: BTreeMap<String, &PageRecord> = before_rows
        .iter()
        .filter(|page| page.kind == "page")
        .map(|page| (map.apply(&page.url), page))
        .collect();
    let after_pages: BTreeMap<&str, &PageRecord> = after_rows
        .iter()
        .filter(|page| page.kind == "page")
        .map(|page| (page.url.as_str(), page))
        .collect();
    let mut findings = Vec::new();
    let mut compared = 0u64;
    for (url, old) in &before_pages {
        match after_pages.get(url.as_str()) {
            Some(new) => {
                compared += 1;
                pages::compare_page(
                    old,
                    new,
                    &after_pages,
                    map,
                    &after.target.expected_blocked,
                    &mut findings,
                );
            }
            None => pages::page_gone(url, old, &mut findings),
        }
    }
    let only_after = after_pages
        .keys()
        .filter(|url| !before_pages.contains_key(**url))
        .count() as u64;
    pages::compare_sitemap_sets(before, after, map, &mut findings);
    findings.sort_by(Finding::report_order);

    let section = DiffSection {
        before: before.target.start_url.clone(),
        after: after.target.start_url.clone(),
        url_map: map.describe(),
        pages_compared: compared,
        pages_only_before: before_pages.len() as u64 - compared,
        pages_only_after: only_after,
        rules: rule_changes(before, after, map),
    };
    let fired: BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    let rules = DIFF_RULES
        .iter()
        .filter(|meta| fired.contains(meta.id))
        .map(|meta| rule_doc(meta))
        .collect();
    let summary = summary(&after.summary, &findings);
    let mut rules_checked: Vec<String> = DIFF_RULES.iter().map(|meta| meta.id.to_owned()).collect();
    rules_checked.sort();
    Report {
        summary,
        rules,
        rules_checked,
        findings: findings.into_iter().map(ReportFinding::new).collect(),
        diff: Some(section),
        ..after.clone()
    }
}

/// The later audit's summary with the counts of the `diff/` findings.
fn summary(after: &Summary, findings: &[Finding]) -> Summary {
    let Tally {
        by_severity,
        by_rule,
        by_family,
    } = Tally::of(findings);
    Summary {
        findings: findings.len() as u64,
        by_severity,
        by_rule,
        by_family,
        suppressed: 0,
        findings_omitted: std::collections::BTreeMap::new(),
        ..after.clone()
    }
}

/// Per audit rule: findings before and after, new and fixed, matched by fingerprint with the
/// earlier findings' URLs mapped.
fn rule_changes(before: &Report, after: &Report, map: &UrlMap) -> Vec<RuleChange> {
    let old: BTreeSet<String> = before
        .findings
        .iter()
        .map(|f| fingerprint_mapped(&f.finding, map))
        .collect();
    let new: BTreeSet<&str> = after
        .findings
        .iter()
        .map(|f| f.fingerprint.as_str())
        .collect();
    let mut result: BTreeMap<String, RuleChange> = BTreeMap::new();
    for finding in &before.findings {
        let change = change_of(&mut result, &finding.finding.rule);
        change.before += 1;
        if !new.contains(fingerprint_mapped(&finding.finding, map).as_str()) {
            change.fixed += 1;
            if change.fixed_urls.len() < RULE_CHANGE_URLS {
                change.fixed_urls.push(map.apply(&finding.finding.url));
            }
        }
    }
    for finding in &after.findings {
        let change = change_of(&mut result, &finding.finding.rule);
        change.after += 1;
        if !old.contains(&finding.fingerprint) {
            change.new += 1;
            if change.new_urls.len() < RULE_CHANGE_URLS {
                change.new_urls.push(finding.finding.url.clone());
            }
        }
    }
    result
        .into_values()
        .filter(|change| change.new > 0 || change.fixed > 0)
        .collect()
}

/// The entry of `rule`, created empty.
fn change_of<'m>(changes: &'m mut BTreeMap<String, RuleChange>, rule: &str) -> &'m mut RuleChange {
    changes
        .entry(rule.to_owned())
        .or_insert_with(|| RuleChange {
            rule: rule.to_owned(),
            before: 0,
            after: 0,
            new: 0,
            fixed: 0,
            new_urls: Vec::new(),
            fixed_urls: Vec::new(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_report::Report;

    /// The smallest valid report (`fixtures/reports/minimal.json`).
    fn minimal() -> Report {
        serde_json::from_str(include_str!("../../../../fixtures/reports/minimal.json"))
            .expect("the minimal report matches the model")
    }
    use crawlgate_core::Severity;

    /// A page record: `state`, final `status`, where it redirects, the sitemaps listing it.
    fn page(
        url: &str,
        state: &str,
        status: u16,
        to: Option<&str>,
        sitemaps: &[&str],
    ) -> PageRecord {
        serde_json::from_value(serde_json::json!({
            "url": url, "kind": "page", "depth": 1, "state": state, "status": status,
            "final_url": to, "in_sitemaps": sitemaps, "inbound_links": 1,
            "profiles": { "googlebot": {
                "allowed": true, "directives": [], "noindex": false, "indexable": true
            } }
        }))
        .expect("a page record")
    }

    fn report(host: &str, pages: Vec<PageRecord>) -> Report {
        let mut report = minimal();
        report.target.start_url = format!("https://{host}/");
        report.pages = pages.into();
        report
    }

    fn rules_fired(before: &Report, after: &Report, map: &UrlMap) -> Vec<(String, String)> {
        compare(before, after, map)
            .findings
            .iter()
            .map(|f| (f.finding.rule.clone(), f.finding.url.clone()))
            .collect()
    }

    #[test]
    fn redirects_to_the_home_page_regress_and_redirects_to_listed_pages_do_not_drop() {
        let sitemap = "https://old.test/sitemap.xml";
        let before = report(
            "old.test",
            vec![
                page("https://old.test/", "fetched", 200, None, &[sitemap]),
                page("https://old.test/a", "fetched", 200, None, &[sitemap]),
                page("https://old.test/b", "fetched", 200, None, &[sitemap]),
            ],
        );
        let new_sitemap = "https://new.test/sitemap.xml";
        let after = report(
            "new.test",
            vec![
                page("https://new.test/", "fetched", 200, None, &[new_sitemap]),
                // Sent to the home page: the page is gone.
                page(
                    "https://new.test/a",
                    "redirected",
                    200,
                    Some("https://new.test/"),
                    &[],
                ),
                // Moved to a listed page: done right.
                page(
                    "https://new.test/b",
                    "redirected",
                    200,
                    Some("https://new.test/b2"),
                    &[],
                ),
                page("https://new.test/b2", "fetched", 200, None, &[new_sitemap]),
            ],
        );
        let map = UrlMap::new().with_host("old.test=new.test").unwrap();
        let fired = rules_fired(&before, &after, &map);
        // /a is sent home; /b moved to a listed page (no sitemap-dropped, no regression).
        assert_eq!(
            fired,
            [(
                "diff/status-regressed".to_owned(),
                "https://new.test/a".to_owned()
            )],
            "{fired:?}"
        );
        let diff = compare(&before, &after, &map).diff.unwrap();
        assert_eq!((diff.pages_compared, diff.pages_only_after), (3, 1));
    }

    #[test]
    fn a_newly_blocked_expected_blocked_crawler_is_a_confirming_notice() {
        let with_gptbot = |allowed: bool| {
            let mut page = page("https://e.test/a", "fetched", 200, None, &[]);
            let mut view = page.profiles["googlebot"].clone();
            view.allowed = allowed;
            view.robots_rule = (!allowed).then(|| "line 5: Disallow: /".to_owned());
            page.profiles.insert("gptbot".to_owned(), view);
            report("e.test", vec![page])
        };
        let before = with_gptbot(true);
        let mut after = with_gptbot(false);
        let newly_blocked = |after: &Report| {
            compare(&before, after, &UrlMap::new())
                .findings
                .into_iter()
                .map(|f| f.finding)
                .find(|f| f.rule == "diff/newly-blocked")
                .expect("diff/newly-blocked")
        };
        let undeclared = newly_blocked(&after);
        assert_eq!(undeclared.severity, Severity::Error);
        assert!(
            undeclared
                .message
                .starts_with("GPTBot may no longer crawl this page: ")
        );
        after.target.profiles.push("gptbot".to_owned());
        after.target.expected_blocked.push("gptbot".to_owned());
        let declared = newly_blocked(&after);
        assert_eq!(declared.severity, Severity::Notice);
        assert!(
            declared.message.starts_with(
                "GPTBot may no longer crawl this page, as declared (expected blocked): "
            ),
            "{}",
            declared.message
        );
    }

    #[test]
    fn a_canonical_moved_to_a_page_no_profile_can_index_is_an_error() {
        let mut old_page = page("https://e.test/a", "fetched", 200, None, &[]);
        old_page.canonical = Some("https://e.test/a".into());
        let mut new_page = old_page.clone();
        new_page.canonical = Some("https://e.test/gone".into());
        let mut gone = page("https://e.test/gone", "fetched", 200, None, &[]);
        for view in gone.profiles.values_mut() {
            view.indexable = false;
        }
        let before = report("e.test", vec![old_page]);
        let after = report("e.test", vec![new_page.clone(), gone]);
        let diff = compare(&before, &after, &UrlMap::new());
        let finding = &diff.findings[0].finding;
        assert_eq!(finding.rule, "diff/canonical-changed");
        assert_eq!(finding.severity, Severity::Error);
        // To an indexable page: the rule's own severity.
        let ok = page("https://e.test/gone", "fetched", 200, None, &[]);
        let after = report("e.test", vec![new_page, ok]);
        let diff = compare(&before, &after, &UrlMap::new());
        assert_eq!(diff.findings[0].finding.severity, Severity::Warning);
    }

    #[test]
    fn unmapped_pages_listed_before_and_gone_are_dropped() {
        let sitemap = "https://e.test/sitemap.xml";
        let before = report(
            "e.test",
            vec![page("https://e.test/old", "fetched", 200, None, &[sitemap])],
        );
        let after = report("e.test", vec![]);
        let fired = rules_fired(&before, &after, &UrlMap::new());
        assert_eq!(
            fired,
            [(
                "diff/sitemap-dropped".to_owned(),
                "https://e.test/old".to_owned()
            )]
        );
    }
}
