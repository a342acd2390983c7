//! The renderers over real reports: snapshots of every format for one canned audit, escaping of
//! hostile site content in each format, determinism, report plugins (the sample `csv-findings`,
//! template errors), writing files, and the HTML report in headless Chromium when installed.

use crate::support;
use crawlgate_core::{Evidence, FailOn, Finding, Severity};
use crawlgate_report::{
    BaselineState, RenderError, RenderOptions, Renderers, Report, ReportFinding, SarifMap,
    write_reports,
};
use crawlgate_test_support::chromium;
use std::path::Path;

fn render(renderers: &Renderers, name: &str, report: &Report, options: &RenderOptions) -> String {
    let renderer = renderers
        .get(name)
        .unwrap_or_else(|| panic!("no renderer `{name}`"));
    let mut out = Vec::new();
    if let Err(error) = renderer.render(report, options, &mut out) {
        panic!("{name}: {error}");
    }
    String::from_utf8(out).expect("UTF-8 output")
}

fn fail_on_error() -> RenderOptions {
    RenderOptions {
        fail_on: FailOn::at(Severity::Error),
        ..RenderOptions::default()
    }
}

/// The built-in renderers plus the sample csv-findings plugin from `reports/`.
fn renderers_with_csv() -> Renderers {
    let mut renderers = Renderers::builtin();
    renderers
        .load_plugin_dir(&support::reports_dir().join("csv-findings"))
        .unwrap_or_else(|e| panic!("{e}"));
    renderers
}

const EVERY_FORMAT: [&str; 6] = ["html", "md", "json", "sarif", "junit", "csv-findings"];

// ---------------------------------------------------------------------------------------------
// The canned audit, every format

#[test]
fn writes_the_canned_audit_in_every_format() {
    // Every built-in rule, whatever the catalogue holds by now: whatever they find renders.
    let report = support::report_with_every_rule("outfitters");
    let renderers = renderers_with_csv();
    let dir = support::scratch_dir("outfitters-report");
    let formats: Vec<String> = EVERY_FORMAT.map(String::from).to_vec();
    let paths = write_reports(&report, &renderers, &formats, &fail_on_error(), &dir)
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<_> = paths
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "report.html",
            "report.md",
            "report.json",
            "report.sarif",
            "report.junit.xml",
            "report.csv"
        ]
    );
    for (format, path) in formats.iter().zip(&paths) {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            text,
            render(&renderers, format, &report, &fail_on_error()),
            "{format}: the file is the rendering"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name.to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn snapshots_of_every_format() {
    let report = support::report_of("outfitters");
    // The canned audit is the one the screenshots show: every rule fires, two profiles.
    assert_eq!(report.rules.len(), support::CANNED_RULES.len());
    assert_eq!(report.target.profiles, ["googlebot", "bingbot"]);
    let renderers = renderers_with_csv();
    for format in EVERY_FORMAT {
        let text = render(&renderers, format, &report, &fail_on_error());
        insta::assert_snapshot!(format!("outfitters.{format}"), text);
    }
}

#[test]
fn the_same_report_renders_to_the_same_bytes() {
    let first = support::report_of("outfitters");
    let second = support::report_of("outfitters");
    assert_eq!(first, second);
    let renderers = renderers_with_csv();
    for format in EVERY_FORMAT {
        assert_eq!(
            render(&renderers, format, &first, &fail_on_error()),
            render(&renderers, format, &second, &fail_on_error()),
            "{format}"
        );
    }
}

#[test]
fn the_date_appears_only_when_asked_for() {
    let mut report = support::report_of("outfitters");
    let renderers = Renderers::builtin();
    let date = "2026-06-01T12:00:00Z";
    for format in ["html", "md", "json"] {
        assert!(!render(&renderers, format, &report, &fail_on_error()).contains(date));
    }
    report.generated_at = Some(date.to_owned());
    for format in ["html", "md", "json"] {
        assert!(
            render(&renderers, format, &report, &fail_on_error()).contains(date),
            "{format}"
        );
    }
}

#[test]
fn expected_blocked_profiles_are_named_so() {
    let mut report = support::report_of("outfitters");
    let renderers = Renderers::builtin();
    for format in ["html", "md", "json"] {
        let text = render(&renderers, format, &report, &fail_on_error());
        assert!(!text.contains("expected blocked"), "{format}");
        assert!(!text.contains("expected_blocked"), "{format}");
    }
    report.target.profiles.push("gptbot".to_owned());
    report.target.expected_blocked.push("gptbot".to_owned());
    assert_eq!(
        report.target.profiles_described(),
        "googlebot, bingbot, gptbot (expected blocked)"
    );
    for format in ["html", "md"] {
        let text = render(&renderers, format, &report, &fail_on_error());
        // In the byline and in the summary.
        assert_eq!(
            text.matches("googlebot, bingbot, gptbot (expected blocked)")
                .count(),
            2,
            "{format}"
        );
    }
    let json = render(&renderers, "json", &report, &fail_on_error());
    assert!(json.contains(r#""expected_blocked": ["#), "{json}");
}

#[test]
fn the_html_report_is_self_contained() {
    let report = support::report_of("outfitters");
    let html = render(&Renderers::builtin(), "html", &report, &fail_on_error());
    // Nothing is loaded from anywhere: no external stylesheet, script, image, font or frame, and
    // a Content-Security-Policy that would block one anyway.
    for needle in [
        "<link",
        "<img",
        "<script src",
        "<iframe",
        "<object",
        "<embed",
        "<video",
        "<audio",
        "<source",
        "url(",
        "@import",
    ] {
        assert!(!html.contains(needle), "found `{needle}`");
    }
    assert!(html.contains("content=\"default-src 'none';"));
    assert!(html.contains("<style>") && html.contains("@media print"));
    // The sections the issue asks for, each with its anchor.
    for id in [
        "id=\"summary\"",
        "id=\"findings\"",
        "id=\"robots\"",
        "id=\"sitemaps\"",
        "id=\"robots/blocked-noindex\"",
        "id=\"url-filter\"",
        "id=\"fix-first\"",
        "id=\"pages\"",
        "class=\"chart-rows\"",
        "<nav class=\"sections",
    ] {
        assert!(html.contains(id), "missing {id}");
    }
    // The robots.txt lines findings cite are highlighted, and evidence links to them.
    assert!(html.contains(
        "class=\"cited\"><td class=\"ln\">3</td><td class=\"src\">Disallow: /checkout/</td>"
    ));
    assert!(html.contains("href=\"#https-www-outfitters-test-robots-txt-"));
}

#[test]
fn an_unreachable_robots_txt_is_reported() {
    let report = support::report_of("unreachable");
    let renderers = Renderers::builtin();
    let html = render(&renderers, "html", &report, &fail_on_error());
    assert!(
        html.contains("<span class=\"status\">HTTP 503</span>"),
        "{html}"
    );
    assert!(html.contains("everything disallowed"));
    assert!(html.contains("No sitemap was found."));
    let md = render(&renderers, "md", &report, &fail_on_error());
    assert!(md.contains("HTTP 503 · everything disallowed"), "{md}");
    for format in ["json", "sarif", "junit"] {
        render(&renderers, format, &report, &fail_on_error());
    }
}

#[test]
fn markdown_folds_long_url_lists() {
    let mut report = support::report_of("outfitters");
    let template = report.findings[0].clone();
    for n in 0..12 {
        let mut extra = template.clone();
        extra.finding.url = format!("https://www.outfitters.test/extra/{n}");
        report.findings.push(extra);
    }
    let md = render(&Renderers::builtin(), "md", &report, &fail_on_error());
    assert!(
        md.contains("<details><summary>14 findings</summary>"),
        "{md}"
    );
}

#[test]
fn the_markdown_summary_fits_a_github_comment_whatever_the_audit() {
    // GitHub takes at most 65,536 characters in a PR or issue comment.
    const GITHUB_COMMENT_CHARS: usize = 65_536;
    let mut report = support::report_of("outfitters");
    let small = render(
        &Renderers::builtin(),
        "md-summary",
        &report,
        &fail_on_error(),
    );
    assert!(
        small.contains("| Severity | Rule | Findings | First URLs |"),
        "{small}"
    );
    assert!(
        !small.contains("more lines are in the full report"),
        "not cut: {small}"
    );
    // Thousands of rules' worth of findings with long URLs: still under the limit, cut at a
    // line, saying so.
    let template = report.findings[0].clone();
    for n in 0..5_000 {
        let mut extra = template.clone();
        extra.finding.rule = format!("robots/rule-{n}");
        extra.finding.url = format!("https://www.outfitters.test/{}/{n}", "x".repeat(300));
        report.findings.push(extra);
    }
    let big = render(
        &Renderers::builtin(),
        "md-summary",
        &report,
        &fail_on_error(),
    );
    assert!(
        big.chars().count() < GITHUB_COMMENT_CHARS,
        "{}",
        big.chars().count()
    );
    assert!(big.contains("more lines are in the full report"));
    let full = render(&Renderers::builtin(), "md", &report, &fail_on_error());
    assert!(
        full.chars().count() > GITHUB_COMMENT_CHARS,
        "the full report is not capped"
    );
}

#[test]
fn rendered_text_says_each_thing_once_and_plainly() {
    // The wording defects of one class each: a status said twice ("answered HTTP 503: answered
    // 503"), "time(s)", a version escaped as a list number (`0\\.1.0`), an audit title on a
    // comparison.
    let doubled = regex::Regex::new(r"answered (HTTP )?\d{3}\S*:? answered").unwrap();
    for site in ["outfitters", "unreachable", "hostile"] {
        let report = support::report_of(site);
        for format in ["html", "md", "md-summary", "sarif", "junit"] {
            let text = render(&Renderers::builtin(), format, &report, &fail_on_error());
            assert!(
                !doubled.is_match(&text),
                "{site} {format}: {:?}",
                doubled.find(&text)
            );
            assert!(!text.contains("time(s)"), "{site} {format}");
        }
        let md = render(&Renderers::builtin(), "md", &report, &fail_on_error());
        let byline = md.lines().nth(2).unwrap_or_default();
        assert!(!byline.contains("\\."), "{byline}");
    }
}

#[test]
fn html_puts_the_problems_to_fix_first_and_lists_each_finding_once_with_its_profiles() {
    let report = support::report_of("outfitters");
    let html = render(&Renderers::builtin(), "html", &report, &fail_on_error());
    // "Fix these first" comes before everything else, most severe first, then by URLs affected.
    let fix_first = html.find("id=\"fix-first\"").unwrap();
    assert!(fix_first < html.find("id=\"summary\"").unwrap());
    let problems = &html[fix_first..html.find("id=\"summary\"").unwrap()];
    let order: Vec<usize> = [
        "href=\"#robots/blocked-noindex\"",
        "href=\"#sitemap/url-blocked\"",
        "href=\"#canonical/outside-head\"",
        "href=\"#robots/blocked-linked\"",
    ]
    .iter()
    .map(|link| problems.find(link).unwrap_or_else(|| panic!("{link}")))
    .collect();
    assert!(order.is_sorted(), "{order:?}");
    assert!(problems.contains("3 URLs · bingbot, googlebot"));
    // Googlebot's and Bingbot's finding on the press kit are one row naming both.
    let section = &html[html.find("id=\"robots/blocked-noindex\"").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert_eq!(
        section
            .matches("data-url=\"https://www.outfitters.test/private/press-kit\"")
            .count(),
        1
    );
    assert!(section.contains(
        "<span class=\"profile\">bingbot</span><span class=\"profile\">googlebot</span>"
    ));
    assert!(section.contains("(also for: googlebot)"));
    // Docs are folded; the rules to fix first are open.
    assert!(section.contains("<details class=\"rule-body\" open>"));
    assert!(section.contains("<details class=\"docs\">"));
    // The pages: each profile's verdict, why not, and the rules that fired on the page.
    let pages = &html[html.find("id=\"pages\"").unwrap()..];
    let row = pages
        .split("<tr ")
        .find(|row| row.starts_with("data-url=\"https://www.outfitters.test/checkout/cart\""))
        .expect("the cart's row");
    assert!(
        row.contains("disallowed by robots.txt (line 3: Disallow: /checkout/)"),
        "{row}"
    );
    assert!(row.contains("href=\"#robots/blocked-noindex\""), "{row}");
}

#[test]
fn rows_and_pages_past_the_reports_bounds_are_counted_and_said_so() {
    let mut report = support::report_of("outfitters");
    let finding = report.findings[0].finding.clone();
    let rows_before = report
        .findings
        .iter()
        .filter(|f| f.finding.rule == finding.rule)
        .count();
    for n in 0..600 {
        report
            .findings
            .push(ReportFinding::new(crawlgate_core::Finding {
                url: format!("https://www.outfitters.test/many/{n:03}"),
                ..finding.clone()
            }));
    }
    let page = report
        .pages
        .iter()
        .find(|p| p.kind == "page")
        .unwrap()
        .into_owned();
    let pages_before = report.pages.iter().filter(|p| p.kind == "page").count();
    for n in 0..2_100 {
        report
            .pages
            .push(crawlgate_report::PageRecord {
                url: format!("https://www.outfitters.test/page/{n:04}"),
                ..page.clone()
            })
            .unwrap();
    }
    let html = render(&Renderers::builtin(), "html", &report, &fail_on_error());
    let rows = rows_before + 600;
    assert!(
        html.contains(&format!(
            "… and {} more: every finding is in report.json.",
            rows - 500
        )),
        "rows past 500"
    );
    let pages = pages_before + 2_100;
    assert!(html.contains(&format!(
        "{pages} pages; {} that at least one crawler would not index. The first 2000 by URL are \
         shown; report.json has every page.",
        report
            .pages
            .iter()
            .filter(|p| p.kind == "page" && p.profiles.values().any(|v| !v.indexable))
            .count()
    )));
    let md = render(&Renderers::builtin(), "md", &report, &fail_on_error());
    assert!(md.contains(&format!(
        "| … | {} more: every finding is in report.json |",
        rows - 500
    )));

    // A robots.txt naming thousands of sitemaps: the table and the list stop at 1,000.
    let sitemap = report.sitemaps[0].clone();
    let before = report.sitemaps.len();
    for n in 0..1_200 {
        report.sitemaps.push(crawlgate_report::SitemapReport {
            url: format!("https://www.outfitters.test/sitemap-{n:04}.xml"),
            ..sitemap.clone()
        });
        report.robots[0]
            .sitemaps
            .push(format!("https://www.outfitters.test/sitemap-{n:04}.xml"));
    }
    let listed = report.robots[0].sitemaps.len();
    let html = render(&Renderers::builtin(), "html", &report, &fail_on_error());
    assert!(html.contains(&format!(
        "… and {} more: every sitemap is in report.json.",
        before + 1_200 - 1_000
    )));
    assert!(html.contains(&format!(
        "… and {} more: report.json has all",
        listed - 1_000
    )));
    assert!(!html.contains("sitemap-1199.xml"));
    let md = render(&Renderers::builtin(), "md", &report, &fail_on_error());
    assert!(md.contains(&format!(
        "| … | {} more: every sitemap is in report.json |",
        before + 1_200 - 1_000
    )));
    assert!(!md.contains("sitemap-1199.xml"));
}

#[test]
fn evidence_past_the_cap_is_counted_and_said_so() {
    let mut report = support::report_of("outfitters");
    let note = |n: usize| Evidence::Note {
        text: format!("sample {n}"),
    };
    let finding = ReportFinding::new(Finding {
        message: "a finding with much evidence".to_owned(),
        evidence: (0..150).map(note).collect(),
        ..report.findings[0].finding.clone()
    });
    assert_eq!(
        finding.finding.evidence.len(),
        crawlgate_report::MAX_EVIDENCE
    );
    assert_eq!(finding.evidence_omitted, 50);
    report.findings.insert(0, finding);
    let html = render(&Renderers::builtin(), "html", &report, &fail_on_error());
    assert!(html.contains("<summary>and 97 more</summary>"));
    assert!(
        html.contains(
            "50 more pieces of evidence left out of the report (it keeps 100 per finding)"
        )
    );
    let md = render(&Renderers::builtin(), "md", &report, &fail_on_error());
    assert!(md.contains("… and 95 more in `report.html` and `report.json`"));
    assert!(md.contains("50 more left out of the report (it keeps 100 per finding)"));
    let json: serde_json::Value = serde_json::from_str(&render(
        &Renderers::builtin(),
        "json",
        &report,
        &fail_on_error(),
    ))
    .unwrap();
    assert_eq!(json["findings"][0]["evidence_omitted"], 50);
}

/// One piece of evidence of every kind. The match has no wildcard: a new kind in crawlgate-core
/// fails to compile here until the templates have a partial for it and this list shows it.
#[allow(clippy::too_many_lines, reason = "one literal of each evidence kind")]
fn every_evidence_kind() -> Vec<Evidence> {
    let page = "https://www.outfitters.test/p".to_owned();
    let robots = "https://www.outfitters.test/robots.txt".to_owned();
    let sitemap = "https://www.outfitters.test/sitemap-pages.xml".to_owned();
    let all = vec![
        Evidence::RobotsRule {
            robots_url: robots.clone(),
            line: 3,
            group: vec!["*".into()],
            directive: "Disallow".into(),
            pattern: "/checkout/".into(),
        },
        Evidence::RobotsVerdict {
            robots_url: robots.clone(),
            profile: "googlebot".into(),
            allowed: false,
            reason: "robots.txt answered 503: Google stops crawling".into(),
        },
        Evidence::RobotsLine {
            robots_url: robots.clone(),
            line: 4,
            text: "Disallow: /search".into(),
        },
        Evidence::RobotsFetch {
            robots_url: robots,
            status: Some(503),
            effect: "disallow-all".into(),
            detail: "answered 503: a 5xx answer means Google treats the whole site as disallowed"
                .into(),
        },
        Evidence::HttpHeader {
            url: page.clone(),
            name: "X-Robots-Tag".into(),
            value: "noindex".into(),
        },
        Evidence::MetaTag {
            url: page.clone(),
            name: "robots".into(),
            content: "noindex".into(),
            line: Some(5),
            in_head: false,
            raw: "<meta name=\"robots\" content=\"noindex\">".into(),
        },
        Evidence::Canonical {
            url: page.clone(),
            href: "/q".into(),
            via: "header".into(),
            line: None,
            raw: "Link: </q>; rel=\"canonical\"".into(),
        },
        Evidence::Hreflang {
            url: page.clone(),
            hreflang: "de-AT".into(),
            href: "https://www.outfitters.test/de-at/p".into(),
            via: "html".into(),
            line: Some(6),
        },
        Evidence::SitemapEntry {
            sitemap_url: sitemap.clone(),
            line: 6,
            loc: page.clone(),
        },
        Evidence::SitemapPosition {
            sitemap_url: sitemap,
            line: Some(9),
            column: Some(5),
        },
        Evidence::Link {
            from: "https://www.outfitters.test/".into(),
            to: page.clone(),
            line: Some(7),
            rel: vec!["nofollow".into(), "ugc".into()],
        },
        Evidence::AssetRef {
            page: page.clone(),
            asset: "https://www.outfitters.test/app.js".into(),
            asset_kind: "script".into(),
            line: Some(8),
        },
        Evidence::Response {
            url: page.clone(),
            status: Some(404),
            detail: "answered 404".into(),
        },
        Evidence::Redirect {
            url: page.clone(),
            hops: vec![crawlgate_core::finding::RedirectHop {
                url: page,
                status: 301,
                location: Some("/r".into()),
            }],
            final_url: "https://www.outfitters.test/r".into(),
        },
        Evidence::Change {
            side: "before".into(),
            url: "https://www.outfitters.test/robots.txt".into(),
            line: Some(3),
            state: "disallowed".into(),
            quote: Some("Disallow: /<shop>".into()),
        },
        Evidence::Note {
            text: "a `note`".into(),
        },
    ];
    for evidence in &all {
        match evidence {
            Evidence::RobotsRule { .. }
            | Evidence::RobotsVerdict { .. }
            | Evidence::RobotsLine { .. }
            | Evidence::RobotsFetch { .. }
            | Evidence::HttpHeader { .. }
            | Evidence::MetaTag { .. }
            | Evidence::Canonical { .. }
            | Evidence::Hreflang { .. }
            | Evidence::SitemapEntry { .. }
            | Evidence::SitemapPosition { .. }
            | Evidence::Link { .. }
            | Evidence::AssetRef { .. }
            | Evidence::Response { .. }
            | Evidence::Redirect { .. }
            | Evidence::Change { .. }
            | Evidence::Note { .. } => {}
        }
    }
    all
}

#[test]
fn every_evidence_kind_has_its_own_rendering() {
    let mut report = support::report_of("outfitters");
    let finding = Finding {
        rule: "robots/blocked-noindex".to_owned(),
        severity: Severity::Error,
        url: "https://www.outfitters.test/p".to_owned(),
        profile: Some("googlebot".to_owned()),
        message: "every kind of evidence".to_owned(),
        evidence: every_evidence_kind(),
    };
    report.findings.insert(0, ReportFinding::new(finding));
    let renderers = renderers_with_csv();
    let html = render(&renderers, "html", &report, &fail_on_error());
    assert!(
        !html.contains("ev-unknown"),
        "a kind fell back to the generic rendering"
    );
    for text in [
        "ROBOTS_RULE_MARK",
        "disallows googlebot: robots.txt answered 503: Google stops crawling",
        "<code class=\"ev-quote\">Disallow: /search</code>",
        "answered 503: a 5xx answer means",
        "<code class=\"ev-quote\">X-Robots-Tag: noindex</code>",
        "line 5, in &lt;body&gt;",
        "canonical (HTTP header)",
        "<code class=\"ev-quote\">de-AT → https://www.outfitters.test/de-at/p</code>",
        "line 9, column 5",
        "<code class=\"ev-quote\">rel=\"nofollow ugc\"</code>",
        "<span class=\"ev-kind\">script</span>",
        "<code class=\"ev-quote\">HTTP 404</code> answered 404",
        "<code class=\"ev-quote\">301</code> →",
        "<span class=\"ev-kind ev-side-before\">before</span>\ndisallowed <code class=\"ev-quote\">Disallow: /&lt;shop&gt;</code>",
        "a <code>note</code>",
    ] {
        let text = text.replace(
            "ROBOTS_RULE_MARK",
            "<code class=\"ev-quote\">Disallow: /checkout/</code>",
        );
        assert!(html.contains(&text), "HTML lacks `{text}`");
    }
    let md = render(&renderers, "md", &report, &fail_on_error());
    assert!(
        !md.contains("does not know"),
        "a kind fell back to the generic rendering"
    );
    let row = md
        .lines()
        .find(|line| line.contains("every kind of evidence"))
        .expect("the finding's row");
    // The Markdown quotes the first five; the rest are counted, and are in the HTML.
    assert_eq!(row.matches("<br>• ").count(), 6, "{row}");
    assert!(
        row.contains(&format!(
            "… and {} more in `report.html` and `report.json`",
            every_evidence_kind().len() - 5
        )),
        "{row}"
    );
    // The HTML shows three, the rest folded under "and N more".
    assert!(html.contains(&format!(
        "<summary>and {} more</summary>",
        every_evidence_kind().len() - 3
    )));
    // Each kind, quoted alone, has its Markdown rendering.
    for (n, evidence) in every_evidence_kind().into_iter().enumerate() {
        report.findings.push(ReportFinding::new(Finding {
            url: format!("https://www.outfitters.test/kind/{n}"),
            message: format!("evidence kind {n}"),
            evidence: vec![evidence],
            ..report.findings[0].finding.clone()
        }));
    }
    let md = render(&renderers, "md", &report, &fail_on_error());
    assert!(!md.contains("does not know"));
    for n in 0..every_evidence_kind().len() {
        let row = md
            .lines()
            .find(|line| line.contains(&format!("evidence kind {n}<br>")))
            .unwrap_or_else(|| panic!("the row of kind {n}"));
        assert_eq!(row.matches("<br>• ").count(), 1, "{row}");
    }
    let csv = render(&renderers, "csv-findings", &report, &fail_on_error());
    assert!(
        csv.contains(
            "https://www.outfitters.test/p →301 /r (final: https://www.outfitters.test/r)"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Escaping: a crawled hostile site, plus raw markup where a URL parser would not let it through

const SCRIPT_URL: &str = "https://hostile.test/\"><script>alert('url')</script>";
const IMG_NOTE: &str = "\"><img src=x onerror=alert('note')>";
const HOSTILE_MESSAGE: &str =
    "=HYPERLINK(\"http://evil.test\") | *star* `tick` <script>alert('msg')</script>";

/// The hostile fixture site's report, with markup added where the model allows any text.
pub(crate) fn hostile_report() -> Report {
    let mut report = support::report_of("hostile");
    assert!(
        report.findings.len() >= 4,
        "the hostile site fires the rules: {:#?}",
        report.findings
    );
    SCRIPT_URL.clone_into(&mut report.target.start_url);
    report
        .target
        .profiles
        .push("<b>bot</b><script>alert('profile')</script>".to_owned());
    SCRIPT_URL.clone_into(&mut report.findings[0].finding.url);
    let finding = Finding {
        rule: "robots/<script>alert('rule')</script>".to_owned(),
        severity: Severity::Warning,
        url: "javascript:alert('js')".to_owned(),
        profile: Some("<b>bot</b>".to_owned()),
        message: HOSTILE_MESSAGE.to_owned(),
        evidence: vec![
            Evidence::Note {
                text: IMG_NOTE.to_owned(),
            },
            Evidence::HttpHeader {
                url: SCRIPT_URL.to_owned(),
                name: "X-Robots-Tag".to_owned(),
                value: "noindex\n| injected | row |\n<script>alert('header')</script>".to_owned(),
            },
            Evidence::RobotsLine {
                robots_url: "http://hostile.test/robots.txt".to_owned(),
                line: 3,
                text: "Disallow: /x\"><img src=x onerror=alert(1)>".to_owned(),
            },
        ],
    };
    report.findings.push(ReportFinding::new(finding));
    if let Some(robots) = report.robots.first_mut() {
        robots
            .lines
            .push("</td></tr></table><script>alert('line')</script>".to_owned());
    }
    if let Some(sitemap) = report.sitemaps.first_mut() {
        sitemap
            .sources
            .push("<script>alert('source')</script>".to_owned());
    }
    report
}

#[test]
fn html_shows_hostile_site_content_as_text() {
    let report = hostile_report();
    let html = render(&Renderers::builtin(), "html", &report, &fail_on_error());
    std::fs::write(support::scratch_dir("hostile").join("report.html"), &html).unwrap();
    // Our own filter script is the only script element; no markup from the site survives.
    assert_eq!(html.matches("<script").count(), 1, "{html}");
    for markup in ["<img", "<b>", "</table><script", "<meta name=\"robots\""] {
        assert!(!html.contains(markup), "`{markup}` came through");
    }
    for escaped in [
        "&lt;script&gt;alert(&#39;url&#39;)&lt;/script&gt;",
        "&quot;&gt;&lt;img src=x onerror=alert(&#39;note&#39;)&gt;",
        "&lt;b&gt;bot&lt;/b&gt;",
        "&lt;meta name=&quot;robots&quot; content=&quot;noindex, &lt;script&gt;alert(&#39;meta&#39;)&lt;/script&gt;",
        "&lt;script&gt;alert(&#39;line&#39;)&lt;/script&gt;",
        "&lt;script&gt;alert(&#39;source&#39;)&lt;/script&gt;",
        "onerror=alert(&#39;header&#39;)",
        "href=&#39;/in-body?&quot;&gt;&lt;img src=x onerror=alert(`canonical`)&gt;&#39;&gt;",
    ] {
        assert!(html.contains(escaped), "missing escaped `{escaped}`");
    }
    // A URL that is not http(s) is shown, never linked.
    assert!(!html.contains("href=\"javascript:"));
    assert!(html.contains("<span class=\"url\">javascript:alert(&#39;js&#39;)</span>"));
}

#[test]
fn markdown_shows_hostile_site_content_as_text() {
    let report = hostile_report();
    let md = render(&Renderers::builtin(), "md", &report, &fail_on_error());
    // Rendered as GitHub would (GFM tables; raw HTML passes through pulldown-cmark untouched, so
    // any markup we failed to escape would show up here as an element).
    let mut options = pulldown_cmark::Options::empty();
    options.insert(pulldown_cmark::Options::ENABLE_TABLES);
    options.insert(pulldown_cmark::Options::ENABLE_STRIKETHROUGH);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new_ext(&md, options));
    for markup in ["<script", "<img", "<b>", "<meta", "<em>star", "<del>"] {
        assert!(!html.contains(markup), "`{markup}` came through:\n{md}");
    }
    // Every row of every table has as many cells as its header: no `|` or line break from the
    // site split a cell or started a row.
    for table in html.split("<table>").skip(1) {
        let table = table.split("</table>").next().unwrap_or_default();
        let header_cells = table
            .split("</thead>")
            .next()
            .unwrap_or_default()
            .matches("</th>")
            .count();
        for row in table.split("<tr>").skip(2) {
            assert_eq!(row.matches("</td>").count(), header_cells, "row: {row}");
        }
    }
    assert!(md.contains(r"\*star\* `tick` &lt;script&gt;"), "{md}");
}

#[test]
fn junit_and_sarif_stay_well_formed_with_hostile_content() {
    let report = hostile_report();
    let renderers = Renderers::builtin();
    let xml = render(&renderers, "junit", &report, &fail_on_error());
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e)) => {
                elements += 1;
                assert!(
                    [
                        "testsuites",
                        "testsuite",
                        "testcase",
                        "failure",
                        "system-out"
                    ]
                    .contains(&e.name().as_ref()),
                    "unexpected element {:?}",
                    e.name()
                );
            }
            Ok(_) => {}
            Err(e) => panic!("JUnit is not well-formed: {e}\n{xml}"),
        }
    }
    assert!(elements > 4);
    let sarif: serde_json::Value =
        serde_json::from_str(&render(&renderers, "sarif", &report, &fail_on_error())).unwrap();
    let messages: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["message"]["text"].as_str())
        .collect();
    assert!(messages.contains(&HOSTILE_MESSAGE));
}

// ---------------------------------------------------------------------------------------------
// SARIF and JUnit semantics

/// The canned audit plus a robots.txt file finding (its subject is the robots.txt URL, its
/// evidence a robots.txt line).
fn outfitters_with_a_robots_txt_finding() -> Report {
    let mut report = support::report_of("outfitters");
    let finding = Finding {
        rule: "robots/typo-field".to_owned(),
        severity: Severity::Warning,
        url: "https://www.outfitters.test/robots.txt".to_owned(),
        profile: None,
        message: "`Dissalow` is read as `Disallow` only through Google's typo tolerance".to_owned(),
        evidence: vec![Evidence::RobotsLine {
            robots_url: "https://www.outfitters.test/robots.txt".to_owned(),
            line: 7,
            text: "Dissalow: /tmp/".to_owned(),
        }],
    };
    report.findings.push(ReportFinding::new(finding));
    report
}

#[test]
fn sarif_describes_the_rules_and_locates_every_finding() {
    let report = outfitters_with_a_robots_txt_finding();
    let sarif: serde_json::Value = serde_json::from_str(&render(
        &Renderers::builtin(),
        "sarif",
        &report,
        &fail_on_error(),
    ))
    .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let rule_ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        rule_ids,
        [
            "canonical/outside-head",
            "robots/blocked-linked",
            "robots/blocked-noindex",
            "sitemap/url-blocked",
            "robots/typo-field"
        ]
    );
    let noindex = &rules[2];
    assert_eq!(
        noindex["shortDescription"]["text"],
        "Disallowed by robots.txt, so Google can never read the page's noindex"
    );
    assert!(
        noindex["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("## How to fix")
    );
    let results = run["results"].as_array().unwrap();
    // Findings that differ only by profile are one result: every finding is in exactly one.
    assert!(results.len() < report.findings.len());
    let mut folded: Vec<&str> = results
        .iter()
        .flat_map(|r| r["properties"]["fingerprints"].as_array().unwrap())
        .map(|f| f.as_str().unwrap())
        .collect();
    folded.sort_unstable();
    let mut every: Vec<&str> = report
        .findings
        .iter()
        .map(|f| f.fingerprint.as_str())
        .collect();
    every.sort_unstable();
    assert_eq!(folded, every);
    for result in results {
        let index = usize::try_from(result["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string());
    }
}

#[test]
fn sarif_locates_file_findings_at_their_line_and_page_findings_at_the_page() {
    let report = outfitters_with_a_robots_txt_finding();
    // robots.txt is mapped to its repository file; the rest falls back to `crawlgate/site/`.
    let options = RenderOptions {
        sarif_map: SarifMap::new()
            .with_entry("https://www.outfitters.test/robots.txt=public/robots.txt")
            .unwrap(),
        ..fail_on_error()
    };
    let sarif: serde_json::Value =
        serde_json::from_str(&render(&Renderers::builtin(), "sarif", &report, &options)).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    // The robots.txt finding is located at its file and line.
    let typo = results
        .iter()
        .find(|r| r["ruleId"] == "robots/typo-field")
        .unwrap();
    let location = &typo["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "public/robots.txt");
    assert_eq!(
        typo["properties"]["url"],
        "https://www.outfitters.test/robots.txt"
    );
    assert_eq!(location["region"]["startLine"], 7);
    // A page finding is located at the page; the robots.txt rule and sitemap entry behind it are
    // related locations with their lines.
    let blocked = results
        .iter()
        .find(|r| {
            r["ruleId"] == "sitemap/url-blocked"
                && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    == "crawlgate/site/www.outfitters.test/shop/sale/index"
        })
        .unwrap();
    assert!(blocked["locations"][0]["physicalLocation"]["region"].is_null());
    let related: Vec<(String, u64)> = blocked["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                r["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        related,
        [
            ("public/robots.txt".to_owned(), 10),
            (
                "crawlgate/site/www.outfitters.test/sitemap-products.xml".to_owned(),
                6
            )
        ]
    );
}

#[test]
fn junit_fails_the_findings_at_or_above_fail_on() {
    let report = support::report_of("outfitters");
    let renderers = Renderers::builtin();
    let junit = |fail_on| {
        let fail_on = FailOn(fail_on);
        render(
            &renderers,
            "junit",
            &report,
            &RenderOptions {
                fail_on,
                ..RenderOptions::default()
            },
        )
    };
    let header = |xml: &str| xml.lines().nth(1).unwrap_or_default().to_owned();
    // 15 rule × URL test cases: 11 error findings on 8 of them, 9 warnings on the other 7 and 2
    // shared. Every canned rule fired, so no passing case is added for a clean rule.
    assert_eq!(
        header(&junit(None)),
        "<testsuites name=\"crawlgate audit of https://www.outfitters.test/\" tests=\"15\" failures=\"0\" errors=\"0\" time=\"0.000\">"
    );
    assert!(header(&junit(Some(Severity::Error))).contains("tests=\"15\" failures=\"8\""));
    assert!(header(&junit(Some(Severity::Warning))).contains("tests=\"15\" failures=\"15\""));
    assert!(header(&junit(Some(Severity::Critical))).contains("failures=\"0\""));
    let xml = junit(Some(Severity::Error));
    for family in ["canonical", "robots", "sitemap"] {
        assert!(xml.contains(&format!("<testsuite name=\"{family}\"")));
    }
    assert!(xml.contains("<testcase name=\"https://www.outfitters.test/checkout/cart\" classname=\"robots/blocked-noindex\" time=\"0.000\">\n            <failure message=\"robots.txt disallows this URL for Googlebot, so the noindex it carries is never read; the URL can still be indexed from links, without content\" type=\"error\">error [googlebot]"));
    assert!(xml.contains("<testcase name=\"https://www.outfitters.test/checkout/cart\" classname=\"robots/blocked-linked\" time=\"0.000\">\n            <system-out>warning [googlebot]"));
}

/// The outfitters audit as if the site were clean: the same rules ran, none fired.
fn clean_report() -> Report {
    let mut report = support::report_of("outfitters");
    report.findings.clear();
    report.rules.clear();
    report
}

#[test]
fn junit_of_a_clean_site_has_a_passing_case_per_rule_checked() {
    let xml = render(
        &Renderers::builtin(),
        "junit",
        &clean_report(),
        &fail_on_error(),
    );
    assert!(
        xml.contains("tests=\"4\" failures=\"0\" errors=\"0\""),
        "{xml}"
    );
    for rule in support::CANNED_RULES {
        assert!(
            xml.contains(&format!("<testcase name=\"https://www.outfitters.test/\" classname=\"{rule}\" time=\"0.000\">\n            <system-out>no findings</system-out>")),
            "{rule}: {xml}"
        );
    }
    // A report without `rules_checked` (written before it existed) still has one passing case.
    let mut old = clean_report();
    old.rules_checked.clear();
    let xml = render(&Renderers::builtin(), "junit", &old, &fail_on_error());
    assert!(xml.contains("tests=\"1\" failures=\"0\""), "{xml}");
    assert!(xml.contains("classname=\"crawlgate/audit\""), "{xml}");
}

#[test]
fn junit_reports_findings_known_to_the_baseline_as_skipped_not_failed() {
    let mut report = support::report_of("outfitters");
    for finding in &mut report.findings {
        finding.baseline = Some(BaselineState::Known);
    }
    let renderers = Renderers::builtin();
    let xml = render(&renderers, "junit", &report, &fail_on_error());
    // The 8 test cases that would fail are skipped; the warnings below --fail-on stay passing.
    assert!(
        xml.contains("tests=\"15\" failures=\"0\" errors=\"0\""),
        "{xml}"
    );
    assert_eq!(
        xml.matches("<skipped message=\"known in the baseline: ")
            .count(),
        8
    );
    assert!(xml.contains("(known in the baseline)\n  - "), "{xml}");
    // One new error finding on a URL: that case fails again.
    let new = report
        .findings
        .iter_mut()
        .find(|f| f.finding.rule == "robots/blocked-noindex")
        .unwrap();
    new.baseline = Some(BaselineState::New);
    let xml = render(&renderers, "junit", &report, &fail_on_error());
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert_eq!(xml.matches("<skipped ").count(), 7);
}

#[test]
fn junit_carries_hostname_and_time_and_a_timestamp_only_when_asked() {
    let mut report = support::report_of("outfitters");
    let xml = render(&Renderers::builtin(), "junit", &report, &fail_on_error());
    assert!(xml.contains(
        "<testsuite name=\"canonical\" tests=\"2\" skipped=\"0\" errors=\"0\" failures=\"2\" time=\"0.000\" hostname=\"www.outfitters.test\">"
    ));
    assert!(!xml.contains("timestamp="));
    report.generated_at = Some("2026-03-01T12:34:56.789Z".to_owned());
    let xml = render(&Renderers::builtin(), "junit", &report, &fail_on_error());
    assert!(xml.contains(
        "time=\"0.000\" timestamp=\"2026-03-01T12:34:56.789+00:00\" hostname=\"www.outfitters.test\">"
    ));
}

/// `xmllint` on PATH, if any.
fn xmllint() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("xmllint"))
        .find(|candidate| candidate.is_file())
}

#[test]
#[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
fn junit_validates_against_the_common_xsd() {
    let Some(xmllint) = xmllint() else {
        println!(
            "note: xmllint is not installed (Debian: libxml2-utils); the JUnit schema check is skipped"
        );
        return;
    };
    let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/junit/junit-10.xsd");
    let mut known = support::report_of("outfitters");
    for finding in &mut known.findings {
        finding.baseline = Some(BaselineState::Known);
    }
    let mut timestamped = support::report_of("outfitters");
    timestamped.generated_at = Some("2026-03-01T12:34:56Z".to_owned());
    let scratch = support::scratch_dir("junit-xsd");
    let renderers = Renderers::builtin();
    for (name, report) in [
        ("outfitters", support::report_of("outfitters")),
        ("clean", clean_report()),
        ("known", known),
        ("timestamped", timestamped),
        ("hostile", hostile_report()),
    ] {
        let file = scratch.join(format!("{name}.junit.xml"));
        std::fs::write(
            &file,
            render(&renderers, "junit", &report, &fail_on_error()),
        )
        .unwrap();
        let output = std::process::Command::new(&xmllint)
            .arg("--noout")
            .arg("--schema")
            .arg(&xsd)
            .arg(&file)
            .output()
            .expect("run xmllint");
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Report plugins

/// Parse CSV (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (_, c) => field.push(c),
        }
    }
    assert!(
        field.is_empty() && row.is_empty(),
        "CSV ends without a newline"
    );
    rows
}

#[test]
fn the_csv_findings_plugin_writes_one_row_per_finding() {
    let report = hostile_report();
    let csv = render(
        &renderers_with_csv(),
        "csv-findings",
        &report,
        &fail_on_error(),
    );
    let rows = parse_csv(&csv);
    assert_eq!(
        rows[0],
        [
            "severity",
            "rule",
            "url",
            "profile",
            "message",
            "evidence",
            "fingerprint"
        ]
    );
    assert_eq!(rows.len(), report.findings.len() + 1);
    for (row, finding) in rows[1..].iter().zip(&report.findings) {
        assert_eq!(row.len(), 7, "{row:?}");
        assert_eq!(row[0], finding.finding.severity.as_str());
        assert_eq!(row[2], finding.finding.url);
        assert_eq!(row[6], finding.fingerprint);
    }
    // The hostile message starts with `=`: a spreadsheet gets it as text, not a formula.
    let last = rows.last().unwrap();
    assert_eq!(last[4], format!("'{HOSTILE_MESSAGE}"));
    assert!(last[5].starts_with(IMG_NOTE));
}

/// A plugin folder written for one test.
fn plugin(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = support::scratch_dir(&format!("plugin-{name}"));
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const TXT_MANIFEST: &str =
    "name = \"txt\"\nextension = \"txt\"\nmedia_type = \"text/plain\"\ndescription = \"test\"\n";

fn load(dir: &Path) -> Result<Renderers, RenderError> {
    let mut renderers = Renderers::builtin();
    renderers.load_plugin_dir(dir)?;
    Ok(renderers)
}

#[test]
fn template_errors_name_the_template_line_and_variable() {
    let report = support::report_of("outfitters");
    // An unknown field, in a partial, at line 3.
    let dir = plugin(
        "field",
        &[
            ("report.toml", TXT_MANIFEST),
            (
                "report.txt.tera",
                "Audit\n{% include \"parts/list.tera\" %}\n",
            ),
            (
                "parts/list.tera",
                "{% for f in report.findings %}\n{{ f.url }}\n{{ f.severity_level }}\n{% endfor %}\n",
            ),
        ],
    );
    let renderers = load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    let error = renderers
        .get("txt")
        .unwrap()
        .render(&report, &fail_on_error(), &mut out)
        .unwrap_err();
    match &error {
        RenderError::Template {
            plugin,
            template,
            line,
            message,
            ..
        } => {
            assert_eq!(plugin, "txt");
            assert_eq!(template, "parts/list.tera");
            assert_eq!(*line, Some(3));
            assert!(message.contains("`severity_level`"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        error.to_string().starts_with(
            "report plugin `txt`: template `parts/list.tera` line 3, column 6: \
             Field `severity_level` is not defined. Available fields: "
        ),
        "{error}"
    );

    // A misspelt variable.
    let dir = plugin(
        "variable",
        &[
            ("report.toml", TXT_MANIFEST),
            ("report.txt.tera", "{{ reprot.target.start_url }}\n"),
        ],
    );
    let renderers = load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let error = renderers
        .get("txt")
        .unwrap()
        .render(&report, &fail_on_error(), &mut Vec::new())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("template `report.txt.tera` line 1")
            && error.contains("Variable `reprot` is not defined")
            && error.contains("options, plugin, report"),
        "{error}"
    );

    // A syntax error shows when the plugin loads, not when a report is rendered.
    let dir = plugin(
        "syntax",
        &[
            ("report.toml", TXT_MANIFEST),
            (
                "report.txt.tera",
                "line one\n{% for f in report.findings %}\nno end\n",
            ),
        ],
    );
    let error = load(&dir).unwrap_err();
    assert!(
        matches!(&error, RenderError::Template { template, .. } if template == "report.txt.tera"),
        "{error:?}"
    );
}

#[test]
fn plugin_folders_load_with_their_assets() {
    // A folder of plugins: every sub-folder with a report.toml (html and md replace the built-in
    // ones, from the same files).
    let renderers = load(&support::reports_dir()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        renderers.names(),
        [
            "csv-findings",
            "html",
            "json",
            "junit",
            "md",
            "md-summary",
            "sarif"
        ]
    );
    let report = support::report_of("outfitters");
    assert_eq!(
        render(&renderers, "html", &report, &fail_on_error()),
        render(&Renderers::builtin(), "html", &report, &fail_on_error())
    );

    // Assets are inlined raw, never parsed as templates; the escaping follows the extension.
    let dir = plugin(
        "assets",
        &[
            (
                "report.toml",
                "name = \"brand\"\nextension = \"html\"\nmedia_type = \"text/html\"\ndescription = \"\"\n",
            ),
            (
                "report.html.tera",
                "<style>{{ asset(path=\"brand/style.css\") }}</style><h1>{{ report.target.start_url }}</h1>",
            ),
            (
                "brand/style.css",
                "h1 { color: red } /* {{ not a template }} */",
            ),
            (".hidden.tera", "{{ ignored"),
        ],
    );
    let renderers = load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut hostile = report.clone();
    hostile.target.start_url = "<x>".to_owned();
    assert_eq!(
        render(&renderers, "brand", &hostile, &fail_on_error()),
        "<style>h1 { color: red } /* {{ not a template }} */</style><h1>&lt;x&gt;</h1>"
    );

    // Two formats that would write the same file are refused before anything is written.
    let dir = plugin(
        "clash",
        &[
            (
                "report.toml",
                "name = \"brand\"\nextension = \"html\"\nmedia_type = \"text/html\"\ndescription = \"\"\n",
            ),
            ("report.html.tera", "x"),
        ],
    );
    let renderers = load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let out = support::scratch_dir("clash-out");
    let error = write_reports(
        &report,
        &renderers,
        &["html".to_owned(), "brand".to_owned()],
        &fail_on_error(),
        &out,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "formats `html` and `brand` would both write report.html"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}

#[test]
fn bad_plugin_folders_are_refused_with_a_reason() {
    // The formats written in code cannot be replaced.
    let dir = plugin(
        "reserved",
        &[
            (
                "report.toml",
                "name = \"json\"\nextension = \"txt\"\nmedia_type = \"text/plain\"\ndescription = \"\"\n",
            ),
            ("report.txt.tera", ""),
        ],
    );
    assert!(
        load(&dir)
            .unwrap_err()
            .to_string()
            .contains("the name `json` belongs to a built-in format")
    );

    // A plugin folder is bounded: at most 256 files.
    let many: Vec<(String, String)> = (0..257)
        .map(|n| (format!("parts/p{n:03}.txt"), String::new()))
        .chain([
            ("report.toml".to_owned(), TXT_MANIFEST.to_owned()),
            ("report.txt.tera".to_owned(), String::new()),
        ])
        .collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = plugin("many", &many);
    assert!(
        load(&dir)
            .unwrap_err()
            .to_string()
            .ends_with("more than 256 files"),
    );

    // The entry template must exist; a folder without any manifest says so.
    let dir = plugin("no-template", &[("report.toml", TXT_MANIFEST)]);
    assert!(
        load(&dir)
            .unwrap_err()
            .to_string()
            .contains("template `report.txt.tera`: the template is missing")
    );
    let dir = plugin("empty", &[("notes.txt", "")]);
    assert!(
        load(&dir)
            .unwrap_err()
            .to_string()
            .ends_with("no report.toml here or in its sub-folders")
    );
}

// ---------------------------------------------------------------------------------------------
// Headless Chromium

#[test]
#[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
fn the_html_report_renders_in_headless_chromium() {
    let Some(chromium) = chromium::find() else {
        println!("note: chromium is not installed; the headless rendering check is skipped");
        return;
    };
    let renderers = Renderers::builtin();
    let dir = support::scratch_dir("chromium-reports");
    for (name, report) in [
        ("outfitters", support::report_with_every_rule("outfitters")),
        ("hostile", hostile_report()),
        ("clean", clean_report()),
    ] {
        let file = dir.join(format!("{name}.html"));
        std::fs::write(&file, render(&renderers, "html", &report, &fail_on_error())).unwrap();
        let (dom, console) = chromium::load(&chromium, &file);
        // The filter script ran to its end, with no console message: no script error and no
        // request blocked by the Content-Security-Policy (there is none to block).
        assert!(
            dom.contains("data-report-ready=\"true\""),
            "{name}: the script did not finish\n{dom}"
        );
        assert!(console.is_empty(), "{name}: console output: {console:#?}");
        assert!(dom.contains("<h2>Summary</h2>"), "{name}");
        assert_eq!(
            dom.contains("id=\"url-filter-status\""),
            name != "clean",
            "{name}: the filter box is there when there are findings"
        );
        // Whatever the site sent, the only elements are the report's own.
        assert!(!dom.contains("<img") && !dom.contains("<b>"), "{name}");
        assert_eq!(dom.matches("<script").count(), 1, "{name}");
        // Nothing reaches past the screen, on a desktop or a phone (wide tables scroll in
        // their own box).
        chromium::assert_fits(&chromium, &file);
    }
}

#[test]
fn a_report_built_from_the_site_given_equals_one_built_from_the_site_lent() {
    for name in ["outfitters", "hostile", "unreachable"] {
        let (lent, owned) = support::reports_lent_and_owned(name);
        assert!(!owned.pages.is_empty(), "{name}: pages recorded");
        assert_eq!(
            serde_json::to_value(&lent).unwrap(),
            serde_json::to_value(&owned).unwrap(),
            "{name}"
        );
    }
}
