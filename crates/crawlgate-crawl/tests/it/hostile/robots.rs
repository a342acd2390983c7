//! A hostile robots.txt: error statuses, no answer, a broken connection, a long redirect chain, a
//! huge body, an HTML page, a UTF-16 file. Each is crawled for real: the robots.txt outcome, its
//! effect (Google's status semantics) and the verdict it gives a page are asserted, and the crawl
//! goes on to fetch the pages (for diagnosis) whatever robots.txt did.

use crate::support::{config, http, resource, run, serve};
use crawlgate_core::Site;
use crawlgate_core::site::{FailureKind, ResourceState, RobotsEffect, RobotsFile};
use crawlgate_crawl::HttpOptions;
use crawlgate_serve::{Route, ServedSite};
use crawlgate_test_support::html::page;
use std::time::Duration;

/// A two-page site whose robots.txt is answered by `robots`.
fn site_with(robots: Route) -> ServedSite {
    ServedSite::new()
        .file("index.html", page(&["/private/a"]))
        .file("private/a", page(&[]))
        .route(robots)
}

/// Crawl a site whose robots.txt is answered by `robots`; returns the Site, the robots.txt as
/// recorded, and whether googlebot may fetch `/private/a`.
async fn crawl_with(robots: Route, http: &HttpOptions) -> (Site, RobotsFile, bool) {
    let server = serve(site_with(robots)).await;
    let (site, _) = run(config(server.url("/")), http).await;
    let file = site
        .robots_for(&server.url("/"))
        .expect("robots.txt is always recorded")
        .clone();
    let private = resource(&site, &server.url("/private/a"));
    // Whatever robots.txt said, the page is fetched for diagnosis (obey_robots is off).
    assert!(
        matches!(private.state, ResourceState::Fetched(_)),
        "{:?}",
        private.state
    );
    let allowed = private.verdicts[0].allowed;
    (site, file, allowed)
}

/// Quick failures: one second per request.
fn impatient() -> HttpOptions {
    HttpOptions {
        request_timeout: Duration::from_secs(1),
        ..http()
    }
}

fn lint_rules(site: &Site, file: &RobotsFile) -> Vec<&'static str> {
    site.robots_lint(&file.origin)
        .iter()
        .map(crawlgate_core::Issue::rule)
        .collect()
}

#[tokio::test]
async fn server_errors_and_429_disallow_everything() {
    for status in [500, 502, 503, 429] {
        let (_, file, allowed) = crawl_with(
            Route::status("/robots.txt", status, "User-agent: *\nAllow: /\n"),
            &http(),
        )
        .await;
        assert_eq!(file.effect, RobotsEffect::DisallowAll, "{status}");
        assert_eq!(file.status(), Some(status));
        assert!(!allowed, "{status}");
    }
}

#[tokio::test]
async fn no_answer_in_time_disallows_everything() {
    let (_, file, allowed) = crawl_with(
        Route::status("/robots.txt", 200, "User-agent: *\nAllow: /\n").delay_ms(10_000),
        &impatient(),
    )
    .await;
    assert_eq!(file.effect, RobotsEffect::DisallowAll);
    assert!(
        matches!(file.outcome, Err((FailureKind::Timeout, _))),
        "{:?}",
        file.outcome
    );
    assert!(!allowed);
}

#[tokio::test]
async fn a_connection_reset_mid_body_disallows_everything() {
    let rules = format!("User-agent: *\nAllow: /\n{}", "# filler\n".repeat(2_000));
    let (_, file, allowed) = crawl_with(
        Route::status("/robots.txt", 200, rules).reset_after(100),
        &http(),
    )
    .await;
    assert_eq!(file.effect, RobotsEffect::DisallowAll);
    assert!(
        matches!(
            file.outcome,
            Err((FailureKind::Reset | FailureKind::Body, _))
        ),
        "{:?}",
        file.outcome
    );
    assert!(!allowed);
}

#[tokio::test]
async fn thirty_redirects_are_not_followed_to_the_end_and_count_as_a_404() {
    let mut robots = site_with(Route::redirect("/robots.txt", 301, "/r1"))
        .file("r30", "User-agent: *\nDisallow: /private/\n");
    for hop in 1..30 {
        robots = robots.route(Route::redirect(
            format!("/r{hop}"),
            302,
            format!("/r{}", hop + 1),
        ));
    }
    let server = serve(robots).await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    let file = site.robots_for(&server.url("/")).unwrap();
    // Google follows five hops; past them robots.txt counts as a 404 (RULES.md §1.1).
    assert_eq!(file.effect, RobotsEffect::AllowAll);
    assert!(resource(&site, &server.url("/private/a")).verdicts[0].allowed);
    // The chain is walked no further than Google walks it (five hops), not to its end.
    assert!(file.hops.len() <= 6, "{} hops recorded", file.hops.len());
    assert!(file.outcome.is_err());
    let chain_requests = server
        .requests()
        .iter()
        .filter(|path| {
            path.strip_prefix("/r")
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .count();
    assert!(chain_requests <= 5, "{chain_requests} hops fetched");
    assert!(server.requests().iter().all(|path| path != "/r30"));
}

#[tokio::test]
async fn a_10_mb_robots_txt_is_read_to_500_kib_as_google_does() {
    // A rule at the top, 10 MB of comments, a rule at the end that Google never reads.
    let filler = "# ".to_owned() + &"x".repeat(97) + "\n";
    let body = format!(
        "User-agent: *\nDisallow: /private/\n{}Allow: /private/a\n",
        filler.repeat(100_000)
    );
    assert!(body.len() >= 10_000_000);
    let (site, file, allowed) = crawl_with(Route::status("/robots.txt", 200, body), &http()).await;
    assert_eq!(file.effect, RobotsEffect::Rules);
    let received = file.outcome.as_ref().unwrap();
    // Read up to the robots byte cap (2 MiB by default), not the whole 10 MB.
    assert!(received.body_truncated);
    assert_eq!(received.body.len(), 2 * 1024 * 1024);
    // The early rule applies; the late `Allow` lies past 500 KiB and is not read.
    assert!(!allowed);
    assert!(lint_rules(&site, &file).contains(&"robots/oversize"));
}

#[tokio::test]
async fn an_html_page_as_robots_txt_has_no_rules() {
    // A soft 404: the CMS answers robots.txt with its HTML page, which mentions `Disallow: /` in
    // running text (not at the start of a line, so no rule).
    let html = "<!doctype html><html><head><title>Not found</title></head>\n\
                <body><p>Page not found. Disallow: / is not here.</p></body></html>\n";
    let mut robots = Route::status("/robots.txt", 200, html);
    robots.headers = vec!["Content-Type: text/html; charset=utf-8".to_owned()];
    robots.replace_headers = true;
    let (site, file, allowed) = crawl_with(robots, &http()).await;
    assert_eq!(file.effect, RobotsEffect::Rules);
    assert!(
        file.parsed.groups().is_empty(),
        "{:?}",
        file.parsed.groups()
    );
    assert!(allowed);
    assert!(lint_rules(&site, &file).contains(&"robots/served-as-html"));
}

#[tokio::test]
async fn a_utf16_robots_txt_is_read_as_bytes_and_gives_no_rules() {
    // `User-agent: *` / `Disallow: /` in UTF-16LE with its BOM: every other byte is NUL, so no
    // line is a field Google recognises.
    let text = "User-agent: *\nDisallow: /\n";
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let mut robots = Route::new("/robots.txt");
    robots.body_from = Some("robots-utf16.txt".to_owned());
    let server = serve(site_with(robots).file("robots-utf16.txt", bytes)).await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    let file = site.robots_for(&server.url("/")).unwrap();
    assert_eq!(file.effect, RobotsEffect::Rules);
    assert!(
        file.parsed.groups().is_empty(),
        "{:?}",
        file.parsed.groups()
    );
    assert!(resource(&site, &server.url("/private/a")).verdicts[0].allowed);
    let rules = lint_rules(&site, file);
    assert!(rules.contains(&"robots/not-utf8"), "{rules:?}");
}
