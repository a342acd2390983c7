//! Politeness: request starts to one host are spaced by the pace, measured at the server; hosts
//! on this machine are not paced by default.

use crate::support::{config, http, run, serve};
use crawlgate_crawl::{HttpOptions, Pace};
use crawlgate_serve::{Route, ServedSite};
use crawlgate_test_support::html::page;
use std::time::{Duration, Instant};

/// `/` linking to 11 pages: 12 pages, plus robots.txt and the sitemap probe.
fn site() -> ServedSite {
    let paths: Vec<String> = (0..11).map(|i| format!("/p{i}")).collect();
    let links: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut site = ServedSite::new().file("index.html", page(&links));
    for path in &paths {
        site = site.file(path, page(&[]));
    }
    site
}

/// The gaps between consecutive request arrivals.
fn gaps(arrivals: &[Instant]) -> Vec<Duration> {
    arrivals.windows(2).map(|w| w[1] - w[0]).collect()
}

#[tokio::test]
async fn an_explicit_rate_spaces_every_request_to_a_host_even_on_loopback() {
    let server = serve(site()).await;
    let rate = 10.0;
    let http = HttpOptions {
        pace: Pace::per_second(rate).unwrap(),
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &http).await;
    assert_eq!(site.stats.pages_fetched, 12);
    let arrivals = server.arrival_times();
    assert!(arrivals.len() >= 13, "{:?}", server.requests());
    let interval = Duration::from_secs_f64(1.0 / rate);
    // Each start is at least an interval after the one before it (a little slack for the time
    // between the client sending and the server reading).
    for gap in gaps(&arrivals) {
        assert!(gap >= interval.mul_f64(0.9), "gap {gap:?} < {interval:?}");
    }
    // And the crawl does not dawdle: the measured rate is within 10% of the pace.
    let span = *arrivals.last().unwrap() - arrivals[0];
    let measured = (arrivals.len() - 1) as f64 / span.as_secs_f64();
    assert!(
        (measured - rate).abs() <= rate * 0.1,
        "measured {measured:.1}/s for a pace of {rate}/s"
    );
}

#[tokio::test]
async fn a_slow_pace_holds_requests_back_while_nothing_runs() {
    let server = serve(site()).await;
    let http = HttpOptions {
        // 4 per second: the whole crawl takes over three seconds, its requests never overlap.
        pace: Pace::per_second(4.0).unwrap(),
        ..http()
    };
    let started = Instant::now();
    let (site, _) = run(config(server.url("/")), &http).await;
    assert_eq!(site.stats.pages_fetched, 12);
    assert_eq!(server.peak_in_flight(), 1);
    let requests = server.arrival_times().len();
    assert!(started.elapsed() >= Duration::from_secs_f64((requests - 1) as f64 / 4.0 * 0.9));
}

#[tokio::test]
async fn the_default_pace_leaves_loopback_hosts_unlimited() {
    // Each page takes 200 ms to answer, so unpaced requests overlap.
    let mut slow = site();
    for i in 0..11 {
        slow = slow.route(Route::new(format!("/p{i}")).delay_ms(200));
    }
    let server = serve(slow).await;
    assert_eq!(http().pace, Pace::DEFAULT);
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(site.stats.pages_fetched, 12);
    // Unpaced, the 11 pages linked from `/` are asked for together (8 per host at once).
    assert!(server.peak_in_flight() > 1, "{}", server.peak_in_flight());
}

#[test]
fn a_pace_has_an_interval_per_kind_of_host_and_says_what_it_is() {
    assert_eq!(
        Pace::DEFAULT.interval(false),
        Some(Duration::from_millis(200))
    );
    assert_eq!(Pace::DEFAULT.interval(true), None);
    assert_eq!(Pace::UNLIMITED.interval(false), None);
    let half = Pace::per_second(0.5).unwrap();
    assert_eq!(half.interval(true), Some(Duration::from_secs(2)));
    assert_eq!(Pace::per_second(0.0), None);
    assert_eq!(Pace::per_second(f64::NAN), None);
    assert_eq!(Pace::per_second(f64::INFINITY), None);
    assert_eq!(
        Pace::DEFAULT.to_string(),
        "at most 5 requests/s per host (loopback hosts unlimited)"
    );
    assert_eq!(half.to_string(), "at most 0.5 requests/s per host");
    assert_eq!(Pace::UNLIMITED.to_string(), "no rate limit");
}
