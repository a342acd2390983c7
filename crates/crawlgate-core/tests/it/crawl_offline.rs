//! The crawl's decisions, driven offline over in-memory sites (no network).

use crawlgate_core::crawl::{CannedResponse, CrawlConfig, OfflineSite};
use crawlgate_core::site::{
    Bound, NotFetchedReason, ReferenceKind, Resource, ResourceState, RobotsEffect, Site,
    SitemapSource, SitemapState,
};
use crawlgate_test_support::sitemap::{sitemap_index, urlset};
use url::Url;

const ROOT: &str = "http://site.test/";
/// [`ROOT`]'s origin, for the sitemaps listing its paths.
const ORIGIN: &str = "http://site.test";

fn html(body: &str) -> CannedResponse {
    CannedResponse::ok("text/html; charset=utf-8", body)
}

fn text(body: &str) -> CannedResponse {
    CannedResponse::ok("text/plain", body)
}

fn xml(body: &str) -> CannedResponse {
    CannedResponse::ok("application/xml", body)
}

fn redirect(to: &str) -> CannedResponse {
    CannedResponse {
        status: 301,
        location: Some(to.to_owned()),
        ..CannedResponse::default()
    }
}

fn url(path: &str) -> Url {
    Url::parse(ROOT).unwrap().join(path).unwrap()
}

fn config() -> CrawlConfig {
    CrawlConfig::new(url("/"), "2026-06-01T00:00:00Z".parse().unwrap())
}

fn state<'a>(site: &'a Site, path: &str) -> &'a ResourceState {
    &site
        .resource(&url(path))
        .unwrap_or_else(|| panic!("{path} is known"))
        .state
}

fn small_site() -> OfflineSite {
    OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("User-agent: *\nDisallow: /private/\nSitemap: http://site.test/sitemap.xml\n"),
        )
        .with(
            ROOT,
            html(
                r#"<html><head><link rel="stylesheet" href="/style.css"></head><body>
                <a href="/a">a</a> <a href="/private/b">b</a> <a href="/old">old</a>
                <a href="https://elsewhere.test/x">out</a></body></html>"#,
            ),
        )
        .with(
            "http://site.test/a",
            html(r#"<html><head><link rel="canonical" href="/"></head><body><a href="/">home</a></body></html>"#),
        )
        .with(
            "http://site.test/private/b",
            html(r#"<html><head><meta name="robots" content="noindex"></head></html>"#),
        )
        .with("http://site.test/old", redirect("/new"))
        .with("http://site.test/new", html("<html><body>new</body></html>"))
        .with("http://site.test/orphan", html("<html><body>orphan</body></html>"))
        .with("http://site.test/sitemap.xml", xml(&urlset(ORIGIN, ["/a", "/orphan"])))
        .with("http://site.test/style.css", CannedResponse::ok("text/css", "body{}"))
}

#[test]
fn a_small_site_is_crawled_breadth_first_with_every_fact_recorded() {
    let site = small_site().crawl(config()).unwrap();

    let robots = site
        .robots
        .get("http://site.test")
        .expect("robots.txt fetched");
    assert_eq!(robots.effect, RobotsEffect::Rules);

    // Depth by clicks; the orphan is known only from the sitemap.
    let depth = |p: &str| site.resource(&url(p)).unwrap().depth;
    assert_eq!(depth("/"), Some(0));
    assert_eq!(depth("/a"), Some(1));
    assert_eq!(depth("/orphan"), None);
    assert!(matches!(state(&site, "/orphan"), ResourceState::Fetched(_)));

    // Disallowed, fetched for diagnosis by default; verdict names the line.
    let private = site.resource(&url("/private/b")).unwrap();
    assert!(matches!(private.state, ResourceState::Fetched(_)));
    let verdict = &private.verdicts[0];
    assert!(!verdict.allowed);
    assert_eq!(verdict.decided_by.as_ref().map(|r| r.line), Some(2));
    assert_eq!(private.inbound_links.followed, 1);
    assert_eq!(*site.link_samples(private)[0].from, url("/"));

    // A redirect: the chain on the source, the response on the target.
    match state(&site, "/old") {
        ResourceState::Redirected {
            hops,
            final_url,
            final_status,
        } => {
            assert_eq!(hops.len(), 1);
            assert_eq!(hops[0].status, 301);
            assert_eq!(**final_url, url("/new"));
            assert_eq!(*final_status, Some(200));
        }
        other => panic!("expected a redirect, got {other:?}"),
    }
    let new = site.resource(&url("/new")).unwrap();
    assert!(matches!(new.state, ResourceState::Fetched(_)));
    assert!(
        site.references(new)
            .iter()
            .any(|r| r.kind == ReferenceKind::Redirect)
    );

    // Sitemap listings, assets, and nothing recorded for plain external links.
    let a = site.resource(&url("/a")).unwrap();
    assert_eq!(a.listing_count(), 1);
    assert_eq!(*site.listings(a)[0].sitemap, url("/sitemap.xml"));
    let css = site.resource(&url("/style.css")).unwrap();
    assert!(matches!(css.state, ResourceState::Fetched(_)));
    assert!(site.resource_str("https://elsewhere.test/x").is_none());

    // The sitemap is advertised (and was not also recorded as a probe).
    assert_eq!(site.sitemaps.len(), 1);
    assert!(site.sitemaps[0].advertised());
    assert!(!site.sitemaps[0].sources.contains(&SitemapSource::Probe));
    assert!(!site.stats.is_partial());
    // Requests: /, /a, /private/b, /old (its final response fills /new), /orphan.
    assert_eq!(site.stats.pages_fetched, 5);
}

#[test]
fn obey_robots_leaves_disallowed_urls_unfetched() {
    let mut config = config();
    config.obey_robots = true;
    let site = small_site().crawl(config).unwrap();
    assert!(matches!(
        state(&site, "/private/b"),
        ResourceState::NotFetched(NotFetchedReason::Disallowed)
    ));
}

#[test]
fn the_page_bound_stops_the_crawl_and_says_so() {
    let mut config = config();
    config.bounds.max_pages = 2;
    let site = small_site().crawl(config).unwrap();
    assert_eq!(site.stats.pages_fetched, 2);
    assert!(site.stats.bounds_hit.contains(&Bound::MaxPages(2)));
    assert!(site.stats.is_partial());
    assert!(site.resources().iter().any(|r| matches!(
        r.state,
        ResourceState::NotFetched(NotFetchedReason::PageBound)
    )));
}

#[test]
fn the_depth_bound_keeps_deeper_pages_unfetched() {
    let mut config = config();
    config.bounds.max_depth = Some(0);
    let site = small_site().crawl(config).unwrap();
    // /a is one click deep but also in the sitemap: fetched as a sitemap URL. /private/b is only
    // linked: held back.
    assert!(matches!(state(&site, "/a"), ResourceState::Fetched(_)));
    assert!(matches!(
        state(&site, "/private/b"),
        ResourceState::NotFetched(NotFetchedReason::DepthBound)
    ));
    assert!(site.stats.bounds_hit.contains(&Bound::MaxDepth(0)));
}

#[test]
fn robots_server_errors_disallow_everything() {
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            CannedResponse {
                status: 503,
                ..CannedResponse::default()
            },
        )
        .with(ROOT, html("<a href='/a'>a</a>"))
        .with("http://site.test/a", html("a"))
        .crawl(config())
        .unwrap();
    let robots = &site.robots["http://site.test"];
    assert_eq!(robots.effect, RobotsEffect::DisallowAll);
    let root = site.resource(&url("/")).unwrap();
    assert!(!root.verdicts[0].allowed);
    assert!(root.verdicts[0].decided_by.is_none());
}

#[test]
fn robots_timeouts_disallow_and_404s_allow() {
    let timeout = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            CannedResponse {
                failure: Some("timeout".into()),
                ..CannedResponse::default()
            },
        )
        .with(ROOT, html("home"))
        .crawl(config())
        .unwrap();
    assert_eq!(
        timeout.robots["http://site.test"].effect,
        RobotsEffect::DisallowAll
    );

    let missing = OfflineSite::default()
        .with(ROOT, html("home"))
        .crawl(config())
        .unwrap();
    assert_eq!(
        missing.robots["http://site.test"].effect,
        RobotsEffect::AllowAll
    );
    assert!(missing.resource(&url("/")).unwrap().verdicts[0].allowed);
}

#[test]
fn sitemap_index_loops_are_cycles_read_once() {
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/index.xml\nSitemap: http://site.test/robots.txt\n"),
        )
        .with(ROOT, html("home"))
        .with(
            "http://site.test/index.xml",
            xml(&sitemap_index(ORIGIN, ["/index.xml", "/child.xml"])),
        )
        .with(
            "http://site.test/child.xml",
            xml(&sitemap_index(ORIGIN, ["/index.xml"])),
        )
        .crawl(config())
        .unwrap();
    let named: Vec<(String, String)> = site
        .sitemap_cycles
        .iter()
        .map(|c| (c.named.path().to_owned(), c.repeats.path().to_owned()))
        .collect();
    assert!(
        named.contains(&("/index.xml".into(), "/index.xml".into())),
        "{named:?}"
    );
    assert!(
        named.contains(&("/robots.txt".into(), "/robots.txt".into())),
        "{named:?}"
    );
    assert_eq!(named.len(), 3, "{named:?}"); // index→itself, child→index, robots.txt
    assert_eq!(site.stats.sitemaps_fetched, 2);
}

#[test]
fn the_sitemap_probe_is_kept_only_when_it_finds_a_sitemap() {
    let found = OfflineSite::default()
        .with(ROOT, html("home"))
        .with("http://site.test/sitemap.xml", xml(&urlset(ORIGIN, ["/"])))
        .crawl(config())
        .unwrap();
    assert_eq!(found.sitemaps.len(), 1);
    assert_eq!(found.sitemaps[0].sources, [SitemapSource::Probe]);
    assert!(!found.sitemaps[0].advertised());

    let none = OfflineSite::default()
        .with(ROOT, html("home"))
        .crawl(config())
        .unwrap();
    assert!(none.sitemaps.is_empty());
}

#[test]
fn a_sitemap_404_is_recorded_as_an_http_error() {
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/gone.xml\n"),
        )
        .with(ROOT, html("home"))
        .crawl(config())
        .unwrap();
    assert!(matches!(
        site.sitemaps[0].state,
        SitemapState::HttpError { status: 404, .. }
    ));
}

#[test]
fn a_calendar_trap_is_held_by_the_discovery_and_page_bounds() {
    // Every page links to two new pages: infinitely many distinct URLs.
    let mut site = OfflineSite::default();
    for n in 0..2_000 {
        site = site.with(
            &format!("http://site.test/day/{n}"),
            html(&format!(
                "<a href='/day/{}'>next</a><a href='/day/{}'>skip</a>",
                n + 1,
                n + 1000
            )),
        );
    }
    site = site.with(ROOT, html("<a href='/day/0'>calendar</a>"));
    let mut config = config();
    config.bounds.max_pages = 50;
    config.bounds.max_discovered = 60;
    let crawled = site.crawl(config).unwrap();
    assert_eq!(crawled.stats.pages_fetched, 50);
    assert!(crawled.resources().len() <= 60);
    assert!(crawled.stats.bounds_hit.contains(&Bound::MaxPages(50)));
}

#[test]
fn robots_lint_is_recorded_per_origin_once_with_the_audited_tokens() {
    let mut config = config();
    config.profiles = vec![
        crawlgate_core::signals::Profile::builtin("googlebot-image").unwrap(),
        crawlgate_core::signals::Profile::googlebot(),
    ];
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("User-agent: googlebot\nDisallow: /\nCrawl-delay: 5\n"),
        )
        .with(ROOT, html("home"))
        .crawl(config)
        .unwrap();
    assert_eq!(
        site.lint_options().user_agents,
        ["googlebot-image", "googlebot"]
    );
    let issues = site.robots_lint("http://site.test");
    let rules: Vec<&str> = issues.iter().map(crawlgate_core::Issue::rule).collect();
    assert!(rules.contains(&"robots/disallow-all"), "{rules:?}");
    assert!(rules.contains(&"robots/unsupported-field"), "{rules:?}");
    // Computed once: the second call hands out the same issues.
    assert!(std::ptr::eq(issues, site.robots_lint("http://site.test")));
    assert!(site.robots_lint("http://other.test").is_empty());

    let missing = OfflineSite::default()
        .with(ROOT, html("home"))
        .crawl(self::config())
        .unwrap();
    assert!(missing.robots_lint("http://site.test").is_empty());
}

#[test]
fn canned_bodies_take_raw_bytes_and_repeated_parts_within_a_bound() {
    let canned = CannedResponse {
        body: "User-agent: *\n".to_owned(),
        parts: vec![
            crawlgate_core::crawl::BodyPart {
                text: "# pad\n".to_owned(),
                repeat: 3,
                ..Default::default()
            },
            crawlgate_core::crawl::BodyPart {
                bytes: vec![0xE9, b'\n'],
                repeat: 1,
                ..Default::default()
            },
        ],
        ..CannedResponse::default()
    };
    assert_eq!(
        canned.body_bytes(),
        b"User-agent: *\n# pad\n# pad\n# pad\n\xE9\n"
    );
    let huge = CannedResponse {
        parts: vec![crawlgate_core::crawl::BodyPart {
            text: "x".repeat(1024),
            repeat: usize::MAX,
            ..Default::default()
        }],
        ..CannedResponse::default()
    };
    assert_eq!(
        huge.body_bytes().len(),
        crawlgate_core::crawl::MAX_CANNED_BODY_BYTES
    );
}

#[test]
fn a_last_url_on_a_new_origin_still_gets_its_robots_txt_and_its_fetch() {
    // The only asset lives on another origin: popping it from the queue asks for that origin's
    // robots.txt, which must still be requested before the crawl reports it is done.
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("User-agent: *\nAllow: /\n"),
        )
        .with(
            ROOT,
            html(
                r#"<html><head><link rel="stylesheet" href="http://cdn.test/a.css"></head></html>"#,
            ),
        )
        .with(
            "http://cdn.test/robots.txt",
            text("User-agent: *\nDisallow: /\n"),
        )
        .with(
            "http://cdn.test/a.css",
            CannedResponse::ok("text/css", "a{}"),
        )
        .crawl(config())
        .unwrap();
    assert!(site.robots.contains_key("http://cdn.test"));
    let asset = site
        .resource(&Url::parse("http://cdn.test/a.css").unwrap())
        .unwrap();
    assert!(matches!(asset.state, ResourceState::Fetched(_)));
    assert!(!asset.verdicts[0].allowed);
}

#[test]
fn robots_txt_of_hosts_a_sitemap_lists_is_fetched_as_cross_submit_proof() {
    let sitemap = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                   <url><loc>http://site.test/</loc></url>\n\
                   <url><loc>http://partner.test/a</loc></url>\n\
                   <url><loc>http://partner.test/b</loc></url>\n</urlset>\n";
    let offline = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/sitemap.xml\n"),
        )
        .with(
            "http://partner.test/robots.txt",
            text("Sitemap: http://site.test/sitemap.xml\n"),
        )
        .with(ROOT, html("home"))
        .with("http://site.test/sitemap.xml", xml(sitemap));
    let site = offline.crawl(config()).unwrap();
    let partner = site
        .robots
        .get("http://partner.test")
        .expect("the listed host's robots.txt is fetched, once");
    assert_eq!(
        partner.parsed.sitemaps()[0].url,
        "http://site.test/sitemap.xml"
    );
    assert_eq!(site.stats.robots_fetched, 2);
    // Proof only: the other host's URLs are not crawled, its sitemaps not read, and the
    // crawl is not partial.
    assert!(site.resource_str("http://partner.test/a").is_none());
    assert_eq!(site.sitemaps.len(), 1);
    assert!(!site.stats.is_partial());

    // Never past the origin bound, and the bound is not reported as hit for it.
    let mut bounded = config();
    bounded.bounds.max_origins = 1;
    let site = offline.crawl(bounded).unwrap();
    assert!(!site.robots.contains_key("http://partner.test"));
    assert!(site.stats.bounds_hit.is_empty());
}

#[test]
fn an_allowed_host_linked_from_a_page_has_its_robots_txt_fetched_then_is_crawled() {
    let site = OfflineSite::default()
        .with(
            ROOT,
            html(r#"<a href="http://docs.site.test/guide">guide</a>"#),
        )
        .with(
            "http://docs.site.test/robots.txt",
            text("User-agent: *\nDisallow: /private\n"),
        )
        .with("http://docs.site.test/guide", html("<p>guide</p>"));
    let mut config = config();
    config.scope.allow_hosts = vec!["docs.site.test".to_owned()];
    let crawled = site.crawl(config).unwrap();
    let guide = Url::parse("http://docs.site.test/guide").unwrap();
    assert!(matches!(
        crawled.resource(&guide).unwrap().state,
        ResourceState::Fetched(_)
    ));
    assert_eq!(
        crawled.robots_for(&guide).map(|r| r.effect),
        Some(RobotsEffect::Rules)
    );
}

#[test]
fn a_sitemap_cut_at_the_byte_cap_is_reported_as_read_partially() {
    let mut body = urlset(ORIGIN, ["/a"]);
    body.push_str(&" ".repeat(5_000));
    let site = small_site().with("http://site.test/sitemap.xml", xml(&body));
    let mut config = config();
    config.bounds.max_sitemap_bytes = 1_000;
    let crawled = site.crawl(config).unwrap();
    let sitemap = crawled
        .sitemaps
        .iter()
        .find(|s| s.url == url("/sitemap.xml"))
        .unwrap();
    let summary = sitemap.summary().expect("parsed");
    assert!(summary.truncated);
    assert!(
        summary
            .issues
            .iter()
            .any(|issue| issue.rule() == "sitemap/fetch-error"
                && issue.message.contains("cap of 1000 bytes")),
        "{:?}",
        summary.issues
    );
    // The entries read before the cut are kept.
    assert_eq!(sitemap.entries().len(), 1);
}

/// A urlset whose `/en/` entry names `/de/` (listed nowhere else) and a page on another host as
/// `xhtml:link` alternates.
fn site_with_sitemap_alternates() -> OfflineSite {
    OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/sitemap.xml\n"),
        )
        .with(ROOT, html("home"))
        .with("http://site.test/en/", html("en"))
        .with("http://site.test/de/", html("de"))
        .with(
            "http://site.test/sitemap.xml",
            xml(r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>http://site.test/en/</loc>
    <xhtml:link rel="alternate" hreflang="en" href="http://site.test/en/"/>
    <xhtml:link rel="alternate" hreflang="de" href="http://site.test/de/#top"/>
    <xhtml:link rel="alternate" hreflang="fr" href="http://other.test/fr/"/>
  </url>
</urlset>
"#),
        )
}

#[test]
fn sitemap_hreflang_alternates_are_fetched_as_hreflang_references() {
    let site = site_with_sitemap_alternates().crawl(config()).unwrap();
    assert!(matches!(state(&site, "/de/"), ResourceState::Fetched(page) if page.status() == 200));
    let de = site.resource(&url("/de/")).unwrap();
    assert_eq!(site.references(de)[0].kind, ReferenceKind::Hreflang);
    assert_eq!(*site.references(de)[0].from, url("/sitemap.xml"));
    assert_eq!(site.references(de)[0].line.map(u32::from), Some(6));
    // Another host's alternate is recorded (its verdict is evidence), not fetched.
    let fr = Url::parse("http://other.test/fr/").unwrap();
    assert!(matches!(
        site.resource(&fr).unwrap().state,
        ResourceState::NotFetched(NotFetchedReason::OutOfScope)
    ));
}

#[test]
fn sitemap_hreflang_alternates_count_towards_the_sitemap_url_bound() {
    let mut config = config();
    config.bounds.max_sitemap_urls = 1; // the `<loc>` only
    let site = site_with_sitemap_alternates().crawl(config).unwrap();
    assert!(site.resource(&url("/de/")).is_none());
    assert!(site.stats.bounds_hit.contains(&Bound::SitemapUrls(1)));
    // An alternate naming a URL already known costs nothing: `/en/` is fetched once.
    assert!(matches!(state(&site, "/en/"), ResourceState::Fetched(_)));
}

#[test]
fn locs_that_are_no_http_urls_are_never_fetched_nor_pages() {
    let index = "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                 <sitemap><loc>file:///etc/passwd</loc></sitemap>\n\
                 <sitemap><loc>javascript:alert(1)</loc></sitemap>\n\
                 <sitemap><loc>http://site.test/pages.xml</loc></sitemap>\n</sitemapindex>\n";
    let pages = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                 <url><loc>ftp://site.test/file</loc></url>\n\
                 <url><loc>data:text/html,hi</loc></url>\n\
                 <url><loc>http://site.test/a</loc></url>\n</urlset>\n";
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/index.xml\n"),
        )
        .with(ROOT, html("home"))
        .with("http://site.test/index.xml", xml(index))
        .with("http://site.test/pages.xml", xml(pages))
        .with("http://site.test/a", html("a"))
        .crawl(config())
        .unwrap();
    let sitemaps: Vec<&str> = site.sitemaps.iter().map(|s| s.url.as_str()).collect();
    assert_eq!(
        sitemaps,
        ["http://site.test/index.xml", "http://site.test/pages.xml"]
    );
    for resource in site.resources() {
        assert!(
            matches!(resource.url.scheme(), "http" | "https"),
            "{}",
            resource.url
        );
    }
    assert!(site.resource(&url("/a")).is_some_and(Resource::is_listed));
    // Still reported, by the parser.
    let reported = |sitemap: usize| {
        site.sitemaps[sitemap]
            .summary()
            .unwrap()
            .issues
            .iter()
            .filter(|issue| issue.rule() == "sitemap/loc-invalid")
            .count()
    };
    assert_eq!((reported(0), reported(1)), (2, 2));
}

#[test]
fn long_urls_are_held_by_the_discovery_bound_in_bytes() {
    // Every page links to ten new pages whose URLs are about 2 KB long.
    let pad = "x".repeat(2_000);
    let mut site = OfflineSite::default().with(ROOT, html("<a href='/m/0'>start</a>"));
    for n in 0..200 {
        let links: Vec<String> = (0..10)
            .map(|i| format!("<a href='/m/{}?{pad}'>{i}</a>", n * 10 + i + 1))
            .collect();
        let links = links.concat();
        let page = if n == 0 {
            "http://site.test/m/0".to_owned()
        } else {
            format!("http://site.test/m/{n}?{pad}")
        };
        site = site.with(&page, html(&links));
    }
    let mut config = config();
    config.bounds.max_discovered_bytes = 64 * 1024;
    let crawled = site.crawl(config).unwrap();
    let bytes: usize = crawled
        .resources()
        .iter()
        .map(|r| r.url.as_str().len())
        .sum();
    assert!(bytes <= 64 * 1024, "{bytes} bytes of URLs recorded");
    // Far fewer than the count bound: 32 URLs of 2 KB fill 64 KiB.
    assert!(
        crawled.resources().len() < 40,
        "{}",
        crawled.resources().len()
    );
    assert!(crawled.stats.urls_not_recorded > 0);
    assert!(
        crawled
            .stats
            .bounds_hit
            .contains(&Bound::DiscoveredBytes(64 * 1024))
    );
    assert!(crawled.stats.is_partial());
}

#[test]
fn sitemap_entries_past_the_byte_bound_are_crawled_but_not_kept() {
    let paths: Vec<String> = (0..300).map(|n| format!("/p/{n}")).collect();
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("User-agent: *\nAllow: /\nSitemap: http://site.test/a.xml\nSitemap: http://site.test/b.xml\n"),
        )
        .with(ROOT, html("home"))
        .with("http://site.test/a.xml", xml(&urlset(ORIGIN, &paths[..150])))
        .with("http://site.test/b.xml", xml(&urlset(ORIGIN, &paths[150..])));
    let mut unbounded = config();
    unbounded.bounds.max_pages = 1;
    let whole = site.crawl(unbounded.clone()).unwrap();
    let kept = |site: &Site| -> usize {
        site.sitemaps
            .iter()
            .map(|sitemap| match &sitemap.state {
                SitemapState::Parsed { entries, .. } => entries.len(),
                _ => 0,
            })
            .sum()
    };
    assert_eq!(kept(&whole), 300);
    let one_entry = match &whole.sitemaps[0].state {
        SitemapState::Parsed { entries, .. } => entries[0].kept_bytes() as u64,
        _ => unreachable!("parsed"),
    };
    let mut bounded = unbounded;
    bounded.bounds.max_sitemap_entry_bytes = one_entry * 100;
    let site = site.crawl(bounded).unwrap();
    let kept_now = kept(&site);
    assert!((90..=100).contains(&kept_now), "{kept_now} entries kept");
    assert!(
        site.stats
            .bounds_hit
            .contains(&Bound::SitemapEntryBytes(one_entry * 100))
    );
    // Every URL was still discovered from the sitemaps, with its listing, and each sitemap
    // still counts all its entries.
    for path in &paths {
        assert_eq!(
            site.resource(&url(path)).unwrap().listing_count(),
            1,
            "{path}"
        );
    }
    for sitemap in &site.sitemaps {
        assert_eq!(sitemap.summary().unwrap().entry_count, 150);
    }
}

/// Once the sitemap URL bound is hit, a urlset parsed later discovers nothing and keeps its
/// entries only within the entry byte bound: the preparer leaves the rest out as it parses
/// (they never all sit in memory), and what the crawl records is what keeping them all and
/// cutting afterwards gave. Alternates of entries past the cut still add their hreflang
/// references to known pages.
#[test]
fn sitemap_entries_past_every_bound_are_left_out_while_parsing_with_the_same_result() {
    let first: Vec<String> = (0..50).map(|n| format!("/p/{n}")).collect();
    let later: Vec<String> = (0..200).map(|n| format!("/q/{n}")).collect();
    let mut late_xml = urlset(ORIGIN, &later);
    // An entry far past the byte bound whose alternate names a page the first sitemap listed.
    late_xml = late_xml
        .replace(
            "<urlset ",
            "<urlset xmlns:xhtml=\"http://www.w3.org/1999/xhtml\" ",
        )
        .replace(
            "</urlset>",
            "<url><loc>http://site.test/q/last</loc>\
         <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"http://site.test/p/7\"/>\
         </url></urlset>",
        );
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/a.xml\nSitemap: http://site.test/b.xml\n"),
        )
        .with(ROOT, html("home"))
        .with("http://site.test/a.xml", xml(&urlset(ORIGIN, &first)))
        .with("http://site.test/b.xml", xml(&late_xml));
    let mut config = config();
    config.bounds.max_pages = 1;
    config.probe_sitemap = false;
    config.bounds.max_sitemap_urls = 50; // a.xml's
    let whole = site.crawl(config.clone()).unwrap();
    let entries_of = |site: &Site, name: &str| -> Vec<String> {
        site.sitemaps
            .iter()
            .find(|s| s.url.path() == name)
            .map(|s| s.entries().iter().map(|e| e.loc.clone()).collect())
            .unwrap_or_default()
    };
    assert_eq!(
        entries_of(&whole, "/b.xml").len(),
        201,
        "nothing cut without a byte bound"
    );
    let one_entry = whole.sitemaps[0].entries()[0].kept_bytes() as u64;
    config.bounds.max_sitemap_entry_bytes = one_entry * 60;
    let cut = site.crawl(config).unwrap();
    // What keeping every entry and cutting afterwards keeps: a.xml's, then b.xml's while their
    // bytes fit.
    let mut left = one_entry * 60;
    let mut expected = Vec::new();
    for sitemap in &whole.sitemaps {
        for entry in sitemap.entries() {
            let bytes = entry.kept_bytes() as u64;
            if bytes > left {
                break;
            }
            left -= bytes;
            expected.push(entry.loc.clone());
        }
    }
    let mut kept = entries_of(&cut, "/a.xml");
    assert_eq!(kept.len(), 50);
    kept.extend(entries_of(&cut, "/b.xml"));
    assert_eq!(kept, expected);
    assert!(kept.len() > 50 && kept.len() < 60, "{}", kept.len());
    assert!(cut.stats.bounds_hit.contains(&Bound::SitemapUrls(50)));
    // b.xml still counts every entry, and its alternate still names /p/7 from b.xml.
    let b = cut
        .sitemaps
        .iter()
        .find(|s| s.url.path() == "/b.xml")
        .unwrap();
    assert_eq!(b.summary().unwrap().entry_count, 201);
    let p7 = cut.resource(&url("/p/7")).unwrap();
    assert!(
        cut.references(p7)
            .iter()
            .any(|r| r.kind == ReferenceKind::Hreflang && r.from.path() == "/b.xml"),
        "{:?}",
        cut.references(p7)
    );
    // No URL of b.xml was discovered.
    assert!(cut.resource(&url("/q/0")).is_none());
}

#[test]
fn sitemaps_named_past_the_read_bound_are_recorded_up_to_a_bound_then_counted() {
    // An index of 50 indexes, each naming 1,000 sitemaps of its own and one that all share.
    let children: Vec<String> = (0..50).map(|n| format!("/i{n}.xml")).collect();
    let mut site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/index.xml\n"),
        )
        .with(ROOT, html("home"))
        .with(
            "http://site.test/index.xml",
            xml(&sitemap_index(ORIGIN, children.iter().map(String::as_str))),
        );
    for n in 0..50 {
        let mut named: Vec<String> = (0..1_000).map(|k| format!("/i{n}/c{k}.xml")).collect();
        named.push("/shared.xml".to_owned());
        site = site.with(
            &format!("http://site.test/i{n}.xml"),
            xml(&sitemap_index(ORIGIN, named.iter().map(String::as_str))),
        );
    }
    let mut config = config();
    config.bounds.max_sitemaps = 20;
    config.probe_sitemap = false;
    let crawled = site.crawl(config).unwrap();
    assert_eq!(crawled.stats.sitemaps_fetched, 20);
    assert_eq!(crawled.sitemaps.len(), 40, "twice the read bound recorded");
    let unread = crawled
        .sitemaps
        .iter()
        .filter(|s| {
            matches!(
                s.state,
                SitemapState::NotFetched(NotFetchedReason::SitemapBound)
            )
        })
        .count();
    assert_eq!(unread, 20);
    // Of the top index's 50 children, 19 are read, 20 recorded unread and 11 counted; the 1,001
    // names of each of the 19 are counted.
    assert_eq!(crawled.stats.sitemaps_not_recorded, 11 + 19 * 1_001);
    assert!(crawled.stats.bounds_hit.contains(&Bound::MaxSitemaps(20)));
}

#[test]
fn a_sitemap_named_thousands_of_times_keeps_a_bounded_list_of_sources_of_every_kind() {
    let mut robots = String::new();
    for _ in 0..5_000 {
        robots.push_str("Sitemap: http://site.test/sitemap.xml\n");
    }
    let crawled = OfflineSite::default()
        .with("http://site.test/robots.txt", text(&robots))
        .with(ROOT, html("home"))
        .with("http://site.test/sitemap.xml", xml(&urlset(ORIGIN, ["/"])))
        .crawl({
            let mut config = config();
            config.sitemaps = vec![Url::parse("http://site.test/sitemap.xml").unwrap()];
            config
        })
        .unwrap();
    let sources = &crawled.sitemaps[0].sources;
    assert!(sources.len() <= 17, "{} sources", sources.len());
    assert!(crawled.sitemaps[0].advertised());
    assert!(sources.contains(&SitemapSource::Configured), "{sources:?}");
}

/// A page fetched as a sitemap URL before any link to it was read has no click depth when
/// recorded, so its links give none; once a link reaches it, the pages it links to get theirs.
/// The depth must not depend on the order responses arrive in (a concurrent crawl, a resumed
/// one): here the sitemap's page is answered before the start page, then in the usual order.
#[test]
fn click_depth_does_not_depend_on_the_order_responses_arrive_in() {
    use crawlgate_core::crawl::Crawl;
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            text("Sitemap: http://site.test/sitemap.xml\n"),
        )
        .with(ROOT, html(r#"<a href="/a">a</a>"#))
        .with("http://site.test/a", html(r#"<a href="/b">b</a>"#))
        .with("http://site.test/b", html(r#"<a href="/c">c</a>"#))
        .with("http://site.test/c", html("<p>c</p>"))
        .with("http://site.test/sitemap.xml", xml(&urlset(ORIGIN, ["/b"])));
    let depths = |sitemap_page_first: bool| {
        let mut crawl = Crawl::new(config()).unwrap();
        let mut held = Vec::new();
        while let Some(request) = crawl.next_request().or_else(|| held.pop()) {
            // Hold the start page back until the sitemap's page has been answered.
            if sitemap_page_first
                && request.url.path() == "/"
                && crawl.progress().pages_fetched == 0
                && held.is_empty()
            {
                held.push(request);
                continue;
            }
            let response = site.respond(&request);
            crawl.complete(&request, response);
        }
        let site = crawl.finish();
        ["/", "/a", "/b", "/c"].map(|p| site.resource(&url(p)).unwrap().depth)
    };
    assert_eq!(depths(false), [Some(0), Some(1), Some(2), Some(3)]);
    assert_eq!(depths(true), [Some(0), Some(1), Some(2), Some(3)]);
}

#[test]
fn a_page_keeps_the_header_lines_the_audit_reads_after_its_signals_read_them_all() {
    let page = CannedResponse {
        headers: vec![
            "Content-Type: text/html".to_owned(),
            "Content-Security-Policy: default-src 'self'".to_owned(),
            "X-Robots-Tag: noindex".to_owned(),
            "Set-Cookie: session=1".to_owned(),
            "Last-Modified: Tue, 02 Jun 2026 10:00:00 GMT".to_owned(),
        ],
        body: "<html><head><title>t</title></head><body></body></html>".to_owned(),
        ..CannedResponse::default()
    };
    let site = OfflineSite::default()
        .with("http://site.test/robots.txt", text(""))
        .with(ROOT, page)
        .crawl(config())
        .unwrap();
    let fetched = site.page(site.resource(&url("/")).unwrap()).unwrap();
    let names: Vec<&str> = fetched.headers.iter().map(|h| h.name).collect();
    assert_eq!(names, ["Content-Type", "Last-Modified"]);
    // Read from every line before the rest were let go.
    assert_eq!(fetched.signals.robots_headers.len(), 1);
}

#[test]
fn a_self_canonical_shares_its_pages_url_and_another_keeps_its_own() {
    let site = OfflineSite::default()
        .with(
            ROOT,
            html(r#"<html><head><link rel="canonical" href="/"></head><body><a href="/a">a</a></body></html>"#),
        )
        .with(
            "http://site.test/a",
            html(r#"<html><head><link rel="canonical" href="/"></head></html>"#),
        )
        .crawl(config())
        .unwrap();
    let canonical_of = |path: &str| {
        let resource = site.resource(&url(path)).unwrap();
        let page = site.page(resource).expect("fetched");
        let resolved = page.signals.canonicals[0].resolved.clone().unwrap();
        (std::sync::Arc::clone(&resource.url), resolved)
    };
    let (home, home_canonical) = canonical_of("/");
    assert!(
        std::sync::Arc::ptr_eq(&home, &home_canonical),
        "one copy of the URL"
    );
    let (a, a_canonical) = canonical_of("/a");
    assert_eq!(*a_canonical, url("/"));
    assert!(!std::sync::Arc::ptr_eq(&a, &a_canonical));
}

/// A page store whose disk is full.
#[derive(Debug)]
struct FullDisk;

impl crawlgate_core::site::PageStore for FullDisk {
    fn put(&self, _record: &[u8]) -> std::io::Result<crawlgate_core::site::PageKey> {
        Err(std::io::Error::other("no space left on device"))
    }

    fn get(&self, _key: crawlgate_core::site::PageKey, _into: &mut Vec<u8>) -> std::io::Result<()> {
        Err(std::io::Error::other("nothing was stored"))
    }
}

#[test]
fn pages_the_store_cannot_take_stay_in_memory_and_the_site_says_why() {
    let site = OfflineSite::default()
        .with(
            ROOT,
            html(r#"<html><head><meta name="robots" content="noindex"></head><body><a href="/a">a</a></body></html>"#),
        )
        .with("http://site.test/a", html("<html><body>a</body></html>"));
    let mut config = config();
    config.bounds.pages_in_memory = 0;
    let mut crawl = crawlgate_core::crawl::Crawl::new(config).unwrap();
    crawl.set_page_store(std::sync::Arc::new(FullDisk));
    while let Some(request) = crawl.next_request() {
        let response = site.respond(&request);
        crawl.complete(&request, response);
    }
    let site = crawl.finish();
    assert_eq!(site.stats.pages_stored, 0);
    assert_eq!(
        site.stats.page_store_write_error.as_deref(),
        Some("no space left on device")
    );
    let home = site.resource(&url("/")).unwrap();
    let page = site.page(home).expect("held in memory");
    assert_eq!(page.signals.meta_robots.len(), 1);
    assert!(site.page(site.resource(&url("/a")).unwrap()).is_some());
    assert_eq!(site.page_store_error(), None);
}

#[test]
fn a_window_shows_its_resources_with_their_pages_held_and_gives_them_back_to_the_store() {
    use std::borrow::Cow;
    let offline = OfflineSite::default()
        .with(
            ROOT,
            html(r#"<html><body><a href="/a">a</a><a href="/b">b</a><a href="/c">c</a></body></html>"#),
        )
        .with("http://site.test/a", html("<html><body>a</body></html>"))
        .with("http://site.test/b", html("<html><body>b</body></html>"))
        .with("http://site.test/c", html("<html><body>c</body></html>"));
    let mut config = config();
    config.bounds.pages_in_memory = 0;
    let mut site = offline.crawl(config).unwrap();
    let all: Vec<String> = site.resources().iter().map(|r| r.url.to_string()).collect();
    assert!(all.len() >= 4, "{all:?}");
    assert!(site.stats.pages_stored >= 4);
    let stored = |site: &crawlgate_core::Site, at: usize| {
        let resource = site.resource_str(&all[at]).unwrap();
        matches!(site.page(resource), Some(Cow::Owned(_)))
    };
    assert!((0..all.len()).all(|at| stored(&site, at)));

    site.set_window(Some(1..3));
    let shown: Vec<String> = site.resources().iter().map(|r| r.url.to_string()).collect();
    assert_eq!(shown, all[1..3]);
    assert_eq!(site.fetched().count(), 2);
    assert!(
        site.fetched()
            .all(|(_, page)| matches!(page, Cow::Borrowed(_)))
    );
    // Lookups still see the whole site, and read stored pages back.
    assert_eq!(site.resource_count(), all.len());
    assert!(stored(&site, 0));
    assert!(!stored(&site, 1) && !stored(&site, 2));

    site.set_window(None);
    let shown: Vec<String> = site.resources().iter().map(|r| r.url.to_string()).collect();
    assert_eq!(shown, all);
    assert!((0..all.len()).all(|at| stored(&site, at)));
    assert_eq!(site.page_store_error(), None);
}

/// A site where 60 pages link to `/target` (some `nofollow`, on differing lines) and use
/// `/shared.css`, and three sitemaps list `/target`: more links and references than a URL keeps
/// as samples, arriving over many spills when the lists go to the store.
fn crowded_site() -> (OfflineSite, CrawlConfig) {
    let pages: Vec<String> = (0..60).map(|n| format!("/p/{n}")).collect();
    let home = pages.iter().fold(String::new(), |home, path| {
        home + "<a href=\"" + path + "\">x</a>\n"
    });
    let mut site = OfflineSite::default()
        .with("http://site.test/robots.txt", text("Sitemap: http://site.test/a.xml\nSitemap: http://site.test/b.xml\nSitemap: http://site.test/c.xml\n"))
        .with(ROOT, html(&format!("<html><body>{home}</body></html>")))
        .with("http://site.test/target", html("<html><body>t</body></html>"))
        .with("http://site.test/shared.css", CannedResponse::ok("text/css", "p{}"));
    for name in ["a", "b", "c"] {
        site = site.with(
            &format!("http://site.test/{name}.xml"),
            xml(&urlset(ORIGIN, ["/p/1", "/target", "/p/2", "/target"])),
        );
    }
    for (n, path) in pages.iter().enumerate() {
        let blank_lines = "\n".repeat(n % 7);
        let rel = if n % 3 == 0 { " rel=\"nofollow\"" } else { "" };
        site = site.with(
            &format!("{ORIGIN}{path}"),
            html(&format!(
                "<html><head><link rel=\"stylesheet\" href=\"/shared.css\"></head><body>{blank_lines}<a href=\"/target\"{rel}>t</a>\n<a href=\"/target\">again</a></body></html>"
            )),
        );
    }
    let mut config = config();
    config.bounds.max_pages = 100;
    (site, config)
}

#[test]
fn lists_spilled_to_the_page_store_come_back_as_the_held_lists_are() {
    let (offline, config) = crowded_site();
    let held = offline.crawl(config.clone()).unwrap();
    let mut stored_config = config;
    stored_config.bounds.pages_in_memory = 0;
    stored_config.bounds.lists_in_memory = 0;
    let stored = offline.crawl(stored_config).unwrap();
    assert!(stored.stats.pages_stored > 60);
    let mut stored_lists = 0;
    for resource in held.resources() {
        let other = stored.resource(&resource.url).unwrap();
        assert!(!resource.has_stored_lists());
        stored_lists += usize::from(other.has_stored_lists());
        let at = resource.url.as_str();
        assert_eq!(
            held.link_samples(resource),
            stored.link_samples(other),
            "{at}"
        );
        assert_eq!(held.references(resource), stored.references(other), "{at}");
        assert_eq!(held.listings(resource), stored.listings(other), "{at}");
        let counts = |r: &crawlgate_core::site::Resource| {
            (r.inbound_links.followed, r.inbound_links.qualified)
        };
        assert_eq!(counts(resource), counts(other), "{at}");
        assert_eq!(resource.other_references, other.other_references, "{at}");
        assert_eq!(resource.listing_count(), other.listing_count(), "{at}");
    }
    assert!(stored_lists > 60, "{stored_lists} URLs' lists stored");
    assert_eq!(stored.page_store_error(), None);
    // What the lists hold: the first 20 links by page and line, of 120; the stylesheet's first
    // 20 users, the other 40 counted; six listings in sitemap and line order.
    let target = held.resource(&url("/target")).unwrap();
    let samples = held.link_samples(target);
    assert_eq!(samples.len(), 20);
    assert_eq!(
        target.inbound_links.followed + target.inbound_links.qualified,
        120
    );
    assert_eq!(*samples[0].from, url("/p/0"));
    assert!(
        samples
            .windows(2)
            .all(|w| (w[0].from.as_str(), w[0].line) <= (w[1].from.as_str(), w[1].line))
    );
    let css = held.resource(&url("/shared.css")).unwrap();
    assert_eq!(held.references(css).len(), 20);
    assert_eq!(css.other_references, 40);
    let sitemaps: Vec<String> = held
        .listings(target)
        .iter()
        .map(|l| format!("{}:{}", l.sitemap.path(), l.line))
        .collect();
    assert_eq!(
        sitemaps,
        [
            "/a.xml:4", "/a.xml:6", "/b.xml:4", "/b.xml:6", "/c.xml:4", "/c.xml:6"
        ]
    );
}

/// A page store that takes `left` records, then is full.
#[derive(Debug)]
struct FillsUp {
    store: crawlgate_core::site::MemoryPageStore,
    left: std::sync::atomic::AtomicUsize,
}

impl crawlgate_core::site::PageStore for FillsUp {
    fn put(&self, record: &[u8]) -> std::io::Result<crawlgate_core::site::PageKey> {
        use std::sync::atomic::Ordering;
        if self
            .left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_err()
        {
            return Err(std::io::Error::other("no space left on device"));
        }
        self.store.put(record)
    }

    fn get(&self, key: crawlgate_core::site::PageKey, into: &mut Vec<u8>) -> std::io::Result<()> {
        self.store.get(key, into)
    }
}

#[test]
fn what_the_store_took_before_it_filled_up_is_still_read_back() {
    let (offline, config) = crowded_site();
    let held = offline.crawl(config.clone()).unwrap();
    let mut config = config;
    config.bounds.pages_in_memory = 0;
    config.bounds.lists_in_memory = 0;
    let mut crawl = crawlgate_core::crawl::Crawl::new(config).unwrap();
    crawl.set_page_store(std::sync::Arc::new(FillsUp {
        store: crawlgate_core::site::MemoryPageStore::default(),
        left: std::sync::atomic::AtomicUsize::new(30),
    }));
    while let Some(request) = crawl.next_request() {
        let response = offline.respond(&request);
        crawl.complete(&request, response);
    }
    let site = crawl.finish();
    assert!(site.stats.pages_stored > 0 && site.stats.pages_stored < 30);
    assert_eq!(
        site.stats.page_store_write_error.as_deref(),
        Some("no space left on device")
    );
    for resource in held.resources() {
        let other = site.resource(&resource.url).unwrap();
        let at = resource.url.as_str();
        assert_eq!(
            held.page(resource).map(|p| p.status),
            site.page(other).map(|p| p.status),
            "{at}"
        );
        assert_eq!(
            held.link_samples(resource),
            site.link_samples(other),
            "{at}"
        );
        assert_eq!(held.references(resource), site.references(other), "{at}");
        assert_eq!(held.listings(resource), site.listings(other), "{at}");
    }
    assert_eq!(site.page_store_error(), None);
}
