//! What is fetched over HTTP: `--include`/`--exclude` patterns, list mode, `--sitemap-only`
//! and `--include-subdomains` under the registrable domain. Each test asserts exactly which
//! paths the servers (on 127.0.0.1) received.

use crate::support::{config, http, resource, run, serve};
use crawlgate_core::UrlPattern;
use crawlgate_core::crawl::{CrawlError, CrawlMode};
use crawlgate_core::site::{NotFetchedReason, ResourceState};
use crawlgate_crawl::{HttpOptions, StopHandle, crawl};
use crawlgate_serve::{ServedSite, SiteServer};
use crawlgate_test_support::html::page;
use url::Url;

/// `/` links to `/shop/`, `/blog/` and `/about`; `/shop/` to `/shop/tent` and
/// `/shop/tent?sort=price`; `/blog/` to `/blog/post`. The sitemap lists `/shop/tent`,
/// `/blog/post` and `/orphan`, which links to `/hidden`. `/` has a stylesheet.
fn shop() -> ServedSite {
    ServedSite::new()
        .file(
            "robots.txt",
            "User-agent: *\nAllow: /\nSitemap: {{origin}}/sitemap.xml\n",
        )
        .file(
            "sitemap.xml",
            "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
             <url><loc>{{origin}}/shop/tent</loc></url>\n\
             <url><loc>{{origin}}/blog/post</loc></url>\n\
             <url><loc>{{origin}}/orphan</loc></url>\n</urlset>\n",
        )
        .file(
            "index.html",
            "<html><head><link rel=\"stylesheet\" href=\"/style.css\"></head><body>\
             <a href=\"/shop/\">shop</a> <a href=\"/blog/\">blog</a> <a href=\"/about\">about</a>\
             </body></html>",
        )
        .file("style.css", "body{}")
        .file("shop/index.html", page(&["/shop/tent", "/shop/tent?sort=price"]))
        .file("shop/tent", page(&["/shop/"]))
        .file("blog/index.html", page(&["/blog/post"]))
        .file("blog/post", page(&[]))
        .file("about", page(&[]))
        .file("orphan", page(&["/hidden"]))
        .file("hidden", page(&[]))
}

/// The request targets the server received, sorted.
fn received(server: &SiteServer) -> Vec<String> {
    let mut requests = server.requests();
    requests.sort();
    requests
}

fn pattern(text: &str) -> UrlPattern {
    UrlPattern::parse(text).unwrap()
}

fn not_fetched(site: &crawlgate_core::Site, url: &Url) -> Option<NotFetchedReason> {
    match resource(site, url).state {
        ResourceState::NotFetched(reason) => Some(reason),
        _ => None,
    }
}

#[tokio::test]
async fn exclude_patterns_keep_pages_unfetched_and_count_them() {
    let server = serve(shop()).await;
    let mut config = config(server.url("/"));
    config.scope.exclude = vec![pattern("*/blog/*"), pattern("*[?]sort=*")];
    let (site, _) = run(config, &http()).await;
    assert_eq!(
        received(&server),
        [
            "/",
            "/about",
            "/hidden",
            "/orphan",
            "/robots.txt",
            "/shop/",
            "/shop/tent",
            "/sitemap.xml",
            "/style.css",
        ]
    );
    for path in ["/blog/", "/blog/post", "/shop/tent?sort=price"] {
        assert_eq!(
            not_fetched(&site, &server.url(path)),
            Some(NotFetchedReason::Excluded),
            "{path}"
        );
    }
    assert_eq!(site.stats.urls_excluded, 3);
}

#[tokio::test]
async fn include_patterns_fetch_only_the_pages_they_match() {
    let server = serve(shop()).await;
    let start = server.url("/");
    let mut config = config(start.clone());
    config.scope.include = vec![pattern(start.as_str()), pattern("*/shop/*")];
    let (site, _) = run(config, &http()).await;
    assert_eq!(
        received(&server),
        [
            "/",
            "/robots.txt",
            "/shop/",
            "/shop/tent",
            "/shop/tent?sort=price",
            "/sitemap.xml",
            "/style.css",
        ]
    );
    // /about, /blog/ (links), /blog/post and /orphan (sitemap).
    assert_eq!(site.stats.urls_excluded, 4);
}

#[tokio::test]
async fn an_excluded_start_url_is_an_error_before_any_request() {
    let server = serve(shop()).await;
    let mut config = config(server.url("/"));
    config.scope.include = vec![pattern("*/shop/*")];
    let error = crawl(config, &http(), &StopHandle::new(), &|_| {})
        .await
        .unwrap_err();
    assert!(matches!(error, CrawlError::StartExcluded { .. }), "{error}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn list_mode_fetches_the_listed_urls_of_every_origin_and_nothing_they_link() {
    let server = serve(shop()).await;
    let other = serve(
        ServedSite::new()
            .file("robots.txt", "User-agent: *\nDisallow: /private\n")
            .file("landing", page(&["/private", "/more"])),
    )
    .await;
    let mut config = config(server.url("/shop/"));
    config.mode = CrawlMode::List;
    config.listed = vec![server.url("/shop/"), server.url("/"), other.url("/landing")];
    let (site, _) = run(config, &http()).await;
    // robots.txt and sitemaps of each origin, the listed pages and the listed pages' assets.
    assert_eq!(
        received(&server),
        ["/", "/robots.txt", "/shop/", "/sitemap.xml", "/style.css"]
    );
    // No Sitemap: line, and not the start origin: no /sitemap.xml probe there.
    assert_eq!(received(&other), ["/landing", "/robots.txt"]);
    for url in [
        server.url("/shop/tent"),
        server.url("/about"),
        server.url("/orphan"),
        other.url("/private"),
        other.url("/more"),
    ] {
        assert_eq!(
            not_fetched(&site, &url),
            Some(NotFetchedReason::NotListed),
            "{url}"
        );
    }
    // Recorded links keep their evidence, and verdicts come from each origin's robots.txt.
    assert!(!resource(&site, &other.url("/private")).verdicts[0].allowed);
    assert_eq!(site.stats.pages_fetched, 3);
}

#[tokio::test]
async fn list_mode_without_assets_fetches_only_pages_robots_txt_and_sitemaps() {
    let server = serve(shop()).await;
    let mut config = config(server.url("/"));
    config.mode = CrawlMode::List;
    config.listed = vec![server.url("/"), server.url("/hidden")];
    config.fetch_assets = false;
    config.scope.exclude = vec![pattern("*/hidden")];
    let (site, _) = run(config, &http()).await;
    assert_eq!(received(&server), ["/", "/robots.txt", "/sitemap.xml"]);
    assert_eq!(
        not_fetched(&site, &server.url("/hidden")),
        Some(NotFetchedReason::Excluded)
    );
}

#[tokio::test]
async fn sitemap_only_fetches_what_the_sitemaps_list_and_follows_no_link() {
    let server = serve(shop()).await;
    let mut config = config(server.url("/"));
    config.mode = CrawlMode::SitemapOnly;
    let (site, _) = run(config, &http()).await;
    assert_eq!(
        received(&server),
        [
            "/blog/post",
            "/orphan",
            "/robots.txt",
            "/shop/tent",
            "/sitemap.xml"
        ]
    );
    for path in ["/", "/shop/", "/hidden"] {
        assert_eq!(
            not_fetched(&site, &server.url(path)),
            Some(NotFetchedReason::NotListed),
            "{path}"
        );
    }
}

#[tokio::test]
async fn sitemap_only_reads_a_given_sitemap_and_keeps_the_page_bound() {
    let server = serve(shop().file(
        "extra.xml",
        "{{origin}}/\n{{origin}}/about\n{{origin}}/hidden\n",
    ))
    .await;
    let mut config = config(server.url("/"));
    config.mode = CrawlMode::SitemapOnly;
    config.sitemaps = vec![server.url("/extra.xml")];
    config.fetch_assets = false;
    config.scope.exclude = vec![pattern("*/blog/*")];
    let (site, _) = run(config, &http()).await;
    assert_eq!(
        received(&server),
        [
            "/",
            "/about",
            "/extra.xml",
            "/hidden",
            "/orphan",
            "/robots.txt",
            "/shop/tent",
            "/sitemap.xml",
        ]
    );
    assert_eq!(
        not_fetched(&site, &server.url("/blog/post")),
        Some(NotFetchedReason::Excluded)
    );
    // Now the page bound.
    let mut bounded = crate::support::config(server.url("/"));
    bounded.mode = CrawlMode::SitemapOnly;
    bounded.fetch_assets = false;
    bounded.bounds.max_pages = 2;
    let (site, _) = run(bounded, &http()).await;
    assert_eq!(site.stats.pages_fetched, 2);
    assert!(site.stats.is_partial());
}

/// One server per host name, each reached through `HttpOptions::resolve` on its own port
/// (the URLs name none).
fn resolving(servers: &[(&str, &SiteServer)]) -> HttpOptions {
    HttpOptions {
        resolve: servers
            .iter()
            .map(|(host, server)| ((*host).to_owned(), server.addr()))
            .collect(),
        ..http()
    }
}

#[tokio::test]
async fn include_subdomains_covers_the_registrable_domain_and_no_other() {
    let www = serve(ServedSite::new().file(
        "index.html",
        page(&[
            "http://shop.example.test/",
            "http://example.test/",
            "http://www.other.test/",
            "http://www.example.co.uk/",
        ]),
    ))
    .await;
    let shop = serve(ServedSite::new().file("index.html", page(&["/cart"]))).await;
    let apex = serve(ServedSite::new().file("index.html", page(&[]))).await;
    let other = serve(ServedSite::new().file("index.html", page(&[]))).await;
    let couk = serve(ServedSite::new().file("index.html", page(&[]))).await;
    let http = resolving(&[
        ("www.example.test", &www),
        ("shop.example.test", &shop),
        ("example.test", &apex),
        ("www.other.test", &other),
        ("www.example.co.uk", &couk),
    ]);
    let start = Url::parse("http://www.example.test/").unwrap();

    // Without the flag, only the start host.
    let (_, _) = run(config(start.clone()), &http).await;
    assert!(shop.requests().is_empty() && apex.requests().is_empty());

    let mut config = config(start);
    config.scope.include_subdomains = true;
    config.probe_sitemap = false;
    let (site, _) = run(config, &http).await;
    assert_eq!(received(&shop), ["/", "/cart", "/robots.txt"]);
    assert_eq!(received(&apex), ["/", "/robots.txt"]);
    assert!(other.requests().is_empty());
    assert!(couk.requests().is_empty());
    assert!(site.resource_str("http://www.other.test/").is_none());
}
