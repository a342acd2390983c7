//! The robots.txt rules over a crawled site (`cargo bench -p crawlgate-benches --bench
//! robots_rules`): each rule of the `robots/` family, timed alone over one site built offline
//! once. The site: 3,000 pages, each linking to the next five, using one stylesheet, one script
//! and two images of its own, every tenth page `noindex`, all listed in a sitemap; its
//! robots.txt is Quora's real file (1,575 rules, `fixtures/corpus/robots/texting_robots/`) with a
//! `*` group appended that blocks the scripts and a tenth of the images; audited for Googlebot
//! and Bingbot. Most of Quora's rules match none of these URLs: the worst case for
//! `robots/rule-matches-nothing`.

use crawlgate_core::crawl::{CannedResponse, CrawlConfig, OfflineSite};
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::{Finding, Site};
use crawlgate_rules::RULES;
use divan::{Bencher, black_box};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::LazyLock;

fn main() {
    divan::main();
}

const PAGES: usize = 3_000;

static SITE: LazyLock<Site> = LazyLock::new(build_site);

fn build_site() -> Site {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/corpus/robots/texting_robots/quora.robots.txt");
    let mut robots = std::fs::read_to_string(corpus).expect("quora.robots.txt");
    robots.push_str(
        "\nUser-agent: *\nDisallow: /static/js/\nDisallow: /img/*0.jpg$\nSitemap: http://site.test/sitemap.xml\n",
    );
    let mut site = OfflineSite::default().with(
        "http://site.test/robots.txt",
        CannedResponse::ok("text/plain", &robots),
    );
    let mut sitemap = String::from(
        "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for page in 0..PAGES {
        let url = page_url(page);
        let _ = writeln!(sitemap, "<url><loc>{url}</loc></url>");
        let mut body = format!(
            "<!doctype html><html><head><title>Page {page}</title>\
             <link rel=\"stylesheet\" href=\"/static/css/site.css\">\
             <script src=\"/static/js/app.js\"></script>"
        );
        if page % 10 == 0 {
            body.push_str("<meta name=\"robots\" content=\"noindex\">");
        }
        body.push_str("</head><body>");
        for image in 0..2 {
            let _ = write!(body, "<img src=\"/img/{page}-{image}0.jpg\">");
        }
        for next in 1..=5 {
            let _ = write!(
                body,
                "<a href=\"{}\">next</a>",
                page_url((page + next) % PAGES)
            );
        }
        body.push_str("</body></html>");
        site = site.with(&url, CannedResponse::ok("text/html", &body));
    }
    sitemap.push_str("</urlset>\n");
    site = site.with(
        "http://site.test/sitemap.xml",
        CannedResponse::ok("application/xml", &sitemap),
    );
    let mut config = CrawlConfig::new(
        url::Url::parse(&page_url(0)).expect("URL"),
        "2026-06-01T12:00:00Z".parse().expect("time"),
    );
    config.profiles = vec![
        Profile::googlebot(),
        Profile::builtin("bingbot").expect("built-in"),
    ];
    site.crawl(config).expect("crawl")
}

fn page_url(page: usize) -> String {
    if page == 0 {
        "http://site.test/".to_owned()
    } else {
        format!("http://site.test/topic/{}/page-{page}", page % 37)
    }
}

fn robots_rule_ids() -> Vec<&'static str> {
    RULES
        .iter()
        .map(|rule| rule.meta().id)
        .filter(|id| id.starts_with("robots/"))
        .collect()
}

fn run(rule: &dyn Rule, site: &Site) -> Vec<Finding> {
    let mut findings = Vec::new();
    rule.check(site, &mut Findings::new(rule.meta(), None, &mut findings));
    findings
}

/// Each robots rule alone over the site.
#[divan::bench(args = robots_rule_ids(), sample_count = 10)]
fn rule(bencher: Bencher, id: &str) {
    let site = &*SITE;
    let rule = crawlgate_rules::find(id).expect("registered rule");
    bencher.bench(|| black_box(run(rule, black_box(site))));
}

/// The whole family, one rule after another.
#[divan::bench(sample_count = 10)]
fn all_robots_rules(bencher: Bencher) {
    let site = &*SITE;
    let rules: Vec<&dyn Rule> = RULES
        .iter()
        .copied()
        .filter(|rule| rule.meta().family() == "robots")
        .collect();
    bencher.bench(|| {
        for rule in &rules {
            black_box(run(*rule, black_box(site)));
        }
    });
}

/// What the first lint rule pays: `robots lint` over the site's robots.txt (later lint rules
/// read the issues `Site::robots_lint` keeps).
#[divan::bench(sample_count = 10)]
fn lint_once(bencher: Bencher) {
    let site = &*SITE;
    let file = site.robots.get("http://site.test").expect("robots.txt");
    let body = file.body().expect("a body");
    let options = site.lint_options();
    bencher.bench(|| {
        black_box(crawlgate_core::robots::lint::lint(
            &file.parsed,
            black_box(body),
            &options,
        ))
    });
}
