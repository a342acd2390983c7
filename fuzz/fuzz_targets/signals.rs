//! Page signals: header lines and an HTML (or other) body, as the crawler records them, then
//! the directives every built-in profile reads from them.
//!
//! Input: header lines `Name: value` up to the first empty line, then the body. Without an empty
//! line the whole input is the body (HTML seeds work as they are), served as `text/html`.

#![no_main]

use crawlgate_core::http::HeaderLine;
use crawlgate_core::signals::{PageInput, Profile, extract};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

// Built once: the same for every input, and not what is fuzzed.
static URL: LazyLock<url::Url> =
    LazyLock::new(|| url::Url::parse("https://example.com/dir/page?q=1").unwrap());
static PROFILES: LazyLock<Vec<Profile>> = LazyLock::new(Profile::builtins);

fuzz_target!(|data: &[u8]| {
    let (headers, body) = match find(data, b"\n\n") {
        Some(at) => (header_lines(&data[..at]), &data[at + 2..]),
        None => (vec![HeaderLine::new("Content-Type", "text/html")], data),
    };
    let signals = extract(&PageInput {
        url: &URL,
        status: 200,
        headers: &headers,
        body,
    });
    let now = jiff::Timestamp::from_second(1_780_000_000).unwrap();
    for profile in PROFILES.iter() {
        let directives = signals.directives(profile, now);
        let _ = (directives.is_noindex(), directives.is_nofollow());
    }
    let _ = signals.effective_canonicals();
    let _ = signals.effective_hreflang();
});

fn header_lines(block: &[u8]) -> Vec<HeaderLine> {
    String::from_utf8_lossy(block)
        .lines()
        .map(|line| match line.split_once(':') {
            Some((name, value)) => HeaderLine::new(name.trim(), value.trim()),
            None => HeaderLine::new(line.trim(), ""),
        })
        .collect()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
