//! The XML event loop: quick-xml's `NsReader` over the line-tracking reader, one reused buffer,
//! no allocation per event except the values kept.
//!
//! Well-formedness is checked as quick-xml reads (mismatched tags, bad syntax, non-UTF-8), plus
//! what it leaves to us: undefined entities, bare `&`, text or a second element outside the root,
//! a document ending inside an element. After a recoverable error reading goes on, so one broken
//! tag does not hide the rest of the file. A DOCTYPE stops reading (`sitemap/unsafe-xml`: no
//! entity is ever expanded), and so does HTML served in place of a sitemap.

use super::collect::{Collector, Draft};
use super::elements::{self, Field, Ns, Role};
use super::issues::{self, Issues, Position};
use super::reader::{Capped, LineTrack};
use super::validate::shorten;
use super::{Entry, Image, News, SitemapKind, Video, feed};
use quick_xml::XmlVersion;
use quick_xml::errors::{Error, IllFormedError};
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesRef, BytesStart, BytesText, Event};
use quick_xml::name::ResolveResult;
use quick_xml::reader::NsReader;
use std::io::Read;

/// Deeper nesting than any sitemap needs; past it reading stops (memory guard).
const MAX_DEPTH: usize = 256;
/// Videos and alternates kept per entry (more are counted, not kept).
const MAX_KEPT_PER_ENTRY: usize = 1_000;
/// Unbound prefixes reported per document.
const MAX_REPORTED_PREFIXES: usize = 16;

/// Reads an XML sitemap or feed from `track`. Returns whether reading stopped before the end.
pub(crate) fn parse<R: Read, F: FnMut(Entry)>(
    track: &mut LineTrack<Capped<R>>,
    collector: &mut Collector<'_, F>,
    issues: &mut Issues,
) -> bool {
    // quick-xml counts offsets from where it starts; the tracker from the first byte.
    let base = track.consumed();
    let mut reader = NsReader::from_reader(track);
    let config = reader.config_mut();
    // Bare `&` comes through as text so we can report it with its position and keep reading.
    config.allow_dangling_amp = true;
    config.check_end_names = true;
    let mut buf = Vec::with_capacity(4096);
    let mut doc = Document::new(collector, issues);
    let mut last_error_at = None;

    loop {
        buf.clear();
        let before = reader.buffer_position();
        reader.get_mut().forget_before(base + before);
        // Whitespace between tags never matters, and skipping it saves an event per line; inside
        // a value it is kept as written.
        reader.config_mut().trim_text_start = doc.capture.is_none();
        let event = match reader.read_resolved_event_into(&mut buf) {
            Ok((resolved, event)) => {
                let ns = doc.resolve(&resolved, &event);
                Ok((ns, event))
            }
            Err(error) => Err(error),
        };
        let end = reader.buffer_position();
        let locate = |offset: u64| {
            let at = reader.get_ref().position(base + offset);
            Position {
                line: at.line,
                column: at.column,
            }
        };
        if let Ok((_, Event::Eof)) = &event {
            doc.input_cut = reader.get_ref().get_ref().hit();
        }
        let flow = match event {
            Ok((ns, event)) => doc.event(ns, event, end, &locate),
            Err(error) => {
                let at = reader.error_position();
                if last_error_at == Some((at, end)) {
                    // No progress since the last error: stop rather than loop.
                    return true;
                }
                last_error_at = Some((at, end));
                let capped = reader.get_ref().get_ref().hit();
                doc.error(&error, locate(at), capped)
            }
        };
        match flow {
            Flow::Continue => {}
            Flow::End => return false,
            Flow::Stop => return true,
        }
    }
}

/// What the loop does after an event.
enum Flow {
    Continue,
    /// The document ended.
    End,
    /// Reading stopped before the end.
    Stop,
}

/// The element's namespace as [`Ns`], plus the raw URI for the root element.
struct Resolved {
    ns: Ns,
    root_uri: Option<String>,
}

/// The parse state of one document.
struct Document<'c, 'o, F> {
    collector: &'c mut Collector<'o, F>,
    issues: &'c mut Issues,
    kind: SitemapKind,
    root_ns: Option<String>,
    root_closed: bool,
    stack: Vec<Role>,
    capture: Option<Field>,
    text: String,
    draft: Draft,
    image: Image,
    video: Video,
    news: News,
    reported_prefixes: Vec<String>,
    /// The size guard cut the input: an unfinished document at the end is our doing.
    input_cut: bool,
}

impl<'c, 'o, F: FnMut(Entry)> Document<'c, 'o, F> {
    fn new(collector: &'c mut Collector<'o, F>, issues: &'c mut Issues) -> Self {
        Self {
            collector,
            issues,
            kind: SitemapKind::Unknown,
            root_ns: None,
            root_closed: false,
            stack: Vec::with_capacity(8),
            capture: None,
            text: String::new(),
            draft: Draft::default(),
            image: Image::default(),
            video: Video::default(),
            news: News::default(),
            reported_prefixes: Vec::new(),
            input_cut: false,
        }
    }

    /// Classifies the event's namespace while the resolver's borrow is alive.
    fn resolve(&mut self, resolved: &ResolveResult<'_>, event: &Event<'_>) -> Resolved {
        if !matches!(event, Event::Start(_) | Event::Empty(_)) {
            return Resolved {
                ns: Ns::Other,
                root_uri: None,
            };
        }
        let uri = match resolved {
            ResolveResult::Bound(ns) => Some(ns.0),
            ResolveResult::Unbound => None,
            ResolveResult::Unknown(prefix) => {
                self.unknown_prefix(prefix);
                return Resolved {
                    ns: Ns::Other,
                    root_uri: None,
                };
            }
        };
        if self.stack.is_empty() {
            return Resolved {
                ns: Ns::Root,
                root_uri: uri.map(str::to_owned),
            };
        }
        Resolved {
            ns: Ns::of(uri, self.root_ns.as_deref()),
            root_uri: None,
        }
    }

    fn unknown_prefix(&mut self, prefix: &str) {
        if self.reported_prefixes.len() >= MAX_REPORTED_PREFIXES
            || self.reported_prefixes.iter().any(|seen| seen == prefix)
        {
            return;
        }
        self.reported_prefixes.push(prefix.to_owned());
        let prefix = prefix.to_owned();
        self.issues.push(issues::BAD_ROOT_OR_NAMESPACE, None, || {
            format!(
                "the prefix `{prefix}:` is used without a namespace declaration \
                 (xmlns:{prefix}=\"…\"); its elements are ignored"
            )
        });
    }

    fn event(
        &mut self,
        resolved: Resolved,
        event: Event<'_>,
        end: u64,
        locate: &dyn Fn(u64) -> Position,
    ) -> Flow {
        match event {
            Event::Start(start) => {
                let offset = end.saturating_sub(start.len() as u64 + 2);
                self.start(&start, resolved, offset, locate)
            }
            Event::Empty(start) => {
                let offset = end.saturating_sub(start.len() as u64 + 3);
                match self.start(&start, resolved, offset, locate) {
                    Flow::Continue => self.end(),
                    other => other,
                }
            }
            Event::End(_) => self.end(),
            Event::Text(text) => {
                let offset = end.saturating_sub(text.len() as u64);
                self.text(&text, offset, locate);
                Flow::Continue
            }
            Event::CData(data) => {
                if self.capture.is_some() {
                    self.text.push_str(&data.xml10_content());
                } else if self.stack.is_empty() {
                    self.outside_root(locate(end.saturating_sub(data.len() as u64 + 12)));
                }
                Flow::Continue
            }
            Event::GeneralRef(reference) => {
                let offset = end.saturating_sub(reference.len() as u64 + 2);
                self.reference(&reference, offset, locate);
                Flow::Continue
            }
            Event::DocType(doctype) => {
                let offset = end.saturating_sub(doctype.len() as u64 + 11);
                self.doctype(&doctype, locate(offset))
            }
            Event::Eof => {
                self.eof(locate(end));
                Flow::End
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => Flow::Continue,
        }
    }

    fn start(
        &mut self,
        start: &BytesStart<'_>,
        resolved: Resolved,
        offset: u64,
        locate: &dyn Fn(u64) -> Position,
    ) -> Flow {
        if self.stack.len() >= MAX_DEPTH {
            self.issues
                .push(issues::LIMITS_EXCEEDED, Some(locate(offset)), || {
                    format!("elements nested deeper than {MAX_DEPTH} levels; reading stopped")
                });
            return Flow::Stop;
        }
        let local_name = start.local_name();
        let local = local_name.as_ref();
        let Some(&parent) = self.stack.last() else {
            return self.root(start, local, resolved.root_uri, locate(offset));
        };
        let role = if parent == Role::Other {
            Role::Other
        } else {
            elements::child_role(self.kind, parent, resolved.ns, local)
        };
        self.stack.push(role);
        match role {
            Role::Other | Role::Root | Role::Channel | Role::NewsPublication => {}
            Role::Record => {
                let at = locate(offset);
                self.draft.reset(at);
                self.collector.start_record(at);
            }
            Role::Field(field) => {
                self.text.clear();
                self.capture = Some(field);
                self.field_started(field, offset, locate);
            }
            Role::Image => {
                self.image = Image::default();
                self.draft.at.image_count += 1;
            }
            Role::Video => {
                self.video = Video::default();
                if self.draft.at.videos.len() < MAX_KEPT_PER_ENTRY {
                    self.draft.at.videos.push(locate(offset));
                }
            }
            Role::News => {
                self.news = News::default();
                if self.draft.at.news.is_none() {
                    self.draft.at.news = Some(locate(offset));
                }
            }
            Role::AlternateLink => self.alternate(start, locate(offset)),
            Role::FeedLink => self.feed_link(start, locate(offset)),
        }
        Flow::Continue
    }

    fn root(
        &mut self,
        start: &BytesStart<'_>,
        local: &str,
        uri: Option<String>,
        at: Position,
    ) -> Flow {
        if self.root_closed {
            self.issues.push(issues::NOT_XML, Some(at), || {
                format!("a second root element <{local}> after the end of the document")
            });
            self.stack.push(Role::Other);
            return Flow::Continue;
        }
        if local.eq_ignore_ascii_case("html") {
            self.issues.push(issues::NOT_XML, Some(at), || {
                "an HTML page, not a sitemap".to_owned()
            });
            return Flow::Stop;
        }
        self.stack.push(Role::Root);
        let Some(kind) = elements::root_kind(local) else {
            self.issues
                .push(issues::BAD_ROOT_OR_NAMESPACE, Some(at), || {
                    format!(
                        "the root element is <{}>, not <urlset>, <sitemapindex>, RSS <rss> or Atom \
                     <feed>",
                        shorten(local)
                    )
                });
            return Flow::Continue;
        };
        let expected = elements::expected_root_ns(kind);
        if uri.as_deref() != expected {
            let found = uri.as_deref().map_or_else(
                || "no namespace".to_owned(),
                |uri| format!("namespace `{}`", shorten(uri)),
            );
            let expected = expected.unwrap_or("none");
            self.issues
                .push(issues::BAD_ROOT_OR_NAMESPACE, Some(at), || {
                    format!("<{local}> has {found}; expected `{expected}`")
                });
        }
        let news = start.attributes().flatten().any(|attribute| {
            attribute.key.as_ref().starts_with("xmlns")
                && attribute.value.as_ref() == elements::NEWS_NS
        });
        self.kind = kind;
        self.root_ns = uri;
        self.collector.set_kind(kind, news);
        Flow::Continue
    }

    fn field_started(&mut self, field: Field, offset: u64, locate: &dyn Fn(u64) -> Position) {
        let slot = match field {
            Field::Loc => &mut self.draft.at.loc,
            Field::Lastmod => &mut self.draft.at.lastmod,
            Field::Changefreq => &mut self.draft.at.changefreq,
            Field::Priority => &mut self.draft.at.priority,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(locate(offset));
        }
    }

    fn end(&mut self) -> Flow {
        let Some(role) = self.stack.pop() else {
            return Flow::Continue;
        };
        if self.stack.is_empty() {
            self.root_closed = true;
        }
        match role {
            Role::Field(field) => {
                self.capture = None;
                let value = self.text.trim();
                self.assign(field, value.to_owned());
            }
            Role::Record => self.collector.finish_record(&mut self.draft, self.issues),
            Role::Image => {
                let image = std::mem::take(&mut self.image);
                if !image.loc.is_empty()
                    && (self.draft.entry.images.len() as u64) < super::MAX_IMAGES_PER_URL
                {
                    self.draft.entry.images.push(image);
                }
            }
            Role::Video => {
                let video = std::mem::take(&mut self.video);
                if self.draft.entry.videos.len() < MAX_KEPT_PER_ENTRY {
                    self.draft.entry.videos.push(video);
                }
            }
            Role::News => {
                let news = std::mem::take(&mut self.news);
                if self.draft.entry.news.is_none() {
                    self.draft.entry.news = Some(news);
                }
            }
            Role::Root
            | Role::Channel
            | Role::NewsPublication
            | Role::AlternateLink
            | Role::FeedLink
            | Role::Other => {}
        }
        Flow::Continue
    }

    fn assign(&mut self, field: Field, value: String) {
        let entry = &mut self.draft.entry;
        let keep = |slot: &mut Option<String>| {
            if slot.is_none() {
                *slot = Some(value.clone());
            }
        };
        match field {
            Field::Loc => {
                if entry.loc.is_empty() {
                    let at = self.draft.at.loc.unwrap_or(self.draft.at.record);
                    entry.line = at.line;
                    entry.column = at.column;
                    entry.loc = value;
                }
            }
            Field::Lastmod => keep(&mut entry.lastmod),
            Field::Changefreq => keep(&mut entry.changefreq),
            Field::Priority => keep(&mut entry.priority),
            Field::ImageLoc => self.image.loc = value,
            Field::ImageCaption => keep(&mut self.image.caption),
            Field::ImageTitle => keep(&mut self.image.title),
            Field::VideoThumbnail => keep(&mut self.video.thumbnail_loc),
            Field::VideoTitle => keep(&mut self.video.title),
            Field::VideoDescription => keep(&mut self.video.description),
            Field::VideoContent => keep(&mut self.video.content_loc),
            Field::VideoPlayer => keep(&mut self.video.player_loc),
            Field::VideoDuration => keep(&mut self.video.duration),
            Field::VideoPublicationDate => keep(&mut self.video.publication_date),
            Field::VideoExpirationDate => keep(&mut self.video.expiration_date),
            Field::NewsName => keep(&mut self.news.publication_name),
            Field::NewsLanguage => keep(&mut self.news.publication_language),
            Field::NewsPublicationDate => keep(&mut self.news.publication_date),
            Field::NewsTitle => keep(&mut self.news.title),
        }
    }

    /// `xhtml:link rel="alternate" hreflang=… href=…`.
    fn alternate(&mut self, start: &BytesStart<'_>, at: Position) {
        let [rel, hreflang, href] = self.attributes(start, ["rel", "hreflang", "href"], at);
        let is_alternate = rel.as_deref().is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case("alternate"))
        });
        if !is_alternate {
            return;
        }
        match (hreflang, href) {
            (Some(hreflang), Some(href)) => {
                if self.draft.entry.alternates.len() < MAX_KEPT_PER_ENTRY {
                    self.draft.entry.alternates.push(super::Alternate {
                        hreflang: hreflang.trim().to_owned(),
                        href: href.trim().to_owned(),
                        line: at.line,
                    });
                    self.draft.at.alternates.push(at);
                }
            }
            (hreflang, _) => {
                let missing = if hreflang.is_none() {
                    "hreflang"
                } else {
                    "href"
                };
                self.issues.push(issues::HREFLANG_INVALID, Some(at), || {
                    format!("xhtml:link rel=\"alternate\" has no {missing} attribute")
                });
            }
        }
    }

    /// Atom `<link href=… rel=…/>`: the first page link is the entry's URL.
    fn feed_link(&mut self, start: &BytesStart<'_>, at: Position) {
        let [rel, href] = self.attributes(start, ["rel", "href"], at);
        if !feed::is_page_link(rel.as_deref()) || !self.draft.entry.loc.is_empty() {
            return;
        }
        self.draft.at.loc = Some(at);
        self.assign(Field::Loc, href.unwrap_or_default().trim().to_owned());
    }

    /// The values of the named unprefixed attributes (entities decoded).
    fn attributes<const N: usize>(
        &mut self,
        start: &BytesStart<'_>,
        names: [&str; N],
        at: Position,
    ) -> [Option<String>; N] {
        let mut values = [const { None }; N];
        for attribute in start.attributes() {
            let attribute: Attribute<'_> = match attribute {
                Ok(attribute) => attribute,
                Err(error) => {
                    self.issues.push(issues::NOT_XML, Some(at), || {
                        format!("malformed attribute: {error}")
                    });
                    break;
                }
            };
            let key = attribute.key.as_ref();
            let Some(index) = names.iter().position(|name| *name == key) else {
                continue;
            };
            let value = match attribute.normalized_value(XmlVersion::Implicit1_0) {
                Ok(value) => value.into_owned(),
                Err(error) => {
                    self.issues.push(issues::NOT_XML, Some(at), || {
                        format!("attribute `{key}`: {error}")
                    });
                    attribute.value.clone().into_owned()
                }
            };
            if let Some(slot) = values.get_mut(index) {
                *slot = Some(value);
            }
        }
        values
    }

    fn text(&mut self, text: &BytesText<'_>, offset: u64, locate: &dyn Fn(u64) -> Position) {
        let raw: &str = text;
        // With dangling `&` allowed, text events carry a bare `&` only where one was written.
        for index in memchr::memchr_iter(b'&', raw.as_bytes()) {
            self.issues
                .push(issues::NOT_XML, Some(locate(offset + index as u64)), || {
                    "a bare `&` must be escaped as `&amp;`".to_owned()
                });
        }
        if self.capture.is_some() {
            self.text.push_str(&text.xml10_content());
        } else if self.stack.is_empty() && !raw.trim_ascii().is_empty() {
            let leading = raw.len() - raw.trim_ascii_start().len();
            self.outside_root(locate(offset + leading as u64));
        }
    }

    fn outside_root(&mut self, at: Position) {
        let message = if self.root_closed {
            "content after the end of the root element"
        } else {
            "content before the root element"
        };
        self.issues
            .push(issues::NOT_XML, Some(at), || message.to_owned());
    }

    fn reference(
        &mut self,
        reference: &BytesRef<'_>,
        offset: u64,
        locate: &dyn Fn(u64) -> Position,
    ) {
        let name: &str = reference;
        let resolved = if reference.is_char_ref() {
            if let Ok(Some(character)) = reference.resolve_char_ref() {
                Some(character)
            } else {
                self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
                    format!("invalid character reference `&{name};`")
                });
                None
            }
        } else {
            let predefined = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "apos" => Some('\''),
                "quot" => Some('"'),
                _ => None,
            };
            if predefined.is_none() {
                self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
                    format!(
                        "undefined entity `&{}`; XML knows only &amp; &lt; &gt; &apos; &quot; \
                         and numeric references",
                        shorten(&format!("{name};"))
                    )
                });
            }
            predefined
        };
        if self.capture.is_some() {
            if let Some(character) = resolved {
                self.text.push(character);
            } else {
                self.text.push('&');
                self.text.push_str(name);
                self.text.push(';');
            }
        } else if self.stack.is_empty() {
            self.outside_root(locate(offset));
        }
    }

    fn doctype(&mut self, doctype: &BytesText<'_>, at: Position) -> Flow {
        let declaration: &str = doctype;
        let is_html = declaration
            .trim_start()
            .get(..4)
            .is_some_and(|name| name.eq_ignore_ascii_case("html"))
            && !declaration.contains('[');
        if is_html {
            self.issues.push(issues::NOT_XML, Some(at), || {
                "an HTML page (<!DOCTYPE html>), not a sitemap".to_owned()
            });
        } else {
            let entities = if declaration.contains("<!ENTITY") {
                " with ENTITY declarations"
            } else {
                ""
            };
            self.issues.push(issues::UNSAFE_XML, Some(at), || {
                format!(
                    "a DOCTYPE declaration{entities}: refused, not parsed (entity expansion \
                     attacks); sitemaps need no DTD"
                )
            });
        }
        Flow::Stop
    }

    fn eof(&mut self, at: Position) {
        if self.input_cut {
            return;
        }
        if self.kind == SitemapKind::Unknown && !self.root_closed && self.stack.is_empty() {
            self.issues.push(issues::NOT_XML, Some(at), || {
                "the document has no root element".to_owned()
            });
        } else if !self.stack.is_empty() {
            let open = self.stack.len();
            self.issues.push(issues::NOT_XML, Some(at), || {
                format!("the document ends inside {open} unclosed element(s) (truncated?)")
            });
        }
    }

    fn error(&mut self, error: &Error, at: Position, capped: bool) -> Flow {
        match error {
            // The reader layer reports gzip and read failures.
            Error::Io(_) => return Flow::Stop,
            // The size guard cut the document: what follows from the cut is not the file's fault.
            Error::Syntax(_) if capped => return Flow::Stop,
            _ => {}
        }
        let message = match error {
            Error::Encoding(_) => "not UTF-8: sitemaps must be UTF-8 encoded".to_owned(),
            other => format!("not well-formed XML: {other}"),
        };
        self.issues.push(issues::NOT_XML, Some(at), || message);
        match error {
            Error::IllFormed(IllFormedError::MismatchedEndTag { .. }) => {
                // quick-xml closed the open element; so do we.
                self.end()
            }
            Error::IllFormed(_)
            | Error::InvalidAttr(_)
            | Error::Escape(_)
            | Error::Namespace(_) => Flow::Continue,
            _ => Flow::Stop,
        }
    }
}
