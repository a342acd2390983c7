//! Gzipped sitemaps: the input is compressed, then cut at a point the input chooses (its first
//! two bytes), so the fuzzer explores what comes out of the decoder, whole and truncated.

#![no_main]

use crawlgate_core::sitemap::{self, SitemapOptions};
use flate2::{Compress, Compression, Crc, FlushCompress, Status};
use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use std::sync::LazyLock;

// Built once: the same for every input, and not what is fuzzed.
static OPTIONS: LazyLock<SitemapOptions> = LazyLock::new(|| {
    let mut options = SitemapOptions::new(jiff::Timestamp::from_second(1_780_000_000).unwrap())
        .with_url(url::Url::parse("https://example.com/sitemap.xml.gz").unwrap());
    options.max_uncompressed_bytes = 4 * 1024 * 1024;
    options
});

fuzz_target!(|data: &[u8]| {
    let (cut, document) = match data {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), rest),
        _ => (0, data),
    };
    let gzip = gzip(document);
    let options = &*OPTIONS;

    let whole = sitemap::parse_bytes(&gzip, options);
    assert!(whole.summary.gzip);
    assert_eq!(whole.summary.entry_count, whole.entries.len() as u64);
    // Read whole, the gzip layer adds nothing: the same entries as the plain document.
    let plain = sitemap::parse_bytes(document, options);
    if !plain.summary.gzip {
        assert_eq!(
            whole.entries.iter().map(|e| &e.loc).collect::<Vec<_>>(),
            plain.entries.iter().map(|e| &e.loc).collect::<Vec<_>>()
        );
    }

    // Cut inside the stream (never the whole of it): truncation is reported, never a panic.
    if gzip.len() > 1 {
        let at = 1 + cut % (gzip.len() - 1);
        let truncated = sitemap::parse_bytes(&gzip[..at], options);
        assert_eq!(
            truncated.summary.entry_count,
            truncated.entries.len() as u64
        );
    }
});

thread_local! {
    // One compressor, reset per input: a new one zeroes its tables, which cost more than the
    // three parses below.
    static DEFLATE: RefCell<Compress> = RefCell::new(Compress::new(Compression::fast(), false));
}

/// `document` as a gzip member (RFC 1952): the header `GzEncoder` writes, raw deflate, CRC-32
/// and length.
fn gzip(document: &[u8]) -> Vec<u8> {
    let mut gzip = Vec::with_capacity(document.len() + 64);
    gzip.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    DEFLATE.with_borrow_mut(|deflate| {
        deflate.reset();
        loop {
            let consumed = usize::try_from(deflate.total_in()).unwrap();
            gzip.reserve(document.len() / 2 + 64);
            let status = deflate
                .compress_vec(&document[consumed..], &mut gzip, FlushCompress::Finish)
                .unwrap();
            if status == Status::StreamEnd {
                break;
            }
        }
    });
    let mut crc = Crc::new();
    crc.update(document);
    gzip.extend_from_slice(&crc.sum().to_le_bytes());
    gzip.extend_from_slice(&u32::try_from(document.len()).unwrap().to_le_bytes());
    gzip
}
