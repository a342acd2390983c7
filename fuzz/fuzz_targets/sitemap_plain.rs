//! Sitemaps as received: XML, text, RSS, Atom, or gzip bytes (the parser recognises gzip by its
//! magic), read both ways (owned and lent entries), which must agree.

#![no_main]

use crawlgate_core::sitemap::{self, SitemapOptions};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

// Built once: the same for every input, and not what is fuzzed.
static OPTIONS: LazyLock<SitemapOptions> = LazyLock::new(|| {
    let mut options = SitemapOptions::new(jiff::Timestamp::from_second(1_780_000_000).unwrap())
        .with_url(url::Url::parse("https://example.com/dir/sitemap.xml").unwrap());
    // A small guard so that a bomb found by the fuzzer is cut quickly (the cap is what is fuzzed,
    // not the machine's memory).
    options.max_uncompressed_bytes = 4 * 1024 * 1024;
    options
});

fuzz_target!(|data: &[u8]| {
    let options = &*OPTIONS;
    let mut owned = Vec::new();
    let summary = sitemap::parse(data, options, |entry| owned.push(entry));
    let mut lent = Vec::new();
    let lent_summary = sitemap::parse_borrowed(data, options, |entry| lent.push(entry.clone()));
    assert_eq!(summary, lent_summary);
    assert_eq!(owned, lent);
    assert_eq!(summary.entry_count, owned.len() as u64);
    assert!(summary.bytes_uncompressed <= options.max_uncompressed_bytes + 64 * 1024);
});
