//! The document: events read into entries, namespaces, positions and issues.

use crate::collect::{Collector, Draft, Sink};
use crate::elements::{self, Field, Ns, Role};
use crate::issues::{self, Issues, Position};
use crate::tokens::TagAttributes;
use crate::validate::shorten;
use crate::{Image, News, SitemapKind, Video, feed};
use quick_xml::XmlVersion;
use quick_xml::errors::{Error, IllFormedError};
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesRef, BytesStart, BytesText, Event};
use quick_xml::name::{NamespaceResolver, ResolveResult};
use std::borrow::Cow;
/// Deeper nesting than any sitemap needs; past it reading stops (memory guard).
const MAX_DEPTH: usize = 256;
/// Videos and alternates kept per entry (more are counted, not kept).
const MAX_KEPT_PER_ENTRY: usize = 1_000;
/// Prefixes whose resolution is cached.
const MAX_CACHED_PREFIXES: usize = 16;
/// The issue for a document that is not UTF-8.
const NOT_UTF8: &str = "not UTF-8: sitemaps must be UTF-8 encoded";
/// Unbound prefixes reported per document.
const MAX_REPORTED_PREFIXES: usize = 16;

/// Whether `byte` may start an XML name (ASCII letters, `_`, `:`, or a multi-byte character).
fn is_name_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || matches!(byte, b'_' | b':') || byte >= 0x80
}

/// What the loop does after an event.
pub(super) enum Flow {
    Continue,
    /// The document ended.
    End,
    /// Reading stopped before the end.
    Stop,
}

/// What came before the first markup, for the XML declaration's place (XML 1.0 §2.8: it must be
/// the very first thing, a byte order mark aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FirstEvent {
    /// Nothing yet.
    Pending,
    /// Only white space so far.
    AfterSpace,
    /// Markup was read: a declaration now is out of place anyway.
    Seen,
}

/// An open element: what it is, whether it pushed a namespace scope, and where its name starts
/// in [`Document::names`].
#[derive(Debug, Clone, Copy)]
struct Open {
    role: Role,
    declares: bool,
    name_start: usize,
}

/// The parse state of one document.
pub(super) struct Document<'c, 'o, F> {
    collector: &'c mut Collector<'o, F>,
    issues: &'c mut Issues,
    kind: SitemapKind,
    root_ns: Option<String>,
    root_closed: bool,
    stack: Vec<Open>,
    /// The names of the open elements, one after the other, to match end tags (the tokenizer's
    /// reader is new for each block, so quick-xml cannot).
    names: String,
    resolver: NamespaceResolver,
    /// What each prefix resolves to, while no element declares namespaces: most documents
    /// declare them all on the root, so this saves a resolver walk per element.
    ns_cache: Vec<(Box<str>, Ns)>,
    pub(super) capture: Option<Field>,
    text: String,
    draft: Draft,
    image: Image,
    /// Where the open `image:image` starts.
    image_at: Position,
    video: Video,
    news: News,
    reported_prefixes: Vec<String>,
    /// The size guard cut the input: an unfinished document at the end is our doing.
    pub(super) input_cut: bool,
    pub(super) first_event: FirstEvent,
}

impl<'c, 'o, F: Sink> Document<'c, 'o, F> {
    pub(super) fn new(collector: &'c mut Collector<'o, F>, issues: &'c mut Issues) -> Self {
        Self {
            collector,
            issues,
            kind: SitemapKind::Unknown,
            root_ns: None,
            root_closed: false,
            stack: Vec::with_capacity(8),
            names: String::new(),
            resolver: NamespaceResolver::default(),
            ns_cache: Vec::new(),
            capture: None,
            text: String::new(),
            draft: Draft::default(),
            image: Image::default(),
            image_at: Position::default(),
            video: Video::default(),
            news: News::default(),
            reported_prefixes: Vec::new(),
            input_cut: false,
            first_event: FirstEvent::Pending,
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

    pub(super) fn event(
        &mut self,
        event: Event<'_>,
        attributes: TagAttributes<'_>,
        end: u64,
        locate: &dyn Fn(u64) -> Position,
    ) -> Flow {
        if self.first_event != FirstEvent::Seen {
            match &event {
                Event::Text(text) if text.trim_ascii().is_empty() => {
                    self.first_event = FirstEvent::AfterSpace;
                }
                Event::Decl(decl) => {
                    if self.first_event == FirstEvent::AfterSpace {
                        let offset = end.saturating_sub(decl.len() as u64 + 4);
                        self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
                            "not well-formed XML: white space (a blank line?) before the XML \
                             declaration, which must be the very first thing in the document \
                             (XML 1.0 §2.8); strict parsers refuse the file"
                                .to_owned()
                        });
                    }
                    self.first_event = FirstEvent::Seen;
                }
                _ => self.first_event = FirstEvent::Seen,
            }
        } else if let Event::Decl(decl) = &event {
            let offset = end.saturating_sub(decl.len() as u64 + 4);
            self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
                "not well-formed XML: an XML declaration after other markup; it may only be the \
                 very first thing in the document (XML 1.0 §2.8)"
                    .to_owned()
            });
        }
        match event {
            Event::Start(start) => {
                let offset = end.saturating_sub(start.len() as u64 + 2);
                if start.contains('<') || start.bytes().next().is_none_or(|b| !is_name_start(b)) {
                    return self.unescaped_lt(&start, offset, locate);
                }
                self.start(&start, attributes, offset, locate)
            }
            Event::Empty(start) => {
                let offset = end.saturating_sub(start.len() as u64 + 3);
                match self.start(&start, attributes, offset, locate) {
                    Flow::Continue => self.end(),
                    other => other,
                }
            }
            Event::End(tag) => {
                // Not trimmed by the tokenizer, so the tag's length (and position) is exact.
                let offset = end.saturating_sub(tag.len() as u64 + 3);
                self.end_tag(tag.trim_ascii_end(), offset, locate)
            }
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

    /// A `<` inside a value, read by the tokenizer as the start of a tag (`<b</loc>`, `< B</title>`):
    /// reported where it is, and read as the text it was meant to be, up to the end tag it swallowed.
    fn unescaped_lt(
        &mut self,
        start: &BytesStart<'_>,
        offset: u64,
        locate: &dyn Fn(u64) -> Position,
    ) -> Flow {
        let raw: &str = start;
        let open = self.stack.last().map(|open| {
            self.names
                .get(open.name_start..)
                .unwrap_or_default()
                .to_owned()
        });
        let inside = open
            .as_deref()
            .map_or_else(String::new, |name| format!(" in <{name}>"));
        let name = start.name();
        let name: &str = name.as_ref();
        let unclosed_tag = !name.is_empty()
            && name.bytes().next().is_some_and(is_name_start)
            && !name.contains('<');
        self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
            if unclosed_tag {
                format!(
                    "not well-formed XML: the tag <{}{inside} is not closed by `>` before the next \
                     `<`",
                    shorten(name)
                )
            } else {
                format!(
                    "not well-formed XML: an unescaped `<`{inside}; write it as `&lt;` (a `<` \
                     always starts markup in XML)"
                )
            }
        });
        let swallowed_end = raw.rfind("</");
        let (text, closes) = match (swallowed_end, open.as_deref()) {
            (Some(at), Some(name))
                if raw
                    .get(at + 2..)
                    .is_some_and(|tail| tail.trim_ascii_end() == name) =>
            {
                (raw.get(..at).unwrap_or_default(), true)
            }
            _ => (raw, false),
        };
        if self.capture.is_some() {
            self.text.push('<');
            self.text.push_str(text);
        }
        if closes { self.end() } else { Flow::Continue }
    }

    fn start(
        &mut self,
        start: &BytesStart<'_>,
        attributes: TagAttributes<'_>,
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
        let declares = attributes.declares;
        if declares {
            self.ns_cache.clear();
            if let Err(error) = self.resolver.push(start) {
                self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
                    format!("namespace declaration: {error}")
                });
            }
        }
        let at_root = self.stack.is_empty();
        let name = start.name();
        let qualified = name.as_ref();
        let colon = qualified.bytes().position(|byte| byte == b':');
        let prefix = colon.and_then(|at| qualified.get(..at)).unwrap_or("");
        let local = colon
            .and_then(|at| qualified.get(at + 1..))
            .unwrap_or(qualified);
        let cached = if at_root {
            None
        } else {
            self.ns_cache
                .iter()
                .find(|(known, _)| known.as_ref() == prefix)
                .map(|&(_, ns)| ns)
        };
        let (ns, uri) = if let Some(ns) = cached {
            (ns, None)
        } else {
            let (ns, uri, unknown_prefix) = {
                let (resolved, _) = self.resolver.resolve_element(name);
                match resolved {
                    ResolveResult::Bound(namespace) if at_root => {
                        (Ns::Root, Some(namespace.0.to_owned()), None)
                    }
                    ResolveResult::Bound(namespace) => (
                        Ns::of(Some(namespace.0), self.root_ns.as_deref()),
                        None,
                        None,
                    ),
                    ResolveResult::Unbound => (Ns::of(None, self.root_ns.as_deref()), None, None),
                    ResolveResult::Unknown(prefix) => (Ns::Other, None, Some(prefix)),
                }
            };
            if let Some(prefix) = unknown_prefix {
                self.unknown_prefix(&prefix);
            } else if !at_root && self.ns_cache.len() < MAX_CACHED_PREFIXES {
                self.ns_cache.push((prefix.into(), ns));
            }
            (ns, uri)
        };
        let Some(parent) = self.stack.last().map(|open| open.role) else {
            return self.root(start, qualified, local, uri, declares, locate(offset));
        };
        let role = if parent == Role::Other {
            Role::Other
        } else {
            elements::child_role(self.kind, parent, ns, local)
        };
        if role == Role::Other && matches!(parent, Role::Root | Role::Record) {
            self.not_a_sitemap_element(parent, ns, prefix, local, locate(offset));
        }
        self.open(role, declares, qualified);
        match role {
            Role::Other | Role::Root | Role::Channel | Role::NewsPublication => {}
            Role::Record => {
                let at = locate(offset);
                self.draft.reset(at);
                self.collector.start_record(at);
            }
            Role::Field(field) => self.start_field(field, start, attributes, offset, locate),
            Role::Image => {
                self.image = Image::default();
                self.image_at = locate(offset);
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
            Role::AlternateLink => self.alternate(start, attributes, locate(offset)),
            Role::FeedLink => self.feed_link(start, attributes, locate(offset)),
        }
        Flow::Continue
    }

    /// A child of `<urlset>`/`<sitemapindex>` or of an entry that the protocol does not define:
    /// an unknown name in the sitemaps.org namespace, or a sitemaps.org name taken out of it
    /// (`<url xmlns="">`), which Google does not read; other namespaces are extensions.
    fn not_a_sitemap_element(
        &mut self,
        parent: Role,
        ns: Ns,
        prefix: &str,
        local: &str,
        at: Position,
    ) {
        if !matches!(self.kind, SitemapKind::UrlSet | SitemapKind::Index)
            || self.root_ns.as_deref() != Some(elements::SITEMAP_NS)
        {
            return;
        }
        let entry = if self.kind == SitemapKind::Index {
            "sitemap"
        } else {
            "url"
        };
        let parent_name = if parent == Role::Root {
            if self.kind == SitemapKind::Index {
                "sitemapindex"
            } else {
                "urlset"
            }
        } else {
            entry
        };
        let message = match ns {
            Ns::Root => {
                let expected = if parent == Role::Root {
                    format!("<{entry}>")
                } else if self.kind == SitemapKind::Index {
                    "<loc>, <lastmod>".to_owned()
                } else {
                    "<loc>, <lastmod>, <changefreq>, <priority>".to_owned()
                };
                format!(
                    "<{}> is not a sitemaps.org element of <{parent_name}> (it holds {expected}); \
                     ignored",
                    shorten(local)
                )
            }
            Ns::Other
                if prefix.is_empty()
                    && elements::child_role(self.kind, parent, Ns::Root, local) != Role::Other =>
            {
                let lost = if parent == Role::Root {
                    "the entry is not read"
                } else {
                    "its value is not read"
                };
                format!(
                    "<{local}> is outside the sitemaps.org namespace (an `xmlns` on it or above \
                     it moves it out); Google does not read it: {lost}"
                )
            }
            _ => return,
        };
        self.issues
            .push(issues::BAD_ROOT_OR_NAMESPACE, Some(at), || message);
    }

    fn root(
        &mut self,
        start: &BytesStart<'_>,
        qualified: &str,
        local: &str,
        uri: Option<String>,
        declares: bool,
        at: Position,
    ) -> Flow {
        if self.root_closed {
            self.issues.push(issues::NOT_XML, Some(at), || {
                format!("a second root element <{local}> after the end of the document")
            });
            self.open(Role::Other, declares, qualified);
            return Flow::Continue;
        }
        if local.eq_ignore_ascii_case("html") {
            self.open(Role::Other, declares, qualified);
            self.issues.push(issues::NOT_XML, Some(at), || {
                "an HTML page, not a sitemap".to_owned()
            });
            return Flow::Stop;
        }
        self.open(Role::Root, declares, qualified);
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

    fn start_field(
        &mut self,
        field: Field,
        start: &BytesStart<'_>,
        attributes: TagAttributes<'_>,
        offset: u64,
        locate: &dyn Fn(u64) -> Position,
    ) {
        self.text.clear();
        self.capture = Some(field);
        self.field_started(field, offset, locate);
        if matches!(field, Field::VideoRestriction | Field::VideoPlatform) {
            self.relationship(field, start, attributes, locate(offset));
        }
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

    /// The `relationship` attribute of the first `video:restriction` or `video:platform`.
    fn relationship(
        &mut self,
        field: Field,
        start: &BytesStart<'_>,
        attributes: TagAttributes<'_>,
        at: Position,
    ) {
        let slot_empty = match field {
            Field::VideoRestriction => self.video.restriction_relationship.is_none(),
            _ => self.video.platform_relationship.is_none(),
        };
        let already = match field {
            Field::VideoRestriction => self.video.restriction_count,
            _ => self.video.platform_count,
        };
        if !slot_empty || already > 0 {
            return;
        }
        let [relationship] = self.attributes(start, attributes, ["relationship"], at);
        let value = relationship.map(|value| self.draft.pool.string_from(value.trim()));
        match field {
            Field::VideoRestriction => self.video.restriction_relationship = value,
            _ => self.video.platform_relationship = value,
        }
    }

    fn open(&mut self, role: Role, declares: bool, name: &str) {
        let name_start = self.names.len();
        self.names.push_str(name);
        self.stack.push(Open {
            role,
            declares,
            name_start,
        });
    }

    /// An end tag: it must close the innermost open element, by name. A mismatched one closes it
    /// anyway, as quick-xml does.
    fn end_tag(&mut self, name: &str, offset: u64, locate: &dyn Fn(u64) -> Position) -> Flow {
        let problem = match self.stack.last() {
            None => Some(IllFormedError::UnmatchedEndTag(name.to_owned())),
            Some(open) => {
                let expected = self.names.get(open.name_start..).unwrap_or_default();
                (expected != name).then(|| IllFormedError::MismatchedEndTag {
                    expected: expected.to_owned(),
                    found: name.to_owned(),
                })
            }
        };
        if let Some(problem) = problem {
            let error = Error::IllFormed(problem);
            self.issues.push(issues::NOT_XML, Some(locate(offset)), || {
                format!("not well-formed XML: {error}")
            });
        }
        self.end()
    }

    fn end(&mut self) -> Flow {
        let Some(Open {
            role,
            declares,
            name_start,
        }) = self.stack.pop()
        else {
            return Flow::Continue;
        };
        self.names.truncate(name_start);
        if declares {
            self.resolver.pop();
            self.ns_cache.clear();
        }
        if self.stack.is_empty() {
            self.root_closed = true;
        }
        match role {
            Role::Field(field) => {
                self.capture = None;
                let value = self.draft.pool.string_from(self.text.trim());
                self.assign(field, value);
            }
            Role::Record => self.collector.finish_record(&mut self.draft, self.issues),
            Role::Image => {
                let image = std::mem::take(&mut self.image);
                let at = Some(self.image_at);
                if image.loc.is_empty() {
                    self.issues.push(issues::IMAGE_INVALID, at, || {
                        "image:image has no image:loc (or an empty one): Google reads nothing \
                         from it"
                            .to_owned()
                    });
                } else if !crate::loc::has_http_scheme(&image.loc) {
                    self.issues.push(issues::IMAGE_INVALID, at, || {
                        format!(
                            "image:loc `{}` is not an absolute http(s) URL",
                            shorten(&image.loc)
                        )
                    });
                }
                if !image.loc.is_empty()
                    && (self.draft.entry.images.len() as u64) < crate::MAX_IMAGES_PER_URL
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
        let slot = match field {
            Field::Loc => {
                if entry.loc.is_empty() {
                    let at = self.draft.at.loc.unwrap_or(self.draft.at.record);
                    entry.line = at.line;
                    entry.column = at.column;
                    entry.loc = value;
                }
                return;
            }
            Field::ImageLoc => {
                self.image.loc = value;
                return;
            }
            Field::VideoTag => {
                self.video.tag_count = self.video.tag_count.saturating_add(1);
                return;
            }
            Field::Lastmod => &mut entry.lastmod,
            Field::Changefreq => &mut entry.changefreq,
            Field::Priority => &mut entry.priority,
            Field::ImageCaption => &mut self.image.caption,
            Field::ImageTitle => &mut self.image.title,
            Field::VideoThumbnail => &mut self.video.thumbnail_loc,
            Field::VideoTitle => &mut self.video.title,
            Field::VideoDescription => &mut self.video.description,
            Field::VideoContent => {
                self.video.content_loc_count = self.video.content_loc_count.saturating_add(1);
                &mut self.video.content_loc
            }
            Field::VideoPlayer => {
                self.video.player_loc_count = self.video.player_loc_count.saturating_add(1);
                &mut self.video.player_loc
            }
            Field::VideoRestriction => {
                self.video.restriction_count = self.video.restriction_count.saturating_add(1);
                &mut self.video.restriction
            }
            Field::VideoPlatform => {
                self.video.platform_count = self.video.platform_count.saturating_add(1);
                &mut self.video.platform
            }
            Field::VideoRating => &mut self.video.rating,
            Field::VideoViewCount => &mut self.video.view_count,
            Field::VideoFamilyFriendly => &mut self.video.family_friendly,
            Field::VideoRequiresSubscription => &mut self.video.requires_subscription,
            Field::VideoLive => &mut self.video.live,
            Field::VideoUploader => &mut self.video.uploader,
            Field::VideoDuration => &mut self.video.duration,
            Field::VideoPublicationDate => &mut self.video.publication_date,
            Field::VideoExpirationDate => &mut self.video.expiration_date,
            Field::NewsName => &mut self.news.publication_name,
            Field::NewsLanguage => &mut self.news.publication_language,
            Field::NewsPublicationDate => &mut self.news.publication_date,
            Field::NewsTitle => &mut self.news.title,
        };
        // The first occurrence wins.
        if slot.is_none() {
            *slot = Some(value);
        }
    }

    /// `xhtml:link rel="alternate" hreflang=… href=…`. Alternates without `hreflang` that say
    /// what else they are (mobile `media=…`, `android-app://` app links) are not hreflang; one
    /// that says nothing, or lacks `rel` or `href`, is reported.
    fn alternate(&mut self, start: &BytesStart<'_>, attributes: TagAttributes<'_>, at: Position) {
        let [rel, hreflang, href, media] =
            self.attributes(start, attributes, ["rel", "hreflang", "href", "media"], at);
        let Some(rel) = rel else {
            self.issues.push(issues::HREFLANG_INVALID, Some(at), || {
                "xhtml:link has no rel attribute; an hreflang alternate is written \
                 rel=\"alternate\" hreflang=\"…\" href=\"…\", and Google ignores it without"
                    .to_owned()
            });
            return;
        };
        let is_alternate = rel
            .split_ascii_whitespace()
            .any(|token| token.eq_ignore_ascii_case("alternate"));
        if !is_alternate {
            return;
        }
        let Some(href) = href else {
            self.issues.push(issues::HREFLANG_INVALID, Some(at), || {
                "xhtml:link rel=\"alternate\" has no href attribute: it names no page".to_owned()
            });
            return;
        };
        let Some(hreflang) = hreflang else {
            if media.is_none() && crate::loc::has_http_scheme(href.trim()) {
                self.issues.push(issues::HREFLANG_INVALID, Some(at), || {
                    format!(
                        "xhtml:link rel=\"alternate\" href=\"{}\" has no hreflang attribute (nor \
                         media=…): it says nothing Google reads",
                        shorten(&href)
                    )
                });
            }
            return;
        };
        if self.draft.entry.alternates.len() < MAX_KEPT_PER_ENTRY {
            let hreflang = self.draft.pool.string_from(hreflang.trim());
            let href = self.draft.pool.string_from(href.trim());
            self.draft.entry.alternates.push(crate::Alternate {
                hreflang,
                href,
                line: at.line,
            });
            self.draft.at.alternates.push(at);
        }
    }

    /// Atom `<link href=… rel=…/>`: the first page link is the entry's URL.
    fn feed_link(&mut self, start: &BytesStart<'_>, attributes: TagAttributes<'_>, at: Position) {
        let [rel, href] = self.attributes(start, attributes, ["rel", "href"], at);
        if !feed::is_page_link(rel.as_deref()) || !self.draft.entry.loc.is_empty() {
            return;
        }
        self.draft.at.loc = Some(at);
        let href = self
            .draft
            .pool
            .string_from(href.as_deref().unwrap_or_default().trim());
        self.assign(Field::Loc, href);
    }

    /// The values of the named unprefixed attributes (entities decoded): as the tokenizer read
    /// them when they are plain, else through quick-xml's attribute reader.
    fn attributes<'a, const N: usize>(
        &mut self,
        start: &'a BytesStart<'_>,
        read: TagAttributes<'a>,
        names: [&str; N],
        at: Position,
    ) -> [Option<Cow<'a, str>>; N] {
        if let Some(plain) = read.values(names) {
            return plain.map(|value| value.map(Cow::Borrowed));
        }
        let mut values = [const { None }; N];
        for attribute in start.attributes().with_checks(false) {
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
                Ok(value) => Cow::Owned(value.into_owned()),
                Err(error) => {
                    self.issues.push(issues::NOT_XML, Some(at), || {
                        format!("attribute `{key}`: {error}")
                    });
                    Cow::Owned(attribute.value.clone().into_owned())
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
        // One search for both bytes that need a second look: most text has neither.
        let unusual = memchr::memchr2(b'&', b'\r', raw.as_bytes()).is_some();
        if unusual {
            // With dangling `&` allowed, text events carry a bare `&` only where one was written.
            for index in memchr::memchr_iter(b'&', raw.as_bytes()) {
                self.issues
                    .push(issues::NOT_XML, Some(locate(offset + index as u64)), || {
                        "a bare `&` must be escaped as `&amp;`".to_owned()
                    });
            }
        }
        if self.capture.is_some() {
            if unusual && memchr::memchr(b'\r', raw.as_bytes()).is_some() {
                // XML turns CR and CRLF into LF.
                self.text.push_str(&text.xml10_content());
            } else {
                self.text.push_str(raw);
            }
        } else if self.stack.is_empty() && !raw.trim_ascii().is_empty() {
            let leading = raw.len() - raw.trim_ascii_start().len();
            self.outside_root(locate(offset + leading as u64));
        }
    }

    /// Text that is not UTF-8, which quick-xml should have refused: reading stops.
    pub(super) fn not_utf8(&mut self, at: Position) -> Flow {
        self.issues
            .push(issues::NOT_XML, Some(at), || NOT_UTF8.to_owned());
        Flow::Stop
    }

    /// White space the tokenizer skipped inside a value.
    pub(super) fn capture_space(&mut self, space: &str) {
        if memchr::memchr(b'\r', space.as_bytes()).is_some() {
            // XML turns CR and CRLF into LF.
            self.text
                .push_str(&space.replace("\r\n", "\n").replace('\r', "\n"));
        } else {
            self.text.push_str(space);
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

    pub(super) fn error(&mut self, error: &Error, at: Position, capped: bool) -> Flow {
        match error {
            // The reader layer reports gzip and read failures.
            Error::Io(_) => return Flow::Stop,
            // The size guard cut the document: what follows from the cut is not the file's fault.
            Error::Syntax(_) if capped => return Flow::Stop,
            _ => {}
        }
        let message = match error {
            Error::Encoding(_) => NOT_UTF8.to_owned(),
            other => format!("not well-formed XML: {other}"),
        };
        self.issues.push(issues::NOT_XML, Some(at), || message);
        match error {
            Error::IllFormed(_)
            | Error::InvalidAttr(_)
            | Error::Escape(_)
            | Error::Namespace(_) => Flow::Continue,
            _ => Flow::Stop,
        }
    }
}
