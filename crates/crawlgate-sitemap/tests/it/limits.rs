//! Hostile and oversized inputs, built in code (never committed): the protocol limits, the
//! decompression guard, read failures, pathological nesting, and the bound on issues.

use crawlgate_sitemap::Severity;
use crawlgate_sitemap::{self as sitemap, MAX_UNCOMPRESSED_BYTES, SitemapOptions, SitemapSummary};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::{self, Read, Write};

const HEAD: &str = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

fn options() -> SitemapOptions {
    SitemapOptions::new("2026-11-30T12:00:00Z".parse().unwrap())
}

fn urlset(count: usize, loc: impl Fn(usize) -> String) -> Vec<u8> {
    let mut xml = String::from(HEAD);
    for i in 0..count {
        xml.push_str("<url><loc>");
        xml.push_str(&loc(i));
        xml.push_str("</loc></url>\n");
    }
    xml.push_str("</urlset>\n");
    xml.into_bytes()
}

fn rules(summary: &SitemapSummary) -> Vec<&'static str> {
    summary
        .issues
        .iter()
        .map(crawlgate_sitemap::Issue::rule)
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn more_than_50000_urls_is_too_many() {
    let bytes = urlset(60_000, |i| format!("https://example.com/{i}"));
    let mut handed = 0u64;
    let summary = sitemap::parse_borrowed(&bytes[..], &options(), |_| handed += 1);
    assert_eq!(
        (summary.entry_count, handed),
        (60_000, 60_000),
        "all are still read"
    );
    assert_eq!(rules(&summary), ["sitemap/too-many-urls"]);
    let issue = &summary.issues[0];
    assert_eq!(issue.severity, Severity::Error);
    // The 50,001st <url> is on line 50,002 (the first line is <urlset>).
    assert_eq!(issue.line, Some(50_002));
    assert!(
        issue.message.starts_with("60000 entries"),
        "{}",
        issue.message
    );
}

/// A valid urlset padded with a comment to `size` bytes: cheap to parse at any size.
fn padded_urlset(size: usize) -> Vec<u8> {
    let mut xml = HEAD.as_bytes().to_vec();
    xml.extend_from_slice(b"<url><loc>https://example.com/</loc></url>\n<!--");
    let tail = b"-->\n</urlset>\n";
    xml.resize(size - tail.len(), b'x');
    xml.extend_from_slice(tail);
    xml
}

#[test]
fn over_50_mib_uncompressed_is_too_large() {
    let size = usize::try_from(MAX_UNCOMPRESSED_BYTES).unwrap() + 100;
    let summary = sitemap::parse_borrowed(&padded_urlset(size)[..], &options(), |_| {});
    assert_eq!(summary.bytes_uncompressed, size as u64);
    assert_eq!(
        (summary.entry_count, summary.truncated),
        (1, false),
        "read to the end"
    );
    assert_eq!(rules(&summary), ["sitemap/too-large"]);
    // Exactly the limit is fine.
    let exact = usize::try_from(MAX_UNCOMPRESSED_BYTES).unwrap();
    let summary = sitemap::parse_borrowed(&padded_urlset(exact)[..], &options(), |_| {});
    assert!(summary.issues.is_empty(), "{:?}", summary.issues);
}

#[test]
fn plain_input_past_the_guard_stops_reading() {
    let mut options = options();
    options.max_uncompressed_bytes = MAX_UNCOMPRESSED_BYTES + 1_000;
    let size = usize::try_from(MAX_UNCOMPRESSED_BYTES).unwrap() + 5_000;
    let summary = sitemap::parse_borrowed(&padded_urlset(size)[..], &options, |_| {});
    assert!(summary.truncated);
    assert_eq!(summary.bytes_uncompressed, options.max_uncompressed_bytes);
    // Too large (we know it is over), but the cut document is not blamed as broken XML, and a
    // plain file is not a decompression bomb.
    assert_eq!(rules(&summary), ["sitemap/too-large"]);
    assert!(summary.issues[0].message.starts_with("more than "));
}

/// Gzip members of spaces after a valid start: decompresses to `members` MiB.
fn gzip_bomb(members: usize) -> Vec<u8> {
    let mut bomb = gzip(format!("{HEAD}<url><loc>https://example.com/</loc></url>").as_bytes());
    let spaces = gzip(&vec![b' '; 1 << 20]);
    for _ in 0..members {
        bomb.extend_from_slice(&spaces);
    }
    bomb
}

#[test]
fn a_gzip_bomb_is_stopped_at_the_guard() {
    let bomb = gzip_bomb(8);
    assert!(bomb.len() < 50_000, "{} compressed bytes", bomb.len());
    let mut options = options();
    options.max_uncompressed_bytes = 2 << 20;
    let summary = sitemap::parse_borrowed(&bomb[..], &options, |_| {});
    assert!(summary.gzip && summary.truncated);
    assert_eq!(summary.bytes_uncompressed, 2 << 20);
    assert!(
        summary.bytes_read < bomb.len() as u64,
        "the rest is never read"
    );
    // Below the protocol limit the guard is only the bomb finding.
    assert_eq!(rules(&summary), ["sitemap/unsafe-xml"]);
    assert!(summary.issues[0].message.contains("gzip bomb"));
    assert_eq!(summary.entry_count, 1, "what came before the cut is kept");
}

#[test]
fn a_gzip_bomb_past_50_mib_is_too_large_and_unsafe() {
    let summary = sitemap::parse_borrowed(&gzip_bomb(60)[..], &options(), |_| {});
    assert!(summary.truncated);
    assert_eq!(
        summary.bytes_uncompressed,
        MAX_UNCOMPRESSED_BYTES + sitemap::DEFAULT_READ_MARGIN_BYTES
    );
    let mut found = rules(&summary);
    found.sort_unstable();
    assert_eq!(found, ["sitemap/too-large", "sitemap/unsafe-xml"]);
}

#[test]
fn a_lower_configured_guard_is_a_tool_limit() {
    let bytes = urlset(2_000, |i| format!("https://example.com/{i}"));
    let mut options = options();
    options.max_uncompressed_bytes = 10_000;
    let summary = sitemap::parse_borrowed(&bytes[..], &options, |_| {});
    assert!(summary.truncated);
    assert_eq!(rules(&summary), ["sitemap/limits-exceeded"]);
    assert!(summary.entry_count > 0 && summary.entry_count < 2_000);
}

/// A reader that fails after `good` bytes, like a connection reset mid-body.
struct FailsAfter {
    bytes: Vec<u8>,
    at: usize,
    good: usize,
}

impl Read for FailsAfter {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.good {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                "connection reset",
            ));
        }
        let end = self.good.min(self.bytes.len()).min(self.at + out.len());
        let chunk = &self.bytes[self.at..end];
        out[..chunk.len()].copy_from_slice(chunk);
        self.at = end;
        Ok(chunk.len())
    }
}

#[test]
fn a_failing_reader_is_a_fetch_error_not_broken_xml() {
    let bytes = urlset(1_000, |i| format!("https://example.com/{i}"));
    let reader = FailsAfter {
        good: bytes.len() / 2,
        bytes,
        at: 0,
    };
    let summary = sitemap::parse_borrowed(reader, &options(), |_| {});
    assert!(summary.truncated);
    assert_eq!(rules(&summary), ["sitemap/fetch-error"]);
    assert!(summary.issues[0].message.contains("connection reset"));
    assert!(summary.entry_count > 400 && summary.entry_count < 600);
}

#[test]
fn a_failing_reader_under_gzip_is_a_fetch_error_too() {
    let bytes = gzip(&urlset(1_000, |i| format!("https://example.com/{i}")));
    let reader = FailsAfter {
        good: bytes.len() / 2,
        bytes,
        at: 0,
    };
    let summary = sitemap::parse_borrowed(reader, &options(), |_| {});
    assert_eq!(rules(&summary), ["sitemap/fetch-error"]);
}

#[test]
fn pathological_nesting_stops_reading() {
    let depth = 10_000;
    let mut xml = String::from(HEAD);
    xml.push_str(&"<a>".repeat(depth));
    xml.push_str(&"</a>".repeat(depth));
    xml.push_str("</urlset>");
    let summary = sitemap::parse_borrowed(xml.as_bytes(), &options(), |_| {});
    assert!(summary.truncated);
    // `<a>` is no element of a urlset (reported once: what is inside it is not looked at).
    assert_eq!(
        rules(&summary),
        ["sitemap/bad-root-or-namespace", "sitemap/limits-exceeded"]
    );
    assert!(summary.issues[1].message.contains("256"));
}

#[test]
fn issues_per_rule_are_bounded_with_a_summary() {
    let bytes = urlset(1_500, |i| format!("/relative/{i}"));
    let summary = sitemap::parse_borrowed(&bytes[..], &options(), |_| {});
    // Relative locs are no URLs: reported, never entries.
    assert_eq!(summary.entry_count, 0);
    let loc_invalid: Vec<_> = summary
        .issues
        .iter()
        .filter(|issue| issue.rule() == "sitemap/loc-invalid")
        .collect();
    assert_eq!(loc_invalid.len(), 1_001);
    // The summary is a whole-document issue, so it sorts first.
    assert_eq!(loc_invalid[0].line, None);
    assert!(loc_invalid[0].message.starts_with("500 more"));
}

#[test]
fn memory_for_a_huge_single_value_is_only_that_value() {
    // A 5 MB <loc>: reported by length, read without trouble.
    let loc = format!("https://example.com/{}", "a".repeat(5_000_000));
    let bytes = urlset(1, |_| loc.clone());
    let summary = sitemap::parse_borrowed(&bytes[..], &options(), |_| {});
    assert_eq!(rules(&summary), ["sitemap/loc-invalid"]);
    assert!(summary.issues[0].message.contains("5000020 characters"));
}

#[test]
fn one_way_hreflang_links_past_the_issue_cap_are_counted_not_kept() {
    use std::fmt::Write as _;
    // Each URL lists itself and the next one, which never lists it back: 1,499 one-way links to
    // listed URLs, and one to a URL not listed (no issue).
    let mut xml = String::from(
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for i in 0..1_500 {
        writeln!(
            xml,
            "<url><loc>https://example.com/{i}</loc>\
             <xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"https://example.com/{i}\"/>\
             <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://example.com/{}\"/>\
             </url>",
            i + 1
        )
        .unwrap();
    }
    xml.push_str("</urlset>\n");
    let summary = sitemap::parse_borrowed(xml.as_bytes(), &options(), |_| {});
    let hreflang: Vec<_> = summary
        .issues
        .iter()
        .filter(|issue| issue.rule() == "sitemap/hreflang-invalid")
        .collect();
    assert_eq!(hreflang.len(), 1_001);
    assert!(
        hreflang[0].message.starts_with("499 more"),
        "{:?}",
        hreflang[0]
    );
    // The first in document order are the ones kept.
    assert_eq!(hreflang[1].line, Some(2));
    assert_eq!(hreflang[1_000].line, Some(1_001));
    assert!(hreflang[1].message.contains("its own <url> at line 3"));
}
