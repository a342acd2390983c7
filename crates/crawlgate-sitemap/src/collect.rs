//! Between the parsers and the caller: an entry being read ([`Draft`]), and the [`Collector`]
//! that validates each finished entry, hands it on, and counts.

use super::issues::{self, Issues, Position};
use super::validate::Validator;
use super::{Entry, MAX_ENTRIES, SitemapKind, SitemapOptions};

/// Where finished entries go: given away ([`Owned`]) or lent ([`Lent`]), in which case their
/// memory is reused for the next entry.
pub(crate) trait Sink {
    /// `kind`: the document's, known from its root element (or its first line) before any entry.
    fn accept(&mut self, kind: SitemapKind, entry: &mut Entry);
}

/// Hands each entry over (the caller keeps it).
pub(crate) struct Owned<F>(pub(crate) F);

impl<F: FnMut(Entry)> Sink for Owned<F> {
    fn accept(&mut self, _: SitemapKind, entry: &mut Entry) {
        (self.0)(std::mem::take(entry));
    }
}

/// Hands each entry over with the document's kind.
pub(crate) struct OwnedWithKind<F>(pub(crate) F);

impl<F: FnMut(SitemapKind, Entry)> Sink for OwnedWithKind<F> {
    fn accept(&mut self, kind: SitemapKind, entry: &mut Entry) {
        (self.0)(kind, std::mem::take(entry));
    }
}

/// Lends each entry (the caller looks at it; the parser recycles it).
pub(crate) struct Lent<F>(pub(crate) F);

impl<F: FnMut(&Entry)> Sink for Lent<F> {
    fn accept(&mut self, _: SitemapKind, entry: &mut Entry) {
        (self.0)(entry);
    }
}

/// Strings of lent entries, kept for the next entries' values: with [`Lent`], reading a
/// sitemap allocates almost nothing per entry.
#[derive(Debug, Default)]
pub(crate) struct StringPool {
    spare: Vec<String>,
}

/// Spare strings kept at most (a few entries' worth).
const MAX_SPARE_STRINGS: usize = 4_096;

impl StringPool {
    /// A string holding `value`, reusing a spare one when there is one.
    pub(crate) fn string_from(&mut self, value: &str) -> String {
        match self.spare.pop() {
            Some(mut spare) => {
                spare.clear();
                spare.push_str(value);
                spare
            }
            None => value.to_owned(),
        }
    }

    fn keep(&mut self, string: String) {
        if self.spare.len() < MAX_SPARE_STRINGS && string.capacity() > 0 {
            self.spare.push(string);
        }
    }

    fn keep_some(&mut self, string: Option<String>) {
        if let Some(string) = string {
            self.keep(string);
        }
    }

    /// Takes the strings of a finished entry, leaving its lists empty but allocated.
    fn recycle(&mut self, entry: &mut Entry) {
        self.keep(std::mem::take(&mut entry.loc));
        self.keep_some(entry.lastmod.take());
        self.keep_some(entry.changefreq.take());
        self.keep_some(entry.priority.take());
        for image in entry.images.drain(..) {
            self.keep(image.loc);
            self.keep_some(image.caption);
            self.keep_some(image.title);
        }
        for video in entry.videos.drain(..) {
            for field in [
                video.thumbnail_loc,
                video.title,
                video.description,
                video.content_loc,
                video.player_loc,
                video.duration,
                video.publication_date,
                video.expiration_date,
                video.rating,
                video.view_count,
                video.family_friendly,
                video.requires_subscription,
                video.live,
                video.uploader,
                video.restriction,
                video.restriction_relationship,
                video.platform,
                video.platform_relationship,
            ] {
                self.keep_some(field);
            }
        }
        if let Some(news) = entry.news.take() {
            for field in [
                news.publication_name,
                news.publication_language,
                news.publication_date,
                news.title,
            ] {
                self.keep_some(field);
            }
        }
        for alternate in entry.alternates.drain(..) {
            self.keep(alternate.hreflang);
            self.keep(alternate.href);
        }
    }
}

/// An entry being read, with where its parts were found (for issue positions).
#[derive(Debug, Default)]
pub(crate) struct Draft {
    pub(crate) entry: Entry,
    pub(crate) at: Positions,
    pub(crate) pool: StringPool,
}

/// Positions of an entry's parts; `None` when absent.
#[derive(Debug, Default)]
pub(crate) struct Positions {
    /// The record element: `<url>`, `<sitemap>`, `<item>`, `<entry>`, or the text line.
    pub(crate) record: Position,
    pub(crate) loc: Option<Position>,
    pub(crate) lastmod: Option<Position>,
    pub(crate) changefreq: Option<Position>,
    pub(crate) priority: Option<Position>,
    /// One per kept video.
    pub(crate) videos: Vec<Position>,
    pub(crate) news: Option<Position>,
    /// One per kept alternate.
    pub(crate) alternates: Vec<Position>,
    /// All `image:image` children, including those past the kept ones.
    pub(crate) image_count: u64,
    /// Images kept in the previous entry (a capacity hint).
    pub(crate) kept_images: usize,
}

impl Draft {
    /// Starts a new record at `at`, reusing allocations.
    pub(crate) fn reset(&mut self, at: Position) {
        // A lent entry comes back whole: its strings and lists are reused. A given-away one
        // left an empty entry: entries of one sitemap look alike, so size the lists like the
        // last one's.
        self.pool.recycle(&mut self.entry);
        self.entry.line = 0;
        self.entry.column = 0;
        self.entry.images.reserve(self.at.kept_images);
        self.entry.alternates.reserve(self.at.alternates.len());
        self.at.record = at;
        self.at.loc = None;
        self.at.lastmod = None;
        self.at.changefreq = None;
        self.at.priority = None;
        self.at.videos.clear();
        self.at.news = None;
        self.at.alternates.clear();
        self.at.image_count = 0;
    }
}

/// Totals once the document is read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Totals {
    pub(crate) kind: SitemapKind,
    pub(crate) emitted: u64,
}

/// Validates finished entries, hands them to the caller, and counts records.
pub(crate) struct Collector<'o, S> {
    sink: S,
    validator: Validator<'o>,
    kind: SitemapKind,
    news_sitemap: bool,
    records: u64,
    emitted: u64,
    first_over_limit: Option<Position>,
}

impl<'o, S: Sink> Collector<'o, S> {
    pub(crate) fn new(options: &'o SitemapOptions, sink: S) -> Self {
        Self {
            sink,
            validator: Validator::new(options),
            kind: SitemapKind::Unknown,
            news_sitemap: false,
            records: 0,
            emitted: 0,
            first_over_limit: None,
        }
    }

    /// Sets what the document turned out to be; `news` when it declares the news namespace.
    pub(crate) fn set_kind(&mut self, kind: SitemapKind, news: bool) {
        self.kind = kind;
        self.news_sitemap = news;
        self.validator.set_kind(kind);
    }

    pub(crate) fn kind(&self) -> SitemapKind {
        self.kind
    }

    /// A record element started (counted for the 50,000 limit even without a `<loc>`).
    pub(crate) fn start_record(&mut self, at: Position) {
        self.records += 1;
        if self.records == MAX_ENTRIES + 1 {
            self.first_over_limit = Some(at);
        }
    }

    /// A record ended: validate it, and hand it on when it has a `<loc>`.
    pub(crate) fn finish_record(&mut self, draft: &mut Draft, issues: &mut Issues) {
        draft.at.kept_images = draft.entry.images.len();
        if self.validator.check(draft, issues) {
            self.emitted += 1;
            self.sink.accept(self.kind, &mut draft.entry);
        }
    }

    /// Document-level checks; returns the totals. `complete`: the whole document was read (an
    /// empty start of a cut document is not an empty sitemap).
    pub(crate) fn finish(self, complete: bool, issues: &mut Issues) -> Totals {
        let noun = if self.kind == SitemapKind::Index {
            "child sitemaps"
        } else {
            "URLs"
        };
        if let Some(at) = self.first_over_limit {
            let records = self.records;
            issues.push(issues::TOO_MANY_URLS, Some(at), || {
                format!(
                    "{records} entries; a sitemap may list at most {MAX_ENTRIES} {noun} (the \
                     first one over the limit is here)"
                )
            });
        }
        let parsed_as_sitemap = complete
            && self.kind != SitemapKind::Unknown
            && !issues.has(issues::NOT_XML.code)
            && !issues.has(issues::UNSAFE_XML.code);
        if self.records == 0 && parsed_as_sitemap {
            let (rule, what) = if self.news_sitemap {
                (
                    issues::EMPTY_NEWS,
                    "the news sitemap lists no articles (acceptable when nothing was published in \
                     the last two days)",
                )
            } else {
                (issues::EMPTY, "the sitemap lists no entries")
            };
            issues.push(rule, None, || what.to_owned());
        }
        self.validator.finish(issues);
        Totals {
            kind: self.kind,
            emitted: self.emitted,
        }
    }
}
