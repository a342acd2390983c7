//! Dates: sitemap `lastmod` (W3C datetime), RSS dates (RFC 2822) and `unavailable_after` (RFC 822,
//! RFC 850, ISO 8601).

#![no_main]

use crawlgate_core::signals::parse_unavailable_after;
use crawlgate_core::sitemap::{parse_rfc2822, parse_w3c_datetime};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(datetime) = parse_w3c_datetime(&text) {
        let _ = datetime.earliest();
    }
    let _ = parse_rfc2822(&text);
    let _ = parse_unavailable_after(&text);
});
