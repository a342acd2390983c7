//! Between the parsers and the caller: an entry being read ([`Draft`]), and the [`Collector`]
//! that validates each finished entry, hands it on, and counts.

use super::issues::{self, Issues, Position};
use super::validate::Validator;
use super::{Entry, MAX_ENTRIES, SitemapKind, SitemapOptions};

/// An entry being read, with where its parts were found (for issue positions).
#[derive(Debug, Default)]
pub(crate) struct Draft {
    pub(crate) entry: Entry,
    pub(crate) at: Positions,
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
        // Entries of one sitemap look alike: size the lists like the last one's.
        self.entry = Entry {
            images: Vec::with_capacity(self.at.kept_images),
            alternates: Vec::with_capacity(self.at.alternates.len()),
            ..Entry::default()
        };
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
pub(crate) struct Collector<'o, F> {
    on_entry: F,
    validator: Validator<'o>,
    kind: SitemapKind,
    news_sitemap: bool,
    records: u64,
    emitted: u64,
    first_over_limit: Option<Position>,
}

impl<'o, F: FnMut(Entry)> Collector<'o, F> {
    pub(crate) fn new(options: &'o SitemapOptions, on_entry: F) -> Self {
        Self {
            on_entry,
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
            (self.on_entry)(std::mem::take(&mut draft.entry));
        }
    }

    /// Document-level checks; returns the totals.
    pub(crate) fn finish(self, issues: &mut Issues) -> Totals {
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
        let parsed_as_sitemap = self.kind != SitemapKind::Unknown
            && !issues.has(issues::NOT_XML.id)
            && !issues.has(issues::UNSAFE_XML.id);
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
