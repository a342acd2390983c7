//! Back-off: a host answering 429 or 503 is paused for its `Retry-After` (or the back-off),
//! slowed down and asked again a bounded number of times; repeated server errors pause it too.
//! Times are measured at the server.

use crate::support::{config, http, run, serve, status};
use crawlgate_crawl::{HttpOptions, Retry};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use crawlgate_test_support::html::page;
use std::time::{Duration, Instant, SystemTime};

/// `/` linking to `/a`, `/b` and `/c`.
fn site() -> ServedSite {
    ServedSite::new()
        .file("index.html", page(&["/a", "/b", "/c"]))
        .file("a", page(&[]))
        .file("b", page(&[]))
        .file("c", page(&[]))
}

/// When each request for `path` arrived.
fn arrivals_of(server: &SiteServer, path: &str) -> Vec<Instant> {
    server
        .requests()
        .iter()
        .zip(server.arrival_times())
        .filter(|(target, _)| *target == path)
        .map(|(_, at)| at)
        .collect()
}

#[tokio::test]
async fn a_503_with_retry_after_seconds_pauses_the_host_and_is_asked_again() {
    let server = serve(
        site().route(
            Route::status("/a", 503, "busy")
                .header("Retry-After: 1")
                .times(1),
        ),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(status(&site, &server.url("/a")), 200);
    let asked = arrivals_of(&server, "/a");
    assert_eq!(asked.len(), 2, "{:?}", server.requests());
    assert!(asked[1] - asked[0] >= Duration::from_millis(900));
    let backoff = &site.stats.backoffs[0];
    assert_eq!(
        backoff.origin,
        server.url("/").origin().ascii_serialization()
    );
    assert_eq!((backoff.overloaded, backoff.retries), (1, 1));
    assert_eq!(backoff.longest_pause_millis, 1000);
    // A loopback host is not paced by default, so it is paused, not slowed down.
    assert_eq!(backoff.slowed_to_millis, None);
}

#[tokio::test]
async fn a_paced_host_that_answers_503_is_asked_at_half_its_rate_from_then_on() {
    let server = serve(
        site().route(
            Route::status("/a", 503, "busy")
                .header("Retry-After: 0")
                .times(1),
        ),
    )
    .await;
    let http = HttpOptions {
        pace: crawlgate_crawl::Pace::per_second(10.0).unwrap(),
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &http).await;
    assert_eq!(status(&site, &server.url("/a")), 200);
    assert_eq!(site.stats.backoffs[0].slowed_to_millis, Some(200));
    // Every request after the 503 starts at least 200 ms after the one before it.
    let first_503 = arrivals_of(&server, "/a")[0];
    let after: Vec<Instant> = server
        .arrival_times()
        .into_iter()
        .filter(|at| *at > first_503)
        .collect();
    assert!(after.len() >= 2);
    for pair in after.windows(2) {
        assert!(pair[1] - pair[0] >= Duration::from_millis(180), "{pair:?}");
    }
}

#[tokio::test]
async fn a_429_with_an_http_date_is_honoured_until_that_date() {
    let later = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(3));
    let server = serve(
        site().route(
            Route::status("/b", 429, "slow down")
                .header(format!("Retry-After: {later}"))
                .times(1),
        ),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(status(&site, &server.url("/b")), 200);
    let asked = arrivals_of(&server, "/b");
    assert_eq!(asked.len(), 2);
    // The date has a one-second resolution: at least two seconds later.
    assert!(asked[1] - asked[0] >= Duration::from_millis(1900));
    assert_eq!(site.stats.backoffs[0].retries, 1);
}

#[tokio::test]
async fn a_host_that_stays_overloaded_is_asked_a_bounded_number_of_times() {
    let server = serve(site().route(Route::status("/c", 429, "no").header("Retry-After: 0"))).await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    // The last answer is what the audit records.
    assert_eq!(status(&site, &server.url("/c")), 429);
    assert_eq!(
        arrivals_of(&server, "/c").len(),
        1 + Retry::DEFAULT.max_retries as usize
    );
    let backoff = &site.stats.backoffs[0];
    assert_eq!((backoff.overloaded, backoff.retries), (3, 2));

    let once = HttpOptions {
        retry: Retry {
            max_retries: 0,
            ..Retry::DEFAULT
        },
        ..http()
    };
    let server = serve(site_with_busy_c()).await;
    let (site, _) = run(config(server.url("/")), &once).await;
    assert_eq!(status(&site, &server.url("/c")), 429);
    assert_eq!(arrivals_of(&server, "/c").len(), 1);
}

fn site_with_busy_c() -> ServedSite {
    site().route(Route::status("/c", 429, "no").header("Retry-After: 0"))
}

#[tokio::test]
async fn a_retry_after_past_the_bound_pauses_the_host_for_the_bound_and_the_answer_stands() {
    let server = serve(
        site().route(
            Route::status("/a", 503, "down for maintenance")
                .header("Retry-After: 86400")
                .times(1),
        ),
    )
    .await;
    let http = HttpOptions {
        // One request at a time: the next one after the 503 shows the pause.
        per_host: Some(1),
        retry: Retry {
            max_pause: Duration::from_millis(700),
            ..Retry::DEFAULT
        },
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &http).await;
    // Asking again before the date would not honour it: the 503 is what the audit records.
    assert_eq!(status(&site, &server.url("/a")), 503);
    assert_eq!(arrivals_of(&server, "/a").len(), 1);
    let backoff = &site.stats.backoffs[0];
    assert_eq!((backoff.overloaded, backoff.retries), (1, 0));
    assert_eq!(backoff.longest_pause_millis, 700);
    let answered = arrivals_of(&server, "/a")[0];
    let next = server
        .arrival_times()
        .into_iter()
        .find(|at| *at > answered)
        .expect("a request after /a");
    assert!(
        next - answered >= Duration::from_millis(600),
        "{:?}",
        next - answered
    );
}

#[tokio::test]
async fn an_unpaced_loopback_host_is_paused_a_few_seconds_at_most() {
    let server = serve(
        site().route(
            Route::status("/a", 503, "busy")
                .header("Retry-After: 3600")
                .times(1),
        ),
    )
    .await;
    let started = Instant::now();
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(status(&site, &server.url("/a")), 503);
    assert_eq!(site.stats.backoffs[0].longest_pause_millis, 3000);
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[tokio::test]
async fn repeated_server_errors_pause_the_host_without_asking_again() {
    let server = serve(
        site()
            .route(Route::status("/a", 500, "oops"))
            .route(Route::status("/b", 502, "oops"))
            .route(Route::status("/c", 504, "oops")),
    )
    .await;
    let http = HttpOptions {
        // One request at a time, so the errors come in a known order.
        per_host: Some(1),
        retry: Retry {
            backoff: Duration::from_millis(300),
            ..Retry::DEFAULT
        },
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &http).await;
    for path in ["/a", "/b", "/c"] {
        assert_eq!(arrivals_of(&server, path).len(), 1, "{path}");
    }
    let backoff = &site.stats.backoffs[0];
    assert_eq!(backoff.overloaded, 0);
    assert_eq!(backoff.retries, 0);
    // The second and the third error in a row each paused the host, the third for longer.
    assert_eq!(backoff.repeated_failures, 2);
    assert_eq!(backoff.longest_pause_millis, 600);
    assert_eq!(backoff.slowed_to_millis, None);
    let (b, c) = (arrivals_of(&server, "/b")[0], arrivals_of(&server, "/c")[0]);
    assert!(c - b >= Duration::from_millis(270), "{:?}", c - b);
}

#[tokio::test]
async fn a_healthy_site_is_never_backed_off() {
    let server = serve(site()).await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert!(site.stats.backoffs.is_empty());
    assert_eq!(site.stats.pages_fetched, 4);
}
