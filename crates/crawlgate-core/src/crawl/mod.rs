//! The crawl's logic without its IO: a state machine that says which URL to fetch next and
//! turns responses into a [`Site`].
//!
//! The network driver (crawlgate-crawl, over tokio + reqwest) and the offline driver
//! ([`run_offline`], for fixture sites and saved responses) share every decision made here: robots.txt
//! first per origin, Google's status semantics, sitemap discovery and index recursion with its
//! bounds and cycle detection, the breadth-first frontier by click depth, scope, every bound, what
//! is recorded about each URL. A driver loops:
//!
//! ```text
//! while let Some(request) = crawl.next_request() { fetch it, then crawl.complete(request, response) }
//! (with concurrency: keep asking until None, wait for one response, repeat; done when nothing is
//! in flight and next_request() is None)
//! ```
//!
//! [`Crawl::preparer`] gives a `Send + Sync` handle that does the CPU work of a response (robots.txt
//! parse, sitemap parse, page signal extraction) off the driver's loop; [`Crawl::complete_prepared`]
//! then only records.

mod config;
mod discovery;
mod lists;
mod offline;
mod prepare;
mod recording;
mod requests;

pub use config::{Bounds, CrawlConfig, CrawlMode, Exclusion, Scope, SiteScope, subdomain_root};
pub use offline::{
    BodyPart, CannedResponse, MAX_CANNED_BODY_BYTES, OfflineSite, parse_header_line, run_offline,
};
pub use prepare::{Prepared, Preparer};

use crate::finding::RedirectHop;
use crate::signals::LinkRel;
use crate::site::{
    Bound, CrawlStats, FailureKind, HonouredCrawlDelay, HostBackoff, NotFetchedReason, PageStore,
    Received, Reference, Resource, ResourceKind, ResourceState, RobotsEffect, RobotsFile, Site,
    SiteParts, SitemapCycle, SitemapFile, SitemapListing, SitemapSource, SitemapState,
    VerdictCache, origin_of,
};
use crate::sitemap::SitemapKind;
use foldhash::HashMap as FastMap;
use prepare::EntryBudget;
use requests::QueueName;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::hash::BuildHasher;
use std::sync::Arc;
use thiserror::Error;
use url::Url;

/// Why a crawl cannot start. Everything after the start is data, never an error.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CrawlError {
    #[error("the start URL `{0}` is not an http or https URL")]
    UnsupportedStartUrl(String),
    #[error("the start URL `{0}` has no host")]
    NoHost(String),
    #[error("no crawler profile to evaluate: give at least one")]
    NoProfiles,
    /// The start URL is left out by the include or exclude patterns: the crawl would fetch
    /// nothing of the site.
    #[error("the start URL `{url}` is excluded from the crawl: {reason}")]
    StartExcluded { url: String, reason: String },
    /// List mode with no URL to fetch.
    #[error("list mode needs at least one URL to fetch")]
    EmptyList,
    /// A listed URL that is not an http(s) URL with a host.
    #[error("the listed URL `{0}` is not an http or https URL")]
    UnsupportedListedUrl(String),
    /// A name of [`CrawlConfig::expected_blocked`] names no audited profile.
    #[error("the expected-blocked profile `{0}` is not among the audited profiles")]
    ExpectedBlockedNotAudited(String),
    /// The network driver could not set up its HTTP client (TLS configuration).
    #[error("the HTTP client could not be set up: {0}")]
    HttpClient(String),
    /// Rendering was asked for and the browser could not start.
    #[error("cannot render pages: {0}")]
    Render(String),
}

/// Sitemaps fetched at once: each holds its body (up to the sitemap byte bound) and its parsed
/// entries until recorded, so this bounds what sitemaps cost in flight.
const MAX_SITEMAPS_IN_FLIGHT: usize = 2;

/// Identifies a request handed out by [`Crawl::next_request`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(u64);

/// A URL to fetch with GET, following redirects up to `max_redirects` hops.
#[derive(Debug, Clone)]
pub struct Request {
    pub id: RequestId,
    pub url: Url,
    pub kind: RequestKind,
    /// Read at most this many body bytes (after transfer decoding); mark the body truncated past it.
    pub max_body_bytes: u64,
    /// Whether the body is needed at all (assets: headers are enough).
    pub read_body: bool,
    pub max_redirects: u32,
}

/// What a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestKind {
    Robots,
    Sitemap,
    Page,
    Asset,
}

/// What a driver got for a request: redirect hops, then a final response or a failure.
#[derive(Debug, Clone)]
pub struct Response {
    pub hops: Vec<RedirectHop>,
    pub outcome: Result<Received, (FailureKind, String)>,
}

/// Progress of the crawl, for drivers and progress bars.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub pages_fetched: u64,
    pub pages_queued: u64,
    pub assets_fetched: u64,
    pub sitemaps_read: u64,
    /// Requests handed out and not yet recorded (the network driver reports the requests
    /// actually open, without those it holds back for their host's turn).
    pub in_flight: u64,
}

/// Something that happened, for progress display and logs (never printed by the library).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrawlEvent {
    /// A URL was queued to be fetched for the first time (a page or an asset).
    Discovered {
        url: String,
        kind: RequestKind,
    },
    RobotsFetched {
        url: String,
        status: Option<u16>,
        effect: RobotsEffect,
    },
    SitemapRead {
        url: String,
        status: Option<u16>,
        kind: Option<SitemapKind>,
        entries: u64,
    },
    Fetched {
        url: String,
        kind: RequestKind,
        /// `None` when the request failed.
        status: Option<u16>,
    },
    Skipped {
        url: String,
        reason: NotFetchedReason,
    },
    BoundHit(Bound),
    /// Counts so far. Emitted by drivers (after each response), not by [`Crawl`] itself.
    Progress(Progress),
    /// The crawl is over; the counts of the finished Site. Emitted by drivers, last.
    Done(CrawlStats),
}

/// Where a resource stands in the crawl.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Progression {
    /// Known, not to be fetched (yet), and why.
    Unqueued(NotFetchedReason),
    Queued,
    /// Waiting for its origin's robots.txt.
    Blocked,
    InFlight,
    Done,
}

#[derive(Debug)]
struct Slot {
    resource: Resource,
    progression: Progression,
}

/// Room for every URL the crawl may record (`Bounds::max_discovered`), taken at once. Only what
/// is written is resident, and the buffer never doubles: at 8.4 million URLs the old and the
/// new buffer (a gigabyte each) were the ten-million-page audit's peak. Where the room cannot
/// be had (an address-space limit), the buffer grows as needed.
fn reserved_slots(max_discovered: u64) -> Vec<Slot> {
    let mut slots = Vec::new();
    let _ = slots.try_reserve_exact(usize::try_from(max_discovered).unwrap_or(usize::MAX));
    slots
}

/// Slots by URL: positions in the crawl's slots, hashed by their URL, so each URL's text is held
/// once (by its resource), not a second time as a map key.
#[derive(Debug, Default)]
struct SlotIndex {
    table: hashbrown::HashTable<u32>,
    hasher: foldhash::fast::FixedState,
}

impl SlotIndex {
    fn get(&self, slots: &[Slot], url: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(url);
        self.table
            .find(hash, |&i| slots[i as usize].resource.url.as_str() == url)
            .map(|&i| i as usize)
    }

    /// Index the slot at `index`, the last pushed (fewer than `u32::MAX`: `slot_for` stops there).
    fn insert(&mut self, slots: &[Slot], index: usize) {
        let hasher = &self.hasher;
        let hash = hasher.hash_one(slots[index].resource.url.as_str());
        let position = u32::try_from(index).expect("slot_for stops before u32::MAX slots");
        self.table.insert_unique(hash, position, |&i| {
            hasher.hash_one(slots[i as usize].resource.url.as_str())
        });
    }
}

/// What an in-flight request is for.
#[derive(Debug, Clone, Copy)]
enum Purpose {
    Robots,
    Sitemap(usize),
    Resource(usize),
}

#[derive(Debug, Default)]
struct OriginState {
    requested: bool,
    done: bool,
    blocked: Vec<usize>,
}

#[derive(Debug)]
struct SitemapSlot {
    file: SitemapFile,
    /// The index that first named it.
    parent: Option<usize>,
    queued: bool,
}

/// How a page URL was found, for its inbound record and its queue.
enum Via<'a> {
    Start,
    Link {
        from: &'a Arc<Url>,
        line: Option<u32>,
        rel: LinkRel,
        /// How many times the page links here with this `rel`.
        occurrences: u32,
        depth: Option<u32>,
    },
    Sitemap(SitemapListing),
    Reference(Reference),
    /// Listed to be fetched ([`CrawlMode::List`]).
    Listed,
}

/// The crawl state machine. See the module docs.
#[derive(Debug)]
pub struct Crawl {
    config: CrawlConfig,
    start_origin: String,
    /// Which URLs belong to the site (the scope, with the listed URLs' origins in list mode).
    site_scope: SiteScope,
    next_id: u64,
    in_flight: FastMap<RequestId, Purpose>,
    stopped: Option<Stop>,

    origins: BTreeMap<String, OriginState>,
    robots: BTreeMap<String, RobotsFile>,
    robots_queue: VecDeque<String>,

    sitemaps: Vec<SitemapSlot>,
    sitemap_index: FastMap<String, usize>,
    sitemap_queue: VecDeque<usize>,
    sitemap_urls: u64,
    /// Estimated bytes of the sitemap entries kept (`Bounds::max_sitemap_entry_bytes`).
    sitemap_entry_bytes: u64,
    /// What the preparers may leave out of the sitemaps they parse.
    entry_budget: Arc<EntryBudget>,
    cycles: Vec<SitemapCycle>,

    slots: Vec<Slot>,
    slot_index: SlotIndex,
    /// Bytes of the URLs recorded in `slots` (`Bounds::max_discovered_bytes`).
    slot_bytes: u64,
    link_queue: VecDeque<usize>,
    /// The in-scope link targets of pages recorded before their click depth was known, by
    /// page slot; given their depth once the page has one (`pass_depth_on`).
    links_without_depth: FastMap<usize, Vec<u32>>,
    asset_queue: VecDeque<usize>,
    seed_queue: VecDeque<usize>,
    pages_requested: u64,
    assets_requested: u64,

    stats: CrawlStats,
    events: Vec<CrawlEvent>,
    /// Where pages past `Bounds::pages_in_memory` go; `None` keeps every page in memory.
    page_store: Option<Arc<dyn PageStore>>,
    /// Whether the page store refused a record: nothing more is stored, what was stays
    /// readable.
    storing_stopped: bool,
    /// Pages held in memory so far.
    pages_held: u64,
    /// The URLs' lists spilled to the page store, and what is held since.
    lists: lists::ListSpill,
    /// A page record, reused from page to page.
    page_record: Vec<u8>,
}

/// Why the crawl stopped handing out requests early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Interrupted,
    TimeBound,
}

impl Crawl {
    /// Start a crawl: the start origin's robots.txt is the first request.
    pub fn new(config: CrawlConfig) -> Result<Self, CrawlError> {
        let start = &config.start_url;
        if !matches!(start.scheme(), "http" | "https") {
            return Err(CrawlError::UnsupportedStartUrl(start.to_string()));
        }
        if start.host_str().is_none_or(str::is_empty) {
            return Err(CrawlError::NoHost(start.to_string()));
        }
        if config.profiles.is_empty() {
            return Err(CrawlError::NoProfiles);
        }
        if let Some(name) = config
            .expected_blocked
            .iter()
            .find(|name| !config.profiles.iter().any(|p| &p.name == *name))
        {
            return Err(CrawlError::ExpectedBlockedNotAudited(name.clone()));
        }
        if let Some(exclusion) = config.scope.exclusion(start) {
            return Err(CrawlError::StartExcluded {
                url: start.to_string(),
                reason: exclusion.to_string(),
            });
        }
        let mut listed_origins = BTreeSet::new();
        if config.mode == CrawlMode::List {
            if config.listed.is_empty() {
                return Err(CrawlError::EmptyList);
            }
            for url in &config.listed {
                if !matches!(url.scheme(), "http" | "https")
                    || url.host_str().is_none_or(str::is_empty)
                {
                    return Err(CrawlError::UnsupportedListedUrl(url.to_string()));
                }
                listed_origins.insert(origin_of(url).into_owned());
            }
        }
        let start_origin = origin_of(start).into_owned();
        let site_scope = SiteScope::new(start, &config.scope, listed_origins);
        let mut crawl = Self {
            start_origin,
            site_scope,
            next_id: 0,
            in_flight: FastMap::default(),
            stopped: None,
            origins: BTreeMap::new(),
            robots: BTreeMap::new(),
            robots_queue: VecDeque::new(),
            sitemaps: Vec::new(),
            sitemap_index: FastMap::default(),
            sitemap_queue: VecDeque::new(),
            sitemap_urls: 0,
            sitemap_entry_bytes: 0,
            entry_budget: Arc::new(EntryBudget::new(config.bounds.max_sitemap_entry_bytes)),
            cycles: Vec::new(),
            slots: reserved_slots(config.bounds.max_discovered),
            slot_index: SlotIndex::default(),
            slot_bytes: 0,
            link_queue: VecDeque::new(),
            links_without_depth: FastMap::default(),
            asset_queue: VecDeque::new(),
            seed_queue: VecDeque::new(),
            pages_requested: 0,
            assets_requested: 0,
            stats: CrawlStats::default(),
            events: Vec::new(),
            page_store: None,
            storing_stopped: false,
            lists: lists::ListSpill::default(),
            pages_held: 0,
            page_record: Vec::new(),
            config,
        };
        let start = crawl.config.start_url.clone();
        crawl.ensure_origin(&start);
        crawl.discover_page(&start, Via::Start);
        if crawl.config.mode == CrawlMode::List {
            for url in std::mem::take(&mut crawl.config.listed) {
                crawl.discover_page(&url, Via::Listed);
                crawl.config.listed.push(url);
            }
        }
        for sitemap in crawl.config.sitemaps.clone() {
            crawl.discover_sitemap(&sitemap, SitemapSource::Configured, 0, None);
        }
        Ok(crawl)
    }

    /// Keep the pages past [`Bounds::pages_in_memory`] in `store` (the crawl driver gives a
    /// file beside the crawl store): the Site reads them back when asked.
    pub fn set_page_store(&mut self, store: Arc<dyn PageStore>) {
        self.page_store = Some(store);
        // The lists made before (the start URL's, the listed URLs') are spilled like the rest.
        for index in 0..self.slots.len() {
            self.lists_changed(index, 0);
        }
    }

    /// The page store could not be had or stopped taking pages (`error` says why): the pages
    /// from here on stay in memory.
    pub fn page_store_failed(&mut self, error: String) {
        self.storing_stopped = true;
        self.stats.page_store_write_error = Some(error);
    }

    /// The page store, while it takes records.
    fn writable_page_store(&self) -> Option<&Arc<dyn PageStore>> {
        self.page_store.as_ref().filter(|_| !self.storing_stopped)
    }

    /// Which URLs belong to the audited site, as this crawl decides it.
    pub fn site_scope(&self) -> &SiteScope {
        &self.site_scope
    }

    /// The configuration this crawl runs with.
    pub fn config(&self) -> &CrawlConfig {
        &self.config
    }

    /// A handle that prepares responses (parses, extracts) off the driver's loop.
    pub fn preparer(&self) -> Preparer {
        Preparer::new(&self.config, Arc::clone(&self.entry_budget))
    }

    /// The next request to make, or `None` when nothing is ready (requests in flight may unblock
    /// more: ask again after each completion). Priority: robots.txt, sitemaps, pages in
    /// breadth-first order, assets, then pages known only from sitemaps or references.
    pub fn next_request(&mut self) -> Option<Request> {
        if self.stopped.is_some() {
            return None;
        }
        if let Some(request) = self.next_robots() {
            return Some(request);
        }
        let sitemaps_in_flight = self
            .in_flight
            .values()
            .filter(|purpose| matches!(purpose, Purpose::Sitemap(_)))
            .count();
        if sitemaps_in_flight < MAX_SITEMAPS_IN_FLIGHT
            && let Some(index) = self.sitemap_queue.pop_front()
        {
            let url = self.sitemaps[index].file.url.clone();
            return Some(self.issue(url, RequestKind::Sitemap, Purpose::Sitemap(index)));
        }
        for queue in [QueueName::Links, QueueName::Assets, QueueName::Seeds] {
            if let Some(request) = self.next_from(queue) {
                return Some(request);
            }
        }
        // Emptying the queues may have met a new origin: its URLs now wait for its robots.txt.
        self.next_robots()
    }

    /// The next robots.txt to fetch, if an origin waits for one.
    /// An origin with a [`CrawlConfig::robots_overrides`] file gets it now, with no request.
    fn next_robots(&mut self) -> Option<Request> {
        while let Some(origin) = self.robots_queue.pop_front() {
            let Ok(url) = Url::parse(&format!("{origin}/robots.txt")) else {
                continue;
            };
            if let Some(replacement) = self.config.robots_overrides.get(&origin) {
                let file = RobotsFile::from_override(
                    origin,
                    url,
                    replacement,
                    self.config.bounds.max_robots_bytes,
                );
                self.record_robots(file);
                continue;
            }
            return Some(self.issue(url, RequestKind::Robots, Purpose::Robots));
        }
        None
    }

    /// Record the response to `request`, doing the parsing on this thread.
    pub fn complete(&mut self, request: &Request, response: Response) {
        let prepared = self.preparer().prepare(request, response);
        self.complete_prepared(request, prepared);
    }

    /// Record a response prepared by [`Crawl::preparer`].
    pub fn complete_prepared(&mut self, request: &Request, prepared: Prepared) {
        let Some(purpose) = self.in_flight.remove(&request.id) else {
            return;
        };
        match (purpose, prepared) {
            (Purpose::Robots, Prepared::Robots(file)) => self.record_robots(*file),
            (Purpose::Sitemap(index), Prepared::Sitemap(state)) => {
                self.record_sitemap(index, *state);
            }
            (Purpose::Resource(index), Prepared::Resource(outcome)) => {
                self.record_resource(index, request.kind, *outcome);
            }
            // A prepared response for another purpose is a driver bug; the slot stays in flight
            // and is reported as interrupted.
            _ => {}
        }
        self.spill_lists_over_budget();
    }

    /// The robots.txt recorded for `origin` (`scheme://host[:port]`), once it was fetched.
    pub fn robots_file(&self, origin: &str) -> Option<&RobotsFile> {
        self.robots.get(origin)
    }

    /// Record that the driver waits `delay` between requests to its origin (robots.txt
    /// `Crawl-delay`), for the Site's stats.
    pub fn honoured_crawl_delay(&mut self, delay: HonouredCrawlDelay) {
        if !self
            .stats
            .crawl_delays
            .iter()
            .any(|d| d.origin == delay.origin)
        {
            self.stats.crawl_delays.push(delay);
        }
    }

    /// Record how the driver slowed down for hosts that answered 429 or 503 or kept failing, for
    /// the Site's stats (sorted by origin there).
    pub fn backed_off(&mut self, mut hosts: Vec<HostBackoff>) {
        hosts.sort_by(|a, b| a.origin.cmp(&b.origin));
        self.stats.backoffs = hosts;
    }

    /// Stop handing out requests: the user interrupted. In-flight requests may still complete.
    pub fn interrupt(&mut self) {
        self.stopped.get_or_insert(Stop::Interrupted);
        self.stats.interrupted = true;
    }

    /// Stop handing out requests: the total time bound (in seconds) was reached.
    pub fn time_bound_reached(&mut self, seconds: u64) {
        if self.stopped.is_none() {
            self.stopped = Some(Stop::TimeBound);
            self.hit(Bound::TotalTime(seconds));
        }
    }

    /// Events since the last call.
    pub fn drain_events(&mut self) -> Vec<CrawlEvent> {
        std::mem::take(&mut self.events)
    }

    /// Counts for a progress display.
    pub fn progress(&self) -> Progress {
        Progress {
            pages_fetched: self.stats.pages_fetched,
            pages_queued: (self.link_queue.len() + self.seed_queue.len()) as u64,
            assets_fetched: self.stats.assets_fetched,
            sitemaps_read: self.stats.sitemaps_fetched,
            in_flight: self.in_flight.len() as u64,
        }
    }

    /// Whether nothing is in flight and nothing more will be requested.
    pub fn is_finished(&mut self) -> bool {
        if !self.in_flight.is_empty() {
            return false;
        }
        if self.stopped.is_some() {
            return true;
        }
        self.robots_queue.is_empty()
            && self.sitemap_queue.is_empty()
            && self.link_queue.is_empty()
            && self.asset_queue.is_empty()
            && self.seed_queue.is_empty()
    }

    /// Build the site from what was seen. URLs never fetched say why; verdicts are computed for
    /// every profile.
    pub fn finish(mut self) -> Site {
        let leftover = match self.stopped {
            Some(_) => NotFetchedReason::Interrupted,
            None => NotFetchedReason::PageBound,
        };
        // The crawl's own indexes and queues go first: the site builds its index and order next,
        // and on a large crawl both together were the peak of the audit.
        drop(self.slot_index);
        drop(self.link_queue);
        drop(self.links_without_depth);
        drop(self.asset_queue);
        drop(self.seed_queue);
        drop(self.in_flight);
        drop(self.sitemap_index);
        let profiles = self.config.profiles.clone();
        let mut verdicts = VerdictCache::new(&self.robots, &profiles);
        let mut lists = self.page_store.clone().map(|store| {
            let runs = std::mem::take(&mut self.lists.runs);
            lists::ListMerge::new(store, !self.storing_stopped, runs)
        });
        // Mapped in place: the slots' buffer becomes the resources' (no second copy of every
        // resource at the crawl's end).
        let resources: Vec<Resource> = self
            .slots
            .into_iter()
            .enumerate()
            .map(|(at, slot)| {
                let mut resource = slot.resource;
                if let Some(lists) = &mut lists {
                    lists.settle(u32::try_from(at).unwrap_or(u32::MAX), &mut resource);
                }
                match slot.progression {
                    Progression::Unqueued(reason) => {
                        resource.state = ResourceState::NotFetched(reason);
                    }
                    Progression::Queued | Progression::Blocked | Progression::InFlight => {
                        let reason = match (resource.kind, leftover) {
                            (ResourceKind::Asset(_), NotFetchedReason::PageBound) => {
                                NotFetchedReason::AssetBound
                            }
                            (_, reason) => reason,
                        };
                        resource.state = ResourceState::NotFetched(reason);
                    }
                    Progression::Done => {}
                }
                resource.verdicts = verdicts.shared_verdicts(&resource.url);
                resource
            })
            .collect();
        drop(verdicts);
        if let Some(error) = lists.and_then(|lists| lists.error) {
            self.stats.page_store_read_error.get_or_insert(error);
        }
        let sitemaps = self
            .sitemaps
            .into_iter()
            .filter(|slot| {
                // A probe that found nothing is not a sitemap.
                slot.file.sources != [SitemapSource::Probe]
                    || matches!(
                        &slot.file.state,
                        SitemapState::Parsed { summary, .. } if summary.kind != SitemapKind::Unknown
                    )
            })
            .map(|slot| {
                let mut file = slot.file;
                if slot.queued
                    && matches!(
                        file.state,
                        SitemapState::NotFetched(NotFetchedReason::NotRequested)
                    )
                {
                    file.state = SitemapState::NotFetched(leftover);
                }
                file
            })
            .collect();
        Site::new(SiteParts {
            start_url: self.config.start_url,
            audit_time: self.config.audit_time,
            profiles,
            mode: self.config.mode,
            expected_blocked: self.config.expected_blocked,
            obey_robots: self.config.obey_robots,
            environment: self.config.environment,
            robots: self.robots,
            sitemaps,
            sitemap_cycles: self.cycles,
            resources,
            stats: self.stats,
            page_store: self.page_store,
        })
    }
}
