//! The owned data [`extract`](super::extract) returns. Everything here is `Send`, serialisable,
//! and free of parser handles: the DOM is dropped before `extract` returns.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use thin_vec::ThinVec;
use url::Url;

/// Everything one response says about itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Signals {
    /// Whether the body was read as HTML (`text/html`, `application/xhtml+xml`, or no
    /// `Content-Type` and a body that sniffs as HTML).
    pub is_html: bool,
    /// The `Content-Type` media type, lowercase, without parameters.
    pub content_type: Option<Box<str>>,
    /// The encoding the HTML was decoded with (`encoding_rs` name, e.g. `UTF-8`, `Shift_JIS`).
    pub charset: Option<Box<str>>,
    /// Where [`Signals::charset`] came from.
    pub charset_source: Option<CharsetSource>,
    /// Every `<meta name=… content=…>` whose name is `robots` or a crawler's name, document order.
    pub meta_robots: ThinVec<MetaRobots>,
    /// Every `X-Robots-Tag` and `Robots-Tag` header line, split into rules.
    pub robots_headers: ThinVec<RobotsHeader>,
    /// Every `<link rel=canonical>` (head or body) and `Link: <…>; rel=canonical` header.
    pub canonicals: ThinVec<Canonical>,
    /// Every `<link rel=alternate hreflang=…>` and `Link` header alternate with `hreflang`.
    pub hreflang: ThinVec<Hreflang>,
    /// Every distinct `<a href>` (by href and rel), in order of first appearance.
    pub links: ThinVec<PageLink>,
    /// Stylesheets, scripts, images and icons the page references, document order.
    pub assets: ThinVec<Asset>,
    /// The document's title: the text of the first HTML `<title>` (outside templates),
    /// whitespace collapsed, at most [`limits::MAX_TITLE_CHARS`](super::limits::MAX_TITLE_CHARS) characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Box<str>>,
    /// The first `<base href>`, as written.
    pub base_href: Option<Box<str>>,
    /// The first `<meta http-equiv=refresh>` (boxed, like the rest of the rare parts: a crawl
    /// keeps every page's signals to its end).
    pub meta_refresh: Option<Box<MetaRefresh>>,
    /// What ended `<head>` early, if something did: an element not allowed in `<head>` (or
    /// text) before `</head>` or `<body>`. Google ignores the rest of the head after it.
    pub head_break: Option<Box<HeadBreak>>,
    /// Whether a cap in [`limits`](super::limits) dropped part of the page's signals.
    pub truncated: bool,
    /// What the body holds instead of HTML, when it is labelled `Content-Type: text/html` but
    /// is a PDF, an image, an archive, a feed or other XML, JSON or binary data (WHATWG MIME
    /// Sniffing signatures; `None` for HTML, an empty body, plain text, or any other label).
    /// Read at extraction, since bodies are not kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_html: Option<Box<NotHtml>>,
}

/// A body labelled `text/html` that is something else, and what gave it away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotHtml {
    pub kind: BodyKind,
    /// What gave it away, in words: "starts with the bytes 25 50 44 46 2D", "byte 0x00 at
    /// offset 3", "its root element is `<rss>`".
    pub evidence: String,
}

/// What a body sniffs as, when not HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyKind {
    Pdf,
    PostScript,
    Png,
    Jpeg,
    Gif,
    Webp,
    Icon,
    Gzip,
    Zip,
    Rar,
    Font,
    Mp4,
    Webm,
    Ogg,
    RssFeed,
    AtomFeed,
    Xml,
    Json,
    Binary,
}

impl BodyKind {
    /// The kind in words, with its article: `a PDF document`, `JSON`.
    pub fn description(self) -> &'static str {
        match self {
            BodyKind::Pdf => "a PDF document",
            BodyKind::PostScript => "a PostScript document",
            BodyKind::Png => "a PNG image",
            BodyKind::Jpeg => "a JPEG image",
            BodyKind::Gif => "a GIF image",
            BodyKind::Webp => "a WebP image",
            BodyKind::Icon => "an ICO image",
            BodyKind::Gzip => "gzip-compressed data",
            BodyKind::Zip => "a ZIP archive",
            BodyKind::Rar => "a RAR archive",
            BodyKind::Font => "a WOFF font",
            BodyKind::Mp4 => "an MP4 video",
            BodyKind::Webm => "a WebM video",
            BodyKind::Ogg => "Ogg audio or video",
            BodyKind::RssFeed => "an RSS feed",
            BodyKind::AtomFeed => "an Atom feed",
            BodyKind::Xml => "an XML document",
            BodyKind::Json => "JSON",
            BodyKind::Binary => "binary data",
        }
    }

    /// The media type such a body is served with, when there is one (binary data has none).
    pub fn media_type(self) -> Option<&'static str> {
        Some(match self {
            BodyKind::Pdf => "application/pdf",
            BodyKind::PostScript => "application/postscript",
            BodyKind::Png => "image/png",
            BodyKind::Jpeg => "image/jpeg",
            BodyKind::Gif => "image/gif",
            BodyKind::Webp => "image/webp",
            BodyKind::Icon => "image/x-icon",
            BodyKind::Gzip => "application/gzip",
            BodyKind::Zip => "application/zip",
            BodyKind::Rar => "application/vnd.rar",
            BodyKind::Font => "font/woff2",
            BodyKind::Mp4 => "video/mp4",
            BodyKind::Webm => "video/webm",
            BodyKind::Ogg => "application/ogg",
            BodyKind::RssFeed => "application/rss+xml",
            BodyKind::AtomFeed => "application/atom+xml",
            BodyKind::Xml => "application/xml",
            BodyKind::Json => "application/json",
            BodyKind::Binary => return None,
        })
    }
}

/// Where the charset used to decode a page came from, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CharsetSource {
    /// A UTF-8 or UTF-16 byte order mark.
    ByteOrderMark,
    /// The `charset` parameter of the `Content-Type` header.
    ContentType,
    /// `<meta charset>` or `<meta http-equiv=Content-Type>` in the first 1024 bytes.
    MetaTag,
    /// Nothing declared; the body is valid UTF-8.
    Utf8Detected,
    /// Nothing declared and not valid UTF-8: windows-1252, as browsers default to.
    Fallback,
}

/// One robots meta tag: `<meta name="robots" content="noindex">` or a crawler-named one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaRobots {
    /// The `name` attribute, trimmed and lowercase (`robots`, `googlebot`, `bingbot`…).
    pub name: String,
    /// The `content` attribute as parsed (entities decoded), empty when absent.
    pub content: String,
    /// The tag as written in the source (or rebuilt from the DOM if it could not be found).
    pub raw: String,
    /// 1-based source line where the tag starts.
    pub line: Option<u32>,
    /// Whether the DOM puts it inside `<head>`. Google honours robots meta in `<body>` too.
    pub in_head: bool,
}

/// One `X-Robots-Tag` (or draft `Robots-Tag`) header line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobotsHeader {
    /// The header name as received.
    pub name: String,
    /// The whole header value as received.
    pub value: String,
    /// The rules, in order, each with the bot it is addressed to.
    pub rules: Vec<HeaderRule>,
}

impl RobotsHeader {
    /// Whether this is the draft `Robots-Tag` header rather than `X-Robots-Tag`.
    pub fn is_draft_robots_tag(&self) -> bool {
        self.name.eq_ignore_ascii_case("robots-tag")
    }
}

/// One rule of a robots header, such as `noindex` or `max-snippet:20`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderRule {
    /// The crawler the rule is addressed to (`googlebot: noindex`), lowercase; `None` for all.
    pub bot: Option<String>,
    /// The rule text, trimmed (`noindex`, `unavailable_after: 25 Jun 2010 15:00:00 PST`).
    pub rule: String,
}

/// Where a canonical or hreflang annotation was declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "via", rename_all = "snake_case")]
pub enum LinkSource {
    /// A `<link>` element.
    Html {
        /// 1-based source line where the tag starts.
        line: Option<u32>,
        /// Whether the DOM puts it inside `<head>` (Google ignores canonicals in `<body>`).
        in_head: bool,
        /// The tag as written in the source.
        raw: Box<str>,
        /// Every attribute other than `rel` and `href` (names lowercase), e.g. `hreflang`,
        /// `lang`, `media`, `type`.
        extra_attributes: ThinVec<(String, String)>,
    },
    /// An HTTP `Link` header.
    Header {
        /// The whole header line value.
        value: String,
    },
}

impl LinkSource {
    /// The source line of an HTML `<link>`; `None` for headers.
    pub fn line(&self) -> Option<u32> {
        match self {
            LinkSource::Html { line, .. } => *line,
            LinkSource::Header { .. } => None,
        }
    }

    /// Whether a search engine reads this source: a header, or a `<link>` inside `<head>`.
    pub fn is_effective(&self) -> bool {
        match self {
            LinkSource::Html { in_head, .. } => *in_head,
            LinkSource::Header { .. } => true,
        }
    }

    /// The value of an extra attribute (`hreflang`, `media`…) of an HTML `<link>`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        match self {
            LinkSource::Html {
                extra_attributes, ..
            } => extra_attributes
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.as_str()),
            LinkSource::Header { .. } => None,
        }
    }
}

/// Attributes that disqualify a `rel=canonical` link from canonicalization (Google).
pub(crate) const CANONICAL_IGNORED_ATTRIBUTES: [&str; 4] = ["hreflang", "lang", "media", "type"];

/// A declared canonical URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Canonical {
    /// The URL as written.
    pub href: Box<str>,
    /// Resolved against `<base href>` then the final URL (headers: against the final URL).
    /// `None` for an empty or unparseable href. Shared: a crawl gives a page's self-canonical
    /// the page's own URL, so most pages hold their URL once.
    pub resolved: Option<Arc<Url>>,
    pub source: LinkSource,
}

impl Canonical {
    /// The attributes on this `<link>` that make Google ignore it for canonicalization.
    pub fn ignored_attributes(&self) -> Vec<&str> {
        CANONICAL_IGNORED_ATTRIBUTES
            .into_iter()
            .filter(|name| self.source.attribute(name).is_some())
            .collect()
    }

    /// In `<head>` or a header, and free of attributes that disqualify it.
    pub fn is_effective(&self) -> bool {
        self.source.is_effective() && self.ignored_attributes().is_empty()
    }
}

/// A declared language alternate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hreflang {
    /// The `hreflang` value as written (`en-GB`, `x-default`).
    pub hreflang: String,
    /// The URL as written.
    pub href: String,
    /// Resolved like [`Canonical::resolved`].
    pub resolved: Option<Url>,
    pub source: LinkSource,
}

/// The `rel` tokens of an `<a>` that matter to search engines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LinkRel {
    pub nofollow: bool,
    pub ugc: bool,
    pub sponsored: bool,
}

impl LinkRel {
    /// Reads a `rel` attribute (space-separated, case-insensitive tokens).
    pub fn parse(rel: &str) -> LinkRel {
        let mut parsed = LinkRel::default();
        for token in rel.split_ascii_whitespace() {
            if token.eq_ignore_ascii_case("nofollow") {
                parsed.nofollow = true;
            } else if token.eq_ignore_ascii_case("ugc") {
                parsed.ugc = true;
            } else if token.eq_ignore_ascii_case("sponsored") {
                parsed.sponsored = true;
            }
        }
        parsed
    }

    /// Whether any of the three hints is set (Google treats each as a hint not to follow).
    pub fn is_qualified(self) -> bool {
        self.nofollow || self.ugc || self.sponsored
    }

    /// The tokens set, in a fixed order (`nofollow`, `ugc`, `sponsored`).
    pub fn tokens(self) -> Vec<String> {
        [
            (self.nofollow, "nofollow"),
            (self.ugc, "ugc"),
            (self.sponsored, "sponsored"),
        ]
        .into_iter()
        .filter(|(set, _)| *set)
        .map(|(_, token)| token.to_owned())
        .collect()
    }
}

/// The `<a href>` elements of a page with one `href` and `rel`: pages repeat their navigation,
/// and a site of 100,000 pages with 50 links each is held in memory, so repeats are counted
/// rather than stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageLink {
    /// The href as written.
    pub href: String,
    /// Resolved against `<base href>` then the final URL; `None` if it does not parse.
    pub resolved: Option<Url>,
    pub rel: LinkRel,
    /// 1-based source line of the first such tag's end (where the tag starts unless it spans
    /// lines).
    pub line: Option<u32>,
    /// How many `<a>` on the page have this `href` and `rel` (at least 1).
    pub occurrences: u32,
}

/// What an [`Asset`] is used for when rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssetKind {
    /// `<link rel=stylesheet>`, `<link rel=preload as=style>`.
    Stylesheet,
    /// `<script src>`, `<link rel=preload as=script>`, `<link rel=modulepreload>`.
    Script,
    /// `<img src>`, `<img srcset>`, `<picture><source srcset>`, `<meta property=og:image>`,
    /// `<link rel=preload as=image>`.
    Image,
    /// `<link rel=icon>`, `shortcut icon`, `apple-touch-icon`, `mask-icon`.
    Icon,
}

impl AssetKind {
    /// `stylesheet`, `script`, `image` or `icon`.
    pub fn as_str(self) -> &'static str {
        match self {
            AssetKind::Stylesheet => "stylesheet",
            AssetKind::Script => "script",
            AssetKind::Image => "image",
            AssetKind::Icon => "icon",
        }
    }
}

/// A resource the page needs to render or show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asset {
    pub kind: AssetKind,
    /// The URL as written (one candidate, for `srcset`).
    pub href: String,
    /// Resolved like [`PageLink::resolved`].
    pub resolved: Option<Url>,
    /// 1-based source line of the tag's end.
    pub line: Option<u32>,
}

/// `<meta http-equiv="refresh" content="5; url=/next">`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaRefresh {
    /// The `content` attribute as parsed.
    pub content: String,
    /// Seconds before the refresh; `None` if `content` does not start with a number (browsers
    /// then ignore the tag).
    pub delay: Option<u32>,
    /// The target as written; `None` for a plain reload.
    pub target: Option<String>,
    /// The target resolved against `<base href>` then the final URL.
    pub resolved: Option<Url>,
    /// 1-based source line of the tag's end.
    pub line: Option<u32>,
    pub in_head: bool,
}

/// What closed `<head>` before `</head>` or `<body>`: Google ignores head metadata after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadBreak {
    /// The element's name (`img`, `div`, `iframe`…), or `#text` for text.
    pub cause: String,
    /// 1-based source line where it was met.
    pub line: Option<u32>,
}
