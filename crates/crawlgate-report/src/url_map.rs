//! Mapping URLs of one audit onto another: the site moved host (`--map-host OLD=NEW`, staging to
//! production, `http` to `https`) or its paths changed (`--map REGEX=REPLACEMENT`).
//!
//! Defined once and used wherever two audits meet: before comparing two reports page by page
//! (`crawlgate diff`) and before fingerprinting baseline findings (`--baseline`), so a
//! finding on `https://staging.example.com/a` and the same finding on `https://www.example.com/a`
//! are one.
//!
//! ```
//! use crawlgate_report::UrlMap;
//!
//! let map = UrlMap::new()
//!     .with_host("staging.example.com=www.example.com")?
//!     .with_regex(r"^(https://www\.example\.com)/shop/=$1/store/")?;
//! assert_eq!(map.apply("https://staging.example.com/shop/a?b"), "https://www.example.com/store/a?b");
//! assert_eq!(map.apply("https://staging.example.com.evil.test/"), "https://staging.example.com.evil.test/");
//! # Ok::<(), crawlgate_report::MapError>(())
//! ```

use regex::Regex;
use std::fmt;
use thiserror::Error;

/// A mapping rule that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MapError {
    #[error("`{0}` is not OLD=NEW")]
    NotAPair(String),
    #[error("`{spec}`: `{part}` is not a host (give host, host:port or scheme://host[:port])")]
    Host { spec: String, part: String },
    #[error("`{spec}`: {message}")]
    Regex { spec: String, message: String },
}

/// URL rewrites, applied in order, each to the result of the previous one. Empty: no change.
#[derive(Debug, Clone, Default)]
pub struct UrlMap {
    rules: Vec<MapRule>,
}

#[derive(Debug, Clone)]
enum MapRule {
    Host { from: Authority, to: Authority },
    Regex { pattern: Regex, replacement: String },
}

/// `[scheme://]host[:port]`, host lower-case.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Authority {
    scheme: Option<String>,
    host: String,
    port: Option<u16>,
}

impl Authority {
    fn parse(spec: &str, part: &str) -> Result<Authority, MapError> {
        let error = || MapError::Host {
            spec: spec.to_owned(),
            part: part.to_owned(),
        };
        let part = part.trim();
        let (scheme, rest) = match part.split_once("://") {
            Some((scheme, rest)) => (Some(scheme.to_ascii_lowercase()), rest),
            None => (None, part),
        };
        if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ']) {
            return Err(error());
        }
        // Let the URL parser normalise the host (case, IDN) and read the port.
        let parsed = url::Url::parse(&format!("http://{rest}/")).map_err(|_| error())?;
        let host = parsed.host_str().ok_or_else(error)?.to_owned();
        Ok(Authority {
            scheme,
            host,
            port: parsed.port(),
        })
    }

    /// `host[:port]`, as URLs serialise it.
    fn host_port(&self) -> String {
        match self.port {
            Some(port) => format!("{}:{port}", self.host),
            None => self.host.clone(),
        }
    }
}

impl fmt::Display for Authority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(scheme) = &self.scheme {
            write!(f, "{scheme}://")?;
        }
        f.write_str(&self.host_port())
    }
}

impl UrlMap {
    /// No rewrite.
    pub fn new() -> UrlMap {
        UrlMap::default()
    }

    /// Adds a host rewrite, `OLD=NEW`, each side `host`, `host:port` or `scheme://host[:port]`.
    /// A URL matches when its host (and port and scheme, when given) are OLD's; without a port,
    /// OLD matches URLs that name no port. The host (and port, and scheme when NEW gives one)
    /// are replaced.
    pub fn with_host(mut self, spec: &str) -> Result<UrlMap, MapError> {
        let (from, to) = spec
            .split_once('=')
            .ok_or_else(|| MapError::NotAPair(spec.to_owned()))?;
        let from = Authority::parse(spec, from)?;
        let to = Authority::parse(spec, to)?;
        self.rules.push(MapRule::Host { from, to });
        Ok(self)
    }

    /// Adds a regex rewrite, `REGEX=REPLACEMENT`, split at the first `=` not written `\=`
    /// (`regex` crate syntax; `$1`, `${name}` in the replacement). The first match in the URL
    /// is replaced.
    pub fn with_regex(mut self, spec: &str) -> Result<UrlMap, MapError> {
        let split = spec
            .char_indices()
            .find(|&(at, c)| c == '=' && !spec[..at].ends_with('\\'))
            .map(|(at, _)| at)
            .ok_or_else(|| MapError::NotAPair(spec.to_owned()))?;
        let (pattern, replacement) = (&spec[..split], &spec[split + 1..]);
        let pattern = Regex::new(&pattern.replace("\\=", "=")).map_err(|e| MapError::Regex {
            spec: spec.to_owned(),
            message: e.to_string(),
        })?;
        self.rules.push(MapRule::Regex {
            pattern,
            replacement: replacement.to_owned(),
        });
        Ok(self)
    }

    /// Whether the map changes nothing.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules in words, in order: `host staging.example.com → www.example.com`.
    pub fn describe(&self) -> Vec<String> {
        self.rules
            .iter()
            .map(|rule| match rule {
                MapRule::Host { from, to } => format!("host {from} → {to}"),
                MapRule::Regex {
                    pattern,
                    replacement,
                } => format!("regex {} → {replacement}", pattern.as_str()),
            })
            .collect()
    }

    /// `text` with every rule applied. Host rules rewrite every URL in the text (`scheme://`
    /// followed by the host), so URLs quoted inside evidence and notes are mapped too.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for rule in &self.rules {
            out = match rule {
                MapRule::Host { from, to } => replace_authority(&out, from, to),
                MapRule::Regex {
                    pattern,
                    replacement,
                } => pattern.replace(&out, replacement.as_str()).into_owned(),
            };
        }
        out
    }
}

/// Replaces `scheme://` + FROM's authority by TO's wherever it appears as a whole authority.
fn replace_authority(text: &str, from: &Authority, to: &Authority) -> String {
    let wanted = from.host_port();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (before, after) = rest.split_at(at);
        let after = &after[3..];
        // The scheme runs back to the last character that cannot be in one (its width
        // counted, so a multi-byte character before it never splits a slice).
        let scheme_start = before
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
            .map_or(0, |(at, c)| at + c.len_utf8());
        let scheme = &before[scheme_start..];
        let authority_len = after
            .find(|c: char| {
                !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '[' | ']' | '%'))
            })
            .unwrap_or(after.len());
        let authority = &after[..authority_len];
        let scheme_ok = from
            .scheme
            .as_deref()
            .is_none_or(|wanted| wanted.eq_ignore_ascii_case(scheme));
        if scheme_ok && !scheme.is_empty() && authority.eq_ignore_ascii_case(&wanted) {
            out.push_str(&before[..scheme_start]);
            out.push_str(to.scheme.as_deref().unwrap_or(scheme));
            out.push_str("://");
            out.push_str(&to.host_port());
        } else {
            out.push_str(before);
            out.push_str("://");
            out.push_str(authority);
        }
        rest = &after[authority_len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_mapped_as_whole_authorities() {
        let map = UrlMap::new()
            .with_host("127.0.0.1:4001=127.0.0.1:5002")
            .unwrap();
        assert_eq!(
            map.apply("http://127.0.0.1:4001/a"),
            "http://127.0.0.1:5002/a"
        );
        assert_eq!(
            map.apply("http://127.0.0.1:40011/a"),
            "http://127.0.0.1:40011/a"
        );
        assert_eq!(map.apply("http://127.0.0.1/a"), "http://127.0.0.1/a");
        assert_eq!(
            map.apply("see http://127.0.0.1:4001/x and http://127.0.0.1:4001"),
            "see http://127.0.0.1:5002/x and http://127.0.0.1:5002"
        );
        let map = UrlMap::new()
            .with_host("Staging.Example.com=www.example.com")
            .unwrap();
        assert_eq!(
            map.apply("https://staging.example.com/a"),
            "https://www.example.com/a"
        );
        assert_eq!(
            map.apply("https://staging.example.com:8443/a"),
            "https://staging.example.com:8443/a"
        );
        assert_eq!(
            map.apply("https://x.staging.example.com/a"),
            "https://x.staging.example.com/a"
        );
        assert_eq!(map.apply("/relative/path"), "/relative/path");
        assert_eq!(
            map.apply("é://x «https://staging.example.com/é»"),
            "é://x «https://www.example.com/é»"
        );
    }

    #[test]
    fn schemes_are_matched_and_replaced_when_given() {
        let map = UrlMap::new()
            .with_host("http://example.com=https://example.com")
            .unwrap();
        assert_eq!(map.apply("http://example.com/a"), "https://example.com/a");
        assert_eq!(map.apply("ftp://example.com/a"), "ftp://example.com/a");
        let map = UrlMap::new()
            .with_host("example.com=https://www.example.com")
            .unwrap();
        assert_eq!(
            map.apply("http://example.com/a"),
            "https://www.example.com/a"
        );
    }

    #[test]
    fn regexes_rewrite_the_first_match_with_groups() {
        let map = UrlMap::new().with_regex(r"/old/(\d+)$=/new/$1").unwrap();
        assert_eq!(map.apply("https://e.com/old/42"), "https://e.com/new/42");
        let map = UrlMap::new().with_regex(r"\?lang\=en=?hl=en").unwrap();
        assert_eq!(map.apply("https://e.com/?lang=en"), "https://e.com/?hl=en");
        assert_eq!(map.describe(), [r"regex \?lang=en → ?hl=en"]);
    }

    #[test]
    fn bad_rules_are_errors_naming_the_rule() {
        assert!(matches!(
            UrlMap::new().with_host("a.com"),
            Err(MapError::NotAPair(_))
        ));
        assert!(UrlMap::new().with_host("a.com/x=b.com").is_err());
        assert!(UrlMap::new().with_host("=b.com").is_err());
        let error = UrlMap::new().with_regex("(=x").unwrap_err();
        assert!(error.to_string().starts_with("`(=x`: "), "{error}");
        assert!(UrlMap::new().is_empty());
    }
}
