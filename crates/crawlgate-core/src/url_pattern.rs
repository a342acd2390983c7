//! URL patterns: the one pattern syntax of the product, for crawl scope (`--include`,
//! `--exclude`) and for suppressions in `crawlgate.toml`.
//!
//! A pattern is a glob matched against the whole URL as crawlgate writes it (scheme and host in
//! lower case, the path and query as received, no fragment): `*` matches any run of characters,
//! `/` included; `?` any one character; `[abc]` one of those characters (`[!abc]` any other);
//! `[[]`, `[]]`, `[*]`, `[?]` the character itself. So `*/blog/*` matches every URL whose path
//! has a `/blog/` segment, and `https://example.com/search*` the search pages of one host.

use serde::{Deserialize, Deserializer};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;
use url::Url;

/// A glob over the full URL (see the module docs). Built with [`UrlPattern::parse`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UrlPattern {
    glob: glob::Pattern,
}

/// Why a pattern was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid URL pattern `{pattern}`: {message}")]
pub struct PatternError {
    pub pattern: String,
    pub message: String,
}

impl UrlPattern {
    /// Parse a pattern. Refused: a malformed glob (an unclosed `[`, `***`), an empty pattern, and
    /// one that can match no http(s) URL because it starts with something else than the scheme
    /// (`/blog/*` is matched against the full URL: write `*/blog/*`).
    pub fn parse(text: &str) -> Result<Self, PatternError> {
        let refuse = |message: String| PatternError {
            pattern: text.to_owned(),
            message,
        };
        if text.trim().is_empty() {
            return Err(refuse("a pattern cannot be empty".to_owned()));
        }
        let glob = glob::Pattern::new(text).map_err(|e| refuse(e.msg.to_owned()))?;
        // The text before the first wildcard must be able to start an http(s) URL.
        let literal = text.split(['*', '?', '[']).next().unwrap_or_default();
        let can_start_a_url = ["http://", "https://"]
            .iter()
            .any(|scheme| scheme.starts_with(literal) || literal.starts_with(scheme));
        if !can_start_a_url {
            let hint = if literal.starts_with('/') {
                format!("; to match that path on any host, write `*{text}`")
            } else {
                String::new()
            };
            return Err(refuse(format!(
                "it is matched against the full URL (`https://host/path?query`), so it can match \
                 none{hint}"
            )));
        }
        Ok(Self { glob })
    }

    /// Whether `url` (as serialised, fragment included if it has one) matches.
    pub fn matches(&self, url: &Url) -> bool {
        self.glob.matches(url.as_str())
    }

    /// Whether the URL text `url` matches (findings name their subject as text).
    pub fn matches_str(&self, url: &str) -> bool {
        self.glob.matches(url)
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        self.glob.as_str()
    }
}

impl fmt::Display for UrlPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for UrlPattern {
    type Err = PatternError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl<'de> Deserialize<'de> for UrlPattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn a_star_matches_anything_slashes_included() {
        let blog = UrlPattern::parse("*/blog/*").unwrap();
        assert!(blog.matches(&url("https://example.com/blog/2024/01/post")));
        assert!(blog.matches(&url("http://shop.example.com/en/blog/")));
        assert!(!blog.matches(&url("https://example.com/blog")));
        assert!(!blog.matches(&url("https://example.com/weblog/x")));
        let search = UrlPattern::parse("https://example.com/search*").unwrap();
        assert!(search.matches(&url("https://example.com/search?q=tents")));
        assert!(search.matches_str("https://example.com/search/page/2"));
        assert!(!search.matches(&url("http://example.com/search")));
        assert_eq!(search.to_string(), "https://example.com/search*");
    }

    #[test]
    fn question_marks_and_classes_are_glob_syntax() {
        let any_char = UrlPattern::parse("https://e.com/p?ge").unwrap();
        assert!(any_char.matches(&url("https://e.com/page")));
        let literal_query = UrlPattern::parse("*[?]sort=*").unwrap();
        assert!(literal_query.matches(&url("https://e.com/list?sort=price")));
        assert!(!literal_query.matches(&url("https://e.com/list/sort=price")));
        let class = UrlPattern::parse("https://e.com/[ab]/*").unwrap();
        assert!(class.matches(&url("https://e.com/a/x")));
        assert!(!class.matches(&url("https://e.com/c/x")));
    }

    #[test]
    fn malformed_empty_and_unmatchable_patterns_are_refused_with_a_reason() {
        for (text, says) in [
            ("", "empty"),
            ("  ", "empty"),
            ("https://e.com/[a", "invalid range"),
            ("***", "wildcards"),
            ("/blog/*", "write `*/blog/*`"),
            ("example.com/*", "full URL"),
            ("ftp://e.com/*", "full URL"),
        ] {
            let error = UrlPattern::parse(text).unwrap_err();
            assert_eq!(error.pattern, text);
            let shown = error.to_string();
            assert!(shown.contains(says), "{text}: {shown}");
            assert!(shown.starts_with("invalid URL pattern `"), "{shown}");
        }
        for fine in [
            "*",
            "h*",
            "http",
            "https://",
            "?ttp*",
            "[h]ttps://*",
            "https://e.com/",
        ] {
            assert!(UrlPattern::parse(fine).is_ok(), "{fine}");
        }
    }
}
