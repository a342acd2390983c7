//! The CPU work of a response (robots.txt parse, sitemap parse, signal extraction), separable from
//! the crawl's bookkeeping so a driver can run it on worker threads.

use crate::crawl::{CrawlConfig, Request, RequestKind, Response};
use crate::finding::RedirectHop;
use crate::signals::{PageInput, extract};
use crate::site::{FailureKind, FetchedPage, KeptHeaders, RobotsFile, SitemapState, origin_of};
use crate::sitemap::{self, SitemapOptions};
use crate::sitemap::{Entry, SitemapKind};
use jiff::Timestamp;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use url::Url;

/// Prepares responses for [`crate::crawl::Crawl::complete_prepared`]. Cheap to clone; `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Preparer {
    audit_time: Timestamp,
    entry_budget: Arc<EntryBudget>,
}

/// What the crawl still wants of a urlset's entries, shared with its preparers so that a sitemap
/// parsed once the crawl has all it keeps does not hold 50,000 entries only to drop them.
///
/// Both only ever tighten, so what a preparer leaves out, judged when the parse starts, is
/// what the crawl would have dropped on recording it: with the sitemap URL bound hit, a
/// urlset's entries discover nothing, and they are kept only within the entry byte bound
/// (`Crawl::keep_entries_within_bound` keeps a prefix; the preparer keeps that prefix and the
/// first entry past it) and for their hreflang alternates (references to known pages).
#[derive(Debug)]
pub(crate) struct EntryBudget {
    /// `Bounds::max_sitemap_urls` was hit: urlsets discover no more pages.
    urls_full: AtomicBool,
    /// Bytes of entries the crawl may still keep (`Bounds::max_sitemap_entry_bytes` less
    /// those kept).
    bytes_left: AtomicU64,
}

impl EntryBudget {
    pub(crate) fn new(bytes: u64) -> Self {
        Self {
            urls_full: AtomicBool::new(false),
            bytes_left: AtomicU64::new(bytes),
        }
    }

    pub(crate) fn mark_urls_full(&self) {
        self.urls_full.store(true, Ordering::Release);
    }

    pub(crate) fn set_bytes_left(&self, bytes: u64) {
        self.bytes_left.store(bytes, Ordering::Release);
    }

    /// The entries of one document to keep, as a filter fed every entry in order.
    fn keeper(&self) -> EntryKeeper {
        EntryKeeper {
            urls_full: self.urls_full.load(Ordering::Acquire),
            bytes_left: self.bytes_left.load(Ordering::Acquire),
            bytes: 0,
            past_budget: false,
            seen: 0,
        }
    }
}

/// See [`EntryBudget`].
struct EntryKeeper {
    urls_full: bool,
    bytes_left: u64,
    bytes: u64,
    past_budget: bool,
    seen: u64,
}

impl EntryKeeper {
    fn keeps(&mut self, kind: SitemapKind, entry: &Entry) -> bool {
        self.seen += 1;
        // Kept up to the protocol's limit; the summary still counts (and flags) the rest.
        // Unbounded, a 50 MiB text sitemap of short URLs (a few hundred KB gzipped) would hold
        // two million entries (~300 bytes each) per sitemap parsed.
        if self.seen > sitemap::MAX_ENTRIES {
            return false;
        }
        if kind == SitemapKind::Index || !self.urls_full {
            return true;
        }
        if !self.past_budget {
            let bytes = entry.kept_bytes() as u64;
            if self.bytes.saturating_add(bytes) <= self.bytes_left {
                self.bytes += bytes;
            } else {
                // The first entry past the bound stays, so the crawl's cut stops at it.
                self.past_budget = true;
            }
            return true;
        }
        !entry.alternates.is_empty()
    }
}

/// A response, parsed and ready to record.
#[derive(Debug)]
pub enum Prepared {
    Robots(Box<RobotsFile>),
    Sitemap(Box<SitemapState>),
    Resource(Box<ResourceOutcome>),
}

/// A page or asset response, its body reduced to signals.
#[derive(Debug)]
pub enum ResourceOutcome {
    Fetched {
        hops: Vec<RedirectHop>,
        final_url: Url,
        page: Box<FetchedPage>,
    },
    Failed {
        hops: Vec<RedirectHop>,
        kind: FailureKind,
        message: String,
    },
}

impl Preparer {
    /// Whether a urlset parsed now keeps every entry: the crawl still discovers pages from
    /// sitemaps (past that bound, a parse keeps at most what is left of the entry byte bound).
    /// Kept entries are most of what a parse holds, so a driver that parses sitemaps
    /// concurrently may take them in turn while this holds.
    pub fn keeps_sitemap_entries(&self) -> bool {
        !self.entry_budget.urls_full.load(Ordering::Acquire)
    }

    pub(crate) fn new(config: &CrawlConfig, entry_budget: Arc<EntryBudget>) -> Self {
        Self {
            audit_time: config.audit_time,
            entry_budget,
        }
    }

    /// Parse or extract what `response` holds for `request`. The body is dropped once read.
    pub fn prepare(&self, request: &Request, response: Response) -> Prepared {
        let Response { hops, outcome } = response;
        match request.kind {
            RequestKind::Robots => Prepared::Robots(Box::new(RobotsFile::from_fetch(
                origin_of(&request.url).into_owned(),
                request.url.clone(),
                hops,
                outcome,
            ))),
            RequestKind::Sitemap => Prepared::Sitemap(Box::new(self.sitemap(hops, outcome))),
            RequestKind::Page | RequestKind::Asset => Prepared::Resource(Box::new(match outcome {
                Err((kind, message)) => ResourceOutcome::Failed {
                    hops,
                    kind,
                    message,
                },
                Ok(received) => {
                    let signals = extract(&PageInput {
                        url: &received.final_url,
                        status: received.status,
                        headers: &received.headers,
                        body: &received.body,
                    });
                    ResourceOutcome::Fetched {
                        hops,
                        final_url: received.final_url,
                        page: Box::new(FetchedPage {
                            status: received.status,
                            body_len: received.body.len() as u64,
                            body_truncated: received.body_truncated,
                            headers: KeptHeaders::keep(&received.headers),
                            signals,
                            internal_outlinks: 0,
                            assets_found: 0,
                            rendered: None,
                        }),
                    }
                }
            })),
        }
    }

    fn sitemap(
        &self,
        hops: Vec<RedirectHop>,
        outcome: Result<crate::site::Received, (FailureKind, String)>,
    ) -> SitemapState {
        match outcome {
            Err((kind, message)) => SitemapState::Failed {
                hops,
                kind,
                message,
            },
            Ok(received) if !(200..300).contains(&received.status) => SitemapState::HttpError {
                hops,
                final_url: received.final_url,
                status: received.status,
            },
            Ok(received) => {
                let mut options = SitemapOptions::new(self.audit_time);
                options.url = Some(received.final_url.clone());
                let mut entries = Vec::new();
                let mut keeper = self.entry_budget.keeper();
                let collect = |kind, entry: Entry| {
                    if keeper.keeps(kind, &entry) {
                        entries.push(entry);
                    }
                };
                // A body cut at the crawler's cap ends in a read error, so the parser reports the
                // sitemap as read partially (`sitemap/fetch-error`) instead of as complete.
                let summary = if received.body_truncated {
                    let cut = CutAtCap(received.body.len());
                    sitemap::parse_with_kind(received.body.as_slice().chain(cut), &options, collect)
                } else {
                    sitemap::parse_with_kind(received.body.as_slice(), &options, collect)
                };
                let content_type = received.content_type().map(str::to_owned);
                SitemapState::Parsed {
                    hops,
                    final_url: received.final_url,
                    status: received.status,
                    content_type,
                    summary,
                    entries,
                }
            }
        }
    }
}

/// The end of a body cut at the crawler's byte cap: reading it fails, saying so.
struct CutAtCap(usize);

impl Read for CutAtCap {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other(format!(
            "the response is longer than the crawler's cap of {} bytes and was cut there",
            self.0
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(loc: &str, alternate: bool) -> Entry {
        let mut entry = Entry {
            loc: loc.to_owned(),
            ..Entry::default()
        };
        if alternate {
            entry.alternates.push(crate::sitemap::Alternate::default());
        }
        entry
    }

    fn kept(budget: &EntryBudget, kind: SitemapKind, entries: &[Entry]) -> Vec<String> {
        let mut keeper = budget.keeper();
        entries
            .iter()
            .filter(|e| keeper.keeps(kind, e))
            .map(|e| e.loc.clone())
            .collect()
    }

    #[test]
    fn a_urlset_past_the_url_bound_keeps_the_prefix_within_bytes_the_next_and_alternates() {
        let entries: Vec<Entry> = (0..10).map(|n| entry(&format!("/{n}"), n == 8)).collect();
        let one = entries[0].kept_bytes() as u64;
        let budget = Arc::new(EntryBudget::new(one * 3));
        let preparer = Preparer::new(
            &CrawlConfig::new(
                url::Url::parse("https://example.com/").unwrap(),
                jiff::Timestamp::UNIX_EPOCH,
            ),
            Arc::clone(&budget),
        );
        // Before the URL bound: every entry (they discover pages).
        assert_eq!(kept(&budget, SitemapKind::UrlSet, &entries).len(), 10);
        assert!(preparer.keeps_sitemap_entries());
        budget.mark_urls_full();
        assert!(!preparer.keeps_sitemap_entries());
        assert_eq!(
            kept(&budget, SitemapKind::UrlSet, &entries),
            ["/0", "/1", "/2", "/3", "/8"],
            "three within the bytes, the first past them, the one with an alternate"
        );
        // An index's entries name sitemaps: all kept.
        assert_eq!(kept(&budget, SitemapKind::Index, &entries).len(), 10);
        budget.set_bytes_left(0);
        assert_eq!(kept(&budget, SitemapKind::Text, &entries), ["/0", "/8"]);
    }
}
