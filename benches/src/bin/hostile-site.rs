//! Hostile sites for `benches/hostile-rss.sh`: `hostile-site CASE` serves one with crawlgate's
//! in-process server on 127.0.0.1, prints its start URL on its first line, then serves until
//! killed. Pages are made on request; nothing grows in the server. The cases:
//!
//! - `sitemap-fanout`: robots.txt names an index of 100 indexes, each of 100 urlsets of 50,000
//!   URLs (10,000 sitemaps, 500 million URLs, each under its sitemap's folder: no finding).
//! - `sitemap-findings`: the same, each URL outside its sitemap's folder (a finding per URL).
//! - `url-multiply`: every page links to 20 new pages whose URLs are about 2 KB long.
//! - `robots-blank`: a robots.txt of 100 MB of blank lines, then a rule.
//! - `robots-gzip-bomb`: the same robots.txt, gzip-encoded (about 100 KB on the wire).
//! - `robots-origins`: a robots.txt of 20,000 `Sitemap:` lines, each on another origin
//!   (127.0.0.1 ports nothing listens on), and 20,000 rules.
//! - `deep-nesting`: a home page of 2 million nested `<div>`s (28 MB).
//! - `attributes`: a home page whose `<meta>` carries 300,000 attributes.
//! - `template-flood`: a home page whose head opens a million nested `<template>`s (10 MB),
//!   each of which makes the tree builder a document fragment.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use crawlgate_serve::{Route, ServedSite, SiteServer};
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::{Arc, OnceLock};

const CASES: &[&str] = &[
    "sitemap-fanout",
    "sitemap-findings",
    "url-multiply",
    "robots-blank",
    "robots-gzip-bomb",
    "robots-origins",
    "deep-nesting",
    "attributes",
    "template-flood",
];

const HOME: &str = "<!doctype html><title>Home</title><p>Home</p>";

fn usage() -> ! {
    eprintln!("usage: hostile-site CASE   (one of: {})", CASES.join(", "));
    std::process::exit(2);
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_else(|| usage());
    let origin: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let site = match case.as_str() {
        "sitemap-fanout" => sitemap_fanout(&origin, "/sm/"),
        "sitemap-findings" => sitemap_fanout(&origin, "/catalogue/"),
        "url-multiply" => url_multiply(),
        "robots-blank" => ServedSite::new()
            .file("robots.txt", blank_robots())
            .file("index.html", HOME),
        "robots-gzip-bomb" => ServedSite::new()
            .file("robots.txt", blank_robots())
            .route(Route::new("/robots.txt").gzip())
            .file("index.html", HOME),
        "robots-origins" => ServedSite::new()
            .file("robots.txt", many_origins())
            .file("index.html", HOME),
        "deep-nesting" => {
            let depth = 2_000_000;
            let page = format!(
                "<!doctype html><title>Deep</title>{}<p>bottom</p>{}",
                "<div>".repeat(depth),
                "</div>".repeat(depth)
            );
            ServedSite::new().file("index.html", page)
        }
        "attributes" => {
            let mut meta = String::from("<!doctype html><title>Attributes</title><meta");
            for n in 0..300_000 {
                let _ = write!(meta, " a{n}=\"{n}\"");
            }
            meta.push_str(" name=\"robots\" content=\"noindex\"><p>Body</p>");
            ServedSite::new().file("index.html", meta)
        }
        "template-flood" => ServedSite::new().file(
            "index.html",
            format!("<!doctype html><head>{}", "<template>".repeat(1_000_000)),
        ),
        _ => usage(),
    };
    let server = SiteServer::start_in_background(site).unwrap_or_else(|error| {
        eprintln!("{error}");
        std::process::exit(1);
    });
    let start = server.url("/");
    let _ = origin.set(start.as_str().trim_end_matches('/').to_owned());
    println!("{start}");
    let _ = std::io::stdout().flush();
    loop {
        std::thread::park();
    }
}

fn blank_robots() -> String {
    format!(
        "User-agent: *\n{}Disallow: /admin/\n",
        "\n".repeat(100_000_000)
    )
}

fn many_origins() -> String {
    let mut robots = String::from("User-agent: *\n");
    for n in 0..20_000u32 {
        let port = 40_000 + n % 20_000;
        let _ = writeln!(
            robots,
            "Disallow: /section-{n}/\nSitemap: http://127.0.0.1:{port}/sitemap-{n}.xml"
        );
    }
    robots
}

/// The URLs of urlset `/sm/{n}-{m}.xml` are under `{origin}{folder}{n}-{m}/`.
fn sitemap_fanout(origin: &Arc<OnceLock<String>>, folder: &'static str) -> ServedSite {
    let known = Arc::clone(origin);
    ServedSite::new()
        .file("index.html", HOME)
        .file("robots.txt", "User-agent: *\nAllow: /\nSitemap: {{origin}}/index.xml\n")
        .generate("/", move |target| {
            let origin = known.get().map_or("", String::as_str);
            let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            if target == "/index.xml" {
                xml.push_str("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
                for n in 0..100 {
                    let _ = writeln!(xml, "<sitemap><loc>{origin}/idx/{n}.xml</loc></sitemap>");
                }
                xml.push_str("</sitemapindex>\n");
            } else if let Some(n) = target.strip_prefix("/idx/").and_then(|t| t.strip_suffix(".xml")) {
                xml.push_str("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
                for m in 0..100 {
                    let _ = writeln!(xml, "<sitemap><loc>{origin}/sm/{n}-{m}.xml</loc></sitemap>");
                }
                xml.push_str("</sitemapindex>\n");
            } else if let Some(nm) = target.strip_prefix("/sm/").and_then(|t| t.strip_suffix(".xml")) {
                xml.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
                for k in 0..50_000 {
                    let _ = writeln!(
                        xml,
                        "<url><loc>{origin}{folder}{nm}/product-{k}/a-long-descriptive-slug-for-it</loc><lastmod>2026-11-01</lastmod></url>"
                    );
                }
                xml.push_str("</urlset>\n");
            } else {
                return None;
            }
            Some(xml.into())
        })
}

/// Page `/m/{id}?…` links to `/m/{id}.{i}?…` for i in 0..20, each URL padded to about 2 KB.
fn url_multiply() -> ServedSite {
    let pad = "x".repeat(1_950);
    ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file(
            "index.html",
            "<!doctype html><title>Home</title><a href=\"/m/0\">start</a>",
        )
        .generate("/m/", move |target| {
            let id = target.strip_prefix("/m/")?.split('?').next()?;
            let mut html = format!("<!doctype html><title>{id}</title>");
            for i in 0..20 {
                let _ = write!(html, "<a href=\"/m/{id}.{i}?pad={pad}\">{i}</a>");
            }
            Some(html.into())
        })
}
