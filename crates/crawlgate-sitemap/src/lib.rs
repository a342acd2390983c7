//! Sitemaps: a streaming parser and validator for everything Google accepts as a sitemap.
//!
//! [`parse`] reads a sitemap from any [`std::io::Read`] and hands each entry to a callback as it
//! is read, so memory stays bounded whatever the document size: `<urlset>` and
//! `<sitemapindex>` XML, plain-text sitemaps (one URL per line), RSS 2.0 and Atom 1.0 feeds.
//! Image, video, news and `xhtml:link` hreflang extensions are parsed into typed fields.
//!
//! - **gzip** is decided by the body's magic bytes (`1f 8b`), never by a file name or a
//!   `Content-Encoding` header, and is undone exactly once; decompression stops at
//!   [`SitemapOptions::max_uncompressed_bytes`] (the bomb guard).
//! - **Unsafe XML** (a DOCTYPE, hence any ENTITY declaration) is refused, not parsed.
//! - **Parsing never fails**: the [`SitemapSummary`] says what was read, and its issues say what
//!   is wrong, with 1-based line and column, under the rule ids of RULES.md §2.6 and §2.8
//!   ([`Code`]).
//! - Everything needed besides the bytes is an input ([`SitemapOptions`]): where the sitemap was
//!   served (for the cross-host and path-scope checks) and the check time (for `lastmod` in the
//!   future and stale news). This module never reads the clock.
//!
//! Checks that need more than the document are left to the crawl and the rules:
//! `sitemap/nested-index` needs each child of an index fetched — the crawler parses the child and
//! reports the finding when the child's [`SitemapSummary::kind`] is [`SitemapKind::Index`]. The
//! cross-submit proof of `sitemap/cross-host-url` (the URL host's robots.txt listing this
//! sitemap) is given through [`SitemapOptions::cross_submit_origins`] when known.
//!
//! ```
//! use crawlgate_sitemap::{self as sitemap, SitemapKind, SitemapOptions};
//!
//! let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
//! <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//!   <url><loc>https://example.com/</loc><lastmod>2026-01-31</lastmod></url>
//!   <url><loc>/relative</loc></url>
//! </urlset>"#;
//! let options = SitemapOptions::new("2026-02-01T00:00:00Z".parse().unwrap());
//! let parsed = sitemap::parse_bytes(xml, &options);
//! assert_eq!(parsed.summary.kind, SitemapKind::UrlSet);
//! // The relative loc is reported, and is no entry.
//! assert_eq!(parsed.entries.len(), 1);
//! assert_eq!(parsed.entries[0].line, 3);
//! let issue = &parsed.summary.issues[0];
//! assert_eq!((issue.code, issue.line), (sitemap::Code::LocInvalid, Some(4)));
//! ```

mod attributes;
mod collect;
mod datetime;
mod elements;
mod feed;
mod hreflang;
mod issues;
mod loc;
mod reader;
mod scope;
mod text;
mod tokens;
mod validate;
mod xml;

pub use crawlgate_issue::Severity;
pub use datetime::{W3cDatetime, parse_rfc2822, parse_w3c_datetime};
pub use hreflang::{hreflang_problem, is_valid_hreflang};
pub use issues::{Code, MAX_ISSUES_PER_RULE, rule_ids};

/// A problem found in a sitemap, at a 1-based line and column, under its [`Code`].
pub type Issue = crawlgate_issue::Issue<Code>;

use collect::{Collector, Lent, Owned, OwnedWithKind, Sink};
use issues::Issues;
use reader::{Capped, Decoded, LineTrack, ReadFailure};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read};

/// The most entries (URLs, or child sitemaps of an index) one sitemap may hold.
pub const MAX_ENTRIES: u64 = 50_000;
/// The largest a sitemap may be, uncompressed: 50 MiB.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 52_428_800;
/// How far past [`MAX_UNCOMPRESSED_BYTES`] reading goes by default, so an over-size sitemap is
/// still measured (and reported `sitemap/too-large`) before the bomb guard stops reading.
pub const DEFAULT_READ_MARGIN_BYTES: u64 = 1_048_576;
/// The longest a `<loc>` may be, in characters.
pub const MAX_LOC_CHARS: usize = 2_048;
/// The most `image:image` Google reads in one `<url>`.
pub const MAX_IMAGES_PER_URL: u64 = 1_000;

/// What the parser needs besides the bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct SitemapOptions {
    /// Where the sitemap was served, for the cross-host and path-scope checks; `None` skips them.
    pub url: Option<url::Url>,
    /// When the check runs: `lastmod` later than this plus a day is in the future, news older than
    /// this minus two days is stale. An input, so results are reproducible.
    pub check_time: jiff::Timestamp,
    /// Reading stops past this many uncompressed bytes (the gzip-bomb guard). Defaults to
    /// [`MAX_UNCOMPRESSED_BYTES`] + [`DEFAULT_READ_MARGIN_BYTES`].
    pub max_uncompressed_bytes: u64,
    /// Origins whose robots.txt lists this sitemap (Google's cross-submit proof): URLs on them are
    /// not reported as `sitemap/cross-host-url`.
    pub cross_submit_origins: Vec<url::Origin>,
}

impl SitemapOptions {
    /// Options with no sitemap URL, the default size guard, and `check_time`.
    pub fn new(check_time: jiff::Timestamp) -> Self {
        Self {
            url: None,
            check_time,
            max_uncompressed_bytes: MAX_UNCOMPRESSED_BYTES + DEFAULT_READ_MARGIN_BYTES,
            cross_submit_origins: Vec::new(),
        }
    }

    /// The same options with the URL the sitemap was served at.
    #[must_use]
    pub fn with_url(mut self, url: url::Url) -> Self {
        self.url = Some(url);
        self
    }
}

/// What kind of document the sitemap is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SitemapKind {
    /// `<urlset>`: a list of pages.
    UrlSet,
    /// `<sitemapindex>`: a list of sitemaps.
    Index,
    /// Plain text, one URL per line.
    Text,
    /// An RSS 2.0 feed (`<rss>`); entries are the items' `<link>`.
    Rss,
    /// An Atom 1.0 feed (`<feed>`); entries are the entries' `<link href>`.
    Atom,
    /// Not a sitemap this parser recognises (see the issues).
    Unknown,
}

impl SitemapKind {
    /// The lowercase name used in output (`urlset`, `index`, `text`, `rss`, `atom`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            SitemapKind::UrlSet => "urlset",
            SitemapKind::Index => "index",
            SitemapKind::Text => "text",
            SitemapKind::Rss => "rss",
            SitemapKind::Atom => "atom",
            SitemapKind::Unknown => "unknown",
        }
    }
}

/// What one sitemap document holds, besides its entries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SitemapSummary {
    pub kind: SitemapKind,
    /// Whether the body was gzip (by its magic bytes).
    pub gzip: bool,
    /// Input bytes read: the compressed size for gzip; less than the input when reading stopped
    /// at the size guard or on a read error.
    pub bytes_read: u64,
    /// Document bytes after decompression (equal to `bytes_read` when not gzip).
    pub bytes_uncompressed: u64,
    /// Entries handed to the callback (entries without a `<loc>` are reported, not counted).
    pub entry_count: u64,
    /// Whether reading stopped before the end of the document (size guard, refused DOCTYPE, fatal
    /// XML error, read error): the entries are then partial.
    pub truncated: bool,
    /// Problems found, sorted by (line, column, rule); whole-document issues first.
    #[serde(bound(deserialize = "'de: 'static"))]
    pub issues: Vec<Issue>,
}

/// One entry: an `<url>` of a urlset (or a line of a text sitemap, or a feed item), or a
/// `<sitemap>` of an index.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Entry {
    /// The URL as written, trimmed of surrounding whitespace (entities decoded).
    pub loc: String,
    /// 1-based line of the `<loc>` element (of the line, for text; of `<link>`, for feeds).
    pub line: u32,
    /// 1-based column (in bytes) of the same.
    pub column: u32,
    /// `<lastmod>` as written (RSS: `<pubDate>`; Atom: `<updated>`).
    pub lastmod: Option<String>,
    pub changefreq: Option<String>,
    pub priority: Option<String>,
    /// `image:image` children (at most [`MAX_IMAGES_PER_URL`] kept).
    pub images: Vec<Image>,
    pub videos: Vec<Video>,
    pub news: Option<News>,
    /// `xhtml:link rel="alternate" hreflang=… href=…` children.
    pub alternates: Vec<Alternate>,
}

impl Entry {
    /// About how many bytes the entry holds in memory: its own size and its text. An estimate
    /// (allocator slack left out) that a crawl sums to bound the entries it keeps.
    pub fn kept_bytes(&self) -> usize {
        let text = |value: &Option<String>| value.as_ref().map_or(0, String::len);
        let images: usize = self
            .images
            .iter()
            .map(|image| {
                std::mem::size_of::<Image>()
                    + image.loc.len()
                    + text(&image.caption)
                    + text(&image.title)
            })
            .sum();
        let videos: usize = self
            .videos
            .iter()
            .map(|video| {
                std::mem::size_of::<Video>()
                    + [
                        &video.thumbnail_loc,
                        &video.title,
                        &video.description,
                        &video.content_loc,
                        &video.player_loc,
                        &video.uploader,
                        &video.restriction,
                    ]
                    .into_iter()
                    .map(text)
                    .sum::<usize>()
            })
            .sum();
        let news = self.news.as_ref().map_or(0, |news| {
            std::mem::size_of::<News>()
                + text(&news.publication_name)
                + text(&news.title)
                + text(&news.publication_date)
        });
        let alternates: usize = self
            .alternates
            .iter()
            .map(|alternate| {
                std::mem::size_of::<Alternate>() + alternate.hreflang.len() + alternate.href.len()
            })
            .sum();
        std::mem::size_of::<Entry>()
            + self.loc.len()
            + text(&self.lastmod)
            + text(&self.changefreq)
            + text(&self.priority)
            + images
            + videos
            + news
            + alternates
    }
}

/// An `image:image` (Google image sitemap extension 1.1).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Image {
    /// `image:loc`.
    pub loc: String,
    pub caption: Option<String>,
    pub title: Option<String>,
}

/// A `video:video` (Google video sitemap extension 1.1). Required by Google: thumbnail, title,
/// description, and a content or player location.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Video {
    pub thumbnail_loc: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub content_loc: Option<String>,
    pub player_loc: Option<String>,
    pub duration: Option<String>,
    pub publication_date: Option<String>,
    pub expiration_date: Option<String>,
    pub rating: Option<String>,
    pub view_count: Option<String>,
    pub family_friendly: Option<String>,
    pub requires_subscription: Option<String>,
    pub live: Option<String>,
    pub uploader: Option<String>,
    /// `video:restriction`: space-separated ISO 3166 country codes.
    pub restriction: Option<String>,
    /// `video:restriction`'s `relationship` attribute (`allow` or `deny`).
    pub restriction_relationship: Option<String>,
    /// `video:platform`: space-separated `web`, `mobile`, `tv`.
    pub platform: Option<String>,
    /// `video:platform`'s `relationship` attribute (`allow` or `deny`).
    pub platform_relationship: Option<String>,
    /// How many `video:tag` (their values are not kept).
    #[serde(default)]
    pub tag_count: u32,
    /// How many `video:content_loc`, `video:player_loc`, `video:restriction` and
    /// `video:platform` were written (the first of each is kept; Google allows one).
    #[serde(default)]
    pub content_loc_count: u32,
    #[serde(default)]
    pub player_loc_count: u32,
    #[serde(default)]
    pub restriction_count: u32,
    #[serde(default)]
    pub platform_count: u32,
}

/// A `news:news` (Google News sitemap extension 0.9).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct News {
    /// `news:publication/news:name`.
    pub publication_name: Option<String>,
    /// `news:publication/news:language`.
    pub publication_language: Option<String>,
    pub publication_date: Option<String>,
    pub title: Option<String>,
}

/// An hreflang alternate: `xhtml:link rel="alternate" hreflang=… href=…`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Alternate {
    pub hreflang: String,
    pub href: String,
    /// 1-based line of the `xhtml:link`.
    pub line: u32,
}

/// A sitemap read whole: its summary and entries. For small documents; use [`parse`] to stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParsedSitemap {
    #[serde(bound(deserialize = "'de: 'static"))]
    pub summary: SitemapSummary,
    pub entries: Vec<Entry>,
}

/// Reads a sitemap from `input`, handing each entry to `on_entry` as soon as it is read.
///
/// Memory stays bounded: one read buffer, the current entry, and per-document tallies that hold
/// hashes rather than URLs (duplicates, hreflang reciprocity, uniform `lastmod`).
pub fn parse<R: Read + Send>(
    input: R,
    options: &SitemapOptions,
    on_entry: impl FnMut(Entry),
) -> SitemapSummary {
    parse_into(input, options, Owned(on_entry))
}

/// Like [`parse`], with the document's kind beside each entry (known from the root element, or
/// the first line of a text sitemap, before any entry): for callers that keep an index's
/// entries but not every urlset's.
pub fn parse_with_kind<R: Read + Send>(
    input: R,
    options: &SitemapOptions,
    on_entry: impl FnMut(SitemapKind, Entry),
) -> SitemapSummary {
    parse_into(input, options, OwnedWithKind(on_entry))
}

/// Like [`parse`], but lends each entry to `on_entry` instead of giving it away: the parser
/// reuses the entry's memory for the next one, so reading allocates almost nothing per entry.
/// For callers that look at each entry and move on (checking, counting, printing URLs).
pub fn parse_borrowed<R: Read + Send>(
    input: R,
    options: &SitemapOptions,
    on_entry: impl FnMut(&Entry),
) -> SitemapSummary {
    parse_into(input, options, Lent(on_entry))
}

fn parse_into<R: Read + Send>(
    input: R,
    options: &SitemapOptions,
    sink: impl Sink,
) -> SitemapSummary {
    let decoded = Decoded::new(input);
    let gzip = decoded.is_gzip();
    let mut track = LineTrack::new(Capped::new(decoded, options.max_uncompressed_bytes));
    let mut issues = Issues::default();
    let mut collector = Collector::new(options, sink);

    let mut stopped_early = false;
    match sniff(&mut track) {
        Content::Empty => {
            issues.push(issues::EMPTY, None, || "the body is empty".to_owned());
        }
        Content::Unreadable => {}
        Content::Xml { after_space } => {
            stopped_early = xml::parse(&mut track, &mut collector, &mut issues, after_space);
        }
        Content::Text => stopped_early = text::parse(&mut track, &mut collector, &mut issues),
        Content::GzipAgain => {
            issues.push(issues::NOT_XML, None, || {
                "the body is gzip inside gzip: decompressed once it is still compressed (a .gz \
                 served with `Content-Encoding: gzip` is compressed twice)"
                    .to_owned()
            });
        }
        Content::Utf16 => {
            issues.push(issues::NOT_XML, None, || {
                "the body is UTF-16 (byte order mark); sitemaps must be UTF-8".to_owned()
            });
        }
    }
    // Whatever the parser left unread still counts for the size checks (bounded by the guard).
    drain(&mut track);

    let capped = track.get_ref();
    let decoded = capped.get_ref();
    let reading = Reading {
        gzip,
        bytes_read: decoded.bytes_read(),
        bytes_uncompressed: capped.count(),
        cap_hit: capped.hit(),
        cap: capped.limit(),
        failure: decoded.failure().cloned(),
    };
    reading.report(&mut issues);
    let truncated = stopped_early || reading.cap_hit || reading.failure.is_some();
    let entries = collector.finish(!truncated, &mut issues);
    SitemapSummary {
        kind: entries.kind,
        gzip,
        bytes_read: reading.bytes_read,
        bytes_uncompressed: reading.bytes_uncompressed,
        entry_count: entries.emitted,
        truncated,
        issues: issues.finish(),
    }
}

/// Reads a whole sitemap from memory and collects its entries.
pub fn parse_bytes(bytes: &[u8], options: &SitemapOptions) -> ParsedSitemap {
    let mut entries = Vec::new();
    let summary = parse(bytes, options, |entry| entries.push(entry));
    ParsedSitemap { summary, entries }
}

/// What the first bytes (after gzip) say the document is.
enum Content {
    Empty,
    /// The first read failed (reported from the reader layer).
    Unreadable,
    /// `after_space`: white space came first (skipped here), which XML allows only after an
    /// XML declaration.
    Xml {
        after_space: bool,
    },
    Text,
    GzipAgain,
    Utf16,
}

/// Looks at the first bytes without consuming them, except a UTF-8 byte order mark.
fn sniff<R: Read>(track: &mut LineTrack<R>) -> Content {
    const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
    let Ok(head) = track.peek(UTF8_BOM.len()) else {
        return Content::Unreadable;
    };
    if head.starts_with(UTF8_BOM) {
        track.consume(UTF8_BOM.len());
    } else if head.starts_with(&reader::GZIP_MAGIC) {
        return Content::GzipAgain;
    } else if head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        return Content::Utf16;
    }
    let mut after_space = false;
    loop {
        let Ok(head) = track.fill_buf() else {
            return Content::Unreadable;
        };
        if head.is_empty() {
            return Content::Empty;
        }
        match head.iter().find(|byte| !byte.is_ascii_whitespace()) {
            Some(b'<') => {
                let space = head
                    .iter()
                    .take_while(|byte| byte.is_ascii_whitespace())
                    .count();
                return Content::Xml {
                    after_space: after_space || space > 0,
                };
            }
            Some(_) => return Content::Text,
            // Whitespace only so far: skip it and look further.
            None => {
                let all = head.len();
                after_space = true;
                track.consume(all);
            }
        }
    }
}

fn drain<R: Read>(track: &mut LineTrack<R>) {
    loop {
        match track.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(rest) => {
                let all = rest.len();
                track.consume(all);
            }
        }
    }
}

/// What happened below the parser: sizes, the guard, read failures.
struct Reading {
    gzip: bool,
    bytes_read: u64,
    bytes_uncompressed: u64,
    cap_hit: bool,
    cap: u64,
    failure: Option<ReadFailure>,
}

impl Reading {
    fn report(&self, issues: &mut Issues) {
        let size = self.bytes_uncompressed;
        match &self.failure {
            Some(ReadFailure::Gzip(error)) => issues.push(issues::GZIP_INVALID, None, || {
                format!(
                    "the body starts with gzip's magic bytes but is not valid, complete gzip \
                     ({error}) after {size} decompressed bytes"
                )
            }),
            Some(ReadFailure::Input(error)) => issues.push(issues::FETCH_ERROR, None, || {
                format!("reading the body failed after {size} bytes: {error}")
            }),
            None => {}
        }
        let at_least = if self.cap_hit { "more than " } else { "" };
        if size > MAX_UNCOMPRESSED_BYTES || (self.cap_hit && self.cap >= MAX_UNCOMPRESSED_BYTES) {
            issues.push(issues::TOO_LARGE, None, || {
                format!(
                    "{at_least}{size} bytes uncompressed; a sitemap may have at most \
                     {MAX_UNCOMPRESSED_BYTES} bytes (50 MiB)"
                )
            });
        }
        if self.cap_hit && self.gzip {
            let ratio = size / self.bytes_read.max(1);
            issues.push(issues::UNSAFE_XML, None, || {
                format!(
                    "decompression passed the safety limit of {} bytes from {} compressed bytes \
                     (ratio over {ratio}:1); reading stopped (gzip bomb?)",
                    self.cap, self.bytes_read
                )
            });
        } else if self.cap_hit && self.cap < MAX_UNCOMPRESSED_BYTES {
            issues.push(issues::LIMITS_EXCEEDED, None, || {
                format!(
                    "reading stopped at the configured limit of {} bytes; entries are partial",
                    self.cap
                )
            });
        }
    }
}

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
