//! The HTTP `Link` header (RFC 8288): `<target>; param=value; param="quoted", <next>; …`.
//!
//! Tolerant: a malformed link is skipped up to the next top-level comma, never the whole header.

use serde::{Deserialize, Serialize};

/// Most links read from one header value.
const MAX_LINKS: usize = 256;
/// Most parameters read for one link.
const MAX_PARAMS: usize = 32;

/// One link of a `Link` header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkValue {
    /// The target URI reference, as written between `<` and `>`.
    pub target: String,
    /// The parameters in order: names lowercase, values unquoted and unescaped (empty when the
    /// parameter has no value).
    pub params: Vec<(String, String)>,
}

impl LinkValue {
    /// The first value of a parameter (RFC 8288 ignores later `rel`s, and so do we for all).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The relation types, lowercase (`rel="canonical alternate"` has two).
    pub fn rels(&self) -> Vec<String> {
        self.param("rel")
            .map(|rel| {
                rel.split_ascii_whitespace()
                    .map(str::to_ascii_lowercase)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether the link has this relation type (case-insensitive).
    pub fn has_rel(&self, wanted: &str) -> bool {
        self.param("rel").is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case(wanted))
        })
    }
}

/// Parses one `Link` header value into its links.
pub fn parse_link_header(value: &str) -> Vec<LinkValue> {
    let mut parser = Parser {
        text: value,
        position: 0,
    };
    let mut links = Vec::new();
    while links.len() < MAX_LINKS {
        parser.skip_while(|c| c == ',' || c.is_ascii_whitespace());
        if parser.at_end() {
            break;
        }
        match parser.link() {
            Some(link) => links.push(link),
            None => parser.skip_to_next_link(),
        }
    }
    links
}

struct Parser<'a> {
    text: &'a str,
    position: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &str {
        self.text.get(self.position..).unwrap_or_default()
    }

    fn at_end(&self) -> bool {
        self.position >= self.text.len()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let next = self.peek()?;
        self.position += next.len_utf8();
        Some(next)
    }

    fn skip_while(&mut self, keep_skipping: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&keep_skipping) {
            self.bump();
        }
    }

    /// `<target>` then `;`-separated parameters, up to a top-level `,` or the end.
    fn link(&mut self) -> Option<LinkValue> {
        if self.bump()? != '<' {
            return None;
        }
        let end = self.rest().find('>')?;
        let target = self.rest().get(..end)?.trim().to_owned();
        self.position += end + 1;
        let mut params = Vec::new();
        loop {
            self.skip_while(|c| c.is_ascii_whitespace());
            match self.peek() {
                None | Some(',') => break,
                Some(';') => {
                    self.bump();
                }
                Some(_) => return None,
            }
            self.skip_while(|c| c.is_ascii_whitespace());
            let name = self.token();
            if name.is_empty() {
                // `;` with nothing after it (`<a>;` or `;;`): tolerated.
                continue;
            }
            self.skip_while(|c| c.is_ascii_whitespace());
            let value = if self.peek() == Some('=') {
                self.bump();
                self.skip_while(|c| c.is_ascii_whitespace());
                if self.peek() == Some('"') {
                    self.quoted()?
                } else {
                    self.token().to_owned()
                }
            } else {
                String::new()
            };
            if params.len() < MAX_PARAMS {
                params.push((name.to_ascii_lowercase(), value));
            }
        }
        Some(LinkValue { target, params })
    }

    /// A parameter name or unquoted value: anything up to a delimiter.
    fn token(&mut self) -> &'a str {
        let start = self.position;
        self.skip_while(|c| !matches!(c, ';' | ',' | '=' | '"') && !c.is_ascii_whitespace());
        self.text.get(start..self.position).unwrap_or_default()
    }

    /// A quoted string with `\` escapes; `None` if it is not closed.
    fn quoted(&mut self) -> Option<String> {
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump()? {
                '"' => return Some(value),
                '\\' => value.push(self.bump()?),
                other => value.push(other),
            }
        }
    }

    /// After a malformed link: skip to the next comma outside quotes and angle brackets.
    fn skip_to_next_link(&mut self) {
        let mut in_quotes = false;
        while let Some(next) = self.bump() {
            match next {
                '"' => in_quotes = !in_quotes,
                '\\' if in_quotes => {
                    self.bump();
                }
                ',' if !in_quotes => return,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_canonical() {
        let links = parse_link_header(r#"<https://example.com/a>; rel="canonical""#);
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].target, "https://example.com/a");
        assert!(links[0].has_rel("canonical"));
    }

    #[test]
    fn several_links_with_quoted_commas_and_rel_lists() {
        let links = parse_link_header(
            r#"<https://example.com/fr>; rel="alternate"; hreflang=fr; title="a, \"b\"",
               </en>;REL="Alternate Canonical";hreflang="en-GB" , <https://x.test/>;rel=preload"#,
        );
        assert_eq!(links.len(), 3);
        assert_eq!(links[0].param("hreflang"), Some("fr"));
        assert_eq!(links[0].param("title"), Some(r#"a, "b""#));
        assert_eq!(links[1].target, "/en");
        assert_eq!(links[1].rels(), ["alternate", "canonical"]);
        assert_eq!(links[1].param("HREFLANG"), Some("en-GB"));
        assert!(links[2].has_rel("preload"));
    }

    #[test]
    fn first_rel_wins() {
        let links = parse_link_header("<a>; rel=next; rel=canonical");
        assert!(links[0].has_rel("next"));
        assert!(!links[0].has_rel("canonical"));
    }

    #[test]
    fn malformed_links_are_skipped_not_fatal() {
        let links = parse_link_header(
            "garbage; rel=canonical, <https://ok.test/>; rel=canonical, <unterminated; rel=x",
        );
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].target, "https://ok.test/");
        assert!(parse_link_header("").is_empty());
        assert!(parse_link_header(r#"<a>; rel="open"#).is_empty());
        assert_eq!(parse_link_header("<a>;;rel=x;").len(), 1);
        assert_eq!(parse_link_header("<a> junk, <b>").len(), 1);
    }

    #[test]
    fn bounded_on_huge_headers() {
        let value = "<a>,".repeat(10_000);
        assert_eq!(parse_link_header(&value).len(), MAX_LINKS);
    }
}
