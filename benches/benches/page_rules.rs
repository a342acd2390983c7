//! The page directive and canonical rules over a crawled site (`cargo bench -p crawlgate-benches
//! --bench page_rules`): 2,000 pages shaped like a CMS's (robots meta tag, canonical, hreflang
//! alternates, 30 internal links), crawled offline once; each benchmark runs one rule family
//! over the whole site.

use crawlgate_core::crawl::{CannedResponse, CrawlConfig, OfflineSite};
use crawlgate_core::rule::Findings;
use crawlgate_core::{Finding, Site};
use crawlgate_rules::RULES;
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use std::fmt::Write as _;
use std::sync::LazyLock;

fn main() {
    divan::main();
}

const PAGES: usize = 2_000;

/// Page `i`: every 10th is noindex, every 7th canonicalises to its predecessor, every 50th has a
/// misspelt rule; all carry three language alternates and links to the next 30 pages.
fn page(i: usize) -> String {
    let robots = match (i % 10, i % 50) {
        (_, 0) => "no-index, follow",
        (0, _) => "noindex, follow",
        _ => "index, follow, max-image-preview:large",
    };
    let canonical = if i.is_multiple_of(7) && i > 0 {
        i - 1
    } else {
        i
    };
    let mut html = format!(
        "<!doctype html><html><head><meta charset=utf-8><title>Page {i}</title>\n\
         <meta name=\"robots\" content=\"{robots}\">\n\
         <link rel=\"canonical\" href=\"http://site.test/p/{canonical}\">\n"
    );
    for lang in ["en", "de", "fr"] {
        let _ = writeln!(
            html,
            "<link rel=\"alternate\" hreflang=\"{lang}\" href=\"http://site.test/{lang}/p/{i}\">"
        );
    }
    html.push_str("</head><body><nav>");
    for next in 1..=30 {
        let _ = write!(html, "<a href=\"/p/{}\">{next}</a> ", (i + next) % PAGES);
    }
    html.push_str("</nav><p>Text</p></body></html>");
    html
}

static SITE: LazyLock<Site> = LazyLock::new(|| {
    let mut site = OfflineSite::default();
    site = site.with(
        "http://site.test/",
        CannedResponse::ok("text/html", "<a href=\"/p/0\">start</a>"),
    );
    for i in 0..PAGES {
        site = site.with(
            &format!("http://site.test/p/{i}"),
            CannedResponse::ok("text/html", &page(i)),
        );
    }
    let mut config = CrawlConfig::new(
        url::Url::parse("http://site.test/").expect("valid URL"),
        "2026-06-01T00:00:00Z".parse().expect("valid time"),
    );
    config.probe_sitemap = false;
    let site = site.crawl(config).expect("crawlable site");
    assert!(site.stats.pages_fetched > PAGES as u64);
    site
});

fn run_family(site: &Site, family: &str) -> usize {
    let mut findings: Vec<Finding> = Vec::new();
    for rule in RULES.iter().filter(|rule| rule.meta().family() == family) {
        rule.check(site, &mut Findings::new(rule.meta(), None, &mut findings));
    }
    findings.len()
}

/// The 16 `directives/` rules over the site.
#[divan::bench(sample_count = 20)]
fn directives_rules(bencher: Bencher) {
    let site = &*SITE;
    bencher
        .counter(ItemsCount::new(PAGES))
        .bench(|| run_family(black_box(site), "directives"));
}

/// The 21 `canonical/` rules over the site.
#[divan::bench(sample_count = 20)]
fn canonical_rules(bencher: Bencher) {
    let site = &*SITE;
    bencher
        .counter(ItemsCount::new(PAGES))
        .bench(|| run_family(black_box(site), "canonical"));
}
