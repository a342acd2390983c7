//! Sitemaps over HTTP: discovery (robots.txt, configured, probe), index recursion with its
//! bounds, cycles, gzip (as a file and as HTTP compression), failing and oversize children.

use crate::support::{config, http, resource, run, serve, status};
use crawlgate_core::site::{SitemapSource, SitemapState};
use crawlgate_crawl::{SitemapLimits, SitemapSkip, SitemapStep, fetch_sitemaps};
use crawlgate_serve::{Route, ServedSite};
use crawlgate_test_support::html::page;
use crawlgate_test_support::sitemap::{ORIGIN, sitemap_index, urlset};
use url::Url;

/// A site whose index names itself, a loop back, a gzip file, an HTTP-compressed child, a 404
/// and an oversize child.
fn sitemap_site() -> ServedSite {
    let mut oversize = Route::new("/big.xml");
    oversize.body_from = Some("big.xml".to_owned());
    oversize.pad_bytes = Some(20_000);
    let mut gz_file = Route::new("/pages.xml.gz");
    gz_file.body_from = Some("pages-gz.xml".to_owned());
    gz_file.gzip_file = true;
    gz_file.headers = vec!["Content-Type: application/gzip".to_owned()];
    gz_file.replace_headers = true;
    let mut compressed = Route::new("/compressed.xml");
    compressed.body_from = Some("compressed.xml".to_owned());
    compressed.gzip = true;
    ServedSite::new()
        .file(
            "robots.txt",
            "User-agent: *\nAllow: /\nSitemap: {{origin}}/sitemap_index.xml\n",
        )
        .file("index.html", page(&[]))
        .file(
            "sitemap_index.xml",
            sitemap_index(
                ORIGIN,
                [
                    "/sitemap_index.xml",
                    "/loop.xml",
                    "/pages.xml.gz",
                    "/compressed.xml",
                    "/missing.xml",
                    "/big.xml",
                ],
            ),
        )
        .file(
            "loop.xml",
            sitemap_index(ORIGIN, ["/sitemap_index.xml", "/plain.xml"]),
        )
        .file("plain.xml", urlset(ORIGIN, ["/from-plain"]))
        .file("pages-gz.xml", urlset(ORIGIN, ["/from-gz"]))
        .file("compressed.xml", urlset(ORIGIN, ["/from-compressed"]))
        .file("big.xml", urlset(ORIGIN, ["/from-big"]))
        .file("from-plain", page(&[]))
        .file("from-gz", page(&[]))
        .file("from-compressed", page(&[]))
        .file("from-big", page(&[]))
        .route(oversize)
        .route(gz_file)
        .route(compressed)
}

#[tokio::test]
async fn an_index_is_recursed_with_cycles_gzip_failures_and_caps_recorded() {
    let server = serve(sitemap_site()).await;
    let mut bounded = config(server.url("/"));
    bounded.bounds.max_sitemap_bytes = 5_000;
    let (site, _) = run(bounded, &http()).await;
    let sitemap = |path: &str| {
        site.sitemaps
            .iter()
            .find(|s| s.url == server.url(path))
            .unwrap_or_else(|| panic!("{path} is a known sitemap"))
    };

    let root = sitemap("/sitemap_index.xml");
    assert!(root.advertised());
    assert!(root.is_index());

    // The self-reference and the loop back are cycles, each read once.
    let repeats: Vec<&Url> = site.sitemap_cycles.iter().map(|c| &c.repeats).collect();
    assert_eq!(repeats.len(), 2, "{:?}", site.sitemap_cycles);
    assert!(
        repeats
            .iter()
            .all(|url| **url == server.url("/sitemap_index.xml"))
    );
    let index_reads = server
        .requests()
        .iter()
        .filter(|r| *r == "/sitemap_index.xml")
        .count();
    assert_eq!(index_reads, 1);

    // A nested index is followed (depth 2).
    assert_eq!(sitemap("/plain.xml").depth, 2);
    assert_eq!(status(&site, &server.url("/from-plain")), 200);

    // gzip as a file: recognised by its magic bytes.
    let gz = sitemap("/pages.xml.gz");
    assert!(gz.summary().unwrap().gzip);
    assert_eq!(gz.entries().len(), 1);
    assert_eq!(status(&site, &server.url("/from-gz")), 200);

    // gzip as HTTP compression: decoded by the client, the parser sees XML.
    let compressed = sitemap("/compressed.xml");
    assert!(!compressed.summary().unwrap().gzip);
    assert_eq!(compressed.entries().len(), 1);

    // A 404 child is an HTTP error, not a parse.
    assert!(matches!(
        sitemap("/missing.xml").state,
        SitemapState::HttpError { status: 404, .. }
    ));

    // An oversize child: cut at the cap, read partially, and said so.
    let big = sitemap("/big.xml").summary().unwrap();
    assert!(big.truncated);
    assert!(big.issues.iter().any(|i| i.rule() == "sitemap/fetch-error"));
    assert_eq!(sitemap("/big.xml").entries().len(), 1);

    // Sitemap-only pages are seeds: no click depth, listed where found.
    let from_gz = resource(&site, &server.url("/from-gz"));
    assert_eq!(from_gz.depth, None);
    assert_eq!(
        *site.listings(from_gz)[0].sitemap,
        server.url("/pages.xml.gz")
    );
}

#[tokio::test]
async fn the_index_depth_and_count_bounds_hold() {
    let server = serve(sitemap_site()).await;
    let mut shallow = config(server.url("/"));
    shallow.bounds.sitemap_depth = 1;
    let (site, _) = run(shallow, &http()).await;
    let plain = site
        .sitemaps
        .iter()
        .find(|s| s.url == server.url("/plain.xml"))
        .unwrap();
    assert!(matches!(plain.state, SitemapState::NotFetched(_)));
    assert!(!server.requests().contains(&"/plain.xml".to_owned()));

    let server = serve(sitemap_site()).await;
    let mut few = config(server.url("/"));
    few.bounds.max_sitemaps = 3;
    let (site, _) = run(few, &http()).await;
    let fetched = site
        .sitemaps
        .iter()
        .filter(|s| !matches!(s.state, SitemapState::NotFetched(_)))
        .count();
    assert!(fetched <= 3, "{fetched}");
}

#[tokio::test]
async fn configured_sitemaps_and_the_probe_are_read_and_labelled() {
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&[]))
            .file("sitemap.xml", urlset(ORIGIN, ["/probed"]))
            .file("extra.xml", urlset(ORIGIN, ["/configured"]))
            .file("probed", page(&[]))
            .file("configured", page(&[])),
    )
    .await;
    let mut with_extra = config(server.url("/"));
    with_extra.sitemaps = vec![server.url("/extra.xml")];
    let (site, _) = run(with_extra, &http()).await;
    let sources = |path: &str| {
        site.sitemaps
            .iter()
            .find(|s| s.url == server.url(path))
            .map(|s| s.sources.clone())
            .unwrap()
    };
    assert_eq!(sources("/sitemap.xml"), [SitemapSource::Probe]);
    assert_eq!(sources("/extra.xml"), [SitemapSource::Configured]);
    assert_eq!(status(&site, &server.url("/probed")), 200);
    assert_eq!(status(&site, &server.url("/configured")), 200);

    let mut no_probe = config(server.url("/"));
    no_probe.probe_sitemap = false;
    let server = serve(
        ServedSite::new()
            .file("index.html", page(&[]))
            .file("sitemap.xml", urlset(ORIGIN, ["/probed"])),
    )
    .await;
    no_probe.start_url = server.url("/");
    let (site, _) = run(no_probe, &http()).await;
    assert!(site.sitemaps.is_empty());
    assert!(!server.requests().contains(&"/sitemap.xml".to_owned()));
}

/// The walker the CLI uses: what it visits and skips, in order.
async fn walk(server_url: &Url, limits: &SitemapLimits) -> Vec<String> {
    let mut steps = Vec::new();
    fetch_sitemaps(server_url, &http(), limits, |step| match step {
        SitemapStep::Fetched(fetch) => {
            let (status, children) = match &fetch.response.outcome {
                Ok(received) => {
                    let parsed = crawlgate_core::sitemap::parse_bytes(
                        &received.body,
                        &crawlgate_core::sitemap::SitemapOptions::new(
                            "2026-06-01T00:00:00Z".parse().unwrap(),
                        ),
                    );
                    let children =
                        if parsed.summary.kind == crawlgate_core::sitemap::SitemapKind::Index {
                            parsed
                                .entries
                                .iter()
                                .filter_map(|e| Url::parse(&e.loc).ok())
                                .collect()
                        } else {
                            Vec::new()
                        };
                    (received.status.to_string(), children)
                }
                Err((kind, _)) => (kind.as_str().to_owned(), Vec::new()),
            };
            steps.push(format!("{} {} {status}", fetch.depth, fetch.url.path()));
            children
        }
        SitemapStep::Skipped { url, reason, .. } => {
            let reason = match reason {
                SitemapSkip::Cycle { repeats } => format!("cycle {}", repeats.path()),
                SitemapSkip::Duplicate => "duplicate".to_owned(),
                SitemapSkip::DepthBound(n) => format!("depth {n}"),
                SitemapSkip::CountBound(n) => format!("count {n}"),
            };
            steps.push(format!("skip {} {reason}", url.path()));
            Vec::new()
        }
    })
    .await;
    steps
}

#[tokio::test]
async fn the_sitemap_walker_recurses_in_document_order_within_bounds() {
    let server = serve(sitemap_site().route(Route::redirect("/moved.xml", 301, "/loop.xml"))).await;
    let steps = walk(&server.url("/sitemap_index.xml"), &SitemapLimits::default()).await;
    assert_eq!(
        steps,
        [
            "0 /sitemap_index.xml 200",
            "skip /sitemap_index.xml cycle /sitemap_index.xml",
            "1 /loop.xml 200",
            "skip /sitemap_index.xml cycle /sitemap_index.xml",
            "2 /plain.xml 200",
            "1 /pages.xml.gz 200",
            "1 /compressed.xml 200",
            "1 /missing.xml 404",
            "1 /big.xml 200",
        ]
    );

    let limits = SitemapLimits {
        max_depth: 1,
        max_sitemaps: 3,
        ..SitemapLimits::default()
    };
    let steps = walk(&server.url("/sitemap_index.xml"), &limits).await;
    assert_eq!(
        steps,
        [
            "0 /sitemap_index.xml 200",
            "skip /sitemap_index.xml cycle /sitemap_index.xml",
            "1 /loop.xml 200",
            "skip /sitemap_index.xml cycle /sitemap_index.xml",
            "skip /plain.xml depth 1",
            "1 /pages.xml.gz 200",
            "skip /compressed.xml count 3",
            "skip /missing.xml count 3",
            "skip /big.xml count 3",
        ]
    );
}

#[tokio::test]
async fn a_child_redirecting_to_its_index_is_a_cycle_on_the_final_url() {
    let server = serve(
        ServedSite::new()
            .file(
                "robots.txt",
                "User-agent: *\nAllow: /\nSitemap: {{origin}}/r-index.xml\n",
            )
            .file("index.html", page(&[]))
            .file("r-index.xml", sitemap_index(ORIGIN, ["/moved.xml"]))
            .route(Route::redirect("/moved.xml", 301, "/r-index.xml")),
    )
    .await;
    let steps = walk(&server.url("/r-index.xml"), &SitemapLimits::default()).await;
    assert_eq!(
        steps,
        ["0 /r-index.xml 200", "skip /moved.xml cycle /r-index.xml"]
    );

    let (site, _) = run(config(server.url("/")), &http()).await;
    let moved = site
        .sitemaps
        .iter()
        .find(|s| s.url == server.url("/moved.xml"))
        .unwrap();
    match &moved.state {
        SitemapState::Cycle { hops, repeats } => {
            assert_eq!(hops.len(), 1);
            assert_eq!(repeats, &server.url("/r-index.xml"));
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
}

#[tokio::test]
async fn at_most_two_sitemaps_are_fetched_at_once() {
    // Six sitemaps that each take 400 ms to answer: two at a time, they arrive in three waves.
    let mut site = ServedSite::new().file("index.html", page(&[]));
    let mut robots = String::from("User-agent: *\nAllow: /\n");
    for n in 0..6 {
        robots += "Sitemap: {{origin}}/s";
        robots += &n.to_string();
        robots += ".xml\n";
        site = site
            .file(&format!("s{n}.xml"), urlset(ORIGIN, ["/"]))
            .route(Route::new(format!("/s{n}.xml")).delay_ms(400));
    }
    let server = serve(site.file("robots.txt", robots)).await;
    let (crawled, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(crawled.sitemaps.len(), 6);
    let arrivals: Vec<std::time::Instant> = server
        .requests()
        .iter()
        .zip(server.arrival_times())
        .filter(|(path, _)| path.starts_with("/s") && *path != "/sitemap.xml")
        .map(|(_, at)| at)
        .collect();
    assert_eq!(arrivals.len(), 6, "{:?}", server.requests());
    let span = *arrivals.iter().max().unwrap() - *arrivals.iter().min().unwrap();
    assert!(
        span >= std::time::Duration::from_millis(700),
        "six sitemaps asked within {span:?}"
    );
}
