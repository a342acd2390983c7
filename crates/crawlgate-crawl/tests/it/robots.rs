//! robots.txt over HTTP with Google's status semantics (RULES.md §1.1): each status and failure
//! gives its effect, for `fetch_robots` and inside a crawl.

use crate::support::{config, http, resource, run, serve};
use crawlgate_core::site::{FailureKind, ResourceState, RobotsEffect};
use crawlgate_crawl::{HttpOptions, fetch_robots};
use crawlgate_serve::{Route, ServedSite};
use crawlgate_test_support::html::page;
use std::time::Duration;

const RULES: &str = "User-agent: *\nDisallow: /private/\n";

/// The effect of a site whose robots.txt is answered by `route`.
async fn effect_of(site: ServedSite, options: &HttpOptions) -> (RobotsEffect, Option<u16>, usize) {
    let server = serve(site).await;
    // Any URL of the origin: its /robots.txt is what counts.
    let robots = fetch_robots(&server.url("/some/page?x=1"), options).await;
    assert_eq!(robots.url, server.url("/robots.txt"));
    (robots.effect, robots.status(), robots.hops.len())
}

fn answering(status: u16) -> ServedSite {
    ServedSite::new().route(Route::status("/robots.txt", status, RULES))
}

#[tokio::test]
async fn a_2xx_is_parsed_and_its_rules_apply() {
    let server = serve(ServedSite::new().file("robots.txt", RULES)).await;
    let robots = fetch_robots(&server.url("/"), &http()).await;
    assert_eq!(robots.effect, RobotsEffect::Rules);
    assert_eq!(robots.status(), Some(200));
    let verdict = robots.parsed.agent(&["googlebot"]).verdict("/private/x");
    assert!(!verdict.allowed);
    assert_eq!(robots.body(), Some(RULES.as_bytes()));
}

#[tokio::test]
async fn redirects_are_followed_up_to_five_hops_then_treated_as_404() {
    // Five hops then the file: rules.
    let mut five = ServedSite::new().file("final.txt", RULES);
    for hop in 0..5 {
        let from = if hop == 0 {
            "/robots.txt".to_owned()
        } else {
            format!("/r{hop}")
        };
        let to = if hop == 4 {
            "/final.txt".to_owned()
        } else {
            format!("/r{}", hop + 1)
        };
        five = five.route(Route::redirect(from, 301, to));
    }
    assert_eq!(
        effect_of(five, &http()).await,
        (RobotsEffect::Rules, Some(200), 5)
    );

    // Six hops: Google gives up and treats it as a 404.
    let mut six = ServedSite::new().file("final.txt", RULES);
    for hop in 0..6 {
        let from = if hop == 0 {
            "/robots.txt".to_owned()
        } else {
            format!("/r{hop}")
        };
        let to = if hop == 5 {
            "/final.txt".to_owned()
        } else {
            format!("/r{}", hop + 1)
        };
        six = six.route(Route::redirect(from, 302, to));
    }
    assert_eq!(
        effect_of(six, &http()).await,
        (RobotsEffect::AllowAll, Some(200), 6)
    );
}

#[tokio::test]
async fn a_301_to_a_404_allows_all() {
    let site = ServedSite::new().route(Route::redirect("/robots.txt", 301, "/gone.txt"));
    assert_eq!(
        effect_of(site, &http()).await,
        (RobotsEffect::AllowAll, Some(404), 1)
    );
}

#[tokio::test]
async fn client_errors_allow_all_except_429() {
    for status in [404, 401, 403, 410] {
        assert_eq!(
            effect_of(answering(status), &http()).await,
            (RobotsEffect::AllowAll, Some(status), 0),
            "{status}"
        );
    }
    assert_eq!(
        effect_of(answering(429), &http()).await,
        (RobotsEffect::DisallowAll, Some(429), 0)
    );
}

#[tokio::test]
async fn server_errors_disallow_all() {
    for status in [500, 503] {
        assert_eq!(
            effect_of(answering(status), &http()).await,
            (RobotsEffect::DisallowAll, Some(status), 0),
            "{status}"
        );
    }
}

#[tokio::test]
async fn a_timeout_disallows_all() {
    let site = ServedSite::new().route(Route::status("/robots.txt", 200, RULES).delay_ms(5_000));
    let options = HttpOptions {
        request_timeout: Duration::from_secs(1),
        ..http()
    };
    let server = serve(site).await;
    let robots = fetch_robots(&server.url("/"), &options).await;
    assert_eq!(robots.effect, RobotsEffect::DisallowAll);
    assert!(matches!(robots.outcome, Err((FailureKind::Timeout, _))));
}

#[tokio::test]
async fn a_refused_connection_disallows_all() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = url::Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
    let robots = fetch_robots(&url, &http()).await;
    assert_eq!(robots.effect, RobotsEffect::DisallowAll);
    assert!(matches!(robots.outcome, Err((FailureKind::Connect, _))));
}

#[tokio::test]
async fn the_crawl_fetches_robots_txt_first_and_computes_verdicts_from_it() {
    let server = serve(
        ServedSite::new()
            .route(Route::status("/robots.txt", 503, "down"))
            .file("index.html", page(&["/a"]))
            .file("a", page(&[])),
    )
    .await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(
        server.requests().first().map(String::as_str),
        Some("/robots.txt")
    );
    let robots = site.robots_for(&server.url("/")).unwrap();
    assert_eq!(robots.effect, RobotsEffect::DisallowAll);
    // Disallowed for googlebot (robots.txt unreachable), fetched for diagnosis all the same.
    let a = resource(&site, &server.url("/a"));
    assert!(!a.verdicts[0].allowed);
    assert!(matches!(a.state, ResourceState::Fetched(_)));
}

#[tokio::test]
async fn a_robots_override_is_read_instead_of_the_live_file_which_is_never_fetched() {
    let server = serve(
        ServedSite::new()
            .file("robots.txt", "User-agent: *\nDisallow: /shop/\n")
            .file("index.html", page(&["/shop/", "/blog/"]))
            .file("shop/index.html", page(&[]))
            .file("blog/index.html", page(&[])),
    )
    .await;
    let mut config = config(server.url("/"));
    let origin = server.url("/").origin().ascii_serialization();
    config.robots_overrides.insert(
        origin,
        crawlgate_core::site::RobotsOverride {
            name: "robots-new.txt".to_owned(),
            body: b"User-agent: *\nDisallow: /blog/\n".to_vec(),
        },
    );
    let (site, _) = run(config, &http()).await;
    assert!(
        !server.requests().iter().any(|r| r == "/robots.txt"),
        "{:?}",
        server.requests()
    );
    let robots = site.robots_for(&site.start_url).unwrap();
    assert_eq!(robots.overridden_by.as_deref(), Some("robots-new.txt"));
    assert_eq!(robots.status(), Some(200));
    assert!(robots.effect_reason.contains("robots-new.txt"));
    // The verdicts are the override's: /blog/ is blocked, /shop/ is not.
    assert!(!site.verdict(0, &server.url("/blog/")).allowed);
    assert!(site.verdict(0, &server.url("/shop/")).allowed);
}
