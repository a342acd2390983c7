//! Where a site URL lives in the repository, for SARIF artifact locations (`--sarif-map`).
//!
//! GitHub code scanning wants every `artifactLocation.uri` relative to the checkout. A
//! [`SarifMap`] entry maps a site URL to a repository file: `URL=PATH`, split at the last `=`.
//! `URL` is an exact URL (`https://www.example.com/robots.txt`, compared as crawlgate writes URLs)
//! or, when it holds a `*` or `[`, a URL pattern in the product's one glob syntax
//! (`https://www.example.com/products/*=templates/product.html`; a `?` alone starts a query, so
//! to use `?` as a wildcard the pattern needs a `*` or `[` too). Exact entries win over
//! patterns; among patterns the first given wins. An exact mapping keeps line numbers (the file is
//! served as it is in the repository); a pattern mapping drops them (a page rendered from a
//! template has other lines than the template) and the result's message names the URL.
//!
//! A URL no entry maps goes to a fixed, documented place: `crawlgate/site/HOST/PATH`, with
//! `_PORT` after the host when the URL names a port, `http/` before the host for plain http, an
//! `index` file name for a path ending in `/`, and the query kept percent-encoded in the last
//! segment (`%3F`). No scheme ever appears; the real URL is in the result's `properties.url`.

use crawlgate_core::UrlPattern;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The folder unmapped URLs are placed under.
pub const FALLBACK_PREFIX: &str = "crawlgate/site/";

/// URL to repository path mappings for SARIF (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SarifMap {
    exact: BTreeMap<String, String>,
    patterns: Vec<(UrlPattern, String)>,
}

/// Why a `--sarif-map` entry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("sarif map `{entry}`: {message}")]
pub struct SarifMapError {
    pub entry: String,
    pub message: String,
}

/// Where a URL was placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placed {
    /// Relative to the repository root, no scheme.
    pub(crate) uri: String,
    /// Whether lines in the served document are lines in that file.
    pub(crate) keeps_lines: bool,
    /// Whether it came from a pattern (many URLs, one file).
    pub(crate) by_pattern: bool,
}

impl SarifMap {
    /// An empty map: every URL goes to the fallback place.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether no entry was given.
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.patterns.is_empty()
    }

    /// Add one `URL=PATH` entry.
    pub fn with_entry(mut self, entry: &str) -> Result<Self, SarifMapError> {
        let refuse = |message: &str| SarifMapError {
            entry: entry.to_owned(),
            message: message.to_owned(),
        };
        let (site, path) = entry
            .rsplit_once('=')
            .ok_or_else(|| refuse("write `URL=PATH`"))?;
        let path = checked_path(path).map_err(|message| refuse(&message))?;
        if site.contains(['*', '[']) {
            let pattern = UrlPattern::parse(site).map_err(|e| refuse(&e.to_string()))?;
            self.patterns.push((pattern, path));
        } else {
            let url = url::Url::parse(site)
                .ok()
                .filter(|url| matches!(url.scheme(), "http" | "https"))
                .ok_or_else(|| refuse("the URL side is not an http(s) URL"))?;
            self.exact.entry(url.to_string()).or_insert(path);
        }
        Ok(self)
    }

    /// Where `url` goes.
    pub(crate) fn place(&self, url: &str) -> Placed {
        let mut placed = self.place_unencoded(url);
        placed.uri = uri_reference(&placed.uri);
        placed
    }

    fn place_unencoded(&self, url: &str) -> Placed {
        let normalised = url::Url::parse(url).map_or_else(|_| url.to_owned(), |u| u.to_string());
        if let Some(path) = self.exact.get(&normalised) {
            return Placed {
                uri: path.clone(),
                keeps_lines: true,
                by_pattern: false,
            };
        }
        if let Some((_, path)) = self
            .patterns
            .iter()
            .find(|(pattern, _)| pattern.matches_str(&normalised))
        {
            return Placed {
                uri: path.clone(),
                keeps_lines: false,
                by_pattern: true,
            };
        }
        Placed {
            uri: fallback(url),
            keeps_lines: true,
            by_pattern: false,
        }
    }
}

/// `path` as a relative reference RFC 3986 accepts: every byte but the unreserved characters,
/// the sub-delimiters, `:`, `@`, `/` and a `%` that starts an escape percent-encoded (a URL path
/// or query may hold `|`, `^`, `` ` ``, `{`, `[` and more, which SARIF consumers refuse).
fn uri_reference(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    for (at, &byte) in bytes.iter().enumerate() {
        let escape_start = byte == b'%'
            && bytes.get(at + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(at + 2).is_some_and(u8::is_ascii_hexdigit);
        let allowed =
            byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&byte) || escape_start;
        if allowed {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// A repository path: relative, `/`-separated, no `..`, no scheme, not empty.
fn checked_path(path: &str) -> Result<String, String> {
    let path = path.trim().replace('\\', "/");
    let path = path.trim_start_matches("./");
    if path.is_empty() || path.ends_with('/') {
        return Err("the path side must name a file".to_owned());
    }
    if path.starts_with('/') || path.contains(':') {
        return Err("the path side must be relative to the repository root".to_owned());
    }
    if path
        .split('/')
        .any(|segment| segment == ".." || segment.is_empty())
    {
        return Err("the path side may not hold `..` or empty segments".to_owned());
    }
    Ok(path.to_owned())
}

/// The fallback place of an unmapped URL (see the module docs).
pub(crate) fn fallback(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        // Not a URL at all (a library user's subject): kept, with anything scheme-like escaped.
        return format!("{FALLBACK_PREFIX}other/{}", escape_segment(url));
    };
    let mut out = String::from(FALLBACK_PREFIX);
    if parsed.scheme() != "https" {
        out.push_str(parsed.scheme());
        out.push('/');
    }
    out.push_str(parsed.host_str().unwrap_or("no-host"));
    if let Some(port) = parsed.port() {
        out.push('_');
        out.push_str(&port.to_string());
    }
    let path = parsed.path();
    out.push_str(if path.starts_with('/') { "" } else { "/" });
    out.push_str(path);
    if out.ends_with('/') {
        out.push_str("index");
    }
    if let Some(query) = parsed.query() {
        out.push_str("%3F");
        out.push_str(&query.replace('#', "%23"));
    }
    out
}

/// `:` and `/` escaped, so a non-URL subject stays one relative segment.
fn escape_segment(text: &str) -> String {
    text.replace('%', "%25")
        .replace(':', "%3A")
        .replace('/', "%2F")
        .replace('?', "%3F")
        .replace('#', "%23")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmapped_urls_fall_back_to_a_fixed_relative_place() {
        for (url, uri) in [
            (
                "https://www.example.com/robots.txt",
                "crawlgate/site/www.example.com/robots.txt",
            ),
            (
                "https://www.example.com/",
                "crawlgate/site/www.example.com/index",
            ),
            (
                "https://www.example.com/shop/?q=a+b",
                "crawlgate/site/www.example.com/shop/index%3Fq=a+b",
            ),
            (
                "http://localhost:8080/a",
                "crawlgate/site/http/localhost_8080/a",
            ),
            ("not a url", "crawlgate/site/other/not a url"),
        ] {
            assert_eq!(fallback(url), uri, "{url}");
            assert!(!uri.contains("://"));
        }
    }

    #[test]
    fn every_place_is_an_rfc_3986_reference() {
        let map = SarifMap::new()
            .with_entry("https://www.example.com/robots.txt=public/my robots[1].txt")
            .unwrap();
        for (url, uri) in [
            (
                "https://www.example.com/robots.txt",
                "public/my%20robots%5B1%5D.txt",
            ),
            (
                "https://www.example.com/a|b^c`d{e}?x=[1]|\\",
                "crawlgate/site/www.example.com/a%7Cb%5Ec%60d%7Be%7D%3Fx=%5B1%5D%7C%5C",
            ),
            ("not a url", "crawlgate/site/other/not%20a%20url"),
            (
                "https://www.example.com/caf%C3%A9%zz",
                "crawlgate/site/www.example.com/caf%C3%A9%25zz",
            ),
        ] {
            let placed = map.place(url).uri;
            assert_eq!(placed, uri, "{url}");
            // Only RFC 3986 characters: unreserved, reserved, and `%` escapes.
            assert!(
                placed
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/%".contains(&b)),
                "{placed}"
            );
        }
    }

    #[test]
    fn exact_entries_win_over_patterns_and_keep_lines() {
        let map = SarifMap::new()
            .with_entry("https://www.example.com/*=templates/page.html")
            .unwrap()
            .with_entry("https://www.example.com/robots.txt=public/robots.txt")
            .unwrap()
            .with_entry("https://www.example.com/search?q=a=b=public/search.html")
            .unwrap();
        let robots = map.place("https://www.example.com/robots.txt");
        assert_eq!(robots.uri, "public/robots.txt");
        assert!(robots.keeps_lines && !robots.by_pattern);
        let page = map.place("https://www.example.com/shop/boots");
        assert_eq!(page.uri, "templates/page.html");
        assert!(!page.keeps_lines && page.by_pattern);
        assert_eq!(
            map.place("https://www.example.com/search?q=a=b").uri,
            "public/search.html"
        );
        assert_eq!(
            map.place("https://other.example/").uri,
            "crawlgate/site/other.example/index"
        );
    }

    #[test]
    fn bad_entries_are_refused() {
        for bad in [
            "https://e.com/robots.txt",
            "https://e.com/robots.txt=/etc/robots.txt",
            "https://e.com/robots.txt=../robots.txt",
            "https://e.com/robots.txt=C:/robots.txt",
            "https://e.com/robots.txt=",
            "ftp://e.com/x=x.txt",
            "/blog/*=x.html",
        ] {
            assert!(SarifMap::new().with_entry(bad).is_err(), "{bad}");
        }
    }
}
