//! `crawlgate crawl`, and `robots test|lint` and `sitemap check` given URLs, against sites served
//! on 127.0.0.1.

use crate::util::{crawlgate, text};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use crawlgate_test_support::served::serve_fixture_site;
use serde_json::Value;
use std::collections::BTreeMap;

fn serve(site: ServedSite) -> SiteServer {
    SiteServer::start_in_background(site).unwrap()
}

/// The JSON lines of a crawl, by URL path.
fn records(jsonl: &str) -> BTreeMap<String, Value> {
    jsonl
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            let url = url::Url::parse(record["url"].as_str().unwrap()).unwrap();
            let key = match url.query() {
                Some(query) => format!("{}?{query}", url.path()),
                None => url.path().to_owned(),
            };
            (key, record)
        })
        .collect()
}

#[test]
fn crawl_writes_one_json_line_per_resource() {
    let server = serve_fixture_site("crawl-basic");
    let dir = std::env::temp_dir().join(format!("crawlgate-crawl-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jsonl = dir.join("crawl.jsonl");
    let output = crawlgate(&[
        "crawl",
        server.url("/").as_str(),
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--timeout",
        "1",
        "--profile",
        "googlebot",
        "--profile",
        "bingbot",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with(&format!("crawled {}", server.url("/"))),
        "{stdout}"
    );
    assert!(stdout.contains("robots.txt http://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains("failed: timeout ×1"), "{stdout}");

    let written = std::fs::read_to_string(&jsonl).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let records = records(&written);

    let home = &records["/"];
    assert_eq!(home["state"], "fetched");
    assert_eq!(home["status"], 200);
    assert_eq!(home["depth"], 0);
    assert_eq!(home["kind"], "page");
    assert_eq!(home["content_type"], "text/html; charset=utf-8");
    assert_eq!(home["discovered_from"][0]["via"], "start");
    assert_eq!(home["signals"]["canonical"][0], server.url("/").as_str());

    let report = &records["/private/report"];
    assert_eq!(report["state"], "fetched");
    let verdicts = report["robots"].as_array().unwrap();
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["profile"], "googlebot");
    assert_eq!(verdicts[0]["allowed"], false);
    assert_eq!(verdicts[0]["line"], 2);
    assert_eq!(verdicts[0]["pattern"], "/private/");
    assert_eq!(verdicts[1]["profile"], "bingbot");
    assert_eq!(report["signals"]["noindex"]["googlebot"], true);
    let via: Vec<&str> = report["discovered_from"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["via"].as_str().unwrap())
        .collect();
    assert_eq!(via, ["link", "sitemap"]);

    let old = &records["/old-page"];
    assert_eq!(old["state"], "redirected");
    assert_eq!(old["final_url"], server.url("/new-page").as_str());
    assert_eq!(old["hops"][0]["status"], 301);
    assert_eq!(old["hops"][0]["location"], "/new-page");

    assert_eq!(records["/docs"]["state"], "failed");
    assert_eq!(records["/docs"]["failure"]["kind"], "timeout");
    assert_eq!(records["/orphan"]["depth"], Value::Null);
    assert_eq!(records["/blog/first-post"]["depth"], 2);
    assert_eq!(records["/assets/site.css"]["kind"], "stylesheet");
    assert_eq!(
        records["/noindexed-by-header"]["signals"]["noindex"]["bingbot"],
        true
    );

    // Sorted by URL, so the output is deterministic.
    let urls: Vec<String> = written
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["url"].to_string())
        .collect();
    let mut sorted = urls.clone();
    sorted.sort();
    assert_eq!(urls, sorted);
}

#[test]
fn crawl_lines_are_the_same_with_every_page_in_the_page_store() {
    let server = serve_fixture_site("crawl-basic");
    let url = server.url("/");
    let lines = |extra: &[&str]| {
        let mut args = vec!["crawl", url.as_str(), "--jsonl", "-", "--timeout", "1"];
        args.extend(extra);
        let output = crawlgate(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let held = lines(&[]);
    let stored = lines(&["--pages-in-memory", "0"]);
    assert!(held.lines().count() > 10, "{held}");
    assert!(held.contains("\"signals\""), "{held}");
    assert_eq!(stored, held);
}

#[test]
fn crawl_with_obey_robots_leaves_disallowed_pages_alone() {
    let server = serve_fixture_site("crawl-basic");
    let output = crawlgate(&[
        "crawl",
        server.url("/").as_str(),
        "--obey-robots",
        "--no-assets",
        "--timeout",
        "1",
        "--jsonl",
        "-",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let records = records(&text(&output.stdout));
    assert_eq!(records["/private/report"]["state"], "not-fetched");
    assert_eq!(records["/private/report"]["not_fetched"], "disallowed");
    assert!(!server.requests().contains(&"/private/report".to_owned()));
    assert!(!server.requests().iter().any(|r| r.starts_with("/assets/")));
    // With the lines on stdout, the summary goes to stderr.
    assert!(text(&output.stderr).contains("crawled "));
}

#[test]
fn crawl_bounds_are_flags() {
    let server = serve_fixture_site("crawl-basic");
    let output = crawlgate(&[
        "crawl",
        server.url("/").as_str(),
        "--max-pages",
        "2",
        "--no-sitemap-probe",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("crawled "), "{stdout}");
    assert!(stdout.contains(": 2 pages"), "{stdout}");
    assert!(
        stdout.contains("bound hit: page bound (2 pages)"),
        "{stdout}"
    );
}

#[test]
fn crawl_refuses_a_start_url_that_is_not_http() {
    let output = crawlgate(&["crawl", "example.com"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("not an http or https URL"));
    let output = crawlgate(&["crawl", "https://"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn crawl_of_an_unreachable_start_url_is_inconclusive() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let output = crawlgate(&["crawl", &format!("http://127.0.0.1:{port}/"), "--quiet"]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stderr),
        format!(
            "crawlgate: cannot reach the start URL http://127.0.0.1:{port}/: connection refused \
             (is the server running and the port right?); nothing was crawled, so nothing was \
             written\n"
        )
    );
    assert!(text(&output.stdout).is_empty(), "{}", text(&output.stdout));
}

#[test]
fn crawl_of_a_start_url_answering_an_error_says_so_and_is_inconclusive() {
    let server = serve(ServedSite::new().route(Route::status("/", 500, "<h1>Oops</h1>")));
    let output = crawlgate(&["crawl", server.url("/").as_str(), "--quiet", "--jsonl", "-"]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "crawlgate: the start URL {} answers 500: the server fails",
            server.url("/")
        )) && stderr.contains("the crawl is inconclusive (exit status 3)"),
        "{stderr}"
    );
    assert!(text(&output.stdout).contains(r#""status":500"#));
}

#[test]
fn robots_test_fetches_a_robots_url() {
    let server = serve_fixture_site("crawl-basic");
    let output = crawlgate(&[
        "robots",
        "test",
        server.url("/robots.txt").as_str(),
        "--user-agent",
        "Googlebot",
        "/private/report",
        "/about",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "disallowed\t/private/report\tline 2: Disallow: /private/\nallowed\t/about\tno matching rule\n"
    );
}

#[test]
fn robots_test_applies_googles_status_semantics() {
    let server = serve(ServedSite::new().route(Route::status("/robots.txt", 503, "busy")));
    let output = crawlgate(&[
        "robots",
        "test",
        server.url("/robots.txt").as_str(),
        "--user-agent",
        "Googlebot",
        "/anything",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        text(&output.stdout),
        "disallowed\t/anything\trobots.txt disallow-all\n"
    );
    assert!(text(&output.stderr).contains("answered 503"));

    let server = serve(ServedSite::new());
    let output = crawlgate(&[
        "robots",
        "test",
        server.url("/robots.txt").as_str(),
        "--user-agent",
        "Googlebot",
        "--json",
        "/anything",
    ]);
    let record: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(record["allowed"], true);
    assert!(text(&output.stderr).contains("answered 404"));
}

#[test]
fn robots_test_matrix_of_an_unreachable_robots_txt_disallows_everything_for_everyone() {
    let server = serve(ServedSite::new().route(Route::status("/robots.txt", 503, "busy")));
    let robots_url = server.url("/robots.txt");
    let args = [
        "robots",
        "test",
        robots_url.as_str(),
        "--profile",
        "googlebot",
        "-u",
        "GPTBot",
        "/anything",
    ];
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "URL        GPTBot      Googlebot\n\
         /anything  disallowed  disallowed\n\
         \n\
         robots.txt disallow-all: every URL is disallowed for every crawler, whatever the rules\n"
    );
    let mut json = args.to_vec();
    json.push("--json");
    let output = crawlgate(&json);
    let records: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    for record in records {
        assert_eq!(record["allowed"], false);
        assert_eq!(record["group"], "unreadable");
    }
}

#[test]
fn robots_lint_fetches_a_robots_url() {
    let server = serve_fixture_site("crawl-basic");
    let robots_url = server.url("/robots.txt");
    let output = crawlgate(&["robots", "lint", robots_url.as_str()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "{robots_url}:2: warning[robots/sensitive-path-disclosed]"
        )),
        "{stdout}"
    );

    let server = serve(ServedSite::new().route(Route::status("/robots.txt", 403, "forbidden")));
    let robots_url = server.url("/robots.txt");
    let output = crawlgate(&[
        "robots",
        "lint",
        robots_url.as_str(),
        "--fail-on",
        "warning",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stdout).starts_with(&format!(
            "{robots_url}: warning[robots/auth-or-forbidden]: answered 403"
        )),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn sitemap_check_fetches_an_index_and_its_children() {
    let index = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                 <sitemap><loc>{{origin}}/pages.xml</loc></sitemap>\n\
                 <sitemap><loc>{{origin}}/index.xml</loc></sitemap>\n\
                 <sitemap><loc>{{origin}}/gone.xml</loc></sitemap>\n</sitemapindex>\n";
    let pages = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                 <url><loc>{{origin}}/a</loc></url>\n</urlset>\n";
    let server = serve(
        ServedSite::new()
            .file("index.xml", index)
            .file("pages.xml", pages),
    );
    let index_url = server.url("/index.xml");
    let output = crawlgate(&["sitemap", "check", index_url.as_str()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let pages_url = server.url("/pages.xml");
    let gone_url = server.url("/gone.xml");
    assert!(
        stdout.starts_with(&format!("{index_url}: index, 3 child sitemaps")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{pages_url}: urlset, 1 entry")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{index_url}: error[sitemap/cycle]: {index_url} (named in {index_url}) leads back to {index_url}")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "{gone_url}: error[sitemap/fetch-error]: answered 404"
        )),
        "{stdout}"
    );

    let output = crawlgate(&["sitemap", "check", pages_url.as_str(), "--urls"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), format!("{}\n", server.url("/a")));
}

#[test]
fn sitemap_check_reports_a_nested_index_as_the_audit_does() {
    let top = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
               <sitemap><loc>{{origin}}/pages.xml</loc></sitemap>\n\
               <sitemap><loc>{{origin}}/nested.xml</loc></sitemap>\n</sitemapindex>\n";
    let nested = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                  <sitemap><loc>{{origin}}/more.xml</loc></sitemap>\n</sitemapindex>\n";
    let pages = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                 <url><loc>{{origin}}/a</loc></url>\n</urlset>\n";
    let server = serve(
        ServedSite::new()
            .file("top.xml", top)
            .file("nested.xml", nested)
            .file("pages.xml", pages)
            .file("more.xml", pages),
    );
    let top_url = server.url("/top.xml");
    let nested_url = server.url("/nested.xml");
    let output = crawlgate(&["sitemap", "check", top_url.as_str()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "{nested_url}: error[sitemap/nested-index]: {top_url} (line 4) lists {nested_url}, \
             which is itself a sitemap index (1 sitemap); Google does not follow nested indexes"
        )),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("sitemap/nested-index").count(),
        1,
        "{stdout}"
    );

    // An index of sitemaps of URLs is not nested.
    let output = crawlgate(&["sitemap", "check", nested_url.as_str()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert!(!text(&output.stdout).contains("nested-index"));
}

#[test]
fn ctrl_c_stops_the_crawl_and_reports_what_it_saw() {
    let mut site = ServedSite::new().file("index.html", "<a href=\"/slow\">slow</a>");
    site = site.route(Route::status("/slow", 200, "<p>late</p>").delay_ms(30_000));
    let server = serve(site);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(["crawl", server.url("/").as_str(), "--quiet", "--jsonl", "-"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait (bounded) until the slow page is being fetched: the handler is installed by then.
    for _ in 0..200 {
        if server.requests().iter().any(|r| r == "/slow") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(server.requests().iter().any(|r| r == "/slow"));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("interrupted: the crawl is partial"));
    let records = records(&text(&output.stdout));
    assert_eq!(records["/"]["status"], 200);
    assert_eq!(records["/slow"]["not_fetched"], "interrupted");
}
