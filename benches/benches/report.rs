//! Rendering a large report in every built-in format (`cargo bench -p crawlgate-benches --bench
//! report`): 10,000 findings of 20 rules over 5,000 URLs, two pieces of evidence each, a
//! 200-line robots.txt, 20 sitemaps and 5,000 pages in the inventory. The HTML and Markdown
//! templates group findings by rule with list comprehensions (rules × findings), so this is their
//! worst case at a size a bounded crawl reaches.

use crawlgate_core::{FailOn, Severity};
use crawlgate_report::{RenderOptions, Renderers, Report};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use serde_json::{Value, json};
use std::sync::LazyLock;

fn main() {
    divan::main();
}

const FINDINGS: usize = 10_000;
const RULES: usize = 20;
const URLS: usize = 5_000;

/// The report, built as JSON (the template contract) so the bench does not depend on the
/// model's Rust constructors.
static REPORT: LazyLock<Report> = LazyLock::new(|| {
    let severities = ["critical", "error", "warning", "notice"];
    let rules: Vec<String> = (0..RULES)
        .map(|i| format!("family{}/rule-{i:02}", i % 5))
        .collect();
    let docs: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, id)| {
            json!({
                "id": id, "family": id.split('/').next(), "default_severity": severities[i % 4],
                "summary": format!("Rule {i} summary"),
                "what_it_does": "Finds `things` in `<head>`.", "why_is_this_bad": "Because.",
                "example": "```text\nDisallow: /x\n```", "how_to_fix": "Remove `x`."
            })
        })
        .collect();
    let mut findings = Vec::with_capacity(FINDINGS);
    for (severity_index, severity) in severities.iter().enumerate() {
        for (rule_index, rule) in rules.iter().enumerate() {
            if rule_index % 4 != severity_index {
                continue;
            }
            for n in 0..FINDINGS / RULES {
                let url = format!(
                    "https://www.example.test/section-{}/page-{}",
                    n % 50,
                    n * 7 % URLS
                );
                findings.push(json!({
                    "rule": rule, "severity": severity, "url": url, "profile": "googlebot",
                    "message": format!("disallowed for googlebot but linked from `{url}`"),
                    "evidence": [
                        { "kind": "robots_rule", "robots_url": "https://www.example.test/robots.txt",
                          "line": n % 200 + 1, "group": ["*"], "directive": "Disallow",
                          "pattern": format!("/section-{}/", n % 50) },
                        { "kind": "link", "from": "https://www.example.test/", "to": url,
                          "line": n % 300 + 1, "rel": [] }
                    ],
                    "fingerprint": format!("{n:016x}")
                }));
            }
        }
    }
    let pages: Vec<Value> = (0..URLS)
        .map(|n| {
            json!({
                "url": format!("https://www.example.test/section-{}/page-{n}", n % 50),
                "kind": "page", "depth": 2, "state": "fetched", "status": 200,
                "in_sitemaps": [], "inbound_links": 3,
                "profiles": { "googlebot": { "allowed": true, "directives": [], "noindex": false, "indexable": true } }
            })
        })
        .collect();
    let sitemaps: Vec<Value> = (0..20)
        .map(|n| {
            json!({
                "url": format!("https://www.example.test/sitemap-{n}.xml"),
                "sources": ["https://www.example.test/sitemap_index.xml line 3"], "depth": 1,
                "state": "parsed", "status": 200, "kind": "urlset", "entries": 250, "gzip": false,
                "bytes_uncompressed": 40_000, "issues": 0
            })
        })
        .collect();
    let report = json!({
        "schema_version": 1,
        "tool": { "name": "crawlgate", "version": "bench" },
        "target": { "start_url": "https://www.example.test/", "profiles": ["googlebot"], "obey_robots": false },
        "summary": {
            "pages_crawled": URLS, "urls_known": URLS, "findings": FINDINGS,
            "by_severity": { "critical": 2_500, "error": 2_500, "warning": 2_500, "notice": 2_500 },
            "by_rule": {}, "by_family": { "family0": { "critical": 2_000, "notice": 2_000 } },
            "partial": false, "interrupted": false, "bounds_hit": []
        },
        "rules": docs,
        "findings": findings,
        "crawl": { "pages_fetched": URLS, "assets_fetched": 0, "sitemaps_fetched": 20, "robots_fetched": 1,
                   "bounds_hit": [], "interrupted": false, "urls_not_recorded": 0 },
        "robots": [{
            "origin": "https://www.example.test", "url": "https://www.example.test/robots.txt",
            "status": 200, "hops": [], "effect": "rules", "effect_reason": "answered 200",
            "lines": (0..200).map(|n| format!("Disallow: /section-{n}/")).collect::<Vec<_>>(),
            "cited_lines": (1..=200).collect::<Vec<u32>>(), "sitemaps": []
        }],
        "sitemaps": sitemaps,
        "pages": pages
    });
    serde_json::from_value(report).expect("the bench report matches the model")
});

#[divan::bench(args = ["html", "md", "json", "sarif", "junit"], sample_count = 10, sample_size = 1)]
fn render_10k_findings(bencher: Bencher, format: &str) {
    let report = &*REPORT;
    let renderers = Renderers::builtin();
    let renderer = renderers.get(format).expect("built-in format");
    let options = RenderOptions {
        fail_on: FailOn::at(Severity::Error),
        ..RenderOptions::default()
    };
    bencher.counter(ItemsCount::new(FINDINGS)).bench_local(|| {
        let mut out = Vec::with_capacity(32 << 20);
        renderer
            .render(black_box(report), &options, &mut out)
            .expect("renders");
        out.len()
    });
}
