//! The sitemap rule family over a large crawled site (`cargo bench -p crawlgate-benches --bench
//! sitemap_rules`).
//!
//! The site is generated deterministically and crawled offline once (not timed): 20,000 pages in
//! a binary tree of links from the home page, listed in a sitemap index of four sitemaps of
//! 5,000 URLs each, with the problems the rules look for spread through it — every 10th page
//! noindex, every 7th canonicalised elsewhere, every 13th redirecting, every 50th listed page
//! missing (404), every 9th listed twice across sitemaps, 2,000 listed pages no page links to,
//! and `lastmod`, `changefreq` and image entries everywhere. Two profiles (googlebot, bingbot)
//! are audited, so the profile-dependent rules do their work twice. The timed part is one pass
//! of every `sitemap/` rule over the `Site`, as an audit runs them.

use crawlgate_core::crawl::{CannedResponse, CrawlConfig, OfflineSite};
use crawlgate_core::rule::Findings;
use crawlgate_core::signals::Profile;
use crawlgate_core::{Finding, Site};
use crawlgate_rules::RULES;
use divan::Bencher;
use divan::counter::ItemsCount;
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::OnceLock;

const PAGES: usize = 20_000;
const SITEMAPS: usize = 4;
const ORPHANS: usize = 2_000;
const ROOT: &str = "https://www.example.com";

#[expect(
    clippy::print_stderr,
    reason = "a bench binary, reporting the size of its generated input"
)]
fn main() {
    let site = site();
    eprintln!(
        "site: {} resources, {} sitemaps; sitemap rules report {} findings",
        site.resources().len(),
        site.sitemaps.len(),
        run_sitemap_rules(site).len()
    );
    divan::main();
}

/// One pass of every sitemap rule, as an audit runs them.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn all_sitemap_rules(bencher: Bencher) {
    let site = site();
    bencher
        .counter(ItemsCount::new(site.resources().len()))
        .bench(|| black_box(run_sitemap_rules(site)));
}

/// Each sitemap rule alone, to find the expensive ones.
#[divan::bench(args = sitemap_rule_ids(), sample_count = 10, sample_size = 1)]
fn one_rule(bencher: Bencher, id: &str) {
    let site = site();
    let rule = crawlgate_rules::find(id).expect("a built-in rule");
    bencher.bench(|| {
        let mut findings = Vec::new();
        rule.check(site, &mut Findings::new(rule.meta(), None, &mut findings));
        black_box(findings)
    });
}

fn sitemap_rule_ids() -> Vec<&'static str> {
    RULES
        .iter()
        .map(|rule| rule.meta().id)
        .filter(|id| id.starts_with("sitemap/"))
        .collect()
}

fn run_sitemap_rules(site: &Site) -> Vec<Finding> {
    let mut findings = Vec::new();
    for rule in RULES
        .iter()
        .filter(|rule| rule.meta().id.starts_with("sitemap/"))
    {
        rule.check(site, &mut Findings::new(rule.meta(), None, &mut findings));
    }
    findings
}

fn site() -> &'static Site {
    static SITE: OnceLock<Site> = OnceLock::new();
    SITE.get_or_init(|| {
        let start = format!("{ROOT}/").parse().expect("a valid URL");
        let mut config = CrawlConfig::new(start, "2026-06-01T12:00:00Z".parse().expect("a time"));
        config.profiles = vec![
            Profile::googlebot(),
            Profile::builtin("bingbot").expect("known"),
        ];
        config.bounds.max_pages = 50_000;
        config.fetch_assets = false;
        generate().crawl(config).expect("the generated site crawls")
    })
}

fn page_url(i: usize) -> String {
    format!("{ROOT}/p/{i}")
}

fn html(body: &str, headers: &[&str]) -> CannedResponse {
    let mut response = CannedResponse::ok("text/html; charset=utf-8", body);
    response
        .headers
        .extend(headers.iter().map(|h| (*h).to_owned()));
    response
}

fn generate() -> OfflineSite {
    let mut site = OfflineSite::default().with(
        &format!("{ROOT}/robots.txt"),
        CannedResponse::ok(
            "text/plain",
            &format!("User-agent: *\nDisallow: /cart/\nSitemap: {ROOT}/sitemap_index.xml\n"),
        ),
    );
    // Pages 0..PAGES - ORPHANS are linked in a binary tree from the home page; the rest are
    // listed in the sitemaps only.
    let linked = PAGES - ORPHANS;
    let mut home = String::from("<!doctype html><title>Home</title>");
    let _ = write!(home, "<a href='/p/0'>start</a>");
    site = site.with(&format!("{ROOT}/"), html(&home, &[]));
    for i in 0..PAGES {
        let url = page_url(i);
        if i % 50 == 49 {
            continue; // listed but missing: 404
        }
        if i % 13 == 12 {
            site = site.with(
                &url,
                CannedResponse {
                    status: 301,
                    location: Some(format!("/p/{i}/")),
                    ..CannedResponse::default()
                },
            );
            site = site.with(&format!("{url}/"), html("<title>moved</title>", &[]));
            continue;
        }
        let mut body = format!("<!doctype html><head><title>Page {i}</title>");
        if i % 10 == 9 {
            body.push_str("<meta name='robots' content='noindex'>");
        }
        if i % 7 == 6 {
            let _ = write!(body, "<link rel='canonical' href='/p/{}'>", i - 1);
        }
        body.push_str("</head><body>");
        for child in [2 * i + 1, 2 * i + 2] {
            if i < linked && child < linked {
                let _ = write!(body, "<a href='/p/{child}'>child {child}</a>");
            }
        }
        site = site.with(&url, html(&body, &[]));
    }
    // The sitemap index and its sitemaps.
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let per_sitemap = PAGES / SITEMAPS;
    for s in 0..SITEMAPS {
        let _ = writeln!(
            index,
            "<sitemap><loc>{ROOT}/sitemap-{s}.xml</loc></sitemap>"
        );
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
             xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n",
        );
        for i in s * per_sitemap..(s + 1) * per_sitemap {
            let _ = writeln!(
                xml,
                "<url><loc>{}</loc><lastmod>2026-0{}-1{}</lastmod><changefreq>weekly</changefreq>\
                 <image:image><image:loc>{ROOT}/img/{i}.jpg</image:loc></image:image></url>",
                page_url(i),
                1 + i % 5,
                i % 10
            );
        }
        // Every 9th page of the previous sitemap is listed here again.
        if s > 0 {
            for i in ((s - 1) * per_sitemap..s * per_sitemap).filter(|i| i % 9 == 8) {
                let _ = writeln!(xml, "<url><loc>{}</loc></url>", page_url(i));
            }
        }
        xml.push_str("</urlset>\n");
        site = site.with(
            &format!("{ROOT}/sitemap-{s}.xml"),
            CannedResponse::ok("application/xml", &xml),
        );
    }
    index.push_str("</sitemapindex>\n");
    site.with(
        &format!("{ROOT}/sitemap_index.xml"),
        CannedResponse::ok("application/xml", &index),
    )
}
