//! The crawl over HTTP: scope, every bound, redirects, disallowed URLs, failures as data,
//! interruption, events. Sites are served on 127.0.0.1.

use crate::support::{config, http, resource, run, run_with_stop, serve, status};
use crawlgate_core::crawl::{CrawlError, CrawlEvent, RequestKind};
use crawlgate_core::site::{Bound, FailureKind, NotFetchedReason, ResourceState};
use crawlgate_crawl::{HttpOptions, Pace, StopHandle, crawl};
use crawlgate_serve::{Route, ServedSite};
use crawlgate_test_support::html::page;
use std::time::Duration;
use url::Url;

/// A chain of pages: `/` → `/1` → `/2` → … → `/{n}`.
fn chain(n: usize) -> ServedSite {
    let mut site = ServedSite::new().file("index.html", page(&["/1"]));
    for i in 1..=n {
        let next = format!("/{}", i + 1);
        let links: Vec<&str> = if i < n { vec![next.as_str()] } else { vec![] };
        site = site.file(&i.to_string(), page(&links));
    }
    site
}

/// `/` linking to `/p0` … `/p{n-1}`.
fn fan(n: usize) -> ServedSite {
    let paths: Vec<String> = (0..n).map(|i| format!("/p{i}")).collect();
    let links: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut site = ServedSite::new().file("index.html", page(&links));
    for path in &paths {
        site = site.file(path, page(&[]));
    }
    site
}

#[tokio::test]
async fn links_are_followed_breadth_first_with_click_depth() {
    let server = serve(
        ServedSite::new()
            .file("robots.txt", "User-agent: *\nAllow: /\n")
            .file("index.html", page(&["/a", "/b#section"]))
            .file("a", page(&["/a/deep"]))
            .file("b", page(&["/"]))
            .file("a/deep", page(&[])),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    let depth = |path: &str| resource(&site, &server.url(path)).depth;
    assert_eq!(depth("/"), Some(0));
    assert_eq!(depth("/a"), Some(1));
    assert_eq!(depth("/b"), Some(1));
    assert_eq!(depth("/a/deep"), Some(2));
    // The fragment is dropped: one URL, fetched once.
    let requests = server.requests();
    assert_eq!(requests.iter().filter(|r| *r == "/b").count(), 1);
    // Breadth first: both depth-1 pages before the depth-2 one.
    let position = |target: &str| requests.iter().position(|r| r == target).unwrap();
    assert!(position("/a") < position("/a/deep"));
    assert!(position("/b") < position("/a/deep"));
    assert_eq!(site.stats.pages_fetched, 4);
    assert!(!site.stats.is_partial());
}

#[tokio::test]
async fn the_query_is_kept_as_written() {
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&["/list?b=2&a=1", "/list?a=1&b=2"]))
            .file("list", page(&[])),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(status(&site, &server.url("/list?b=2&a=1")), 200);
    assert_eq!(status(&site, &server.url("/list?a=1&b=2")), 200);
}

#[tokio::test]
async fn another_port_is_another_site() {
    let other = serve(ServedSite::new().file("x", page(&[]))).await;
    let link = other.url("/x").to_string();
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&[link.as_str(), "/b"]))
            .file("b", page(&[])),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert!(
        site.resource_str(&link).is_none(),
        "a plain external link is not recorded"
    );
    assert!(other.requests().is_empty());
    assert_eq!(status(&site, &server.url("/b")), 200);
}

#[tokio::test]
async fn an_allowed_host_on_the_same_port_is_crawled() {
    // One server, reached as 127.0.0.1 and as localhost: two hosts, same scheme and port.
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&["{{origin}}/a"]))
            .file("a", page(&[])),
    )
    .await;
    let port = server.addr().port();
    let localhost_page = format!("http://localhost:{port}/");
    let linked = format!("http://127.0.0.1:{port}/a");

    // Start as localhost: the 127.0.0.1 link is another host.
    let start = Url::parse(&localhost_page).unwrap();
    let (site, _) = run(config(start.clone()), &http()).await;
    assert!(site.resource_str(&linked).is_none());
    assert!(!server.requests().contains(&"/a".to_owned()));

    let mut allowed = config(start);
    allowed.scope.allow_hosts = vec!["127.0.0.1".to_owned()];
    let (site, _) = run(allowed, &http()).await;
    assert_eq!(status(&site, &Url::parse(&linked).unwrap()), 200);
    // Its own origin's robots.txt was fetched first.
    assert!(
        site.robots
            .contains_key(&format!("http://127.0.0.1:{port}"))
    );
}

#[tokio::test]
async fn the_page_bound_stops_the_crawl_and_says_so() {
    let server = serve(fan(10)).await;
    let mut bounded = config(server.url("/"));
    bounded.bounds.max_pages = 4;
    let (site, events) = run(bounded, &http()).await;
    assert_eq!(site.stats.pages_fetched, 4);
    assert!(site.stats.bounds_hit.contains(&Bound::MaxPages(4)));
    let page_bound = site
        .resources()
        .iter()
        .filter(|r| {
            matches!(
                r.state,
                ResourceState::NotFetched(NotFetchedReason::PageBound)
            )
        })
        .count();
    assert_eq!(page_bound, 7);
    assert!(events.contains(&CrawlEvent::BoundHit(Bound::MaxPages(4))));
    // Requests: robots.txt, the sitemap probe, 4 pages.
    let pages = server
        .requests()
        .iter()
        .filter(|r| *r == "/" || r.starts_with("/p"))
        .count();
    assert_eq!(pages, 4);
}

#[tokio::test]
async fn the_depth_bound_counts_clicks() {
    let server = serve(chain(5)).await;
    let mut bounded = config(server.url("/"));
    bounded.bounds.max_depth = Some(2);
    let (site, _) = run(bounded, &http()).await;
    assert_eq!(status(&site, &server.url("/2")), 200);
    assert!(matches!(
        resource(&site, &server.url("/3")).state,
        ResourceState::NotFetched(NotFetchedReason::DepthBound)
    ));
    assert!(site.resource(&server.url("/4")).is_none());
    assert!(site.stats.bounds_hit.contains(&Bound::MaxDepth(2)));
    assert!(!server.requests().contains(&"/3".to_owned()));
}

/// The most requests in flight at once while a crawl with `options` reads a home page and the
/// `pages` slow pages it links to.
async fn peak_in_flight(pages: usize, options: &HttpOptions) -> usize {
    let mut site = fan(pages);
    for i in 0..pages {
        site = site.route(Route::new(format!("/p{i}")).delay_ms(300));
    }
    let server = serve(site).await;
    let (site, _) = run(config(server.url("/")), options).await;
    assert_eq!(site.stats.pages_fetched, pages as u64 + 1);
    server.peak_in_flight()
}

#[tokio::test]
async fn total_concurrency_is_respected() {
    let options = HttpOptions {
        concurrency: 2,
        ..http()
    };
    assert_eq!(peak_in_flight(8, &options).await, 2);
}

#[tokio::test]
async fn the_per_host_limit_is_respected() {
    let options = HttpOptions {
        concurrency: 16,
        per_host: Some(3),
        ..http()
    };
    assert_eq!(peak_in_flight(8, &options).await, 3);
}

#[tokio::test]
async fn an_unpaced_host_on_this_machine_gets_the_whole_concurrency_a_paced_one_the_default() {
    // Like the pace, the default per-host cap spares someone else's server; a site served on
    // this machine is held by `concurrency` alone, unless `--rate` paces it too.
    let options = |pace| HttpOptions {
        concurrency: 12,
        per_host: None,
        pace,
        ..http()
    };
    assert_eq!(peak_in_flight(12, &options(Pace::DEFAULT)).await, 12);
    let paced = Pace::per_second(1_000.0).unwrap();
    assert_eq!(
        peak_in_flight(12, &options(paced)).await,
        crawlgate_crawl::DEFAULT_PER_HOST
    );
}

#[tokio::test]
async fn the_total_time_bound_ends_the_crawl_with_what_it_saw() {
    let mut site = fan(4);
    for i in 0..4 {
        site = site.route(Route::new(format!("/p{i}")).delay_ms(5_000));
    }
    let server = serve(site).await;
    let options = HttpOptions {
        total_time: Duration::from_secs(1),
        ..http()
    };
    let (site, events) = run(config(server.url("/")), &options).await;
    assert!(site.stats.bounds_hit.contains(&Bound::TotalTime(1)));
    assert_eq!(status(&site, &server.url("/")), 200);
    assert!(matches!(
        resource(&site, &server.url("/p0")).state,
        ResourceState::NotFetched(NotFetchedReason::Interrupted)
    ));
    assert!(matches!(events.last(), Some(CrawlEvent::Done(stats)) if stats.is_partial()));
}

#[tokio::test]
async fn the_stop_handle_interrupts_the_crawl() {
    let mut site = fan(4);
    for i in 0..4 {
        site = site.route(Route::new(format!("/p{i}")).delay_ms(5_000));
    }
    let server = serve(site).await;
    let stop = StopHandle::new();
    let stopper = stop.clone();
    // Stop as soon as the start page is in.
    let on_event = move |event: &CrawlEvent| {
        if matches!(
            event,
            CrawlEvent::Fetched {
                kind: RequestKind::Page,
                ..
            }
        ) {
            stopper.stop();
        }
    };
    let (site, _) = run_with_stop(config(server.url("/")), &http(), &stop, on_event).await;
    assert!(stop.is_stopped());
    assert!(site.stats.interrupted);
    assert_eq!(status(&site, &server.url("/")), 200);
    assert!(matches!(
        resource(&site, &server.url("/p0")).state,
        ResourceState::NotFetched(NotFetchedReason::Interrupted)
    ));
}

#[tokio::test]
async fn a_page_body_past_the_cap_is_truncated_and_said_so() {
    let mut big = Route::new("/big");
    big.body_from = Some("big.html".to_owned());
    big.pad_bytes = Some(100_000);
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&["/big"]))
            .file("big.html", page(&["/after"]))
            .file("after", page(&[]))
            .route(big),
    )
    .await;
    let mut bounded = config(server.url("/"));
    bounded.bounds.max_page_bytes = 5_000;
    let (site, _) = run(bounded, &http()).await;
    let page = site
        .page(resource(&site, &server.url("/big")))
        .expect("/big was fetched");
    assert!(page.body_truncated);
    assert_eq!(page.body_len, 5_000);
    // What was read is still used: the link before the cut is followed.
    assert_eq!(status(&site, &server.url("/after")), 200);
}

#[tokio::test]
async fn redirects_are_recorded_on_the_source_and_the_target_is_fetched() {
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&["/old", "/far"]))
            .route(Route::redirect("/old", 301, "/newer"))
            .route(Route::redirect("/newer", 308, "/new"))
            .file("new", page(&[]))
            .route(Route::redirect("/far", 301, "/f1"))
            .route(Route::redirect("/f1", 301, "/f2"))
            .route(Route::redirect("/f2", 301, "/f3"))
            .file("f3", page(&[])),
    )
    .await;
    let mut bounded = config(server.url("/"));
    bounded.bounds.max_redirects = 2;
    let (site, _) = run(bounded, &http()).await;
    match &resource(&site, &server.url("/old")).state {
        ResourceState::Redirected {
            hops,
            final_url,
            final_status,
        } => {
            let statuses: Vec<u16> = hops.iter().map(|h| h.status).collect();
            assert_eq!(statuses, [301, 308]);
            assert_eq!(hops[1].location.as_deref(), Some("/new"));
            assert_eq!(**final_url, server.url("/new"));
            assert_eq!(*final_status, Some(200));
        }
        other => panic!("expected a redirect, got {other:?}"),
    }
    assert_eq!(status(&site, &server.url("/new")), 200);
    match &resource(&site, &server.url("/far")).state {
        ResourceState::Failed { hops, kind, .. } => {
            assert_eq!(*kind, FailureKind::TooManyRedirects);
            assert_eq!(hops.len(), 3);
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[tokio::test]
async fn a_slow_page_is_a_timeout_failure_and_the_crawl_goes_on() {
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&["/slow", "/fine"]))
            .route(Route::status("/slow", 200, "late").delay_ms(5_000))
            .file("fine", page(&[])),
    )
    .await;
    let options = HttpOptions {
        request_timeout: Duration::from_secs(1),
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &options).await;
    assert!(matches!(
        resource(&site, &server.url("/slow")).state,
        ResourceState::Failed {
            kind: FailureKind::Timeout,
            ..
        }
    ));
    assert_eq!(status(&site, &server.url("/fine")), 200);
    assert!(!site.stats.is_partial());
}

fn disallowing_site() -> ServedSite {
    ServedSite::new()
        .file("robots.txt", "User-agent: *\nDisallow: /private/\n")
        .file("index.html", page(&["/private/secret", "/public"]))
        .file(
            "private/secret",
            "<html><head><meta name=\"robots\" content=\"noindex\"></head></html>",
        )
        .file("public", page(&[]))
}

#[tokio::test]
async fn disallowed_urls_are_fetched_for_diagnosis_by_default() {
    let server = serve(disallowing_site()).await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    let secret = resource(&site, &server.url("/private/secret"));
    assert!(!secret.verdicts[0].allowed);
    assert_eq!(
        secret.verdicts[0].decided_by.as_ref().map(|rule| rule.line),
        Some(2)
    );
    let profile = &site.profiles[0];
    assert!(
        site.directives(secret, profile)
            .is_some_and(|d| d.is_noindex())
    );
    assert!(server.requests().contains(&"/private/secret".to_owned()));
    // Fetched with crawlgate's own User-Agent, never as Googlebot.
    assert!(
        server
            .user_agents()
            .iter()
            .all(|ua| ua.starts_with("crawlgate/"))
    );
}

#[tokio::test]
async fn obey_robots_leaves_disallowed_urls_unfetched() {
    let server = serve(disallowing_site()).await;
    let mut obeying = config(server.url("/"));
    obeying.obey_robots = true;
    let (site, events) = run(obeying, &http()).await;
    let secret = resource(&site, &server.url("/private/secret"));
    assert!(matches!(
        secret.state,
        ResourceState::NotFetched(NotFetchedReason::Disallowed)
    ));
    assert!(!secret.verdicts[0].allowed);
    assert!(!server.requests().contains(&"/private/secret".to_owned()));
    assert_eq!(status(&site, &server.url("/public")), 200);
    assert!(events.iter().any(|e| matches!(
        e,
        CrawlEvent::Skipped {
            reason: NotFetchedReason::Disallowed,
            ..
        }
    )));
}

#[tokio::test]
async fn assets_are_checked_by_their_headers_and_bounded() {
    let server = serve(
        ServedSite::new()
            .file(
                "index.html",
                "<html><head><link rel=\"stylesheet\" href=\"/s.css\"><script src=\"/a.js\"></script></head>\
                 <body><img src=\"/i.png\"><img src=\"/missing.png\"></body></html>",
            )
            .file("s.css", "body{}")
            .file("a.js", "1")
            .file("i.png", "png"),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(status(&site, &server.url("/s.css")), 200);
    assert_eq!(status(&site, &server.url("/missing.png")), 404);
    let css = site
        .page(resource(&site, &server.url("/s.css")))
        .expect("fetched");
    assert_eq!(css.content_type(), Some("text/css"));
    assert_eq!(css.body_len, 0, "assets: headers only");
    assert_eq!(site.stats.assets_fetched, 4);

    let mut bounded = config(server.url("/"));
    bounded.bounds.max_assets = 1;
    let (site, _) = run(bounded, &http()).await;
    assert_eq!(site.stats.assets_fetched, 1);
    assert!(site.stats.bounds_hit.contains(&Bound::MaxAssets(1)));
}

#[tokio::test]
async fn pages_only_in_the_sitemap_are_found() {
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&[]))
            .file(
                "sitemap.xml",
                "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                 <url><loc>{{origin}}/orphan</loc></url>\n</urlset>\n",
            )
            .file("orphan", page(&[])),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    let orphan = resource(&site, &server.url("/orphan"));
    assert_eq!(orphan.depth, None);
    assert_eq!(orphan.listing_count(), 1);
    assert_eq!(status(&site, &server.url("/orphan")), 200);
}

#[tokio::test]
async fn events_report_progress_and_end_with_done() {
    let server = serve(fan(3)).await;
    let (site, events) = run(config(server.url("/")), &http()).await;
    // The start URL is discovered, then robots.txt is the first thing fetched.
    assert!(matches!(
        events.first(),
        Some(CrawlEvent::Discovered {
            kind: RequestKind::Page,
            ..
        })
    ));
    let first_fetch = events
        .iter()
        .find(|e| !matches!(e, CrawlEvent::Discovered { .. }))
        .unwrap();
    assert!(matches!(
        first_fetch,
        CrawlEvent::RobotsFetched {
            status: Some(404),
            ..
        }
    ));
    let discovered = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                CrawlEvent::Discovered {
                    kind: RequestKind::Page,
                    ..
                }
            )
        })
        .count();
    assert_eq!(discovered, 4);
    let fetched = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                CrawlEvent::Fetched {
                    status: Some(200),
                    ..
                }
            )
        })
        .count();
    assert_eq!(fetched, 4);
    let last_progress = events
        .iter()
        .rev()
        .find_map(|e| match e {
            CrawlEvent::Progress(progress) => Some(*progress),
            _ => None,
        })
        .unwrap();
    assert_eq!(last_progress.pages_fetched, 4);
    assert_eq!(last_progress.in_flight, 0);
    assert_eq!(events.last(), Some(&CrawlEvent::Done(site.stats.clone())));
}

#[tokio::test]
async fn only_an_unusable_start_url_is_an_error() {
    let start = Url::parse("ftp://example.com/").unwrap();
    let on_event = |_: &CrawlEvent| {};
    let error = crawl(config(start), &http(), &StopHandle::new(), &on_event)
        .await
        .unwrap_err();
    assert!(matches!(error, CrawlError::UnsupportedStartUrl(_)));

    // An unreachable start URL is data: the site says what happened.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let start = Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
    let (site, _) = run(config(start.clone()), &http()).await;
    assert!(matches!(
        resource(&site, &start).state,
        ResourceState::Failed {
            kind: FailureKind::Connect,
            ..
        }
    ));
}

#[tokio::test]
async fn large_and_small_pages_are_both_prepared() {
    // Pages of 2 KB and 100 KB: the links of both are followed, the large body is not cut.
    let mut large = Route::new("/large");
    large.body_from = Some("large.html".to_owned());
    large.pad_bytes = Some(100_000);
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&["/large", "/small"]))
            .file("large.html", page(&["/from-large"]))
            .file("small", page(&["/from-small"]))
            .file("from-large", page(&[]))
            .file("from-small", page(&[]))
            .route(large),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    let large = site
        .page(resource(&site, &server.url("/large")))
        .expect("/large was fetched");
    assert!(large.body_len > 100_000);
    assert!(!large.body_truncated);
    assert_eq!(status(&site, &server.url("/from-large")), 200);
    assert_eq!(status(&site, &server.url("/from-small")), 200);
}
