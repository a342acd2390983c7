//! `HttpOptions::resolve`: made-up host names answered from a fixed address instead of DNS (like
//! curl's `--resolve`), for single fetches and whole crawls; sites served on 127.0.0.1.

use crate::support::{config, http, run, serve, status};
use crawlgate_crawl::{ClientError, Fetcher, HttpOptions, ResolveError};
use crawlgate_serve::{HostNames, ServedSite, SiteGroup};
use crawlgate_test_support::html::page;
use std::net::SocketAddr;
use url::Url;

const MIB: u64 = 1024 * 1024;

fn resolving(pairs: &[(&str, SocketAddr)]) -> HttpOptions {
    HttpOptions {
        resolve: pairs
            .iter()
            .map(|(host, addr)| ((*host).to_owned(), *addr))
            .collect(),
        ..http()
    }
}

fn url(text: &str) -> Url {
    Url::parse(text).unwrap()
}

#[tokio::test]
async fn a_made_up_host_name_reaches_the_address_it_is_resolved_to() {
    let server = serve(ServedSite::new().file("index.html", "<p>shop</p>")).await;
    let fetcher = Fetcher::new(&resolving(&[("Shop.Crawlgate.test", server.addr())])).unwrap();
    // The URL names no port: the address's port is used.
    let received = fetcher
        .fetch_url(&url("http://shop.crawlgate.test/"), 10, Some(MIB))
        .await
        .outcome
        .expect("the server answers under the made-up name");
    assert_eq!(received.status, 200);
    assert_eq!(received.body, b"<p>shop</p>");
    assert_eq!(received.final_url.as_str(), "http://shop.crawlgate.test/");
    assert_eq!(server.requests(), ["/"]);
}

#[tokio::test]
async fn a_port_in_the_url_wins_over_the_addresss_and_port_0_means_the_urls() {
    let server = serve(ServedSite::new().file("index.html", "<p>new</p>")).await;
    let port = server.addr().port();
    let unused: SocketAddr = "127.0.0.1:0".parse().unwrap();
    // Port 0: the URL's port.
    let fetcher = Fetcher::new(&resolving(&[("new.crawlgate.test", unused)])).unwrap();
    let at_port = url(&format!("http://new.crawlgate.test:{port}/"));
    let received = fetcher.fetch_url(&at_port, 10, Some(MIB)).await.outcome;
    assert_eq!(received.unwrap().status, 200);
    // A port in the address is overridden by the URL's.
    let elsewhere: SocketAddr = "127.0.0.1:9".parse().unwrap();
    let fetcher = Fetcher::new(&resolving(&[("new.crawlgate.test", elsewhere)])).unwrap();
    let received = fetcher.fetch_url(&at_port, 10, Some(MIB)).await.outcome;
    assert_eq!(received.unwrap().status, 200);
}

#[tokio::test]
async fn a_crawl_under_a_host_name_stays_on_it_and_follows_its_links() {
    let server = serve(
        ServedSite::new()
            .file("robots.txt", "User-agent: *\nDisallow: /private\n")
            .file("index.html", page(&["/a", "http://shop.crawlgate.test/b"]))
            .file("a", page(&[]))
            .file("b", page(&[])),
    )
    .await;
    let start = url("http://shop.crawlgate.test/");
    let (site, _) = run(
        config(start.clone()),
        &resolving(&[("shop.crawlgate.test", server.addr())]),
    )
    .await;
    for path in ["/", "/a", "/b"] {
        assert_eq!(status(&site, &start.join(path).unwrap()), 200, "{path}");
    }
    assert!(site.robots_for(&start).is_some());
    let mut requests = server.requests();
    requests.sort();
    assert_eq!(requests, ["/", "/a", "/b", "/robots.txt", "/sitemap.xml"]);
}

#[test]
fn a_group_named_by_host_names_is_crawled_through_its_resolve_list() {
    let www = ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file("index.html", page(&["{{origin:help}}/", "/about"]))
        .file("about", page(&[]));
    let help = ServedSite::new().file("index.html", page(&["{{origin:www}}/"]));
    let group = SiteGroup::start_named_in_background(
        [("www".to_owned(), www), ("help".to_owned(), help)],
        &HostNames::new("shop.test"),
    )
    .unwrap();
    let start = group.url("www", "/").unwrap();
    assert_eq!(start.as_str(), "http://www.shop.test/");
    let mut config = config(start.clone());
    config.scope.allow_hosts = vec![group.fill("{{host:help}}")];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let http = HttpOptions {
        resolve: group.resolve(),
        ..http()
    };
    let (site, _) = runtime.block_on(run(config, &http));
    assert_eq!(status(&site, &url("http://www.shop.test/about")), 200);
    assert_eq!(status(&site, &url("http://help.shop.test/")), 200);
    assert!(site.robots_for(&url("http://help.shop.test/")).is_some());
}

#[test]
fn an_override_naming_no_host_is_a_client_error() {
    let addr: SocketAddr = "127.0.0.1:80".parse().unwrap();
    for host in ["127.0.0.1", "*.example.com", "", "www.example.com:8080"] {
        let error = Fetcher::new(&resolving(&[(host, addr)])).unwrap_err();
        assert!(
            matches!(error, ClientError::Resolve(ResolveError::Host { .. })),
            "{host}: {error}"
        );
    }
}
