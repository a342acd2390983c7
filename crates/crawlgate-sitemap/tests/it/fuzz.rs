//! Arbitrary input never panics, and what comes out is always consistent: random bytes, soups
//! of sitemap fragments (plain and gzipped), and every prefix of a real document.

use crawlgate_sitemap::{self as sitemap, Entry, SitemapOptions, SitemapSummary};
use flate2::Compression;
use flate2::write::GzEncoder;
use proptest::prelude::*;
use std::io::Write;

fn options() -> SitemapOptions {
    SitemapOptions::new("2026-11-30T12:00:00Z".parse().unwrap())
        .with_url("https://example.com/dir/sitemap.xml".parse().unwrap())
}

/// Parses `bytes` both ways and checks the invariants every result must keep.
fn parse_and_check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut owned: Vec<Entry> = Vec::new();
    let summary = sitemap::parse(bytes, &options(), |entry| owned.push(entry));
    let mut lent: Vec<Entry> = Vec::new();
    let lent_summary = sitemap::parse_borrowed(bytes, &options(), |entry| lent.push(entry.clone()));
    prop_assert_eq!(&summary, &lent_summary);
    prop_assert_eq!(&owned, &lent);
    check_summary(&summary, &owned, bytes)
}

fn check_summary(
    summary: &SitemapSummary,
    entries: &[Entry],
    bytes: &[u8],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(summary.entry_count, entries.len() as u64);
    if !summary.gzip && !summary.truncated {
        prop_assert_eq!(summary.bytes_read, bytes.len() as u64);
        prop_assert_eq!(summary.bytes_uncompressed, bytes.len() as u64);
    }
    let keys: Vec<_> = summary
        .issues
        .iter()
        .map(|issue| (issue.line, issue.column, issue.rule()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    prop_assert_eq!(keys, sorted, "issues sorted by (line, column, rule)");
    for issue in &summary.issues {
        prop_assert!(issue.rule().starts_with("sitemap/"));
        prop_assert!(issue.column.is_none() || issue.line.is_some());
        prop_assert!(issue.line.is_none_or(|line| line >= 1));
        prop_assert!(issue.column.is_none_or(|column| column >= 1));
        prop_assert!(!issue.message.is_empty());
    }
    for entry in entries {
        prop_assert!(!entry.loc.is_empty());
        prop_assert!(entry.line >= 1 && entry.column >= 1);
    }
    Ok(())
}

/// Pieces of sitemaps, feeds and broken markup.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<?xml version=\"1.0\" encoding=\"UTF-8\"?>".to_owned()),
        Just("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\" xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\" xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">".to_owned()),
        Just("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">".to_owned()),
        Just("<rss version=\"2.0\"><channel>".to_owned()),
        Just("<feed xmlns=\"http://www.w3.org/2005/Atom\">".to_owned()),
        Just("</urlset>".to_owned()),
        Just("<url>".to_owned()),
        Just("</url>".to_owned()),
        Just("<sitemap>".to_owned()),
        Just("</sitemap>".to_owned()),
        Just("<item>".to_owned()),
        Just("<entry>".to_owned()),
        Just("<loc>".to_owned()),
        Just("</loc>".to_owned()),
        Just("<link>".to_owned()),
        Just("<link href=\"https://example.com/a\"/>".to_owned()),
        Just("<lastmod>2026-11-30</lastmod>".to_owned()),
        Just("<lastmod>2099-01-01T00:00Z</lastmod>".to_owned()),
        Just("<changefreq>sometimes</changefreq>".to_owned()),
        Just("<priority>9</priority>".to_owned()),
        Just("<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>".to_owned()),
        Just("<video:video><video:title>t</video:title></video:video>".to_owned()),
        Just("<news:news><news:publication_date>2020-01-01</news:publication_date></news:news>".to_owned()),
        Just("<xhtml:link rel=\"alternate\" hreflang=\"en-UK\" href=\"https://example.com/other/\"/>".to_owned()),
        Just("<xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://example.com/dir/x\"/>".to_owned()),
        Just("https://example.com/dir/page".to_owned()),
        Just("https://other.example/".to_owned()),
        Just("/relative".to_owned()),
        Just("&amp;".to_owned()),
        Just("&nbsp;".to_owned()),
        Just("&#x1F600;".to_owned()),
        Just("&#0;".to_owned()),
        Just("&".to_owned()),
        Just("<![CDATA[https://example.com/c?a=1&b=2]]>".to_owned()),
        Just("<!-- comment -->".to_owned()),
        Just("<!DOCTYPE x [<!ENTITY a \"b\">]>".to_owned()),
        Just("<?pi x?>".to_owned()),
        Just("<img:x>".to_owned()),
        Just("<".to_owned()),
        Just(">".to_owned()),
        Just("\"".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("\u{feff}".to_owned()),
        "[ -~]{0,8}",
        "\\PC{0,4}",
    ]
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        parse_and_check(&bytes)?;
    }

    #[test]
    fn fragment_soups_never_panic(parts in proptest::collection::vec(fragment(), 0..60)) {
        let soup = parts.concat();
        parse_and_check(soup.as_bytes())?;
    }

    #[test]
    fn gzipped_and_damaged_soups_never_panic(
        parts in proptest::collection::vec(fragment(), 0..40),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
    ) {
        let packed = gzip(parts.concat().as_bytes());
        parse_and_check(&packed)?;
        let cut = cut.index(packed.len() + 1);
        parse_and_check(&packed[..cut])?;
        let mut flipped = packed.clone();
        let at = flip.index(flipped.len());
        flipped[at] ^= 0xA5;
        parse_and_check(&flipped)?;
    }
}

#[test]
fn every_prefix_of_a_real_document_parses() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/sitemaps/kinds/extensions.xml");
    let bytes = std::fs::read(path).unwrap();
    for end in 0..=bytes.len() {
        parse_and_check(&bytes[..end]).unwrap();
    }
}
