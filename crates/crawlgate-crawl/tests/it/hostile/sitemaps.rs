//! Hostile sitemaps: a gzip bomb, an entity bomb, an external entity, index cycles, an index of
//! 1,000 children, a sitemap of 60,000 URLs, a truncated gzip file. Each is advertised by
//! robots.txt and crawled for real; what the crawl recorded is asserted.

use crate::support::{config, http, run, serve};
use crawlgate_core::Site;
use crawlgate_core::site::{Bound, NotFetchedReason, SitemapFile, SitemapState};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use crawlgate_test_support::html::page;
use crawlgate_test_support::sitemap::{ORIGIN, URLSET_OPEN, sitemap_index, urlset};
use flate2::write::GzEncoder;
use flate2::{Compress, Compression, Crc, FlushCompress};
use std::fmt::Write as _;
use std::io::Write as _;
use url::Url;

/// A site whose robots.txt advertises `/sitemap.xml`, with a home page.
fn advertising() -> ServedSite {
    ServedSite::new()
        .file(
            "robots.txt",
            "User-agent: *\nAllow: /\nSitemap: {{origin}}/sitemap.xml\n",
        )
        .file("index.html", page(&[]))
}

async fn crawl(site: ServedSite, max_pages: u64) -> (Site, SiteServer) {
    let server = serve(site).await;
    let mut config = config(server.url("/"));
    config.bounds.max_pages = max_pages;
    config.bounds.max_sitemaps = 50;
    let (site, _) = run(config, &http()).await;
    (site, server)
}

fn sitemap<'a>(site: &'a Site, url: &Url) -> &'a SitemapFile {
    site.sitemaps
        .iter()
        .find(|s| &s.url == url)
        .unwrap_or_else(|| panic!("{url} is not a known sitemap"))
}

fn issue_rules(file: &SitemapFile) -> Vec<&'static str> {
    file.summary()
        .map(|s| s.issues.iter().map(crawlgate_core::Issue::rule).collect())
        .unwrap_or_default()
}

/// How often the server was asked for `path`.
fn requests_for(server: &SiteServer, path: &str) -> usize {
    server.requests().iter().filter(|p| *p == path).count()
}

/// gzip bytes of `head`, then `mebibytes` MiB of spaces, then `tail` (a valid gzip member, CRC
/// and length included), built without compressing the spaces more than twice: with a sync
/// flush after each MiB, the compressed second MiB decodes to spaces after any run of spaces, so
/// it is repeated.
fn gzip_of_spaces(head: &[u8], mebibytes: u64, tail: &[u8]) -> Vec<u8> {
    let mebibyte = vec![b' '; 1 << 20];
    let mut deflate = Compress::new(Compression::best(), false);
    let mut segment = |input: &[u8], flush: FlushCompress| {
        let mut out = Vec::with_capacity(input.len() + 1024);
        let before = deflate.total_in();
        deflate.compress_vec(input, &mut out, flush).unwrap();
        assert_eq!(deflate.total_in() - before, input.len() as u64);
        out
    };
    let opening = segment(head, FlushCompress::Sync);
    let first = segment(&mebibyte, FlushCompress::Sync);
    let repeated = segment(&mebibyte, FlushCompress::Sync);
    let closing = segment(tail, FlushCompress::Finish);

    let mut crc = Crc::new();
    crc.update(head);
    let mut spaces = Crc::new();
    spaces.update(&mebibyte);
    for _ in 0..mebibytes {
        crc.combine(&spaces);
    }
    let mut tail_crc = Crc::new();
    tail_crc.update(tail);
    crc.combine(&tail_crc);

    let mut gzip = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    gzip.extend_from_slice(&opening);
    gzip.extend_from_slice(&first);
    for _ in 1..mebibytes {
        gzip.extend_from_slice(&repeated);
    }
    gzip.extend_from_slice(&closing);
    gzip.extend_from_slice(&crc.sum().to_le_bytes());
    gzip.extend_from_slice(&crc.amount().to_le_bytes());
    gzip
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn the_bomb_builder_makes_valid_gzip() {
    // 3 MiB of spaces between a head and a tail, decoded by flate2 in full, CRC checked.
    let bomb = gzip_of_spaces(b"<a>", 3, b"</a>");
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bomb[..]), &mut decoded).unwrap();
    assert_eq!(decoded.len(), 3 + (3 << 20) + 4);
    assert!(decoded.starts_with(b"<a> "));
    assert!(decoded.ends_with(b" </a>"));
}

#[tokio::test]
async fn a_gzip_bomb_is_read_to_the_size_guard_and_no_further() {
    // 10 GiB of spaces inside a urlset: about 10 MB as a .gz file, served with HTTP compression on
    // top (two layers: about 30 KB on the wire). Deflate cannot pack more than ~1,032:1 per layer,
    // so no single-layer 1 KB file inflates to 10 GB; two layers are what a bomb needs.
    let inner = gzip_of_spaces(
        format!("{URLSET_OPEN}<url><loc>http://127.0.0.1/first</loc></url>\n").as_bytes(),
        10 * 1024,
        b"<url><loc>http://127.0.0.1/never</loc></url>\n</urlset>\n",
    );
    let wire = gzip(&inner);
    assert!(wire.len() < 64 * 1024, "{} bytes on the wire", wire.len());
    let mut bomb = Route::new("/sitemap.xml");
    bomb.body_from = Some("bomb.xml.gz".to_owned());
    bomb.headers = vec![
        "Content-Type: application/xml".to_owned(),
        "Content-Encoding: gzip".to_owned(),
    ];
    bomb.replace_headers = true;
    let (site, server) = crawl(advertising().file("bomb.xml.gz", wire).route(bomb), 5).await;
    let file = sitemap(&site, &server.url("/sitemap.xml"));
    let summary = file
        .summary()
        .expect("the bomb is parsed as far as allowed");
    assert!(summary.gzip);
    assert!(summary.truncated);
    // Read to the size guard (50 MiB + 1 MiB of margin), nowhere near 10 GiB.
    assert!(
        summary.bytes_uncompressed <= 52 * 1024 * 1024,
        "{summary:?}"
    );
    assert!(
        summary.bytes_uncompressed >= 50 * 1024 * 1024,
        "{summary:?}"
    );
    assert!(
        issue_rules(file).contains(&"sitemap/too-large"),
        "{summary:?}"
    );
    // The entry before the padding is kept; the one after it was never reached. (The bomb is
    // built before the server's port is known, so its URLs name another origin.)
    let locs: Vec<&str> = file.entries().iter().map(|e| e.loc.as_str()).collect();
    assert_eq!(locs, ["http://127.0.0.1/first"]);
}

#[tokio::test]
async fn an_entity_bomb_is_refused_without_expanding_anything() {
    let mut doctype =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n<!ENTITY l0 \"lol\">\n");
    for level in 1..10 {
        let refs = format!("&l{};", level - 1).repeat(10);
        writeln!(doctype, "<!ENTITY l{level} \"{refs}\">").unwrap();
    }
    doctype.push_str("]>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    let xml = doctype + "<url><loc>{{origin}}/&l9;</loc></url>\n</urlset>\n";
    let (site, server) = crawl(advertising().file("sitemap.xml", xml), 5).await;
    let file = sitemap(&site, &server.url("/sitemap.xml"));
    let summary = file.summary().unwrap();
    assert!(summary.truncated);
    assert!(issue_rules(file).contains(&"sitemap/unsafe-xml"));
    assert!(file.entries().is_empty(), "{:?}", file.entries());
    // Nothing near the billion `lol`s was produced.
    assert!(summary.bytes_uncompressed < 4096);
}

#[tokio::test]
async fn an_external_entity_is_never_fetched() {
    let xml = "<?xml version=\"1.0\"?>\n\
        <!DOCTYPE urlset [<!ENTITY secret SYSTEM \"{{origin}}/secret.txt\">]>\n\
        <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
        <url><loc>{{origin}}/&secret;</loc></url>\n</urlset>\n";
    let (site, server) = crawl(
        advertising()
            .file("sitemap.xml", xml)
            .file("secret.txt", "root:x:0:0"),
        5,
    )
    .await;
    let file = sitemap(&site, &server.url("/sitemap.xml"));
    assert!(issue_rules(file).contains(&"sitemap/unsafe-xml"));
    assert!(file.entries().is_empty());
    assert_eq!(requests_for(&server, "/secret.txt"), 0);
}

#[tokio::test]
async fn an_index_naming_itself_is_read_once_and_the_cycle_recorded() {
    let xml = sitemap_index(ORIGIN, ["/sitemap.xml", "/pages.xml"]);
    let (site, server) = crawl(
        advertising()
            .file("sitemap.xml", xml)
            .file("pages.xml", urlset(ORIGIN, ["/p"]))
            .file("p", page(&[])),
        5,
    )
    .await;
    assert_eq!(requests_for(&server, "/sitemap.xml"), 1);
    assert_eq!(requests_for(&server, "/pages.xml"), 1);
    let index_url = server.url("/sitemap.xml");
    assert!(
        site.sitemap_cycles
            .iter()
            .any(|c| c.named == index_url && c.repeats == index_url),
        "{:?}",
        site.sitemap_cycles
    );
    assert!(site.resource(&server.url("/p")).is_some());
}

#[tokio::test]
async fn indexes_naming_each_other_are_each_read_once() {
    let (site, server) = crawl(
        advertising()
            .file("sitemap.xml", sitemap_index(ORIGIN, ["/b.xml"]))
            .file(
                "b.xml",
                sitemap_index(ORIGIN, ["/sitemap.xml", "/pages.xml"]),
            )
            .file("pages.xml", urlset(ORIGIN, ["/p"])),
        5,
    )
    .await;
    assert_eq!(requests_for(&server, "/sitemap.xml"), 1);
    assert_eq!(requests_for(&server, "/b.xml"), 1);
    assert_eq!(requests_for(&server, "/pages.xml"), 1);
    let a = server.url("/sitemap.xml");
    assert!(
        site.sitemap_cycles.iter().any(|c| c.repeats == a),
        "{:?}",
        site.sitemap_cycles
    );
}

#[tokio::test]
async fn an_index_of_1000_children_stops_at_the_sitemap_bound() {
    let children = (0..1_000).map(|i| format!("/child-{i}.xml"));
    let mut many_children = advertising().file("sitemap.xml", sitemap_index(ORIGIN, children));
    for i in 0..1_000 {
        many_children = many_children.file(
            &format!("child-{i}.xml"),
            urlset(ORIGIN, [format!("/from-child-{i}")]),
        );
    }
    let (site, server) = crawl(many_children, 5).await;
    // The bound is 50 sitemaps (the index among them).
    let children_read = server
        .requests()
        .iter()
        .filter(|p| p.starts_with("/child-"))
        .count();
    assert_eq!(children_read, 49);
    assert!(site.stats.bounds_hit.contains(&Bound::MaxSitemaps(50)));
    let unread = site
        .sitemaps
        .iter()
        .filter(|s| {
            matches!(
                s.state,
                SitemapState::NotFetched(NotFetchedReason::SitemapBound)
            )
        })
        .count();
    // As many again as the bound are recorded unread; the rest are counted.
    assert_eq!(unread, 50);
    assert_eq!(site.stats.sitemaps_not_recorded, 1_000 - 49 - 50);
}

#[tokio::test]
async fn a_sitemap_of_60000_urls_is_flagged_and_the_page_bound_holds() {
    let xml = urlset(ORIGIN, (0..60_000).map(|i| format!("/item/{i}")));
    let (site, server) = crawl(advertising().file("sitemap.xml", xml), 20).await;
    let file = sitemap(&site, &server.url("/sitemap.xml"));
    assert!(issue_rules(file).contains(&"sitemap/too-many-urls"));
    // All are counted; the protocol's 50,000 are kept (memory stays bounded whatever the file
    // holds), and those URLs are known to the crawl.
    assert_eq!(file.summary().unwrap().entry_count, 60_000);
    assert_eq!(file.entries().len(), 50_000);
    assert!(site.resource(&server.url("/item/49999")).is_some());
    assert!(site.resource(&server.url("/item/50000")).is_none());
    // Only the page bound's worth is fetched.
    assert_eq!(site.stats.pages_fetched, 20);
    assert!(site.stats.bounds_hit.contains(&Bound::MaxPages(20)));
    let item_requests = server
        .requests()
        .iter()
        .filter(|p| p.starts_with("/item/"))
        .count();
    assert!(item_requests <= 20, "{item_requests}");
}

#[tokio::test]
async fn a_truncated_gzip_sitemap_keeps_what_came_before_the_cut() {
    // Compressed before the server's port is known: the URLs name another origin.
    let xml = urlset("http://127.0.0.1", (0..2_000).map(|i| format!("/item/{i}")));
    let whole = gzip(xml.as_bytes());
    let cut = whole[..whole.len() / 2].to_vec();
    let mut route = Route::new("/sitemap.xml");
    route.body_from = Some("cut.xml.gz".to_owned());
    route.headers = vec!["Content-Type: application/gzip".to_owned()];
    route.replace_headers = true;
    let (site, server) = crawl(advertising().file("cut.xml.gz", cut).route(route), 5).await;
    let file = sitemap(&site, &server.url("/sitemap.xml"));
    let summary = file.summary().unwrap();
    assert!(summary.gzip);
    assert!(summary.truncated);
    let rules = issue_rules(file);
    assert!(rules.contains(&"sitemap/gzip-invalid"), "{rules:?}");
    // Some entries came out before the cut, not all of them.
    let read = file.entries().len();
    assert!(read > 0 && read < 2_000, "{read}");
    assert_eq!(
        file.entries().first().map(|e| e.loc.as_str()),
        Some("http://127.0.0.1/item/0")
    );
}
