//! Choosing what is crawled, end to end: `--include`/`--exclude`, `--urls-from` (list mode),
//! `--sitemap-only`, `--max-discovered` and their `crawlgate.toml` keys, for `crawl` and
//! `audit`, against a site served on 127.0.0.1.

use crate::util::{audit_to_json, crawlgate, crawlgate_in, files_in, report_json, scratch, text};
use crawlgate_serve::{ServedSite, SiteServer};
use crawlgate_test_support::html::page;
use serde_json::Value;

/// `/` links to `/shop/`, `/blog/`, `/about`; the sitemap lists `/shop/tent` and `/orphan`.
fn serve_shop() -> SiteServer {
    SiteServer::start_in_background(
        ServedSite::new()
            .file(
                "robots.txt",
                "User-agent: *\nAllow: /\nSitemap: {{origin}}/sitemap.xml\n",
            )
            .file("sitemap.xml", "{{origin}}/shop/tent\n{{origin}}/orphan\n")
            .file("index.html", page(&["/shop/", "/blog/", "/about"]))
            .file("shop/index.html", page(&["/shop/tent"]))
            .file("shop/tent", page(&["/shop/"]))
            .file("blog/index.html", page(&["/blog/post"]))
            .file("blog/post", page(&[]))
            .file("about", page(&[]))
            .file("orphan", page(&[])),
    )
    .unwrap()
}

fn received(server: &SiteServer) -> Vec<String> {
    let mut requests = server.requests();
    requests.sort();
    requests
}

#[test]
fn crawl_urls_from_fetches_exactly_the_listed_urls() {
    let server = serve_shop();
    let dir = scratch("urls-from-crawl");
    let list = dir.join("urls.txt");
    std::fs::write(
        &list,
        format!(
            "# pages to check\n{}\n\n   {}\n",
            server.url("/about"),
            server.url("/blog/post")
        ),
    )
    .unwrap();
    let output = crawlgate(&[
        "crawl",
        "--urls-from",
        list.to_str().unwrap(),
        "--jsonl",
        "-",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        received(&server),
        ["/about", "/blog/post", "/robots.txt", "/sitemap.xml"]
    );
    let records: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let tent = records
        .iter()
        .find(|r| r["url"] == server.url("/shop/tent").as_str())
        .expect("the sitemap's URL is recorded");
    assert_eq!(tent["not_fetched"], "not-listed");
    let about = records
        .iter()
        .find(|r| r["url"] == server.url("/about").as_str())
        .unwrap();
    assert_eq!(about["discovered_from"][0]["via"], "start");
    assert_eq!(about["discovered_from"][1]["via"], "listed");
    let summary = text(&output.stderr);
    assert!(
        summary.starts_with(&format!("crawled {}", server.url("/about"))),
        "{summary}"
    );
    assert!(
        summary.contains("list mode: only the listed URLs"),
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_line_in_a_url_list_is_an_error_naming_the_file_and_line() {
    let dir = scratch("urls-from-bad");
    let list = dir.join("urls.txt");
    std::fs::write(
        &list,
        "https://example.com/a\n# a comment\nexample.com/b\nhttps://example.com/c\n",
    )
    .unwrap();
    for command in ["crawl", "audit"] {
        let output = crawlgate(&[command, "--urls-from", list.to_str().unwrap(), "--quiet"]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "`{}` line 3: `example.com/b` is not an http or https URL",
                list.display()
            )),
            "{command}: {stderr}"
        );
    }
    // A URL argument and a list are two starts: a usage error.
    let output = crawlgate(&[
        "crawl",
        "https://example.com/",
        "--urls-from",
        list.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot be used with"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_excluded_start_url_is_a_usage_error() {
    let server = serve_shop();
    let start = server.url("/");
    // Run where the audit's default report folder would go: a usage error leaves nothing there.
    let cwd = scratch("excluded-start-url");
    for (command, flags) in [
        ("crawl", ["--exclude", "*/"]),
        ("audit", ["--include", "*/shop/*"]),
    ] {
        let mut args = vec![command, start.as_str()];
        args.extend(flags);
        args.push("--quiet");
        let output = crawlgate_in(&cwd, &args);
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert_eq!(files_in(&cwd), Vec::<String>::new(), "{command}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "the start URL `{start}` is excluded from the crawl"
            )),
            "{command}: {stderr}"
        );
    }
    assert!(server.requests().is_empty());
    // A pattern that can match no URL is refused when the flags are read.
    let output = crawlgate(&["crawl", start.as_str(), "--exclude", "/blog/*"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("to match that path on any host, write `*/blog/*`"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn audit_exclude_counts_what_it_left_out() {
    let server = serve_shop();
    let dir = scratch("exclude-audit");
    let output = audit_to_json(
        server.url("/").as_str(),
        &["--exclude", "*/blog/*", "--no-assets"],
        &dir,
    );
    assert_eq!(
        received(&server),
        [
            "/",
            "/about",
            "/orphan",
            "/robots.txt",
            "/shop/",
            "/shop/tent",
            "/sitemap.xml"
        ]
    );
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("excluded by the include/exclude patterns: 1 page (known, not fetched)"),
        "{stdout}"
    );
    let report = report_json(&dir);
    assert_eq!(report["crawl"]["urls_excluded"], 1);
    assert!(report["target"].get("mode").is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn audit_sitemap_only_fetches_the_sitemaps_urls() {
    let server = serve_shop();
    let dir = scratch("sitemap-only-audit");
    let output = audit_to_json(
        server.url("/").as_str(),
        &["--sitemap-only", "--no-assets"],
        &dir,
    );
    assert_eq!(
        received(&server),
        ["/orphan", "/robots.txt", "/shop/tent", "/sitemap.xml"]
    );
    assert!(text(&output.stdout).contains("sitemap-only: only the URLs the sitemaps list"));
    let report = report_json(&dir);
    assert_eq!(report["target"]["mode"], "sitemap-only");
    // Links were not followed: no page is called an orphan.
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(!rules.contains(&"sitemap/orphan-url"), "{rules:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_config_file_sets_the_scope_and_flags_win() {
    let server = serve_shop();
    let dir = scratch("scope-config");
    std::fs::write(dir.join("urls.txt"), format!("{}\n", server.url("/shop/"))).unwrap();
    let config = dir.join("crawlgate.toml");
    std::fs::write(
        &config,
        "urls_from = \"urls.txt\"\nexclude = [\"*/tent\"]\nmax_discovered = 2\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args = vec!["audit", "--config", config.to_str().unwrap(), "--no-assets"];
        args.extend_from_slice(extra);
        args.extend(["-o", out.to_str().unwrap(), "--format", "json"]);
        args.extend(["--fail-on", "never", "--quiet"]);
        let output = crawlgate(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        output
    };
    // The list, relative to the config file's folder; the exclude pattern; the discovery bound.
    run(&[]);
    assert_eq!(received(&server), ["/robots.txt", "/shop/", "/sitemap.xml"]);
    let report = report_json(&out);
    assert_eq!(report["target"]["mode"], "list");
    assert_eq!(report["target"]["start_url"], server.url("/shop/").as_str());
    assert_eq!(report["crawl"]["urls_excluded"], 1);
    assert!(
        report["summary"]["bounds_hit"][0]
            .as_str()
            .unwrap()
            .starts_with("discovery bound (2 known URLs)")
    );
    // A URL on the command line wins over the file's list; the flags over its keys.
    let before = server.requests().len();
    run(&[
        server.url("/").as_str(),
        "--exclude",
        "*/shop/*",
        "--max-discovered",
        "100",
    ]);
    let mut requests: Vec<String> = server.requests().split_off(before);
    requests.sort();
    assert_eq!(
        requests,
        [
            "/",
            "/about",
            "/blog/",
            "/blog/post",
            "/orphan",
            "/robots.txt",
            "/sitemap.xml"
        ]
    );
    let report = report_json(&out);
    assert!(report["target"].get("mode").is_none());
    // /shop/ and /shop/tent.
    assert_eq!(report["crawl"]["urls_excluded"], 2);
    // A bad pattern in the file is an error naming it.
    std::fs::write(&config, "include = [\"shop/*\"]\n").unwrap();
    let output = crawlgate(&[
        "audit",
        server.url("/").as_str(),
        "--config",
        config.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("invalid URL pattern `shop/*`"),
        "{}",
        text(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
