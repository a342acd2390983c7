//! What is fetched: include/exclude patterns, list mode, `sitemap-only`, driven offline, each
//! test asserting exactly which URLs were requested.

use crawlgate_core::UrlPattern;
use crawlgate_core::crawl::{
    CannedResponse, CrawlConfig, CrawlError, CrawlMode, OfflineSite, run_offline,
};
use crawlgate_core::site::{NotFetchedReason, ReferenceKind, ResourceState, Site};
use crawlgate_test_support::html::page;
use crawlgate_test_support::sitemap::urlset;
use url::Url;

const ORIGIN: &str = "http://site.test";

fn url(path: &str) -> Url {
    Url::parse(ORIGIN).unwrap().join(path).unwrap()
}

fn config() -> CrawlConfig {
    CrawlConfig::new(url("/"), "2026-06-01T00:00:00Z".parse().unwrap())
}

fn html(body: &str) -> CannedResponse {
    CannedResponse::ok("text/html; charset=utf-8", body)
}

fn pattern(text: &str) -> UrlPattern {
    UrlPattern::parse(text).unwrap()
}

/// `/` links to `/shop/`, `/blog/`, `/about`; `/shop/` to `/shop/tent` and `/shop/tent?sort=1`;
/// `/blog/` to `/blog/post`; the sitemap lists `/shop/tent`, `/blog/post` and `/orphan`; `/old`
/// redirects to `/blog/moved`; `/` has a stylesheet and a canonical to itself.
fn site() -> OfflineSite {
    let home = r#"<html><head><link rel="stylesheet" href="/style.css"><link rel="canonical" href="/"></head>
        <body><a href="/shop/">shop</a> <a href="/blog/">blog</a> <a href="/about">about</a>
        <a href="/old">old</a></body></html>"#;
    OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            CannedResponse::ok(
                "text/plain",
                "User-agent: *\nAllow: /\nSitemap: http://site.test/sitemap.xml\n",
            ),
        )
        .with(
            "http://site.test/sitemap.xml",
            CannedResponse::ok(
                "application/xml",
                &urlset(ORIGIN, ["/shop/tent", "/blog/post", "/orphan"]),
            ),
        )
        .with("http://site.test/", html(home))
        .with(
            "http://site.test/shop/",
            html(&page(&["/shop/tent", "/shop/tent?sort=1"])),
        )
        .with("http://site.test/shop/tent", html(&page(&["/shop/"])))
        .with("http://site.test/shop/tent?sort=1", html(&page(&[])))
        .with("http://site.test/blog/", html(&page(&["/blog/post"])))
        .with(
            "http://site.test/blog/post",
            html(r#"<html><head><link rel="canonical" href="/blog/canonical"></head></html>"#),
        )
        .with("http://site.test/blog/canonical", html(&page(&[])))
        .with("http://site.test/about", html(&page(&[])))
        .with("http://site.test/orphan", html(&page(&["/hidden"])))
        .with("http://site.test/hidden", html(&page(&[])))
        .with(
            "http://site.test/old",
            CannedResponse {
                status: 301,
                location: Some("/blog/moved".to_owned()),
                ..CannedResponse::default()
            },
        )
        .with("http://site.test/blog/moved", html(&page(&[])))
        .with(
            "http://site.test/style.css",
            CannedResponse::ok("text/css", "body{}"),
        )
}

/// Crawl `site()` offline; the site and every URL requested, sorted.
fn crawl(config: CrawlConfig) -> (Site, Vec<String>) {
    crawl_site(&site(), config)
}

fn crawl_site(served: &OfflineSite, config: CrawlConfig) -> (Site, Vec<String>) {
    let mut requested = Vec::new();
    let site = run_offline(config, |request| {
        requested.push(request.url.to_string().replace(ORIGIN, ""));
        served.respond(request)
    })
    .unwrap();
    requested.sort();
    (site, requested)
}

fn reason(site: &Site, path: &str) -> Option<NotFetchedReason> {
    match &site
        .resource(&url(path))
        .unwrap_or_else(|| panic!("{path} is known"))
        .state
    {
        ResourceState::NotFetched(reason) => Some(*reason),
        _ => None,
    }
}

#[test]
fn by_default_links_sitemaps_references_and_assets_are_fetched() {
    let (site, requested) = crawl(config());
    assert_eq!(
        requested,
        [
            "/",
            "/about",
            "/blog/",
            "/blog/canonical",
            "/blog/post",
            "/hidden",
            "/old",
            "/orphan",
            "/robots.txt",
            "/shop/",
            "/shop/tent",
            "/shop/tent?sort=1",
            "/sitemap.xml",
            "/style.css",
        ]
    );
    assert_eq!(site.stats.urls_excluded, 0);
    assert_eq!(site.mode, CrawlMode::FollowLinks);
}

#[test]
fn excluded_pages_are_recorded_and_counted_not_fetched() {
    let mut config = config();
    config.scope.exclude = vec![pattern("*/blog/*"), pattern("*?sort=*")];
    let (site, requested) = crawl(config);
    assert_eq!(
        requested,
        [
            "/",
            "/about",
            "/hidden",
            "/old",
            "/orphan",
            "/robots.txt",
            "/shop/",
            "/shop/tent",
            "/sitemap.xml",
            "/style.css",
        ]
    );
    // Linked (/blog/, /shop/tent?sort=1), listed in a sitemap (/blog/post) and a redirect's
    // target (/blog/moved): known, excluded, counted once each.
    for path in ["/blog/", "/blog/post", "/shop/tent?sort=1", "/blog/moved"] {
        assert_eq!(
            reason(&site, path),
            Some(NotFetchedReason::Excluded),
            "{path}"
        );
    }
    assert_eq!(site.stats.urls_excluded, 4);
    // The links to an excluded page are still counted on it, and its verdict computed.
    let blog = site.resource(&url("/blog/")).unwrap();
    assert_eq!(blog.inbound_links.followed, 1);
    assert!(blog.verdicts[0].allowed);
    // The redirect keeps its chain; its target's response is not recorded.
    assert!(matches!(
        site.resource(&url("/old")).unwrap().state,
        ResourceState::Redirected { .. }
    ));
    // Nothing found only on the excluded pages is known.
    assert!(site.resource(&url("/blog/canonical")).is_none());
    assert!(!site.stats.is_partial());
}

#[test]
fn include_patterns_fetch_only_the_pages_they_match() {
    let mut config = config();
    // The start URL must be included too, or the crawl would fetch nothing of the site.
    config.scope.include = vec![pattern("http://site.test/"), pattern("*/shop/*")];
    config.scope.exclude = vec![pattern("*?sort=*")];
    let (site, requested) = crawl(config);
    assert_eq!(
        requested,
        [
            "/",
            "/robots.txt",
            "/shop/",
            "/shop/tent",
            "/sitemap.xml",
            "/style.css"
        ]
    );
    for path in [
        "/about",
        "/blog/",
        "/old",
        "/blog/post",
        "/orphan",
        "/shop/tent?sort=1",
    ] {
        assert_eq!(
            reason(&site, path),
            Some(NotFetchedReason::Excluded),
            "{path}"
        );
    }
    assert_eq!(site.stats.urls_excluded, 6);
}

#[test]
fn an_excluded_start_url_cannot_start_a_crawl() {
    let mut excluded = config();
    excluded.scope.exclude = vec![pattern("http://site.test/*")];
    let error = site().crawl(excluded).unwrap_err();
    assert_eq!(
        error,
        CrawlError::StartExcluded {
            url: "http://site.test/".to_owned(),
            reason: "it matches the exclude pattern `http://site.test/*`".to_owned(),
        }
    );
    let mut not_included = config();
    not_included.scope.include = vec![pattern("*/shop/*")];
    let error = site().crawl(not_included).unwrap_err().to_string();
    assert_eq!(
        error,
        "the start URL `http://site.test/` is excluded from the crawl: it matches none of the \
         include patterns"
    );
}

#[test]
fn list_mode_fetches_exactly_the_listed_urls_and_their_assets() {
    let mut config = config();
    config.start_url = url("/shop/");
    config.mode = CrawlMode::List;
    config.listed = vec![url("/shop/"), url("/"), url("/orphan"), url("/shop/")];
    let (site, requested) = crawl(config);
    // robots.txt and the sitemaps are read; the pages listed, and the assets of listed pages,
    // are fetched; nothing else.
    assert_eq!(
        requested,
        [
            "/",
            "/orphan",
            "/robots.txt",
            "/shop/",
            "/sitemap.xml",
            "/style.css"
        ]
    );
    // Links, sitemap URLs and canonical targets: recorded, not fetched.
    for path in [
        "/shop/tent",
        "/about",
        "/blog/",
        "/blog/post",
        "/hidden",
        "/old",
    ] {
        assert_eq!(
            reason(&site, path),
            Some(NotFetchedReason::NotListed),
            "{path}"
        );
    }
    let tent = site.resource(&url("/shop/tent")).unwrap();
    assert_eq!(tent.inbound_links.followed, 1);
    assert_eq!(tent.listing_count(), 1);
    let listed = site.resource(&url("/orphan")).unwrap();
    assert!(
        site.references(listed)
            .iter()
            .any(|r| r.kind == ReferenceKind::Listed)
    );
    assert_eq!(site.mode, CrawlMode::List);
    assert_eq!(site.stats.pages_fetched, 3);
    assert!(!site.stats.is_partial());
}

#[test]
fn list_mode_reads_every_listed_origins_robots_txt_and_sitemaps() {
    let served = site()
        .with(
            "http://other.test/robots.txt",
            CannedResponse::ok(
                "text/plain",
                "User-agent: *\nDisallow: /no\nSitemap: http://other.test/map.xml\n",
            ),
        )
        .with(
            "http://other.test/map.xml",
            CannedResponse::ok("application/xml", &urlset("http://other.test", ["/listed"])),
        )
        .with("http://other.test/page", html(&page(&["/linked"])));
    let mut config = config();
    config.mode = CrawlMode::List;
    config.listed = vec![url("/about"), Url::parse("http://other.test/page").unwrap()];
    config.fetch_assets = false;
    let mut requested = Vec::new();
    let site = run_offline(config, |request| {
        requested.push(request.url.to_string());
        served.respond(request)
    })
    .unwrap();
    requested.sort();
    assert_eq!(
        requested,
        [
            "http://other.test/map.xml",
            "http://other.test/page",
            "http://other.test/robots.txt",
            "http://site.test/about",
            "http://site.test/robots.txt",
            "http://site.test/sitemap.xml",
        ]
    );
    // The start URL (not listed) is known, not fetched.
    assert_eq!(reason(&site, "/"), Some(NotFetchedReason::NotListed));
    for other in ["http://other.test/linked", "http://other.test/listed"] {
        let resource = site.resource(&Url::parse(other).unwrap()).unwrap();
        assert!(
            matches!(
                resource.state,
                ResourceState::NotFetched(NotFetchedReason::NotListed)
            ),
            "{other}"
        );
    }
    assert!(site.robots.contains_key("http://other.test"));
}

#[test]
fn list_mode_applies_the_exclude_patterns_too() {
    let mut config = config();
    config.mode = CrawlMode::List;
    config.listed = vec![url("/"), url("/about"), url("/blog/")];
    config.scope.exclude = vec![pattern("*/blog/*")];
    config.fetch_assets = false;
    let (site, requested) = crawl(config);
    assert_eq!(requested, ["/", "/about", "/robots.txt", "/sitemap.xml"]);
    assert_eq!(reason(&site, "/blog/"), Some(NotFetchedReason::Excluded));
    // /blog/post, listed by the sitemap, is excluded too.
    assert_eq!(site.stats.urls_excluded, 2);
}

#[test]
fn list_mode_needs_urls_that_can_be_fetched() {
    let mut empty = config();
    empty.mode = CrawlMode::List;
    assert_eq!(site().crawl(empty).unwrap_err(), CrawlError::EmptyList);
    let mut bad = config();
    bad.mode = CrawlMode::List;
    bad.listed = vec![Url::parse("mailto:a@site.test").unwrap()];
    assert_eq!(
        site().crawl(bad).unwrap_err(),
        CrawlError::UnsupportedListedUrl("mailto:a@site.test".to_owned())
    );
    // Outside list mode the list is not used.
    let mut ignored = config();
    ignored.listed = vec![url("/about")];
    assert!(site().crawl(ignored).is_ok());
}

#[test]
fn sitemap_only_fetches_the_urls_the_sitemaps_list() {
    let mut config = config();
    config.mode = CrawlMode::SitemapOnly;
    let (site, requested) = crawl(config);
    assert_eq!(
        requested,
        [
            "/blog/post",
            "/orphan",
            "/robots.txt",
            "/shop/tent",
            "/sitemap.xml"
        ]
    );
    // The start URL is not listed: known, not fetched. Links and canonicals of the listed
    // pages are recorded, not followed.
    assert_eq!(reason(&site, "/"), Some(NotFetchedReason::NotListed));
    for path in ["/shop/", "/hidden", "/blog/canonical"] {
        assert_eq!(
            reason(&site, path),
            Some(NotFetchedReason::NotListed),
            "{path}"
        );
    }
    assert_eq!(site.mode, CrawlMode::SitemapOnly);
    assert_eq!(site.stats.pages_fetched, 3);
}

#[test]
fn sitemap_only_fetches_the_start_url_when_a_sitemap_lists_it_and_keeps_the_bounds() {
    let served = site().with(
        "http://site.test/sitemap.xml",
        CannedResponse::ok(
            "application/xml",
            &urlset(ORIGIN, ["/", "/about", "/orphan", "/blog/post"]),
        ),
    );
    let mut config = config();
    config.mode = CrawlMode::SitemapOnly;
    config.fetch_assets = false;
    config.bounds.max_pages = 2;
    config.scope.exclude = vec![pattern("*/blog/*")];
    let (site, requested) = crawl_site(&served, config);
    assert_eq!(requested, ["/", "/about", "/robots.txt", "/sitemap.xml"]);
    assert_eq!(reason(&site, "/orphan"), Some(NotFetchedReason::PageBound));
    assert_eq!(
        reason(&site, "/blog/post"),
        Some(NotFetchedReason::Excluded)
    );
    assert!(site.stats.is_partial());
}
