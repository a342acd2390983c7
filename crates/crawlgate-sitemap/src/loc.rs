//! Checking a `<loc>`: absolute http(s), at most 2,048 characters, escaped — and reading its
//! origin and path for the location rules.
//!
//! The common URL — ASCII letters, digits, dots and hyphens for a host, a plain path — is read
//! here directly; everything else (IP addresses, IDNA `xn--` labels, user info, dot segments,
//! percent-encoded dots) goes through the `url` crate's WHATWG parser. The direct reading was
//! about a twelfth of the 50 MB benchmark's time saved, and a property test holds it to the
//! parser's answers.

use super::MAX_LOC_CHARS;
use super::validate::shorten;
use url::Url;

/// A `<loc>` that passed the checks.
#[derive(Debug, Clone)]
pub(crate) enum CheckedUrl<'a> {
    /// Read directly: the parser would accept it and agree on all of these parts.
    Plain(PlainUrl<'a>),
    /// Parsed by the `url` crate.
    Parsed(Url),
}

/// The parts of a plain URL the location rules compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlainUrl<'a> {
    pub(crate) https: bool,
    /// As written (compare ASCII case-insensitively).
    pub(crate) host: &'a str,
    /// The port, with the scheme's default when none is written.
    pub(crate) port: u16,
    /// The path, `/` when empty.
    pub(crate) path: &'a str,
}

/// Why a `<loc>` is not a valid absolute, escaped http(s) URL, or the URL.
pub(crate) fn check_loc(loc: &str) -> Result<CheckedUrl<'_>, String> {
    if loc.len() > MAX_LOC_CHARS {
        let chars = loc.chars().count();
        if chars > MAX_LOC_CHARS {
            return Err(format!(
                "is {chars} characters long; the limit is {MAX_LOC_CHARS}"
            ));
        }
    }
    if !has_http_scheme(loc) {
        return Err(if loc.contains("://") || loc.starts_with("mailto:") {
            "is not an http or https URL".to_owned()
        } else {
            "is not an absolute URL (sitemaps need fully-qualified URLs, with scheme and host)"
                .to_owned()
        });
    }
    // Bytes first, through a table (the common case is plain ASCII); the character only for the
    // message.
    let first_bad = loc
        .bytes()
        .position(|b| ESCAPE.get(usize::from(b)) != Some(&false));
    if let Some(bad) = first_bad
        .and_then(|at| loc.get(at..))
        .and_then(|rest| rest.chars().next())
    {
        return Err(match bad {
            ' ' => "contains a space; URL-escape it as %20".to_owned(),
            c if c.is_ascii_control() => {
                format!("contains the control character U+{:04X}", u32::from(c))
            }
            c if c.is_ascii() => format!("contains `{c}`, which must be URL-escaped"),
            _ => match Url::parse(loc) {
                Ok(url) => format!(
                    "contains raw non-ASCII characters; URL-escape them: `{}`",
                    shorten(url.as_str())
                ),
                Err(_) => "contains raw non-ASCII characters; URL-escape them".to_owned(),
            },
        });
    }
    if let Some(plain) = read_plain(loc) {
        return Ok(CheckedUrl::Plain(plain));
    }
    let url = Url::parse(loc).map_err(|error| format!("is not a valid URL ({error})"))?;
    if url.host_str().is_none_or(str::is_empty) {
        return Err("has no host".to_owned());
    }
    Ok(CheckedUrl::Parsed(url))
}

/// Reads `http(s)://host[:port][/path][?query][#fragment]` when every part is plain; `None`
/// sends the URL to the full parser. The caller has ruled out non-ASCII, controls, spaces and
/// the other characters that must be escaped.
fn read_plain(loc: &str) -> Option<PlainUrl<'_>> {
    let (https, rest) = if let Some(rest) = strip_prefix_ignore_case(loc, "https://") {
        (true, rest)
    } else {
        (false, strip_prefix_ignore_case(loc, "http://")?)
    };
    let authority_end = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = rest.get(..authority_end)?;
    let after = rest.get(authority_end..)?;
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => {
            if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) || port.len() > 5 {
                return None;
            }
            (host, port.parse::<u16>().ok()?)
        }
        None => (authority, if https { 443 } else { 80 }),
    };
    if !is_plain_domain(host) {
        return None;
    }
    let path_end = after
        .bytes()
        .position(|b| matches!(b, b'?' | b'#'))
        .unwrap_or(after.len());
    let path = match after.get(..path_end)? {
        "" => "/",
        path => path,
    };
    // Dot segments are resolved by the parser; leave them to it.
    let bytes = path.as_bytes();
    let dot_segment = memchr::memchr2_iter(b'.', b'%', bytes).any(|at| match bytes.get(at) {
        Some(b'.') => at > 0 && bytes.get(at - 1) == Some(&b'/'),
        _ => bytes
            .get(at..at + 3)
            .is_some_and(|escape| escape.eq_ignore_ascii_case(b"%2e")),
    });
    if dot_segment {
        return None;
    }
    Some(PlainUrl {
        https,
        host,
        port,
        path,
    })
}

/// A host of ASCII letters, digits, hyphens and dots, in non-empty labels, whose last label is
/// not numeric-looking (the URL standard reads those as IPv4) and with no IDNA `xn--` label.
fn is_plain_domain(host: &str) -> bool {
    let labels = host.strip_suffix('.').unwrap_or(host);
    !labels.is_empty()
        && labels.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label
                    .get(..4)
                    .is_some_and(|head| head.eq_ignore_ascii_case("xn--"))
        })
        && labels
            .rsplit('.')
            .next()
            .and_then(|last| last.bytes().next())
            .is_some_and(|first| first.is_ascii_alphabetic())
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| text.get(prefix.len()..))
        .flatten()
}

/// Bytes a sitemap URL may not carry raw (RFC 3986 excludes them; sitemaps.org wants URLs
/// escaped; Google asks for non-ASCII to be percent-encoded): `true` at their index.
const ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        // `byte < 256`, so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let b = byte as u8;
        table[byte] = !b.is_ascii()
            || b.is_ascii_control()
            || matches!(
                b,
                b' ' | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
            );
        byte += 1;
    }
    table
};

/// Whether `url` starts with `http://` or `https://` (any case).
pub(crate) fn has_http_scheme(url: &str) -> bool {
    match url.as_bytes() {
        [h, t1, t2, p, rest @ ..]
            if h.eq_ignore_ascii_case(&b'h')
                && t1.eq_ignore_ascii_case(&b't')
                && t2.eq_ignore_ascii_case(&b't')
                && p.eq_ignore_ascii_case(&b'p') =>
        {
            let rest = match rest {
                [s, rest @ ..] if s.eq_ignore_ascii_case(&b's') => rest,
                rest => rest,
            };
            rest.starts_with(b"://")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn loc_must_be_absolute_escaped_http() {
        assert!(check_loc("https://example.com/a?b=c&d=e").is_ok());
        assert!(check_loc("HTTP://example.com/").is_ok());
        let problem = |loc: &str| check_loc(loc).unwrap_err();
        assert!(problem("/relative").contains("absolute"));
        assert!(problem("example.com/page").contains("absolute"));
        assert!(problem("ftp://example.com/").contains("http or https"));
        assert!(problem("https://example.com/a b").contains("space"));
        assert!(problem("https://example.com/{x}").contains("`{`"));
        assert!(problem("https://example.com/ümlaut").contains("%C3%BC"));
        assert!(problem("https://exa mple.com/").contains("space"));
        assert!(problem(&format!("https://example.com/{}", "a".repeat(2_100))).contains("2048"));
        assert!(problem("https://").contains("valid URL"));
        assert!(problem("https://example.com:99999/").contains("valid URL"));
    }

    #[test]
    fn loc_of_exactly_the_limit_is_fine() {
        let prefix = "https://example.com/";
        let loc = format!("{prefix}{}", "a".repeat(MAX_LOC_CHARS - prefix.len()));
        assert_eq!(loc.len(), MAX_LOC_CHARS);
        assert!(check_loc(&loc).is_ok());
    }

    #[test]
    fn plain_urls_are_read_directly_and_others_parsed() {
        let plain = |loc| matches!(check_loc(loc), Ok(CheckedUrl::Plain(_)));
        assert!(plain("https://www.example.com/a/b?c=d#e"));
        assert!(plain("http://example.com"));
        assert!(plain("http://example.com:8080/x"));
        for parsed in [
            "http://127.0.0.1/",
            "http://[::1]/",
            "http://user@example.com/",
            "http://xn--bcher-kva.example/",
            "http://example.com/a/../b",
            "http://example.com/%2e%2e/b",
            "http://example.com:/",
        ] {
            assert!(!plain(parsed), "{parsed}");
            assert!(check_loc(parsed).is_ok(), "{parsed}");
        }
    }

    /// URL-like strings made of the pieces the fast path must get right.
    fn url_like() -> impl Strategy<Value = String> {
        (
            prop_oneof!["http://", "https://", "HTTPS://"],
            "([a-zA-Z0-9-]{0,6}\\.){0,3}[a-zA-Z0-9-]{0,6}\\.?",
            prop_oneof![
                Just(String::new()),
                "[0-9]{0,6}".prop_map(|p| format!(":{p}"))
            ],
            proptest::collection::vec(
                prop_oneof![
                    "[a-zA-Z0-9._%~-]{0,5}",
                    Just("..".to_owned()),
                    Just(".".to_owned()),
                    Just("%2e".to_owned()),
                    Just("%2E%2e".to_owned())
                ],
                0..4,
            )
            .prop_map(|segments| {
                segments.iter().fold(String::new(), |mut path, segment| {
                    path.push('/');
                    path.push_str(segment);
                    path
                })
            }),
            prop_oneof![
                Just(String::new()),
                "[a-z0-9=&]{0,6}".prop_map(|q| format!("?{q}"))
            ],
        )
            .prop_map(|(scheme, host, port, path, query)| {
                format!("{scheme}{host}{port}{path}{query}")
            })
    }

    proptest! {
        /// What the fast path reads, the WHATWG parser accepts, with the same origin and path.
        #[test]
        fn fast_path_agrees_with_the_url_crate(loc in url_like()) {
            if let Some(plain) = read_plain(&loc) {
                let url = Url::parse(&loc);
                prop_assert!(url.is_ok(), "{loc} read directly but the parser says {url:?}");
                let url = url.unwrap();
                prop_assert_eq!(plain.https, url.scheme() == "https");
                let host = plain.host.to_ascii_lowercase();
                prop_assert_eq!(Some(host.as_str()), url.host_str());
                prop_assert_eq!(Some(plain.port), url.port_or_known_default());
                prop_assert_eq!(plain.path, url.path());
            }
        }
    }
}
