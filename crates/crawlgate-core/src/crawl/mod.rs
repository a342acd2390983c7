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
mod offline;
mod prepare;

pub use config::{Bounds, CrawlConfig, Scope};
pub use offline::{BodyPart, CannedResponse, MAX_CANNED_BODY_BYTES, OfflineSite, run_offline};
pub use prepare::{Prepared, Preparer};

use crate::finding::RedirectHop;
use crate::signals::{AssetKind, LinkRel};
use crate::site::robots_file::ROBOTS_MAX_REDIRECTS;
use crate::site::{
    Bound, CrawlStats, FailureKind, FetchedPage, InboundLinks, LinkSample, NotFetchedReason,
    Received, Reference, ReferenceKind, Resource, ResourceKind, ResourceState, RobotsEffect,
    RobotsFile, Site, SiteParts, SitemapCycle, SitemapFile, SitemapListing, SitemapSource,
    SitemapState, UrlVerdict, VerdictCache, origin_of,
};
use crate::sitemap::{Entry, SitemapKind};
use foldhash::HashMap as FastMap;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use thiserror::Error;
use url::Url;

/// Links kept per URL as evidence samples.
const LINK_SAMPLES: usize = 5;
/// Non-link references kept per URL as evidence samples.
const REFERENCE_SAMPLES: usize = 5;

/// Why a crawl cannot start. Everything after the start is data, never an error.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CrawlError {
    #[error("the start URL `{0}` is not an http or https URL")]
    UnsupportedStartUrl(String),
    #[error("the start URL `{0}` has no host")]
    NoHost(String),
    #[error("no crawler profile to evaluate: give at least one")]
    NoProfiles,
    /// The network driver could not set up its HTTP client (TLS configuration).
    #[error("the HTTP client could not be set up: {0}")]
    HttpClient(String),
}

/// Identifies a request handed out by [`Crawl::next_request`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
        from: &'a Url,
        line: Option<u32>,
        rel: LinkRel,
        /// How many times the page links here with this `rel`.
        occurrences: u32,
        depth: Option<u32>,
    },
    Sitemap(SitemapListing),
    Reference(Reference),
}

/// The crawl state machine. See the module docs.
#[derive(Debug)]
pub struct Crawl {
    config: CrawlConfig,
    start_origin: String,
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
    cycles: Vec<SitemapCycle>,

    slots: Vec<Slot>,
    slot_index: FastMap<String, usize>,
    link_queue: VecDeque<usize>,
    asset_queue: VecDeque<usize>,
    seed_queue: VecDeque<usize>,
    pages_requested: u64,
    assets_requested: u64,

    stats: CrawlStats,
    events: Vec<CrawlEvent>,
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
        let start_origin = origin_of(start).into_owned();
        let mut crawl = Self {
            start_origin,
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
            cycles: Vec::new(),
            slots: Vec::new(),
            slot_index: FastMap::default(),
            link_queue: VecDeque::new(),
            asset_queue: VecDeque::new(),
            seed_queue: VecDeque::new(),
            pages_requested: 0,
            assets_requested: 0,
            stats: CrawlStats::default(),
            events: Vec::new(),
            config,
        };
        let start = crawl.config.start_url.clone();
        crawl.ensure_origin(&start);
        crawl.discover_page(&start, Via::Start);
        for sitemap in crawl.config.sitemaps.clone() {
            crawl.discover_sitemap(&sitemap, SitemapSource::Configured, 0, None);
        }
        Ok(crawl)
    }

    /// The configuration this crawl runs with.
    pub fn config(&self) -> &CrawlConfig {
        &self.config
    }

    /// A handle that prepares responses (parses, extracts) off the driver's loop.
    pub fn preparer(&self) -> Preparer {
        Preparer::new(&self.config)
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
        if let Some(index) = self.sitemap_queue.pop_front() {
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
    fn next_robots(&mut self) -> Option<Request> {
        let origin = self.robots_queue.pop_front()?;
        let url = Url::parse(&format!("{origin}/robots.txt")).ok()?;
        Some(self.issue(url, RequestKind::Robots, Purpose::Robots))
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
    pub fn finish(self) -> Site {
        let leftover = match self.stopped {
            Some(_) => NotFetchedReason::Interrupted,
            None => NotFetchedReason::PageBound,
        };
        let profiles = self.config.profiles.clone();
        let mut verdicts = VerdictCache::new(&self.robots, &profiles);
        let mut resources = Vec::with_capacity(self.slots.len());
        for slot in self.slots {
            let mut resource = slot.resource;
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
            resource.verdicts = verdicts.verdicts(&resource.url);
            resources.push(resource);
        }
        drop(verdicts);
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
            obey_robots: self.config.obey_robots,
            environment: self.config.environment,
            robots: self.robots,
            sitemaps,
            sitemap_cycles: self.cycles,
            resources,
            stats: self.stats,
        })
    }

    // --- requests ---------------------------------------------------------------------------

    fn issue(&mut self, url: Url, kind: RequestKind, purpose: Purpose) -> Request {
        let bounds = &self.config.bounds;
        let max_body_bytes = match kind {
            RequestKind::Robots => bounds.max_robots_bytes,
            RequestKind::Sitemap => bounds.max_sitemap_bytes,
            RequestKind::Page => bounds.max_page_bytes,
            RequestKind::Asset => 0,
        };
        let id = RequestId(self.next_id);
        self.next_id += 1;
        self.in_flight.insert(id, purpose);
        Request {
            id,
            url,
            kind,
            max_body_bytes,
            read_body: kind != RequestKind::Asset,
            // Google gives up on robots.txt after five hops (and reads it as a 404); following
            // further would only cost requests.
            max_redirects: match kind {
                RequestKind::Robots => bounds
                    .max_redirects
                    .min(u32::try_from(ROBOTS_MAX_REDIRECTS).unwrap_or(u32::MAX)),
                _ => bounds.max_redirects,
            },
        }
    }

    fn next_from(&mut self, queue: QueueName) -> Option<Request> {
        loop {
            let index = self.queue(queue).pop_front()?;
            if self.slots[index].progression != Progression::Queued {
                continue; // a duplicate entry, or filled in by a redirect meanwhile
            }
            let is_asset = matches!(self.slots[index].resource.kind, ResourceKind::Asset(_));
            let url = self.slots[index].resource.url.clone();
            // robots.txt first: verdicts (and --obey-robots) need it.
            let origin = origin_of(&url);
            let state = self
                .origins
                .get(origin.as_ref())
                .map(|o| (o.requested, o.done));
            match state {
                Some((_, true)) => {}
                Some((true, false)) => {
                    self.slots[index].progression = Progression::Blocked;
                    if let Some(o) = self.origins.get_mut(origin.as_ref()) {
                        o.blocked.push(index);
                    }
                    continue;
                }
                _ => {
                    if self.ensure_origin(&url) {
                        self.slots[index].progression = Progression::Blocked;
                        if let Some(o) = self.origins.get_mut(origin.as_ref()) {
                            o.blocked.push(index);
                        }
                        continue;
                    }
                    // The origin bound: crawl without its robots.txt (verdicts unknown).
                }
            }
            if self.config.obey_robots && self.disallowed_for_all(&url) {
                self.slots[index].progression = Progression::Unqueued(NotFetchedReason::Disallowed);
                self.events.push(CrawlEvent::Skipped {
                    url: url.to_string(),
                    reason: NotFetchedReason::Disallowed,
                });
                continue;
            }
            if is_asset {
                if self.assets_requested >= self.config.bounds.max_assets {
                    self.hit(Bound::MaxAssets(self.config.bounds.max_assets));
                    self.slots[index].progression =
                        Progression::Unqueued(NotFetchedReason::AssetBound);
                    continue;
                }
                self.assets_requested += 1;
            } else {
                if self.pages_requested >= self.config.bounds.max_pages {
                    self.hit(Bound::MaxPages(self.config.bounds.max_pages));
                    self.slots[index].progression =
                        Progression::Unqueued(NotFetchedReason::PageBound);
                    continue;
                }
                self.pages_requested += 1;
            }
            self.slots[index].progression = Progression::InFlight;
            let kind = if is_asset {
                RequestKind::Asset
            } else {
                RequestKind::Page
            };
            return Some(self.issue(url, kind, Purpose::Resource(index)));
        }
    }

    fn queue(&mut self, name: QueueName) -> &mut VecDeque<usize> {
        match name {
            QueueName::Links => &mut self.link_queue,
            QueueName::Assets => &mut self.asset_queue,
            QueueName::Seeds => &mut self.seed_queue,
        }
    }

    fn disallowed_for_all(&self, url: &Url) -> bool {
        let robots = self.robots.get(origin_of(url).as_ref());
        self.config
            .profiles
            .iter()
            .all(|profile| !UrlVerdict::compute(robots, profile, url).allowed)
    }

    /// Make sure the origin's robots.txt is (or will be) fetched. Returns whether it is pending,
    /// false when it is done or cannot be fetched (the origin bound).
    fn ensure_origin(&mut self, url: &Url) -> bool {
        let origin = origin_of(url);
        if let Some(state) = self.origins.get(origin.as_ref()) {
            return !state.done;
        }
        if self.origins.len() as u64 >= self.config.bounds.max_origins {
            self.hit(Bound::MaxOrigins(self.config.bounds.max_origins));
            return false;
        }
        let origin = origin.into_owned();
        self.origins.insert(
            origin.clone(),
            OriginState {
                requested: true,
                ..OriginState::default()
            },
        );
        self.robots_queue.push_back(origin);
        true
    }

    /// Request the robots.txt of an origin outside the crawl whose URLs a sitemap lists: Google
    /// accepts such URLs when that robots.txt names the sitemap (a cross-submit), so the rules
    /// need it as proof. Only while the origin bound has room, and without marking the bound as
    /// hit: it is evidence, not crawling, and must not make the crawl look partial.
    fn ensure_origin_for_proof(&mut self, url: &Url) {
        let origin = origin_of(url).into_owned();
        if self.origins.contains_key(&origin)
            || self.origins.len() as u64 >= self.config.bounds.max_origins
        {
            return;
        }
        self.origins.insert(
            origin.clone(),
            OriginState {
                requested: true,
                ..OriginState::default()
            },
        );
        self.robots_queue.push_back(origin);
    }

    fn hit(&mut self, bound: Bound) {
        if !self.stats.bounds_hit.contains(&bound) {
            self.stats.bounds_hit.push(bound.clone());
            self.events.push(CrawlEvent::BoundHit(bound));
        }
    }

    // --- discovery --------------------------------------------------------------------------

    /// The slot for `url`, created if new and the discovery bound allows.
    fn slot_for(&mut self, url: &Url, kind: ResourceKind) -> Option<(usize, bool)> {
        if let Some(&index) = self.slot_index.get(url.as_str()) {
            return Some((index, false));
        }
        if self.slots.len() as u64 >= self.config.bounds.max_discovered {
            self.stats.urls_not_recorded += 1;
            self.hit(Bound::MaxDiscovered(self.config.bounds.max_discovered));
            return None;
        }
        let index = self.slots.len();
        self.slot_index.insert(url.as_str().to_owned(), index);
        self.slots.push(Slot {
            resource: Resource {
                url: url.clone(),
                kind,
                depth: None,
                state: ResourceState::NotFetched(NotFetchedReason::NotRequested),
                verdicts: Vec::new(),
                inbound_links: InboundLinks::default(),
                references: Vec::new(),
                other_references: 0,
                listed_in: Vec::new(),
            },
            progression: Progression::Unqueued(NotFetchedReason::NotRequested),
        });
        Some((index, true))
    }

    fn in_scope(&self, url: &Url) -> bool {
        self.config.scope.contains(&self.config.start_url, url)
    }

    fn discover_page(&mut self, url: &Url, via: Via<'_>) {
        let Some(url) = crawlable(url) else { return };
        let in_scope = self.in_scope(&url);
        // Out-of-scope pages are recorded only when something other than a plain link or a sitemap
        // points at them (a canonical, hreflang or redirect target): rules check those.
        if !in_scope && !matches!(via, Via::Reference(_)) {
            return;
        }
        let Some((index, _)) = self.slot_for(&url, ResourceKind::Page) else {
            return;
        };
        let depth = match &via {
            Via::Start => Some(0),
            Via::Link { depth, .. } => depth.map(|d| d + 1),
            _ => None,
        };
        let from_link = matches!(via, Via::Link { .. } | Via::Start);
        {
            let resource = &mut self.slots[index].resource;
            if let Some(d) = depth {
                resource.depth = Some(resource.depth.map_or(d, |old| old.min(d)));
            }
            match via {
                Via::Start => push_reference(
                    resource,
                    Reference {
                        from: url.clone().into_owned(),
                        kind: ReferenceKind::Start,
                        line: None,
                    },
                ),
                Via::Link {
                    from,
                    line,
                    rel,
                    occurrences,
                    ..
                } => count_link(&mut resource.inbound_links, from, line, rel, occurrences),
                Via::Sitemap(listing) => insert_listing(resource, listing),
                Via::Reference(reference) => push_reference(resource, reference),
            }
        }
        if !in_scope {
            if let Progression::Unqueued(NotFetchedReason::NotRequested) =
                self.slots[index].progression
            {
                self.slots[index].progression = Progression::Unqueued(NotFetchedReason::OutOfScope);
                self.ensure_origin(&url); // its verdict is still evidence (canonical/target-blocked)
            }
            return;
        }
        // The depth bound counts clicks: it holds back link-discovered URLs only. URLs named by a
        // sitemap or a canonical/hreflang/redirect are fetched whatever their click depth.
        // A page whose own depth is unknown (known only from a sitemap) has links of unknown
        // depth: with a depth bound set, they are not followed.
        let depth_allowed = !from_link
            || match (
                self.config.bounds.max_depth,
                self.slots[index].resource.depth,
            ) {
                (None, _) => true,
                (Some(max), Some(d)) => d <= max,
                (Some(_), None) => false,
            };
        match self.slots[index].progression {
            Progression::Unqueued(
                NotFetchedReason::NotRequested | NotFetchedReason::DepthBound,
            ) => {
                if depth_allowed {
                    self.slots[index].progression = Progression::Queued;
                    self.events.push(CrawlEvent::Discovered {
                        url: url.to_string(),
                        kind: RequestKind::Page,
                    });
                    if from_link {
                        self.link_queue.push_back(index);
                    } else {
                        self.seed_queue.push_back(index);
                    }
                } else {
                    self.slots[index].progression =
                        Progression::Unqueued(NotFetchedReason::DepthBound);
                    if let Some(max) = self.config.bounds.max_depth {
                        self.hit(Bound::MaxDepth(max));
                    }
                }
            }
            // Known from a sitemap or reference and now found by a link: move it up to the
            // breadth-first queue (the stale seed entry is skipped when popped).
            Progression::Queued if from_link => self.link_queue.push_back(index),
            _ => {}
        }
    }

    fn discover_asset(&mut self, url: &Url, kind: AssetKind, from: &Url, line: Option<u32>) {
        let Some(url) = crawlable(url) else { return };
        let Some((index, new)) = self.slot_for(&url, ResourceKind::Asset(kind)) else {
            return;
        };
        push_reference(
            &mut self.slots[index].resource,
            Reference {
                from: from.clone(),
                kind: ReferenceKind::Asset(kind),
                line,
            },
        );
        if !new {
            return;
        }
        if self.config.fetch_assets {
            self.slots[index].progression = Progression::Queued;
            self.events.push(CrawlEvent::Discovered {
                url: url.to_string(),
                kind: RequestKind::Asset,
            });
            self.asset_queue.push_back(index);
        } else {
            self.ensure_origin(&url); // the verdict is what matters (robots/blocked-css…)
        }
    }

    fn discover_sitemap(
        &mut self,
        url: &Url,
        source: SitemapSource,
        depth: u32,
        parent: Option<usize>,
    ) {
        let Some(url) = crawlable(url).map(Cow::into_owned) else {
            return;
        };
        if url.path() == "/robots.txt" {
            // A `Sitemap:` line (or index entry) naming a robots.txt.
            self.cycles.push(SitemapCycle {
                source,
                named: url.clone(),
                repeats: url,
            });
            return;
        }
        if let Some(&existing) = self.sitemap_index.get(url.as_str()) {
            if parent.is_some_and(|p| p == existing || self.is_ancestor(existing, p)) {
                self.cycles.push(SitemapCycle {
                    source,
                    named: url.clone(),
                    repeats: url,
                });
            } else if !self.sitemaps[existing].file.sources.contains(&source) {
                self.sitemaps[existing].file.sources.push(source);
            }
            return;
        }
        let index = self.sitemaps.len();
        let mut state = SitemapState::NotFetched(NotFetchedReason::NotRequested);
        let mut queued = false;
        if depth > self.config.bounds.sitemap_depth {
            self.hit(Bound::SitemapDepth(self.config.bounds.sitemap_depth));
            state = SitemapState::NotFetched(NotFetchedReason::SitemapBound);
        } else if self.sitemaps.len() as u64 >= self.config.bounds.max_sitemaps {
            self.hit(Bound::MaxSitemaps(self.config.bounds.max_sitemaps));
            state = SitemapState::NotFetched(NotFetchedReason::SitemapBound);
        } else {
            queued = true;
            self.sitemap_queue.push_back(index);
        }
        self.sitemap_index.insert(url.as_str().to_owned(), index);
        self.sitemaps.push(SitemapSlot {
            file: SitemapFile {
                url,
                sources: vec![source],
                depth,
                state,
            },
            parent,
            queued,
        });
    }

    /// The sitemap among `parent` and its ancestors whose URL (or final URL) is `url`.
    fn ancestor_named(&self, parent: Option<usize>, url: &Url) -> Option<Url> {
        let mut parent = parent;
        let mut steps = 0;
        while let Some(index) = parent {
            let slot = &self.sitemaps[index];
            let final_url = match &slot.file.state {
                SitemapState::Parsed { final_url, .. } => Some(final_url),
                _ => None,
            };
            if slot.file.url == *url || final_url == Some(url) {
                return Some(slot.file.url.clone());
            }
            parent = slot.parent;
            steps += 1;
            if steps > self.sitemaps.len() {
                break; // parents always point backwards; this only guards against a bug
            }
        }
        None
    }

    // --- recording ----------------------------------------------------------------------------

    fn record_robots(&mut self, file: RobotsFile) {
        self.stats.robots_fetched += 1;
        let origin = file.origin.clone();
        self.events.push(CrawlEvent::RobotsFetched {
            url: file.url.to_string(),
            status: file.status(),
            effect: file.effect,
        });
        let advertised: Vec<(Url, u32)> = file
            .parsed
            .sitemaps()
            .iter()
            .filter_map(|s| Url::parse(s.url.trim()).ok().map(|u| (u, s.line)))
            .collect();
        let robots_url = file.url.to_string();
        let origin_url = file.url.clone();
        self.robots.insert(origin.clone(), file);
        let blocked = match self.origins.get_mut(&origin) {
            Some(state) => {
                state.done = true;
                std::mem::take(&mut state.blocked)
            }
            None => Vec::new(),
        };
        // Unblocked URLs go back to the front of their queues, in their original order.
        for &index in blocked.iter().rev() {
            if self.slots[index].progression == Progression::Blocked {
                self.slots[index].progression = Progression::Queued;
                let queue = match self.slots[index].resource.kind {
                    ResourceKind::Asset(_) => &mut self.asset_queue,
                    ResourceKind::Page if self.slots[index].resource.depth.is_some() => {
                        &mut self.link_queue
                    }
                    ResourceKind::Page => &mut self.seed_queue,
                };
                queue.push_front(index);
            }
        }
        if !self.in_scope(&origin_url) {
            return;
        }
        for (url, line) in advertised {
            self.discover_sitemap(
                &url,
                SitemapSource::RobotsTxt {
                    robots_url: robots_url.clone(),
                    line,
                },
                0,
                None,
            );
        }
        if self.config.probe_sitemap && origin == self.start_origin {
            let probe = origin_url.join("/sitemap.xml").ok();
            if let Some(probe) = probe.filter(|p| !self.sitemap_index.contains_key(p.as_str())) {
                self.discover_sitemap(&probe, SitemapSource::Probe, 0, None);
            }
        }
    }

    fn record_sitemap(&mut self, index: usize, state: SitemapState) {
        // A probe that found nothing was not a sitemap read.
        let probe_only = self.sitemaps[index].file.sources == [SitemapSource::Probe];
        if !probe_only || matches!(state, SitemapState::Parsed { .. }) {
            self.stats.sitemaps_fetched += 1;
        }
        let depth = self.sitemaps[index].file.depth;
        // Redirected to one of its ancestors: a cycle; don't read it twice.
        let parent = self.sitemaps[index].parent;
        let state = match state {
            SitemapState::Parsed {
                hops, final_url, ..
            } if !hops.is_empty() && self.ancestor_named(parent, &final_url).is_some() => {
                let repeats = self.ancestor_named(parent, &final_url).unwrap_or(final_url);
                self.cycles.push(SitemapCycle {
                    source: self.sitemaps[index].file.sources[0].clone(),
                    named: self.sitemaps[index].file.url.clone(),
                    repeats: repeats.clone(),
                });
                SitemapState::Cycle { hops, repeats }
            }
            other => other,
        };
        let (status, kind, entries) = match &state {
            SitemapState::Parsed {
                status,
                summary,
                entries,
                ..
            } => (Some(*status), Some(summary.kind), entries.len() as u64),
            SitemapState::HttpError { status, .. } => (Some(*status), None, 0),
            _ => (None, None, 0),
        };
        self.events.push(CrawlEvent::SitemapRead {
            url: self.sitemaps[index].file.url.to_string(),
            status,
            kind,
            entries,
        });
        let sitemap_url = self.sitemaps[index].file.url.clone();
        let served_origin = match &state {
            SitemapState::Parsed { final_url, .. } => final_url.origin(),
            _ => sitemap_url.origin(),
        };
        let (children, pages): (Vec<Located>, Vec<Located>) =
            if let SitemapState::Parsed {
                summary, entries, ..
            } = &state
            {
                let resolved = entries
                    .iter()
                    .filter_map(|e| entry_url(e).map(|u| (u, e.line)));
                if summary.kind == SitemapKind::Index {
                    (resolved.collect(), Vec::new())
                } else {
                    (Vec::new(), resolved.collect())
                }
            } else {
                (Vec::new(), Vec::new())
            };
        self.sitemaps[index].file.state = state;
        for (child, line) in children {
            self.discover_sitemap(
                &child,
                SitemapSource::Index {
                    index_url: sitemap_url.to_string(),
                    line,
                },
                depth + 1,
                Some(index),
            );
        }
        for (page, line) in pages {
            if self.sitemap_urls >= self.config.bounds.max_sitemap_urls {
                self.hit(Bound::SitemapUrls(self.config.bounds.max_sitemap_urls));
                break;
            }
            self.sitemap_urls += 1;
            if page.origin() != served_origin && !self.in_scope(&page) {
                self.ensure_origin_for_proof(&page);
            }
            self.discover_page(
                &page,
                Via::Sitemap(SitemapListing {
                    sitemap: sitemap_url.clone(),
                    line,
                }),
            );
        }
    }

    fn is_ancestor(&self, candidate: usize, of: usize) -> bool {
        let mut parent = self.sitemaps[of].parent;
        let mut steps = 0;
        while let Some(index) = parent {
            if index == candidate {
                return true;
            }
            parent = self.sitemaps[index].parent;
            steps += 1;
            if steps > self.sitemaps.len() {
                break;
            }
        }
        false
    }

    fn record_resource(
        &mut self,
        index: usize,
        kind: RequestKind,
        outcome: prepare::ResourceOutcome,
    ) {
        let url = self.slots[index].resource.url.clone();
        self.slots[index].progression = Progression::Done;
        match kind {
            RequestKind::Asset => self.stats.assets_fetched += 1,
            _ => self.stats.pages_fetched += 1,
        }
        match outcome {
            prepare::ResourceOutcome::Failed {
                hops,
                kind: failure,
                message,
            } => {
                self.events.push(CrawlEvent::Fetched {
                    url: url.to_string(),
                    kind,
                    status: None,
                });
                self.slots[index].resource.state = ResourceState::Failed {
                    hops,
                    kind: failure,
                    message,
                };
            }
            prepare::ResourceOutcome::Fetched {
                hops,
                final_url,
                page,
            } => {
                self.events.push(CrawlEvent::Fetched {
                    url: url.to_string(),
                    kind,
                    status: Some(page.status),
                });
                let target = if hops.is_empty() {
                    index
                } else {
                    let final_status = Some(page.status);
                    self.slots[index].resource.state = ResourceState::Redirected {
                        hops,
                        final_url: final_url.clone(),
                        final_status,
                    };
                    let Some(target) = self.redirect_target(index, &final_url) else {
                        return;
                    };
                    target
                };
                self.record_page(target, *page);
            }
        }
    }

    /// The slot that receives a redirect's final response: the target URL's, when it is not
    /// fetched or being fetched already.
    fn redirect_target(&mut self, from: usize, final_url: &Url) -> Option<usize> {
        let from_url = self.slots[from].resource.url.clone();
        let kind = self.slots[from].resource.kind;
        let depth = self.slots[from].resource.depth;
        let (target, _) = self.slot_for(final_url, kind)?;
        push_reference(
            &mut self.slots[target].resource,
            Reference {
                from: from_url,
                kind: ReferenceKind::Redirect,
                line: None,
            },
        );
        let resource = &mut self.slots[target].resource;
        if let Some(d) = depth {
            resource.depth = Some(resource.depth.map_or(d, |old| old.min(d)));
        }
        match self.slots[target].progression {
            Progression::InFlight | Progression::Done => None,
            _ => {
                self.slots[target].progression = Progression::Done;
                Some(target)
            }
        }
    }

    fn record_page(&mut self, index: usize, mut page: FetchedPage) {
        let url = self.slots[index].resource.url.clone();
        let crawl_links = matches!(self.slots[index].resource.kind, ResourceKind::Page)
            && (200..300).contains(&page.status)
            && self.in_scope(&url);
        if crawl_links {
            let depth = self.slots[index].resource.depth;
            let links = std::mem::take(&mut page.signals.links);
            let mut internal = 0u32;
            for link in &links {
                let Some(target) = &link.resolved else {
                    continue;
                };
                if !self.in_scope(target) {
                    continue;
                }
                internal = internal.saturating_add(link.occurrences);
                self.discover_page(
                    target,
                    Via::Link {
                        from: &url,
                        line: link.line,
                        rel: link.rel,
                        occurrences: link.occurrences,
                        depth,
                    },
                );
            }
            page.internal_outlinks = internal;
            let references: Vec<(Url, ReferenceKind, Option<u32>)> = page
                .signals
                .canonicals
                .iter()
                .filter_map(|c| {
                    c.resolved
                        .clone()
                        .map(|u| (u, ReferenceKind::Canonical, c.source.line()))
                })
                .chain(page.signals.hreflang.iter().filter_map(|h| {
                    h.resolved
                        .clone()
                        .map(|u| (u, ReferenceKind::Hreflang, h.source.line()))
                }))
                .chain(page.signals.meta_refresh.iter().filter_map(|r| {
                    r.resolved
                        .clone()
                        .map(|u| (u, ReferenceKind::Redirect, None))
                }))
                .collect();
            for (target, kind, line) in references {
                self.discover_page(
                    &target,
                    Via::Reference(Reference {
                        from: url.clone(),
                        kind,
                        line,
                    }),
                );
            }
            let assets: Vec<(Url, AssetKind, Option<u32>)> = page
                .signals
                .assets
                .iter()
                .filter_map(|a| a.resolved.clone().map(|u| (u, a.kind, a.line)))
                .collect();
            for (asset, kind, line) in assets {
                self.discover_asset(&asset, kind, &url, line);
            }
        } else {
            page.signals.links.clear();
        }
        self.slots[index].resource.state = ResourceState::Fetched(Box::new(page));
    }
}

/// A URL and the 1-based line naming it.
type Located = (Url, u32);

#[derive(Debug, Clone, Copy)]
enum QueueName {
    Links,
    Assets,
    Seeds,
}

/// Counts `occurrences` links from `from` and keeps the first few as samples. Most links reach
/// pages whose samples are full: the linking URL is copied only when it is kept.
fn count_link(
    links: &mut InboundLinks,
    from: &Url,
    line: Option<u32>,
    rel: LinkRel,
    occurrences: u32,
) {
    if rel.is_qualified() {
        links.qualified = links.qualified.saturating_add(occurrences);
    } else {
        links.followed = links.followed.saturating_add(occurrences);
    }
    if let Some(at) = sample_slot(
        &links.samples,
        (from.as_str(), line),
        LINK_SAMPLES,
        |sample| (sample.from.as_str(), sample.line),
    ) {
        let sample = LinkSample {
            from: from.clone(),
            line,
            rel,
        };
        insert_sample(&mut links.samples, at, sample, LINK_SAMPLES);
    }
}

fn push_reference(resource: &mut Resource, reference: Reference) {
    if resource.references.contains(&reference) {
        return;
    }
    if keep_first_samples(
        &mut resource.references,
        reference,
        REFERENCE_SAMPLES,
        |r: &Reference| (r.from.as_str(), r.line),
    ) {
        resource.other_references = resource.other_references.saturating_add(1);
    }
}

/// Record a sitemap listing in sitemap and line order, not arrival order (sitemaps are read
/// concurrently): the first listing is the one rules quote.
fn insert_listing(resource: &mut Resource, listing: SitemapListing) {
    let at = resource.listed_in.partition_point(|kept| {
        (kept.sitemap.as_str(), kept.line) <= (listing.sitemap.as_str(), listing.line)
    });
    resource.listed_in.insert(at, listing);
}

/// Keep at most `cap` samples: the first by `key` (page URL, line), in that order, whatever the
/// order responses arrive in, so evidence is the same on every run. Returns whether a sample
/// (this one or one kept before) was left out.
fn keep_first_samples<T>(
    samples: &mut Vec<T>,
    sample: T,
    cap: usize,
    key: impl Fn(&T) -> (&str, Option<u32>),
) -> bool {
    match sample_slot(samples, key(&sample), cap, key) {
        Some(at) => insert_sample(samples, at, sample, cap),
        None => true,
    }
}

/// Where a sample keyed `new_key` goes among the kept ones, or `None` when it falls past the
/// cap. Lets a caller build a sample only when it is kept (see [`keep_first_samples`]).
fn sample_slot<T>(
    samples: &[T],
    new_key: (&str, Option<u32>),
    cap: usize,
    key: impl Fn(&T) -> (&str, Option<u32>),
) -> Option<usize> {
    let at = samples.partition_point(|kept| key(kept) <= new_key);
    (at < cap).then_some(at)
}

/// Inserts `sample` at `at` and trims to `cap`. Returns whether one was left out.
fn insert_sample<T>(samples: &mut Vec<T>, at: usize, sample: T, cap: usize) -> bool {
    samples.insert(at, sample);
    if samples.len() > cap {
        samples.truncate(cap);
        return true;
    }
    false
}

/// The URL as the crawl keys it (fragment dropped), when it is http(s). Borrowed when it has no
/// fragment: every link of every page comes through here, most of them already known.
fn crawlable(url: &Url) -> Option<Cow<'_, Url>> {
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return None;
    }
    if url.fragment().is_none() {
        return Some(Cow::Borrowed(url));
    }
    let mut url = url.clone();
    url.set_fragment(None);
    Some(Cow::Owned(url))
}

/// A sitemap entry's URL: absolute `loc`s only (relative ones are `sitemap/loc-invalid`).
fn entry_url(entry: &Entry) -> Option<Url> {
    Url::parse(entry.loc.trim()).ok()
}

#[cfg(test)]
mod sample_tests {
    use super::keep_first_samples;

    #[test]
    fn the_samples_kept_do_not_depend_on_arrival_order() {
        let pages = ["/f", "/b", "/d", "/a", "/e", "/c", "/g"];
        let mut forward = Vec::new();
        let mut backward = Vec::new();
        let mut dropped = 0;
        for page in pages {
            dropped += u32::from(keep_first_samples(&mut forward, page, 3, |p| (p, None)));
        }
        for page in pages.iter().rev() {
            keep_first_samples(&mut backward, *page, 3, |p| (p, None));
        }
        assert_eq!(forward, ["/a", "/b", "/c"]);
        assert_eq!(backward, forward);
        assert_eq!(dropped, 4);
    }
}
