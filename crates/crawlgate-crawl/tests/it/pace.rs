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
    // Each start is about an interval after the one before it. The times are taken where the
    // server reads the request: on a loaded two-core machine (the rest of the suite runs
    // alongside) one late read shortens the next gap, so the slack is a quarter; without the
    // pace the gaps are a millisecond or less.
    for gap in gaps(&arrivals) {
        assert!(gap >= interval.mul_f64(0.75), "gap {gap:?} < {interval:?}");
    }
    // And the crawl does not dawdle: the measured rate is within a quarter of the pace.
    let span = *arrivals.last().unwrap() - arrivals[0];
    let measured = f64::from(u32::try_from(arrivals.len() - 1).unwrap()) / span.as_secs_f64();
    assert!(
        (measured - rate).abs() <= rate * 0.25,
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
    let least = f64::from(u32::try_from(requests - 1).unwrap()) / 4.0 * 0.9;
    assert!(started.elapsed() >= Duration::from_secs_f64(least));
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

/// `/` linking to 3 pages, with `robots` as robots.txt.
fn site_with_robots(robots: &str) -> ServedSite {
    let paths = ["/a", "/b", "/c"];
    let mut site = ServedSite::new()
        .file("index.html", page(&paths))
        .file("robots.txt", robots.to_owned());
    for path in paths {
        site = site.file(path, page(&[]));
    }
    site
}

/// A pace fast enough not to matter, applied to loopback hosts too.
fn fast_everywhere() -> Pace {
    Pace::per_second(100.0).unwrap()
}

#[tokio::test]
async fn a_crawl_delay_for_crawlgate_spaces_the_requests_after_robots_txt() {
    let server = serve(site_with_robots(
        "User-agent: googlebot\nCrawl-delay: 9\nDisallow: /g\n\nUser-agent: *\nCrawl-delay: 0.3\nDisallow: /x\n",
    ))
    .await;
    let http = HttpOptions {
        pace: fast_everywhere(),
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &http).await;
    assert_eq!(site.stats.pages_fetched, 4);
    let honoured = &site.stats.crawl_delays;
    assert_eq!(honoured.len(), 1, "{honoured:?}");
    assert_eq!((honoured[0].millis, honoured[0].line), (300, 6));
    assert_eq!(
        honoured[0].origin,
        server.url("/").origin().ascii_serialization()
    );
    // robots.txt first, then every request at least the delay after the one before.
    assert_eq!(server.requests()[0], "/robots.txt");
    for gap in gaps(&server.arrival_times()) {
        assert!(gap >= Duration::from_millis(270), "gap {gap:?}");
    }
}

#[tokio::test]
async fn a_crawl_delay_is_not_waited_when_ignored_or_not_for_crawlgate_or_on_loopback() {
    let robots_for_all = "User-agent: *\nCrawl-delay: 5\n";
    for (robots, pace) in [
        // --ignore-crawl-delay.
        (
            robots_for_all,
            Pace {
                honour_crawl_delay: false,
                ..fast_everywhere()
            },
        ),
        // Only Googlebot's group has one; crawlgate reads the `*` group, which has none. (The
        // `Disallow` ends Googlebot's group: with no rule between them, Google's parser reads
        // consecutive user-agent lines as one group, and the delay would apply to both.)
        (
            "User-agent: googlebot\nCrawl-delay: 5\nDisallow: /g\n\nUser-agent: *\nDisallow: /x\n",
            fast_everywhere(),
        ),
        // The default pace leaves hosts on this machine alone (the demo's robots.txt asks 5 s).
        (robots_for_all, Pace::DEFAULT),
    ] {
        let server = serve(site_with_robots(robots)).await;
        let http = HttpOptions { pace, ..http() };
        let started = Instant::now();
        let (site, _) = run(config(server.url("/")), &http).await;
        assert_eq!(site.stats.pages_fetched, 4, "{robots:?} {pace:?}");
        assert!(site.stats.crawl_delays.is_empty(), "{robots:?} {pace:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{robots:?} {pace:?}"
        );
    }
}

#[tokio::test]
async fn progress_counts_only_the_requests_actually_open() {
    // Slow pages and one request at a time to the host: the driver holds the rest back, and
    // the progress display must not count them as in flight.
    let mut slow = site();
    for i in 0..11 {
        slow = slow.route(Route::new(format!("/p{i}")).delay_ms(50));
    }
    let server = serve(slow).await;
    let http = HttpOptions {
        per_host: Some(1),
        ..http()
    };
    let (site, events) = run(config(server.url("/")), &http).await;
    assert_eq!(site.stats.pages_fetched, 12);
    let most = events
        .iter()
        .filter_map(|event| match event {
            crawlgate_core::crawl::CrawlEvent::Progress(counts) => Some(counts.in_flight),
            _ => None,
        })
        .max()
        .unwrap();
    assert!(most <= 1, "{most} in flight with one request at a time");
    assert_eq!(server.peak_in_flight(), 1);
}
