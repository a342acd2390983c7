//! The real-world corpus (`fixtures/corpus/sitemaps/`, 44 files): every file parses without
//! panic into the kind and number of entries it holds, and the 50,000-URL tripadvisor capture
//! reads exactly and cleanly.

use crawlgate_sitemap::{self as sitemap, SitemapKind, SitemapOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/corpus/sitemaps")
}

fn options() -> SitemapOptions {
    SitemapOptions::new("2026-11-30T12:00:00Z".parse().unwrap())
}

/// Every corpus file with what it is: kind, entries handed on, gzip, the rules it reports.
const EXPECTED: [(&str, SitemapKind, u64, bool, &[&str]); 44] = {
    use SitemapKind::{Atom, Index, Rss, Text, UrlSet};
    const NONE: &[&str] = &[];
    const CHANGEFREQ: &[&str] = &["sitemap/changefreq-priority"];
    const STALE: &[&str] = &["sitemap/news-stale"];
    const STALE_CHANGEFREQ: &[&str] = &["sitemap/changefreq-priority", "sitemap/news-stale"];
    [
        (
            "advertools/error_sitemap.xml",
            UrlSet,
            0,
            false,
            // `<url does not close</urlset>`: reported where the `<url` tag lacks its `>`; no
            // element is opened for it, so no entry lacks a loc.
            &["sitemap/bad-root-or-namespace", "sitemap/not-xml"],
        ),
        ("advertools/image_sitemap.xml", UrlSet, 2, false, NONE),
        // `<news:language>en-US`: Google News takes an ISO 639 code (`en`).
        (
            "advertools/news_sitemap.xml",
            UrlSet,
            6,
            false,
            &["sitemap/news-invalid", "sitemap/news-stale"],
        ),
        (
            "advertools/regular_sitemap.xml",
            UrlSet,
            5,
            false,
            CHANGEFREQ,
        ),
        ("advertools/sitemap_index.xml", Index, 4, false, NONE),
        (
            "advertools/video_sitemap.xml",
            UrlSet,
            6,
            false,
            &["sitemap/video-invalid"],
        ),
        (
            "advertools/zipped_sitemap.xml.gz",
            UrlSet,
            5,
            true,
            CHANGEFREQ,
        ),
        ("crawler-commons/atom.xml", Atom, 1, false, NONE),
        (
            "crawler-commons/hebdenbridgetimes-articles-sitemap.xml",
            UrlSet,
            74,
            false,
            CHANGEFREQ,
        ),
        (
            "crawler-commons/pagemaps-sitemap.xml",
            UrlSet,
            2,
            false,
            NONE,
        ),
        (
            "crawler-commons/shinpaideshou-news-sitemap.xml",
            UrlSet,
            3,
            false,
            STALE,
        ),
        ("crawler-commons/sitemap-images.xml", UrlSet, 1, false, NONE),
        ("crawler-commons/sitemap-links.xml", UrlSet, 3, false, NONE),
        ("crawler-commons/sitemap-mobile.xml", UrlSet, 3, false, NONE),
        (
            "crawler-commons/sitemap-news.xml",
            UrlSet,
            2,
            false,
            &["sitemap/news-invalid", "sitemap/news-stale"],
        ),
        (
            "crawler-commons/sitemap-videos-tvshow.xml",
            UrlSet,
            1,
            false,
            NONE,
        ),
        ("crawler-commons/sitemap-videos.xml", UrlSet, 3, false, NONE),
        ("crawler-commons/sitemap-with-bom.txt", Text, 2, false, NONE),
        (
            "crawler-commons/sitemap.badns.xml",
            UrlSet,
            2,
            false,
            &[
                "sitemap/bad-root-or-namespace",
                "sitemap/changefreq-priority",
            ],
        ),
        (
            "crawler-commons/sitemap.index.xml",
            Index,
            0,
            false,
            &["sitemap/loc-invalid"],
        ),
        (
            "crawler-commons/sitemap.ns.xml",
            UrlSet,
            2,
            false,
            CHANGEFREQ,
        ),
        ("crawler-commons/sitemap.txt", Text, 2, false, NONE),
        ("crawler-commons/sitemap.txt.gz", Text, 5, true, NONE),
        ("crawler-commons/xmlSitemap.gz", UrlSet, 5, true, CHANGEFREQ),
        (
            "gopher-parse-sitemap/sitemap-index.xml",
            Index,
            3,
            false,
            NONE,
        ),
        (
            "gopher-parse-sitemap/sitemap.xml",
            UrlSet,
            4,
            false,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/digitalpebble.sitemap.extensions.news.xml",
            UrlSet,
            5,
            false,
            STALE_CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/digitalpebble.sitemap.extensions.video.xml",
            UrlSet,
            5,
            false,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/digitalpebble.sitemap.xml",
            UrlSet,
            5,
            false,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.extensions.all.xml",
            UrlSet,
            7,
            false,
            &[
                "sitemap/changefreq-priority",
                "sitemap/hreflang-invalid",
                "sitemap/news-stale",
            ],
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.extensions.image.xml",
            UrlSet,
            7,
            false,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.extensions.news.xml",
            UrlSet,
            6,
            false,
            STALE_CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.extensions.video.xml",
            UrlSet,
            6,
            false,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.index.xml",
            Index,
            4,
            false,
            NONE,
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.xml",
            UrlSet,
            6,
            false,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/stormcrawler.sitemap.xml.gz",
            UrlSet,
            6,
            true,
            CHANGEFREQ,
        ),
        (
            "incubator-stormcrawler/tripadvisor.sitemap.index.xml",
            Index,
            4,
            false,
            NONE,
        ),
        (
            "incubator-stormcrawler/tripadvisor.sitemap.xml.gz",
            UrlSet,
            50_000,
            true,
            NONE,
        ),
        (
            "news-crawl/feed-with-sitemap-namespace.xml",
            Rss,
            2,
            false,
            NONE,
        ),
        ("news-crawl/sitemap-news.xml", UrlSet, 1, false, STALE),
        // A `<sitemap>` inside its `<urlset>`, which Google ignores.
        (
            "trafilatura/sitemap-hreflang.xml",
            UrlSet,
            3,
            false,
            &["sitemap/bad-root-or-namespace"],
        ),
        ("trafilatura/sitemap.xml", UrlSet, 84, false, NONE),
        ("trafilatura/sitemap.xml.gz", UrlSet, 84, true, NONE),
        ("trafilatura/sitemap2.xml", Index, 2, false, NONE),
    ]
};

#[test]
fn every_corpus_file_parses_into_what_it_holds() {
    let mut on_disk: Vec<String> = Vec::new();
    for source in std::fs::read_dir(corpus()).unwrap() {
        let source = source.unwrap();
        if !source.file_type().unwrap().is_dir() {
            continue;
        }
        for file in std::fs::read_dir(source.path()).unwrap() {
            let file = file.unwrap();
            on_disk.push(format!(
                "{}/{}",
                source.file_name().to_string_lossy(),
                file.file_name().to_string_lossy()
            ));
        }
    }
    on_disk.sort();
    let listed: Vec<String> = EXPECTED
        .iter()
        .map(|(file, ..)| (*file).to_owned())
        .collect();
    assert_eq!(on_disk, listed, "the table lists every corpus file");

    for (file, kind, entries, gzip, rules) in EXPECTED {
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        let mut handed = 0u64;
        let summary = sitemap::parse(&bytes[..], &options(), |_| handed += 1);
        assert_eq!(summary.kind, kind, "{file}");
        assert_eq!((summary.entry_count, handed), (entries, entries), "{file}");
        assert_eq!(summary.gzip, gzip, "{file}");
        assert_eq!(summary.bytes_read, bytes.len() as u64, "{file}");
        let mut fired: Vec<&str> = summary
            .issues
            .iter()
            .map(crawlgate_sitemap::Issue::rule)
            .collect();
        fired.sort_unstable();
        fired.dedup();
        assert_eq!(fired, rules, "{file}: {:#?}", summary.issues);
        for issue in &summary.issues {
            assert!(issue.line.is_none_or(|line| line >= 1), "{file}: {issue:?}");
        }
    }
}

#[test]
fn tripadvisor_has_exactly_50000_urls_and_no_issue() {
    let bytes =
        std::fs::read(corpus().join("incubator-stormcrawler/tripadvisor.sitemap.xml.gz")).unwrap();
    let options = options().with_url("https://www.tripadvisor.com/sitemap.xml".parse().unwrap());
    let mut hosts = BTreeMap::new();
    let mut last_line = 0;
    let summary = sitemap::parse_borrowed(&bytes[..], &options, |entry| {
        assert!(entry.line > last_line, "entries come in document order");
        last_line = entry.line;
        let host = entry.loc.split('/').nth(2).unwrap_or_default().to_owned();
        *hosts.entry(host).or_insert(0) += 1;
    });
    assert_eq!(summary.entry_count, 50_000);
    assert!(summary.gzip && !summary.truncated);
    assert_eq!(summary.bytes_read, 1_537_978);
    assert_eq!(summary.bytes_uncompressed, 16_837_164);
    assert!(
        summary.issues.is_empty(),
        "{:#?}",
        &summary.issues[..summary.issues.len().min(5)]
    );
    assert_eq!(
        hosts.into_iter().collect::<Vec<_>>(),
        [("www.tripadvisor.com".to_owned(), 50_000)]
    );
}
