//! `crawlgate sitemap generate` and `audit --write-sitemaps`: the sitemaps of an audit's
//! indexable canonical pages, checked against the audit's report and by `sitemap check`.

use crate::util::{crawlgate, report_json, scratch, text};
use crawlgate_serve::{ServedSite, SiteServer};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// The URLs the generator's rule picks from report.json for `profile`, computed here from the
/// page records: fetched, 200, HTML, indexable, on the start URL's origin.
fn expected_urls(report: &serde_json::Value, profile: &str) -> BTreeSet<String> {
    let start = url::Url::parse(report["target"]["start_url"].as_str().unwrap()).unwrap();
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|page| {
            page["kind"] == "page"
                && page["state"] == "fetched"
                && page["status"] == 200
                && page["content_type"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("text/html"))
                && page["profiles"][profile]["indexable"] == true
                && url::Url::parse(page["url"].as_str().unwrap())
                    .is_ok_and(|url| url.origin() == start.origin())
        })
        .map(|page| page["url"].as_str().unwrap().to_owned())
        .collect()
}

/// The `<loc>`s of a sitemap file, unescaped.
fn locs(path: &Path) -> Vec<String> {
    let xml = std::fs::read_to_string(path).unwrap();
    xml.split("<loc>")
        .skip(1)
        .map(|rest| rest.split("</loc>").next().unwrap().replace("&amp;", "&"))
        .collect()
}

/// `sitemap check FILE --url URL` exits 0 and prints no error.
fn check_passes(path: &Path, url: &str) {
    let output = crawlgate(&["sitemap", "check", path.to_str().unwrap(), "--url", url]);
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert!(!stdout.contains("error["), "{stdout}");
}

#[test]
fn the_demo_sitemap_lists_exactly_its_indexable_canonical_pages() {
    let dir = scratch("sitemap-generate-demo");
    let audit = dir.join("audit");
    let during = dir.join("during");
    let after = dir.join("after");
    let output = crawlgate(&[
        "audit",
        "--demo",
        "--quiet",
        "--format",
        "json",
        "-o",
        audit.to_str().unwrap(),
        "--write-sitemaps",
        during.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("Sitemap: http://www.northwind.test/sitemap.xml"),
        "{}",
        text(&output.stdout)
    );
    let report = report_json(&audit);
    // The demo holds every kind of page the rule leaves out.
    let pages = report["pages"].as_array().unwrap();
    let any = |test: &dyn Fn(&serde_json::Value) -> bool| pages.iter().any(test);
    assert!(any(&|p| p["state"] == "redirected"));
    assert!(any(&|p| p["status"] == 404));
    assert!(any(&|p| p["profiles"]["googlebot"]["noindex"] == true));
    assert!(any(&|p| p["profiles"]["googlebot"]["why_not"]
        .as_str()
        .is_some_and(|w| w.starts_with("canonical points to"))));

    let generated = crawlgate(&[
        "sitemap",
        "generate",
        "--from",
        audit.to_str().unwrap(),
        "-o",
        after.to_str().unwrap(),
    ]);
    assert_eq!(
        generated.status.code(),
        Some(0),
        "{}",
        text(&generated.stderr)
    );
    let sitemap = after.join("sitemap.xml");
    // `audit --write-sitemaps` writes the same bytes as `sitemap generate` from its report.
    assert_eq!(
        std::fs::read(during.join("sitemap.xml")).unwrap(),
        std::fs::read(&sitemap).unwrap()
    );
    let listed = locs(&sitemap);
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted, "sorted by URL");
    let expected = expected_urls(&report, "googlebot");
    assert!(expected.len() > 10, "{expected:?}");
    assert_eq!(listed.into_iter().collect::<BTreeSet<_>>(), expected);
    check_passes(&sitemap, "http://www.northwind.test/sitemap.xml");

    // <lastmod> only where the page sent Last-Modified, as its record says; the demo's one
    // such page (the press page) is noindex, so the demo's sitemap has none, and never the
    // audit's time.
    let xml = std::fs::read_to_string(&sitemap).unwrap();
    let dated: Vec<&serde_json::Value> = pages
        .iter()
        .filter(|p| expected.contains(p["url"].as_str().unwrap()))
        .filter(|p| p["last_modified"].is_string())
        .collect();
    assert_eq!(xml.matches("<lastmod>").count(), dated.len(), "{xml}");
    for page in dated {
        assert!(xml.contains(&format!(
            "<loc>{}</loc>\n    <lastmod>{}</lastmod>",
            page["url"].as_str().unwrap(),
            page["last_modified"].as_str().unwrap()
        )));
    }
    assert!(
        pages
            .iter()
            .any(|p| p["last_modified"] == "2019-02-04T10:00:00Z")
    );
    assert!(!xml.contains("/press<"));

    gzipped_for_bingbot(&audit, &dir);
    with_hreflang(&audit, &dir, &report);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--hreflang`: the alternates of the listed pages whose hreflang set Google would use (it
/// names the page, every listed alternate names the same set back, no alternate is a page the
/// audit saw but does not list), less invalid codes; still a clean sitemap.
fn with_hreflang(audit: &Path, dir: &Path, report: &serde_json::Value) {
    let out = dir.join("hreflang");
    let output = crawlgate(&[
        "sitemap",
        "generate",
        "--from",
        audit.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--hreflang",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let sitemap = out.join("sitemap.xml");
    check_passes(&sitemap, "http://www.northwind.test/sitemap.xml");
    let xml = std::fs::read_to_string(&sitemap).unwrap();
    let listed: BTreeSet<String> = locs(&sitemap).into_iter().collect();
    let pages: Vec<&serde_json::Value> = report["pages"].as_array().unwrap().iter().collect();
    let seen: BTreeSet<&str> = pages.iter().map(|p| p["url"].as_str().unwrap()).collect();
    let set_of = |url: &str| -> BTreeSet<(String, String)> {
        pages
            .iter()
            .find(|p| p["url"] == url)
            .and_then(|p| p["alternates"].as_array())
            .into_iter()
            .flatten()
            .map(|a| {
                (
                    a["hreflang"].as_str().unwrap().to_owned(),
                    a["href"].as_str().unwrap().to_owned(),
                )
            })
            .filter(|(code, _)| code != "en-UK")
            .collect()
    };
    let (mut written, mut unconfirmed) = (0, 0);
    for url in &listed {
        let set = set_of(url);
        if set.is_empty() {
            continue;
        }
        let uses = set.iter().any(|(_, href)| href == url)
            && set.iter().all(|(_, href)| {
                if listed.contains(href) {
                    set_of(href) == set
                } else {
                    !seen.contains(href.as_str())
                }
            });
        let element = xml
            .split("<url>")
            .find(|element| element.contains(&format!("<loc>{url}</loc>")))
            .unwrap();
        if uses {
            for (code, href) in &set {
                let link =
                    format!("<xhtml:link rel=\"alternate\" hreflang=\"{code}\" href=\"{href}\"/>");
                assert!(element.contains(&link), "{link} in {element}");
            }
            written += set.len();
        } else {
            assert!(!element.contains("<xhtml:link"), "{element}");
            unconfirmed += 1;
        }
    }
    assert_eq!(xml.matches("<xhtml:link").count(), written, "{xml}");
    assert!(unconfirmed > 0, "the demo's broken hreflang sets: {xml}");
    assert!(
        stdout.contains(&format!("listed without alternates: {unconfirmed} URLs")),
        "{stdout}"
    );
}

/// Gzipped, for bingbot, under another base URL: still a clean sitemap.
fn gzipped_for_bingbot(audit: &Path, dir: &Path) {
    let gz = dir.join("gz");
    let output = crawlgate(&[
        "sitemap",
        "generate",
        "--from",
        audit.join("report.json").to_str().unwrap(),
        "-o",
        gz.to_str().unwrap(),
        "--gzip",
        "--profile",
        "bingbot",
        "--base-url",
        "http://www.northwind.test/maps/",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("Sitemap: http://www.northwind.test/maps/sitemap.xml.gz"),
        "{}",
        text(&output.stdout)
    );
    check_passes(
        &gz.join("sitemap.xml.gz"),
        "http://www.northwind.test/sitemap.xml.gz",
    );
}

/// A crawled site of 50,001 indexable pages: two sitemaps (50,000 URLs, then 1) and an index
/// naming both, every URL listed once in URL order, each file clean under `sitemap check`.
#[test]
fn a_crawled_site_of_more_than_50000_pages_splits_into_an_index_and_two_sitemaps() {
    const PAGES: u64 = 50_001;
    // Page n links to pages 10n+1 … 10n+10 (a tree every page of which is reachable).
    let site = ServedSite::new().generate("/", |target| {
        let n: u64 = if target == "/" {
            0
        } else {
            target.strip_prefix("/p/")?.parse().ok()?
        };
        let mut html = format!("<!doctype html><title>Page {n}</title>");
        for child in (n * 10 + 1..=n * 10 + 10).filter(|child| *child < PAGES) {
            let _ = write!(html, "<a href=\"/p/{child}\">{child}</a>");
        }
        Some(html.into())
    });
    let server = SiteServer::start_in_background(site).unwrap();
    let dir = scratch("sitemap-generate-50001");
    let audit = dir.join("audit");
    let maps = dir.join("maps");
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "--quiet",
        "--format",
        "json",
        "--fail-on",
        "never",
        "--max-pages",
        "60000",
        "-o",
        audit.to_str().unwrap(),
        "--write-sitemaps",
        maps.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = report_json(&audit);
    let expected = expected_urls(&report, "googlebot");
    assert_eq!(expected.len() as u64, PAGES);
    let origin = server.url("/");
    let origin = origin.as_str().trim_end_matches('/');
    let index = maps.join("sitemap-index.xml");
    assert_eq!(
        locs(&index),
        [
            format!("{origin}/sitemap-1.xml"),
            format!("{origin}/sitemap-2.xml")
        ]
    );
    check_passes(&index, &format!("{origin}/sitemap-index.xml"));
    let mut listed = Vec::new();
    for (name, count) in [("sitemap-1.xml", 50_000), ("sitemap-2.xml", 1)] {
        let file = maps.join(name);
        let urls = locs(&file);
        assert_eq!(urls.len(), count, "{name}");
        check_passes(&file, &format!("{origin}/{name}"));
        listed.extend(urls);
    }
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted, "in URL order across the files");
    assert_eq!(listed.into_iter().collect::<BTreeSet<_>>(), expected);
    assert!(
        text(&output.stdout).contains(&format!("Sitemap: {origin}/sitemap-index.xml")),
        "{}",
        text(&output.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_exit_2_with_a_message() {
    let dir = scratch("sitemap-generate-bad");
    let not_report = dir.join("x.json");
    std::fs::write(&not_report, "{\"x\": 1}").unwrap();
    let report = dir.join("report.json");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/reports/minimal.json"),
        &report,
    )
    .unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = dir.join("out");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--from", "/nonexistent/report.json"],
            "/nonexistent/report.json",
        ),
        (
            &["--from", not_report.to_str().unwrap()],
            "is not a crawlgate report.json",
        ),
        (
            &["--from", report.to_str().unwrap(), "--profile", "nobot"],
            "has no profile `nobot`",
        ),
        (
            &[
                "--from",
                report.to_str().unwrap(),
                "-o",
                file.to_str().unwrap(),
            ],
            "is a file",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["sitemap", "generate"];
        all.extend_from_slice(args);
        if !args.contains(&"-o") {
            all.extend(["-o", out.to_str().unwrap()]);
        }
        let output = crawlgate(&all);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
