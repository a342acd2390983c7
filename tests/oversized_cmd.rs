//! Oversized sites: what a report quotes is bounded by its findings, not by what the site sent.

use crate::util::{crawlgate, report_json, scratch, text};
use crawlgate_serve::{ServedSite, SiteServer};
use std::fmt::Write as _;

#[test]
fn a_robots_txt_of_a_hundred_thousand_blank_lines_makes_a_small_report_that_still_quotes_its_cited_line()
 {
    // 100,000 blank lines (100 KB, under Google's 500 KiB), then a rule that is a finding.
    let robots = format!("User-agent: *\n{}Disallow: /admin/\n", "\n".repeat(100_000));
    let server =
        SiteServer::start_in_background(ServedSite::new().file("robots.txt", robots).file(
            "index.html",
            "<!doctype html><title>Home</title><p>Hello</p>",
        ))
        .expect("served");
    let out = scratch("oversized-robots");
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "-o",
        out.to_str().unwrap(),
        "--quiet",
        "--fail-on",
        "never",
        "--format",
        "html",
        "--format",
        "md",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = report_json(&out);
    let robots = &report["robots"][0];
    assert_eq!(robots["lines_total"], 100_002);
    assert_eq!(robots["lines"].as_array().unwrap().len(), 1_000);
    let cited = robots["cited_lines"].as_array().unwrap();
    assert!(cited.iter().any(|line| line == 100_002), "{cited:?}");
    let excerpt: Vec<u64> = robots["excerpt"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["number"].as_u64().unwrap())
        .collect();
    assert_eq!(excerpt, [100_000, 100_001, 100_002]);
    for (file, bound) in [
        ("report.html", 400_000),
        ("report.md", 100_000),
        ("report.json", 200_000),
    ] {
        let size = std::fs::metadata(out.join(file)).unwrap().len();
        assert!(size < bound, "{file} is {size} bytes");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<td class=\"ln\">100002</td><td class=\"src\">Disallow: /admin/</td>"));
    assert!(html.contains("The first 1000 are listed, then the cited ones with their context."));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains(">100002  Disallow: /admin/"),
        "the cited line in the Markdown listing"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_audit_whose_pages_fail_says_so_in_every_format() {
    use crawlgate_serve::Route;
    // The home page links to twenty pages; each resets the connection before any byte.
    let links: Vec<String> = (0..20)
        .map(|n| format!("<a href=\"/p{n}\">{n}</a>"))
        .collect();
    let mut site = ServedSite::new().file(
        "index.html",
        format!(
            "<!doctype html><title>Home</title><link rel=canonical href=/>{}",
            links.concat()
        ),
    );
    for n in 0..20 {
        site = site.route(Route::new(format!("/p{n}")).reset_after(0));
    }
    let server = SiteServer::start_in_background(site).expect("served");
    let out = scratch("failing-pages");
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "-o",
        out.to_str().unwrap(),
        "--fail-on",
        "never",
        "--retries",
        "0",
    ]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(
            "20 pages could not be fetched (no usable response: a timeout, a refused or reset connection, a redirect loop): the audit \
             says nothing of them"
        ),
        "{stdout}"
    );
    let report = report_json(&out);
    assert_eq!(report["summary"]["pages_failed"], 20);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<strong>20 pages could not be fetched</strong>"));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("**20 pages could not be fetched**"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_rule_broken_by_every_sitemap_url_keeps_ten_thousand_findings_and_counts_the_rest() {
    use crawlgate_test_support::sitemap::{ORIGIN, sitemap_index, urlset};
    // An index of eleven sitemaps under /sm/, each listing 1,000 URLs outside /sm/
    // (sitemap/out-of-path-scope for each): 11,000 findings of one rule.
    let children: Vec<String> = (0..11).map(|n| format!("/sm/{n}.xml")).collect();
    let mut site = ServedSite::new()
        .file(
            "robots.txt",
            "User-agent: *\nAllow: /\nSitemap: {{origin}}/sm/index.xml\n",
        )
        .file(
            "index.html",
            "<!doctype html><title>Home</title><p>Hello</p>",
        )
        .file("sm/index.xml", sitemap_index(ORIGIN, &children));
    for n in 0..11 {
        let paths: Vec<String> = (0..1_000).map(|k| format!("/other/{n}-{k}")).collect();
        site = site.file(&format!("sm/{n}.xml"), urlset(ORIGIN, &paths));
    }
    let server = SiteServer::start_in_background(site).expect("served");
    let out = scratch("findings-per-rule");
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "-o",
        out.to_str().unwrap(),
        "--max-pages",
        "1",
        "--fail-on",
        "never",
        "--format",
        "md",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let rule = "sitemap/out-of-path-scope";
    assert!(
        text(&output.stdout).contains(&format!(
            "{rule}: 1000 more findings not kept (at most 10000 per rule"
        )),
        "{}",
        text(&output.stdout)
    );
    let report = report_json(&out);
    assert_eq!(report["summary"]["findings_omitted"][rule], 1_000);
    let kept: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["rule"] == rule)
        .map(|finding| finding["url"].as_str().unwrap())
        .collect();
    assert_eq!(kept.len(), 10_000);
    // The first in report order (by URL) are kept: `/other/10-…` sorts between `/other/1-…`
    // and `/other/2-…`, so the thousand left out are `/other/9-…`.
    assert!(
        kept.iter().all(|url| !url.contains("/other/9-")),
        "the last thousand by URL are left out"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("- **Findings not kept:** `sitemap/out-of-path-scope`: 1000 more"));
    let _ = std::fs::remove_dir_all(&out);
}

/// The byte bounds take a flag and a config key each, checked like the other bounds.
#[test]
fn the_byte_bounds_are_set_by_flag_or_config_and_out_of_range_values_exit_2() {
    // Every page links to ten new pages with 1 KB URLs.
    let pad = "x".repeat(1_000);
    let site = ServedSite::new().generate("/", move |target| {
        let n: u64 = target
            .trim_start_matches('/')
            .split('?')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let mut links = String::new();
        for i in 1..=10 {
            let _ = write!(links, "<a href=\"/{}?{pad}\">{i}</a>", n * 10 + i);
        }
        Some(format!("<html><body>{links}</body></html>").into())
    });
    let server = SiteServer::start_in_background(site).unwrap();
    let url = server.url("/");
    let bound_hit = |extra: &[&str]| {
        let out = scratch(&format!("byte-bounds-{}", extra.len()));
        let mut args = vec![
            "audit",
            url.as_str(),
            "--quiet",
            "--format",
            "json",
            "--fail-on",
            "never",
            "--max-pages",
            "30",
            "--output-dir",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let output = crawlgate(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let report = report_json(&out);
        let hit: Vec<String> = report["summary"]["bounds_hit"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap().to_owned())
            .collect();
        let _ = std::fs::remove_dir_all(&out);
        hit
    };
    let by_flag = bound_hit(&["--max-discovered-bytes", "20000"]);
    assert!(
        by_flag
            .iter()
            .any(|b| b == "discovery bound (20000 bytes of known URLs)"),
        "{by_flag:?}"
    );
    let dir = scratch("byte-bounds-config");
    let config = dir.join("crawlgate.toml");
    std::fs::write(
        &config,
        "max_discovered_bytes = 20000\nmax_sitemap_entry_bytes = 4096\n",
    )
    .unwrap();
    let by_config = bound_hit(&["--config", config.to_str().unwrap()]);
    assert!(
        by_config
            .iter()
            .any(|b| b == "discovery bound (20000 bytes of known URLs)"),
        "{by_config:?}"
    );
    for bad in ["10", "x", "99999999999999999"] {
        let output = crawlgate(&["audit", url.as_str(), "--max-sitemap-entry-bytes", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        assert!(
            text(&output.stderr).contains("number of bytes"),
            "{}",
            text(&output.stderr)
        );
    }
    std::fs::write(&config, "max_discovered_bytes = 5\n").unwrap();
    let output = crawlgate(&["audit", url.as_str(), "--config", config.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("max_discovered_bytes"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
