//! Sitemap parser throughput (`cargo bench -p crawlgate-benches --bench sitemap`).
//!
//! The input is generated, deterministically, in memory: a ~51 MB sitemap of exactly 50,000
//! `<url>` (the protocol's limits) in clusters of five locales, each `<url>` with five reciprocal
//! `xhtml:link` hreflang alternates, two images, every tenth a video and every twenty-fifth a
//! news article — the worst realistic case for the parser and for the document tallies. It is
//! parsed plain and gzipped; the counter is the uncompressed size, so both report document MB/s.
//!
//! The generated files are also written to `target/tmp/sitemap-bench/` for the peak-RSS
//! measurement of `crawlgate sitemap check` (benches/sitemap-rss.sh). Nothing generated is
//! committed.

use crawlgate_core::sitemap::{self, SitemapOptions};
use divan::Bencher;
use divan::counter::BytesCount;
use flate2::Compression;
use flate2::write::GzEncoder;
use quick_xml::events::Event;
use quick_xml::reader::NsReader;
use std::fmt::Write as _;
use std::hint::black_box;
use std::io::{BufReader, Write as _};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The check time of the generated news and lastmod dates (news stays fresh, nothing future).
const CHECK_TIME: &str = "2026-11-30T12:00:00Z";
const URLS: usize = 50_000;
const LOCALES: [&str; 5] = ["en", "de", "fr", "es", "it"];

fn main() {
    let inputs = inputs();
    write_for_rss_measurement(inputs);
    divan::main();
}

struct Inputs {
    plain: Vec<u8>,
    gzip: Vec<u8>,
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let plain = generate();
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(&plain).expect("gzip into memory");
        let gzip = encoder.finish().expect("gzip into memory");
        Inputs { plain, gzip }
    })
}

fn options() -> SitemapOptions {
    SitemapOptions::new(CHECK_TIME.parse().expect("a valid timestamp")).with_url(
        "https://www.example.com/sitemap.xml"
            .parse()
            .expect("a valid URL"),
    )
}

fn input(variant: &str) -> &'static [u8] {
    let inputs = inputs();
    if variant == "gzip" {
        &inputs.gzip
    } else {
        &inputs.plain
    }
}

/// `parse_borrowed`: entries lent to the callback, their memory reused (what `sitemap check`
/// does).
#[divan::bench(args = ["plain", "gzip"], sample_count = 10, sample_size = 1)]
fn borrowed_50mb(bencher: Bencher, variant: &str) {
    let bytes = input(variant);
    let options = options();
    bencher
        .counter(BytesCount::new(inputs().plain.len()))
        .bench(|| {
            let summary = sitemap::parse_borrowed(bytes, &options, |entry| {
                black_box(entry);
            });
            assert_eq!(summary.entry_count, URLS as u64);
            summary
        });
}

/// `parse`: each entry handed over as an owned value (what a crawler keeping entries does).
#[divan::bench(args = ["plain", "gzip"], sample_count = 10, sample_size = 1)]
fn owned_50mb(bencher: Bencher, variant: &str) {
    let bytes = input(variant);
    let options = options();
    bencher
        .counter(BytesCount::new(inputs().plain.len()))
        .bench(|| {
            let summary = sitemap::parse(bytes, &options, |entry| {
                black_box(entry);
            });
            assert_eq!(summary.entry_count, URLS as u64);
            summary
        });
}

/// Baseline, no sitemap logic: quick-xml's `NsReader` reading every event of the plain file
/// (the naive loop CRATES.md measured at 79–139 MB/s), for a machine-independent ratio.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn baseline_nsreader_loop_50mb(bencher: Bencher) {
    let bytes = input("plain");
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let mut reader = NsReader::from_reader(BufReader::with_capacity(64 * 1024, bytes));
        let mut buf = Vec::with_capacity(4096);
        let mut events = 0u64;
        loop {
            buf.clear();
            match reader.read_resolved_event_into(&mut buf) {
                Ok((_, Event::Eof)) | Err(_) => break,
                Ok(_) => events += 1,
            }
        }
        events
    });
}

/// Writes the generated inputs where the RSS script finds them.
fn write_for_rss_measurement(inputs: &Inputs) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sitemap-bench");
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join("sitemap-50mb.xml"), &inputs.plain))
        .and_then(|()| std::fs::write(dir.join("sitemap-50mb.xml.gz"), &inputs.gzip))
        .expect("the generated sitemaps are written to target/tmp/sitemap-bench");
}

/// The page URL of product `cluster` in `locale`.
fn page(out: &mut String, locale: &str, cluster: usize) {
    let _ = write!(
        out,
        "https://www.example.com/{locale}/c{}/p{cluster:05}-kitchen-set.html",
        cluster % 97
    );
}

fn generate() -> Vec<u8> {
    let mut xml = String::with_capacity(52_000_000);
    xml.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  \
         xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"\n  \
         xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"\n  \
         xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\"\n  \
         xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n",
    );
    let mut loc = String::new();
    for index in 0..URLS {
        let cluster = index / LOCALES.len();
        let locale = LOCALES[index % LOCALES.len()];
        loc.clear();
        page(&mut loc, locale, cluster);
        let _ = write!(
            xml,
            "<url>\n  <loc>{loc}</loc>\n  <lastmod>2026-{:02}-{:02}T{:02}:{:02}:00+00:00</lastmod>\n",
            1 + index % 11,
            1 + index % 28,
            index % 24,
            index % 60
        );
        for alternate in LOCALES {
            xml.push_str("  <xhtml:link rel=\"alternate\" hreflang=\"");
            xml.push_str(alternate);
            xml.push_str("\" href=\"");
            page(&mut xml, alternate, cluster);
            xml.push_str("\"/>\n");
        }
        for image in 1..=2 {
            let _ = writeln!(
                xml,
                "  <image:image><image:loc>https://img.example.com/p/{cluster:05}-{image}.jpg?w=1200&amp;h=900</image:loc>\
                 <image:caption>Product {cluster}, view {image}</image:caption></image:image>"
            );
        }
        if index % 10 == 0 {
            let _ = write!(
                xml,
                "    <video:video>\n      <video:thumbnail_loc>https://img.example.com/thumbs/{cluster:05}.jpg</video:thumbnail_loc>\n      \
                 <video:title>Product {cluster} in use</video:title>\n      \
                 <video:description>A two-minute demonstration of product {cluster}.</video:description>\n      \
                 <video:content_loc>https://video.example.com/{cluster:05}.mp4</video:content_loc>\n      \
                 <video:duration>120</video:duration>\n    </video:video>\n"
            );
        }
        if index % 25 == 0 {
            let _ = write!(
                xml,
                "    <news:news>\n      <news:publication>\n        <news:name>Example Times</news:name>\n        \
                 <news:language>{locale}</news:language>\n      </news:publication>\n      \
                 <news:publication_date>2026-11-29T{:02}:00:00Z</news:publication_date>\n      \
                 <news:title>Product {cluster} launched</news:title>\n    </news:news>\n",
                index % 24
            );
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    xml.into_bytes()
}
