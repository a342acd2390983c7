//! What a page says about itself: robots meta tags, `X-Robots-Tag` / `Robots-Tag` headers,
//! canonicals, hreflang alternates, links, render assets and meta refresh.
//!
//! [`extract`] turns one fetched response (final URL, status, header lines, bounded body bytes)
//! into owned [`Signals`]. HTML is decoded once (BOM, `Content-Type`, `<meta charset>`), then
//! html5ever (the parser under scraper) builds the DOM until `<body>` has begun: HTML5 tree
//! construction decides what is "in head" (a stray `<img>` in `<head>` moves everything after it
//! into `<body>`, as Google reads it; so does any text, U+FEFF after the start included). From
//! there on nothing can enter `<head>`, and a tokenizer-exact scanner reads the remaining tags
//! several times faster than a full parse; where only tree construction can tell what follows
//! (HTML inside SVG or `MathML` integration points, an end tag that leaves foreign content
//! through an HTML ancestor, `<frameset>`), it stops and html5ever parses the whole document.
//! Tests hold it to the full parse's results and to html5lib-tests' expected trees. A plain
//! head, with nothing for tree construction to decide, is read by the scanner too. Non-HTML
//! bodies yield header signals only.
//!
//! [`Signals::directives`] (or [`Directives::for_profile`]) then sums the robots rules that apply
//! to one crawler [`Profile`] ("the sum of the negative rules", most restrictive wins), each rule
//! keeping the tag or header line it came from as evidence.
//!
//! ```
//! use crawlgate_signals::HeaderLine;
//! use crawlgate_signals::{extract, PageInput, Profile};
//!
//! let url = url::Url::parse("https://example.com/a").unwrap();
//! let headers = [HeaderLine::new("Content-Type", "text/html")];
//! let body = br#"<head><meta name="robots" content="noindex"><link rel="canonical" href="/b"></head>"#;
//! let signals = extract(&PageInput { url: &url, status: 200, headers: &headers, body });
//!
//! let canonical = signals.effective_canonicals()[0].resolved.as_ref().unwrap();
//! assert_eq!(canonical.as_str(), "https://example.com/b");
//! let now = jiff::Timestamp::UNIX_EPOCH;
//! assert!(signals.directives(&Profile::googlebot(), now).is_noindex());
//! ```

mod attribute_cap;
mod collect;
mod datetime;
mod decode;
mod directives;
mod dom;
mod entities;
mod head;
mod headers;
mod html;
pub mod http;
mod link_header;
mod profile;
mod raw;
mod resolve;
mod scan;
mod sniff;
mod types;

pub use datetime::parse_unavailable_after;
pub use directives::{
    Directive, DirectiveSource, Directives, ImagePreview, RobotsRule, UnavailableAfter,
};
pub use http::HeaderLine;
pub use link_header::{LinkValue, parse_link_header};
pub use profile::Profile;
/// The list type of [`Signals`]' lists, re-exported so callers can build and match them.
pub use thin_vec::{ThinVec, thin_vec};
pub use types::{
    Asset, AssetKind, BodyKind, Canonical, CharsetSource, HeadBreak, HeaderRule, Hreflang, LinkRel,
    LinkSource, MetaRefresh, MetaRobots, NotHtml, PageLink, RobotsHeader, Signals,
};

use url::Url;

/// One fetched response, as the crawler recorded it.
#[derive(Debug, Clone, Copy)]
pub struct PageInput<'a> {
    /// The final URL (after redirects): relative references resolve against it.
    pub url: &'a Url,
    /// The final HTTP status. Signals are read whatever it is: whether a 404's noindex or a
    /// redirect's canonical counts is for the rules to say.
    pub status: u16,
    /// Every response header line, in order, repeated names kept. The content type and charset
    /// are read from the last `Content-Type` line.
    pub headers: &'a [HeaderLine],
    /// The body bytes, already bounded by the caller.
    pub body: &'a [u8],
}

/// Caps on what one page may contribute, so a hostile page cannot exhaust memory. Past a cap the
/// rest is dropped and [`Signals::truncated`] is set.
pub mod limits {
    /// Characters of a page's `<title>` kept.
    pub const MAX_TITLE_CHARS: usize = 1_024;
    /// Distinct `<a href>` links kept per page.
    pub const MAX_LINKS: usize = 20_000;
    /// Assets (stylesheets, scripts, images, icons) kept per page.
    pub const MAX_ASSETS: usize = 10_000;
    /// Attributes read per tag: past them the rest of the tag is left unread (checking each
    /// attribute against the earlier ones, as the HTML standard does, costs the square).
    pub const MAX_ATTRIBUTES: usize = 1_000;
    /// Bytes of URL text (`href`s as written: links, assets, canonicals, hreflang alternates)
    /// kept per page: a page of long URLs hits this before the counts above.
    pub const MAX_URL_BYTES: usize = 2 * 1024 * 1024;
    /// Robots meta tags, canonicals, hreflang alternates (each) kept per page.
    pub const MAX_TAGS: usize = 1_000;
    /// Robots rules kept per header line.
    pub const MAX_RULES_PER_HEADER: usize = 256;
    /// Bytes of one header value read (the REP extension draft asks for at least 8 KiB).
    pub const MAX_HEADER_VALUE: usize = 64 * 1024;
    /// Image candidates read from one `srcset`.
    pub const MAX_SRCSET_CANDIDATES: usize = 64;
    /// Robots rules summed per page for one profile. A real page has a handful; a hostile one
    /// could repeat [`MAX_RULES_PER_HEADER`] rules in each of [`MAX_TAGS`] tags, and every rule
    /// carries its source. Past the cap, later tags and header lines are not read.
    pub const MAX_RULES_PER_PAGE: usize = 1_024;
    /// Bytes of a meta tag's `content` or a header's value quoted in each rule's source (the
    /// REP extension draft's parse minimum): each rule carries a copy.
    pub const MAX_QUOTED_SOURCE: usize = 8 * 1024;
}

/// Extracts every signal from one response. Never fails and never panics: what cannot be read
/// is left out (invalid URLs keep their text with `resolved: None`).
pub fn extract(page: &PageInput<'_>) -> Signals {
    let content_type = decode::content_type(page.headers);
    let mut signals = Signals {
        content_type: content_type.as_ref().map(|ct| ct.essence.as_str().into()),
        is_html: decode::is_html(content_type.as_ref(), page.body),
        ..Signals::default()
    };
    if let Some(ct) = content_type.as_ref().filter(|ct| ct.essence == "text/html") {
        let utf16 = ct
            .charset
            .as_deref()
            .is_some_and(|label| label.to_ascii_lowercase().starts_with("utf-16"));
        signals.not_html = sniff::not_html(page.body, utf16).map(Box::new);
    }
    if signals.is_html {
        let mut decoded = decode::decode(page.body, content_type.as_ref());
        let before_html = signals.clone();
        let declared = html::extract_html(&decoded.text, decoded.encoding, page.url, &mut signals)
            .and_then(|label| decode::declared_over_guess(&decoded, &label));
        if let Some(declared) = declared {
            if declared == decoded.encoding {
                decoded.source = CharsetSource::MetaTag;
            } else {
                // As browsers do: parse again in the declared encoding.
                decoded = decode::decode_as_declared(page.body, declared);
                signals = before_html;
                html::extract_html(&decoded.text, decoded.encoding, page.url, &mut signals);
            }
        }
        signals.charset = Some(decoded.encoding.name().into());
        signals.charset_source = Some(decoded.source);
    }
    headers::extract_headers(page, &mut signals);
    signals.shrink_to_fit();
    signals
}

impl Signals {
    /// Give back the room the kept lists grew into (the texts are `Box<str>`, exact already). A
    /// crawl keeps these of every page to its end, and a list grown to its one canonical holds
    /// room for four. Links and assets
    /// are left as they are: the crawl takes them at once, and copying a page's hundreds of
    /// links only to drop them would cost more than it saves.
    fn shrink_to_fit(&mut self) {
        self.meta_robots.shrink_to_fit();
        self.robots_headers.shrink_to_fit();
        self.canonicals.shrink_to_fit();
        self.hreflang.shrink_to_fit();
    }

    /// The canonicals a search engine would consider: `<link rel=canonical>` inside `<head>` and
    /// `Link: <…>; rel="canonical"` headers, resolved to an `http` or `https` URL, without those
    /// carrying `hreflang`, `lang`, `media` or `type` (Google does not use those for
    /// canonicalization). A `mailto:` or `javascript:` canonical is ignored like an unparseable
    /// one. Source order, HTML first. Rules compare these; the lint rules read
    /// [`Signals::canonicals`] for the rest.
    pub fn effective_canonicals(&self) -> Vec<&Canonical> {
        self.canonicals
            .iter()
            .filter(|canonical| {
                canonical
                    .resolved
                    .as_ref()
                    .is_some_and(|url| matches!(url.scheme(), "http" | "https"))
                    && canonical.is_effective()
            })
            .collect()
    }

    /// The hreflang alternates a search engine would read: in `<head>` or in a `Link` header,
    /// with a resolvable URL.
    pub fn effective_hreflang(&self) -> Vec<&Hreflang> {
        self.hreflang
            .iter()
            .filter(|alternate| alternate.resolved.is_some() && alternate.source.is_effective())
            .collect()
    }

    /// The robots rules that apply to `profile`, summed (see [`Directives::for_profile`]).
    pub fn directives(&self, profile: &Profile, audit_time: jiff::Timestamp) -> Directives {
        Directives::for_profile(self, profile, audit_time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(headers: &[HeaderLine], body: &[u8]) -> Signals {
        let url = Url::parse("https://example.com/dir/page").unwrap();
        extract(&PageInput {
            url: &url,
            status: 200,
            headers,
            body,
        })
    }

    #[test]
    fn signals_are_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Signals>();
        assert_send_sync::<Directives>();
    }

    #[test]
    fn non_html_bodies_yield_header_signals_only() {
        let headers = [
            HeaderLine::new("Content-Type", "application/pdf"),
            HeaderLine::new("X-Robots-Tag", "noindex"),
            HeaderLine::new("Link", r#"<https://example.com/doc.pdf>; rel="canonical""#),
        ];
        let signals = page(
            &headers,
            b"<html><meta name=robots content=nofollow></html>",
        );
        assert!(!signals.is_html);
        assert_eq!(signals.charset, None);
        assert!(signals.meta_robots.is_empty());
        assert_eq!(signals.robots_headers.len(), 1);
        assert_eq!(signals.effective_canonicals().len(), 1);
        assert_eq!(signals.content_type.as_deref(), Some("application/pdf"));
    }

    #[test]
    fn canonicals_with_hreflang_or_media_are_not_effective() {
        let body = br#"<head>
            <link rel=canonical href="/a" hreflang=en>
            <link rel=canonical href="/b" media="only screen">
            <link rel=canonical href="/c">
            </head><body><link rel=canonical href="/d"></body>"#;
        let signals = page(&[], body);
        assert_eq!(signals.canonicals.len(), 4);
        let effective: Vec<&str> = signals
            .effective_canonicals()
            .iter()
            .filter_map(|c| c.resolved.as_deref().map(Url::as_str))
            .collect();
        assert_eq!(effective, ["https://example.com/c"]);
    }

    #[test]
    fn canonicals_to_other_schemes_are_not_effective() {
        let body = br#"<head>
            <link rel=canonical href="mailto:team@example.com">
            <link rel=canonical href="javascript:void(0)">
            <link rel=canonical href="ftp://example.com/a">
            </head>"#;
        let signals = page(&[], body);
        assert_eq!(signals.canonicals.len(), 3);
        assert!(signals.canonicals.iter().all(|c| c.resolved.is_some()));
        assert!(signals.effective_canonicals().is_empty());
    }
}

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
