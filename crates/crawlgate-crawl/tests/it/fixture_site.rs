//! The `fixtures/sites/crawl-basic` site, read from its folder (with `_routes.toml`) and crawled.

use crate::support::{config, http, resource, run, status};
use crawlgate_core::site::{FailureKind, ReferenceKind, ResourceKind, ResourceState, RobotsEffect};
use crawlgate_crawl::HttpOptions;
use crawlgate_serve::{ServedSite, SiteServer};
use crawlgate_test_support::served;
use std::time::Duration;

fn crawl_basic() -> ServedSite {
    served::fixture_site("crawl-basic")
}

#[tokio::test]
async fn the_crawl_basic_site_is_crawled_with_every_fact_recorded() {
    let server = SiteServer::start(crawl_basic()).await.unwrap();
    let options = HttpOptions {
        request_timeout: Duration::from_secs(1),
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &options).await;

    let robots = site.robots_for(&server.url("/")).unwrap();
    assert_eq!(robots.effect, RobotsEffect::Rules);
    assert_eq!(site.sitemaps.len(), 1);
    assert!(site.sitemaps[0].advertised());

    for path in [
        "/",
        "/about",
        "/blog/",
        "/blog/first-post",
        "/new-page",
        "/orphan",
    ] {
        assert_eq!(status(&site, &server.url(path)), 200, "{path}");
    }
    assert_eq!(
        resource(&site, &server.url("/blog/first-post")).depth,
        Some(2)
    );
    assert_eq!(resource(&site, &server.url("/orphan")).depth, None);

    // Blocked and noindex: fetched for diagnosis, the verdict says blocked.
    let report = resource(&site, &server.url("/private/report"));
    assert!(!report.verdicts[0].allowed);
    assert!(
        site.directives(report, &site.profiles[0])
            .is_some_and(|d| d.is_noindex())
    );
    // The header noindex (a route) reached the page's signals.
    let by_header = resource(&site, &server.url("/noindexed-by-header"));
    assert!(
        site.directives(by_header, &site.profiles[0])
            .is_some_and(|d| d.is_noindex())
    );
    // The route's redirect and the route's delay.
    assert!(matches!(
        resource(&site, &server.url("/old-page")).state,
        ResourceState::Redirected { .. }
    ));
    assert!(matches!(
        resource(&site, &server.url("/docs")).state,
        ResourceState::Failed {
            kind: FailureKind::Timeout,
            ..
        }
    ));
    // Assets by kind, with the page that references them.
    let css = resource(&site, &server.url("/assets/site.css"));
    assert!(matches!(css.kind, ResourceKind::Asset(_)));
    assert_eq!(*site.references(css)[0].from, server.url("/"));
    assert!(matches!(
        site.references(css)[0].kind,
        ReferenceKind::Asset(_)
    ));
    assert_eq!(status(&site, &server.url("/assets/logo.png")), 200);
}

#[test]
fn a_background_server_serves_synchronous_callers_and_stops_when_dropped() {
    let server = SiteServer::start_in_background(crawl_basic()).unwrap();
    let addr = server.addr();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    std::io::Write::write_all(
        &mut stream,
        b"GET /robots.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(&format!("Sitemap: http://{addr}/sitemap.xml")));
    assert_eq!(server.requests(), ["/robots.txt"]);
    drop(server);
    assert!(std::net::TcpStream::connect(addr).is_err());
}
