//! A sitemap as met by the crawl: where it was advertised, what fetching it gave, what it holds.

use crate::finding::RedirectHop;
use crate::site::NotFetchedReason;
use crate::site::fetch::FailureKind;
use crate::sitemap::{Entry, SitemapKind, SitemapSummary};
use serde::{Deserialize, Serialize};
use url::Url;

/// One sitemap URL.
#[derive(Debug, Clone)]
pub struct SitemapFile {
    pub url: Url,
    /// Every place that named it, in discovery order.
    pub sources: Vec<SitemapSource>,
    /// 0 for sitemaps named by robots.txt, configuration or the probe; parent's depth + 1 for
    /// children of an index.
    pub depth: u32,
    pub state: SitemapState,
}

impl SitemapFile {
    /// Whether a robots.txt `Sitemap:` line names it.
    pub fn advertised(&self) -> bool {
        self.sources
            .iter()
            .any(|s| matches!(s, SitemapSource::RobotsTxt { .. }))
    }

    /// The parse summary, when the sitemap was fetched and parsed.
    pub fn summary(&self) -> Option<&SitemapSummary> {
        match &self.state {
            SitemapState::Parsed { summary, .. } => Some(summary),
            _ => None,
        }
    }

    /// The entries (URLs, or child sitemaps of an index), when parsed.
    pub fn entries(&self) -> &[Entry] {
        match &self.state {
            SitemapState::Parsed { entries, .. } => entries,
            _ => &[],
        }
    }

    /// Whether it parsed as a sitemap index.
    pub fn is_index(&self) -> bool {
        self.summary().is_some_and(|s| s.kind == SitemapKind::Index)
    }
}

/// Where a sitemap was named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SitemapSource {
    /// A `Sitemap:` line of a robots.txt.
    RobotsTxt { robots_url: String, line: u32 },
    /// A `<sitemap><loc>` of a sitemap index.
    Index { index_url: String, line: u32 },
    /// Given by the user (`--sitemap`, config).
    Configured,
    /// Found by probing `/sitemap.xml`.
    Probe,
}

/// What fetching a sitemap gave.
#[derive(Debug, Clone)]
pub enum SitemapState {
    /// A 2xx response, parsed.
    Parsed {
        hops: Vec<RedirectHop>,
        final_url: Url,
        status: u16,
        content_type: Option<String>,
        summary: SitemapSummary,
        /// The first [`crate::sitemap::MAX_ENTRIES`] entries at most (the protocol's limit; a
        /// longer sitemap is flagged, and `summary.entry_count` counts them all).
        entries: Vec<Entry>,
    },
    /// A non-2xx final response.
    HttpError {
        hops: Vec<RedirectHop>,
        final_url: Url,
        status: u16,
    },
    /// No usable response.
    Failed {
        hops: Vec<RedirectHop>,
        kind: FailureKind,
        message: String,
    },
    /// It (after redirects) is itself or one of its ancestors: not read again.
    Cycle {
        hops: Vec<RedirectHop>,
        /// The sitemap it repeats.
        repeats: Url,
    },
    /// Not fetched, and why (a sitemap bound, an interruption).
    NotFetched(NotFetchedReason),
}

/// A sitemap reference that leads back to itself or one of its ancestors (or names a robots.txt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapCycle {
    /// Where the looping reference is written.
    pub source: SitemapSource,
    /// The URL as named there.
    pub named: Url,
    /// The sitemap it repeats (itself, an ancestor, or the robots.txt).
    pub repeats: Url,
}
