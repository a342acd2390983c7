//! Hostile pages: bodies that never end or barely move, a `Content-Length` that lies, header
//! bytes that are not text, a flood of headers or links, a redirect loop, and crawler traps of
//! endless distinct URLs. The crawl must record each page's outcome, go on with the others, and
//! stay within its bounds, saying which one it hit.

use crate::support::{config, http, resource, run, serve};
use bytes::Bytes;
use crawlgate_core::Site;
use crawlgate_core::crawl::CrawlConfig;
use crawlgate_core::site::{
    Bound, FailureKind, FetchedPage, Indexability, NotIndexable, ResourceState,
};
use crawlgate_crawl::HttpOptions;
use crawlgate_serve::{Route, ServedSite, SiteServer};
use crawlgate_test_support::html::page;
use std::borrow::Cow;
use std::time::Duration;
use url::Url;

/// The home page links to `hostile` and to a well-behaved page after it.
fn home_linking(hostile: &str) -> ServedSite {
    ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file("index.html", page(&[hostile, "/fine"]))
        .file("fine", page(&[]))
}

/// One second per request, 64 KiB per page.
fn impatient() -> HttpOptions {
    HttpOptions {
        request_timeout: Duration::from_secs(1),
        ..http()
    }
}

async fn crawl_with(site: ServedSite, http: &HttpOptions) -> (Site, SiteServer) {
    let server = serve(site).await;
    let mut config = config(server.url("/"));
    config.bounds.max_page_bytes = 64 * 1024;
    let (site, _) = run(config, http).await;
    (site, server)
}

fn fetched<'a>(site: &'a Site, url: &Url) -> Cow<'a, FetchedPage> {
    let resource = resource(site, url);
    site.page(resource)
        .unwrap_or_else(|| panic!("{url} was not fetched: {:?}", resource.state))
}

fn failure(site: &Site, url: &Url) -> FailureKind {
    match &resource(site, url).state {
        ResourceState::Failed { kind, .. } => *kind,
        other => panic!("{url} did not fail: {other:?}"),
    }
}

/// The well-behaved page after the hostile one was fetched normally.
fn the_rest_was_crawled(site: &Site, server: &SiteServer) {
    assert_eq!(fetched(site, &server.url("/fine")).status, 200);
    assert!(!site.stats.is_partial(), "{:?}", site.stats);
}

#[tokio::test]
async fn an_endless_body_is_cut_at_the_page_byte_cap() {
    let endless = Route::status("/endless", 200, "<!doctype html><title>t</title>").endless();
    let (site, server) = crawl_with(home_linking("/endless").route(endless), &http()).await;
    let endless = fetched(&site, &server.url("/endless"));
    assert!(endless.body_truncated);
    assert_eq!(endless.body_len, 64 * 1024);
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn a_one_byte_a_second_trickle_times_out() {
    let trickle = Route::status("/drip", 200, "x".repeat(100)).trickle(1);
    let (site, server) = crawl_with(home_linking("/drip").route(trickle), &impatient()).await;
    assert_eq!(failure(&site, &server.url("/drip")), FailureKind::Timeout);
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn a_content_length_promising_more_than_is_sent_is_a_broken_body() {
    let liar = Route::status("/short", 200, "<p>only this</p>").content_length(100_000);
    let (site, server) = crawl_with(home_linking("/short").route(liar), &http()).await;
    let kind = failure(&site, &server.url("/short"));
    assert!(
        matches!(kind, FailureKind::Reset | FailureKind::Body),
        "{kind:?}"
    );
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn a_content_length_promising_less_than_is_sent_is_read_as_announced() {
    let body = "<!doctype html><title>t</title><a href=\"/after-the-length\">x</a>";
    let liar = Route::status("/long", 200, body).content_length(31);
    let (site, server) = crawl_with(
        home_linking("/long")
            .route(liar)
            .file("after-the-length", page(&[])),
        &http(),
    )
    .await;
    let long = fetched(&site, &server.url("/long"));
    // The client reads the announced 31 bytes; the link after them is never seen.
    assert_eq!(long.body_len, 31);
    assert!(!long.body_truncated);
    assert!(site.resource(&server.url("/after-the-length")).is_none());
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn header_values_that_are_not_utf8_are_kept_lossily_and_still_read() {
    let odd = Route::status("/odd", 200, "<!doctype html><title>t</title>")
        .raw_header("X-Robots-Tag: noindex, %FF%FE")
        .raw_header("WWW-Authenticate: Basic realm=caf%E9");
    let (site, server) = crawl_with(home_linking("/odd").route(odd), &http()).await;
    let url = server.url("/odd");
    let odd = fetched(&site, &url);
    // X-Robots-Tag is read into the signals; WWW-Authenticate is one of the lines a page keeps.
    assert_eq!(
        odd.signals.robots_headers[0].value,
        "noindex, \u{FFFD}\u{FFFD}"
    );
    let kept = odd
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("www-authenticate"))
        .map(|h| h.value);
    assert_eq!(kept, Some("Basic realm=caf\u{FFFD}"));
    assert_eq!(
        site.indexability(resource(&site, &url), 0),
        Indexability::NotIndexable(NotIndexable::Noindex)
    );
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn a_control_byte_in_a_header_name_is_an_invalid_response() {
    let broken = Route::status("/broken-head", 200, "<p>x</p>").raw_header("X-Bad%01Name: v");
    let (site, server) = crawl_with(home_linking("/broken-head").route(broken), &http()).await;
    assert_eq!(
        failure(&site, &server.url("/broken-head")),
        FailureKind::InvalidResponse
    );
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn a_hundred_set_cookie_headers_leave_the_page_read() {
    // More lines than hyper reads by default: the wide client reads the response.
    let mut cookies = Route::status("/cookies", 200, "<!doctype html><title>t</title>");
    cookies.headers = (0..100)
        .map(|i| format!("Set-Cookie: c{i}=v{i}; Path=/"))
        .collect();
    cookies
        .headers
        .push("Last-Modified: Tue, 02 Jun 2026 10:00:00 GMT".to_owned());
    let (site, server) = crawl_with(home_linking("/cookies").route(cookies), &http()).await;
    let cookies = fetched(&site, &server.url("/cookies"));
    assert_eq!(cookies.status, 200);
    assert_eq!(cookies.signals.title.as_deref(), Some("t"));
    // The page keeps the lines the audit reads (the crawl store has them all).
    let names: Vec<&str> = cookies.headers.iter().map(|h| h.name).collect();
    assert_eq!(names, ["content-type", "last-modified"]);
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn two_thousand_header_lines_are_an_invalid_response() {
    let mut flood = Route::status("/flood", 200, "<!doctype html><title>t</title>");
    flood.headers = (0..2_000).map(|i| format!("X-Flood-{i}: {i}")).collect();
    let (site, server) = crawl_with(home_linking("/flood").route(flood), &http()).await;
    assert_eq!(
        failure(&site, &server.url("/flood")),
        FailureKind::InvalidResponse
    );
    the_rest_was_crawled(&site, &server);
}

#[tokio::test]
async fn fifty_thousand_links_on_one_page_are_capped_and_the_page_bound_holds() {
    let links: Vec<String> = (0..50_000).map(|i| format!("/l/{i}")).collect();
    let hrefs: Vec<&str> = links.iter().map(String::as_str).collect();
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&hrefs))
            .generate("/l/", |_| Some(Bytes::from(page(&[])))),
    )
    .await;
    let mut config = config(server.url("/"));
    config.bounds.max_pages = 10;
    let (site, _) = run(config, &http()).await;
    let home = fetched(&site, &server.url("/"));
    // The page's links are capped (crawlgate_core::signals::limits::MAX_LINKS) and it says so.
    assert!(home.signals.truncated);
    assert_eq!(home.internal_outlinks, 20_000);
    assert!(site.resource(&server.url("/l/19999")).is_some());
    assert!(site.resource(&server.url("/l/20000")).is_none());
    assert_eq!(site.stats.pages_fetched, 10);
    assert_eq!(site.stats.bounds_hit, [Bound::MaxPages(10)]);
}

#[tokio::test]
async fn a_redirect_loop_is_a_failure_and_each_hop_is_asked_once() {
    let (site, server) = crawl_with(
        home_linking("/loop-a")
            .route(Route::redirect("/loop-a", 302, "/loop-b"))
            .route(Route::redirect("/loop-b", 302, "/loop-a")),
        &http(),
    )
    .await;
    assert_eq!(
        failure(&site, &server.url("/loop-a")),
        FailureKind::RedirectLoop
    );
    assert_eq!(
        server.requests().iter().filter(|p| *p == "/loop-a").count(),
        1
    );
    the_rest_was_crawled(&site, &server);
}

/// A calendar: every day links to the next day and the next month, for ever, each a distinct
/// URL (`/cal/?d=N`), plus `extra` more links per page to other made-up days.
fn calendar(extra: u64) -> ServedSite {
    ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file("index.html", page(&["/cal/?d=0"]))
        .generate("/cal/", move |target| {
            let day: u64 = target.strip_prefix("/cal/?d=")?.parse().ok()?;
            let mut links = vec![
                format!("/cal/?d={}", day + 1),
                format!("/cal/?d={}", day + 30),
            ];
            links.extend((0..extra).map(|i| format!("/cal/?d={}", day * 1_000 + 100 + i)));
            let hrefs: Vec<&str> = links.iter().map(String::as_str).collect();
            Some(Bytes::from(page(&hrefs)))
        })
}

fn calendar_requests(server: &SiteServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|p| p.starts_with("/cal/"))
        .count()
}

async fn crawl_calendar(
    extra: u64,
    set: impl FnOnce(&mut CrawlConfig, &mut HttpOptions),
) -> (Site, SiteServer) {
    let server = serve(calendar(extra)).await;
    let mut config = config(server.url("/"));
    let mut http = http();
    set(&mut config, &mut http);
    let (site, _) = run(config, &http).await;
    (site, server)
}

#[tokio::test]
async fn a_calendar_trap_stops_at_the_page_bound() {
    let (site, server) = crawl_calendar(0, |config, _| config.bounds.max_pages = 50).await;
    assert_eq!(site.stats.pages_fetched, 50);
    assert_eq!(site.stats.bounds_hit, [Bound::MaxPages(50)]);
    // The home page and 49 calendar days; nothing past the bound was asked for.
    assert_eq!(calendar_requests(&server), 49);
}

#[tokio::test]
async fn a_calendar_trap_stops_at_the_time_bound() {
    let (site, server) = crawl_calendar(0, |config, http| {
        config.bounds.max_pages = u64::MAX;
        http.total_time = Duration::from_secs(2);
    })
    .await;
    assert_eq!(site.stats.bounds_hit, [Bound::TotalTime(2)]);
    assert!(site.stats.pages_fetched >= 1);
    // What was asked for was recorded (in-flight requests count as interrupted, not lost).
    assert!(calendar_requests(&server) as u64 >= site.stats.pages_fetched - 1);
}

#[tokio::test]
async fn a_calendar_trap_stops_at_the_discovery_bound() {
    let (site, server) = crawl_calendar(50, |config, _| {
        config.bounds.max_pages = u64::MAX;
        config.bounds.max_discovered = 500;
    })
    .await;
    assert_eq!(site.stats.bounds_hit, [Bound::MaxDiscovered(500)]);
    assert!(site.resources().len() <= 500, "{}", site.resources().len());
    assert!(site.stats.urls_not_recorded > 0);
    // The crawl ended by itself, having fetched at most what it recorded.
    assert!(calendar_requests(&server) < 500);
}
