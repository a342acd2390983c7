//! The Site model: everything the crawl saw, which rules check.
//!
//! A [`Site`] holds, per origin, the robots.txt as fetched ([`RobotsFile`]); every sitemap with its
//! fetch outcome, parse issues and entries ([`SitemapFile`]); and every known URL as a [`Resource`]
//! (fetched page or asset, redirect, failure, or a URL known but not fetched, with the reason),
//! with its robots.txt verdict per audited profile and where it was found. Sites are built by
//! [`crate::crawl::Crawl`] from responses; rules only read them.

mod environment;
pub mod fetch;
mod kept_headers;
pub(crate) mod lists;
pub mod page_store;
pub mod rendered;
pub mod robots_file;
mod sitemap_file;
mod verdict;

pub use environment::{
    DEFAULT_NON_PRODUCTION_HOSTS, Environment, EnvironmentSettings, HostPattern,
};
pub use fetch::{FailureKind, Received};
pub use kept_headers::{KEPT_HEADER_LINES, KeptHeader, KeptHeaders};
pub use page_store::{MemoryPageStore, PageKey, PageStore};
pub use rendered::{BlockedRequest, RenderCapture, RenderOutcome, RenderedPage};
pub use robots_file::{RobotsEffect, RobotsFile, RobotsOverride};
pub use sitemap_file::{SitemapCycle, SitemapFile, SitemapSource, SitemapState};
pub use verdict::{UrlVerdict, VerdictCache, origin_of, path_and_query, robots_url_of};

use crate::crawl::CrawlMode;
use crate::finding::RedirectHop;
use crate::robots::Issue;
use crate::robots::lint::{LintOptions, lint};
use crate::signals::{AssetKind, Directives, LinkRel, Profile, Signals};
use jiff::Timestamp;
use lists::{Lists, ListsRecord, StoredLists};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::BuildHasher as _;
use std::num::NonZeroU32;
use std::sync::{Arc, OnceLock};
use thin_vec::ThinVec;
use url::Url;

/// Everything one audit saw. Built by [`crate::crawl::Crawl::finish`].
#[derive(Debug, Clone)]
pub struct Site {
    /// Where the crawl started.
    pub start_url: Url,
    /// The audit's "now": rules compare dates against it, never against the clock.
    pub audit_time: Timestamp,
    /// The crawler profiles evaluated; `Resource::verdicts` follows this order.
    pub profiles: Vec<Profile>,
    /// What the crawl fetched as pages: by links from the start URL, a list, or the sitemaps'
    /// URLs. Rules about the link graph (orphans) need [`CrawlMode::FollowLinks`].
    pub mode: CrawlMode,
    /// The names of the profiles declared expected-blocked (`--expect-blocked`): robots.txt is
    /// meant to keep them out, so for them a block is the wanted state (see
    /// [`Site::expects_blocked`]).
    pub expected_blocked: BTreeSet<String>,
    /// Whether disallowed URLs were left unfetched (`--obey-robots`).
    pub obey_robots: bool,
    /// What the site is declared to be and which hosts are not production (the `env/` rules).
    pub environment: EnvironmentSettings,
    /// robots.txt per origin (`scheme://host[:port]`).
    pub robots: BTreeMap<String, RobotsFile>,
    /// Every sitemap met, sorted by URL.
    pub sitemaps: Vec<SitemapFile>,
    /// Sitemap references that lead back to themselves or an ancestor, in discovery order.
    pub sitemap_cycles: Vec<SitemapCycle>,
    /// What the crawl did and which bounds it hit.
    pub stats: CrawlStats,
    /// Every known URL, sorted by URL.
    resources: Vec<Resource>,
    /// Per resource (in `resources` order), its rank in the order the crawl found the URLs.
    found_rank: Vec<u32>,
    /// Resource by URL: indices into `resources`, hashed by their URL with `index_hasher`, so
    /// that no URL is held twice (foldhash: rules look URLs up many times). `u32`, as the
    /// crawl's slot numbers: half the table of a `usize`.
    index: hashbrown::HashTable<u32>,
    index_hasher: foldhash::fast::FixedState,
    /// The lint issues of each origin's robots.txt, computed on first use (several rules read
    /// them; the lint runs once per file).
    robots_lint: BTreeMap<String, OnceLock<Vec<Issue>>>,
    /// Where the pages past [`crate::crawl::Bounds::pages_in_memory`] went.
    page_store: Option<Arc<dyn PageStore>>,
    /// The first failure to read a stored page back: the findings that needed it are missing.
    page_store_error: OnceLock<String>,
    /// The resources iteration shows ([`Site::set_window`]); `None`: all of them.
    window: Option<std::ops::Range<usize>>,
    /// The stored pages of the window, read into memory: where each goes back to.
    window_stored: Vec<(usize, PageKey)>,
}

impl Site {
    /// Assemble a site; resources and sitemaps are sorted by URL, resources indexed.
    pub(crate) fn new(parts: SiteParts) -> Self {
        let SiteParts {
            start_url,
            audit_time,
            profiles,
            mode,
            expected_blocked,
            obey_robots,
            environment,
            robots,
            mut sitemaps,
            sitemap_cycles,
            mut resources,
            stats,
            page_store,
        } = parts;
        let found_rank = sort_by_url(&mut resources);
        sitemaps.sort_by(|a, b| a.url.as_str().cmp(b.url.as_str()));
        let index_hasher = foldhash::fast::FixedState::default();
        let mut index = hashbrown::HashTable::with_capacity(resources.len());
        for (at, resource) in (0..).zip(&resources) {
            let hash = index_hasher.hash_one(resource.url.as_str());
            let rehash = |&i: &u32| index_hasher.hash_one(resources[i as usize].url.as_str());
            index.insert_unique(hash, at, rehash);
        }
        let robots_lint = robots
            .keys()
            .map(|origin| (origin.clone(), OnceLock::new()))
            .collect();
        // The crawl's own failure to read back what it stored (its spilled lists).
        let page_store_error = OnceLock::new();
        if let Some(error) = &stats.page_store_read_error {
            let _ = page_store_error.set(error.clone());
        }
        Self {
            start_url,
            audit_time,
            profiles,
            mode,
            expected_blocked,
            obey_robots,
            environment,
            robots,
            sitemaps,
            sitemap_cycles,
            stats,
            resources,
            found_rank,
            index,
            index_hasher,
            robots_lint,
            page_store,
            page_store_error,
            window: None,
            window_stored: Vec::new(),
        }
    }

    /// The lint issues (`robots lint`) of the robots.txt of `origin` (`scheme://host[:port]`),
    /// linted with [`Site::lint_options`]. Empty when the origin has no robots.txt Google reads
    /// (no 2xx response). Computed on first use, once per file.
    pub fn robots_lint(&self, origin: &str) -> &[Issue] {
        let (Some(cell), Some(file)) = (self.robots_lint.get(origin), self.robots.get(origin))
        else {
            return &[];
        };
        cell.get_or_init(|| match (file.effect, file.body()) {
            (RobotsEffect::Rules, Some(body)) => lint(&file.parsed, body, &self.lint_options()),
            _ => Vec::new(),
        })
    }

    /// How this audit lints robots.txt: the crawler-dependent checks (`disallow-all`,
    /// `group-shadows-global`) for every robots.txt token of the audited profiles, in profile
    /// order, each once (`googlebot-image` brings its `googlebot` fallback).
    pub fn lint_options(&self) -> LintOptions {
        lint_options_for(&self.profiles)
    }

    /// Every known URL, sorted by URL (those of the window, when one is set:
    /// [`Site::set_window`]).
    pub fn resources(&self) -> &[Resource] {
        match &self.window {
            Some(range) => self.resources.get(range.clone()).unwrap_or_default(),
            None => &self.resources,
        }
    }

    /// The first links to `resource` (at most 20, by linking page URL and line), for evidence;
    /// [`InboundLinks`] counts them all. Lists are read through the Site, as pages are
    /// ([`Site::page`]): the interface stays when they move out of memory (#23).
    pub fn link_samples<'a>(&'a self, resource: &'a Resource) -> Cow<'a, [LinkSample]> {
        match &resource.lists {
            Lists::Stored(stored) => Cow::Owned(self.read_lists(*stored, lists::link_samples)),
            Lists::Held(held) => Cow::Borrowed(&held.samples),
        }
    }

    /// The first references to `resource` (assets, canonicals, hreflang alternates, redirects,
    /// sitemap alternates), by referring URL and line; [`Resource::other_references`] counts
    /// the rest.
    pub fn references<'a>(&'a self, resource: &'a Resource) -> Cow<'a, [Reference]> {
        match &resource.lists {
            Lists::Stored(stored) => Cow::Owned(self.read_lists(*stored, lists::references)),
            Lists::Held(held) => Cow::Borrowed(&held.references),
        }
    }

    /// The sitemap entries listing `resource`, by sitemap URL and line.
    pub fn listings<'a>(&'a self, resource: &'a Resource) -> Cow<'a, [SitemapListing]> {
        match &resource.lists {
            // Most URLs are listed nowhere: their record is not read for that.
            Lists::Stored(stored) if stored.listings == 0 => Cow::Borrowed(&[]),
            Lists::Stored(stored) => Cow::Owned(self.read_lists(*stored, lists::listings)),
            Lists::Held(held) => Cow::Borrowed(&held.listed_in),
        }
    }

    fn read_stored(&self, key: PageKey) -> Option<FetchedPage> {
        self.read_record(key, "a stored page", page_store::decode)
    }

    /// One of the lists stored at `stored`, picked by `pick`; empty when the record cannot be
    /// read back ([`Site::page_store_error`] then says so).
    fn read_lists<T>(
        &self,
        stored: StoredLists,
        pick: impl FnOnce(&ListsRecord<'_>) -> Result<Vec<T>, url::ParseError>,
    ) -> Vec<T> {
        self.read_record(stored.key(), "stored lists", |bytes| {
            serde_json::from_slice::<ListsRecord<'_>>(bytes)
                .map_err(|error| error.to_string())
                .and_then(|lists| pick(&lists).map_err(|error| error.to_string()))
        })
        .unwrap_or_default()
    }

    /// The record at `key` in the page store (`what` it holds, for the error), decoded; `None`
    /// when it cannot be read back, the first such failure kept as [`Site::page_store_error`].
    fn read_record<T, E: std::fmt::Display>(
        &self,
        key: PageKey,
        what: &str,
        decode: impl FnOnce(&[u8]) -> Result<T, E>,
    ) -> Option<T> {
        thread_local! {
            static RECORD: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let Some(store) = &self.page_store else {
            let _ = self
                .page_store_error
                .set(format!("{what} but no page store"));
            return None;
        };
        RECORD
            .with_borrow_mut(|record| page_store::read_record(store.as_ref(), key, record, decode))
            .map_err(|error| {
                let _ = self.page_store_error.set(error);
            })
            .ok()
    }

    /// How many URLs the site knows, whatever the window.
    pub fn resource_count(&self) -> usize {
        self.resources.len()
    }

    /// Show only the resources at `range` (positions in URL order) to iteration
    /// ([`Site::resources`], [`Site::fetched`], [`Site::rendered`]), with their stored pages
    /// read into memory once; lookups ([`Site::resource`], [`Site::page`]) still see the whole
    /// site. `None` shows every resource again and lets the window's pages go back to the
    /// store. For rules whose findings on a page depend on that page alone (and on lookups):
    /// run a window at a time, each stored page is read once for all of them, not once per rule.
    pub fn set_window(&mut self, range: Option<std::ops::Range<usize>>) {
        for (at, key) in std::mem::take(&mut self.window_stored) {
            let state = &mut self.resources[at].state;
            if let ResourceState::Fetched(slot @ PageSlot::Held(_)) = state {
                let status = slot.status();
                *slot = PageSlot::Stored { key, status };
            }
        }
        let Some(range) = range else {
            self.window = None;
            return;
        };
        let range = range.start.min(self.resources.len())..range.end.min(self.resources.len());
        for at in range.clone() {
            if let Some(key) = self.hold(at) {
                self.window_stored.push((at, key));
            }
        }
        self.window = Some(range);
    }

    /// Read the stored page of the resource at `at` into memory; the key it was stored
    /// under. `None` when it was not stored, or cannot be read back (it stays stored: reading
    /// it fails again, and says so).
    fn hold(&mut self, at: usize) -> Option<PageKey> {
        let ResourceState::Fetched(PageSlot::Stored { key, .. }) = self.resources[at].state else {
            return None;
        };
        let page = self.read_stored(key)?;
        self.resources[at].state = ResourceState::Fetched(PageSlot::Held(Box::new(page)));
        Some(key)
    }

    /// Take every known URL out of the site, sorted by URL, leaving it with none. For a consumer
    /// that turns them into something else one at a time while it still reads the rest of the
    /// site (the report's build): the resources and what is made of them are then never all
    /// held at once, which on a large crawl is most of the memory.
    pub fn take_resources(&mut self) -> Vec<Resource> {
        self.set_window(None);
        self.index = hashbrown::HashTable::new();
        self.found_rank = Vec::new();
        std::mem::take(&mut self.resources)
    }

    /// [`Site::take_resources`], each with its rank in the order the crawl found the URLs
    /// (resources found together were made together; a consumer dropping them in that order
    /// gives the allocator back whole blocks of memory instead of scattered pieces).
    pub fn take_resources_ranked(&mut self) -> (Vec<Resource>, Vec<u32>) {
        let ranks = std::mem::take(&mut self.found_rank);
        (self.take_resources(), ranks)
    }

    /// Fetched pages and assets with a final (non-redirect) response, sorted by URL. A page
    /// held in memory is borrowed; a stored one is read back (see [`Site::page`]).
    pub fn fetched(&self) -> impl Iterator<Item = (&Resource, Cow<'_, FetchedPage>)> {
        self.resources()
            .iter()
            .filter_map(|resource| Some((resource, self.page(resource)?)))
    }

    /// The final response of `resource` (not a redirect, failure or skip), from memory or
    /// read back from the page store. `None` too when a stored page cannot be read back:
    /// [`Site::page_store_error`] then says so, and the audit must not pass as complete.
    pub fn page<'a>(&'a self, resource: &'a Resource) -> Option<Cow<'a, FetchedPage>> {
        match &resource.state {
            ResourceState::Fetched(PageSlot::Held(page)) => Some(Cow::Borrowed(page)),
            ResourceState::Fetched(PageSlot::Stored { key, .. }) => {
                self.read_stored(*key).map(Cow::Owned)
            }
            _ => None,
        }
    }

    /// The first failure to read a page back from the page store: when there is one, some
    /// rules did not see some pages.
    pub fn page_store_error(&self) -> Option<&str> {
        self.page_store_error.get().map(String::as_str)
    }

    /// The page store this site's pages past [`Bounds::pages_in_memory`](crate::crawl::Bounds)
    /// went to, when it has one (the report keeps its page records there too).
    pub fn page_store(&self) -> Option<&Arc<dyn PageStore>> {
        self.page_store.as_ref()
    }

    /// The resource for `url` (its fragment ignored), if the crawl knows it.
    pub fn resource(&self, url: &Url) -> Option<&Resource> {
        if url.fragment().is_some() {
            let mut bare = url.clone();
            bare.set_fragment(None);
            self.resource_str(bare.as_str())
        } else {
            self.resource_str(url.as_str())
        }
    }

    /// Attach what rendering `url` gave to its fetched page; false when the site has no fetched
    /// page at `url`.
    pub fn set_rendered(&mut self, url: &Url, rendered: RenderedPage) -> bool {
        let Some(at) = self.position(url.as_str()) else {
            return false;
        };
        // A rendered page stays in memory for good, whatever a window says: rendering is
        // bounded, and a stored record is never changed.
        self.hold(at);
        self.window_stored.retain(|&(i, _)| i != at);
        match &mut self.resources[at].state {
            ResourceState::Fetched(PageSlot::Held(page)) => {
                page.rendered = Some(Box::new(rendered));
                self.stats.pages_rendered += 1;
                true
            }
            _ => false,
        }
    }

    /// The position of the profile pages are rendered as (`--render`): the first audited one
    /// that robots.txt is meant to let in.
    pub fn render_profile(&self) -> Option<usize> {
        (0..self.profiles.len()).find(|&index| !self.expects_blocked(index))
    }

    /// Pages rendered in a browser, sorted by URL (held in memory: [`Site::set_rendered`]).
    pub fn rendered(&self) -> impl Iterator<Item = (&Resource, &FetchedPage, &RenderedPage)> {
        self.resources()
            .iter()
            .filter_map(|resource| match &resource.state {
                ResourceState::Fetched(PageSlot::Held(page)) => {
                    Some((resource, page.as_ref(), page.rendered.as_deref()?))
                }
                _ => None,
            })
    }

    /// The resource whose URL serialises exactly as `url`.
    pub fn resource_str(&self, url: &str) -> Option<&Resource> {
        self.position(url).map(|at| &self.resources[at])
    }

    /// Where the resource whose URL serialises exactly as `url` is in `resources`.
    fn position(&self, url: &str) -> Option<usize> {
        let hash = self.index_hasher.hash_one(url);
        self.index
            .find(hash, |&i| self.resources[i as usize].url.as_str() == url)
            .map(|&i| i as usize)
    }

    /// The robots.txt governing `url` (same scheme, host and port), if it was fetched.
    pub fn robots_for(&self, url: &Url) -> Option<&RobotsFile> {
        self.robots.get(origin_of(url).as_ref())
    }

    /// The position of the profile named `name` in [`Site::profiles`].
    pub fn profile_index(&self, name: &str) -> Option<usize> {
        self.profiles.iter().position(|p| p.name == name)
    }

    /// Whether the profile at `profile_index` is declared expected-blocked: robots.txt is meant
    /// to keep it out, so a URL disallowed for it is as wanted and one allowed is the finding.
    pub fn expects_blocked(&self, profile_index: usize) -> bool {
        self.profiles
            .get(profile_index)
            .is_some_and(|profile| self.expected_blocked.contains(&profile.name))
    }

    /// The robots.txt verdict on `url` for `profile`: stored for known resources, computed otherwise.
    pub fn verdict(&self, profile_index: usize, url: &Url) -> UrlVerdict {
        if let Some(verdict) = self
            .resource(url)
            .and_then(|r| r.verdicts.get(profile_index))
        {
            return verdict.clone();
        }
        match self.profiles.get(profile_index) {
            Some(profile) => UrlVerdict::compute(self.robots_for(url), profile, url),
            None => UrlVerdict::unknown(url),
        }
    }

    /// The effective directives of a fetched resource for a profile, at the audit time.
    pub fn directives(&self, resource: &Resource, profile: &Profile) -> Option<Directives> {
        self.page(resource)
            .map(|page| page.signals.directives(profile, self.audit_time))
    }

    /// Whether Google could index `resource` for the profile at `profile_index` (RULES.md §2,
    /// "Indexable"): final response 200, not disallowed, no effective noindex, and canonical absent
    /// or pointing at itself.
    pub fn indexability(&self, resource: &Resource, profile_index: usize) -> Indexability {
        self.indexability_reading(resource, profile_index, || self.page(resource))
    }

    /// [`Site::indexability`] of a resource whose page the caller holds already (`page`, what
    /// [`Site::page`] gave): a stored page is not read back again.
    pub fn indexability_of(
        &self,
        resource: &Resource,
        page: Option<&FetchedPage>,
        profile_index: usize,
    ) -> Indexability {
        self.indexability_reading(resource, profile_index, || page.map(Cow::Borrowed))
    }

    /// [`Site::indexability`], the page read (by `page`) only when the verdict and the status
    /// leave the question open.
    fn indexability_reading<'a>(
        &self,
        resource: &Resource,
        profile_index: usize,
        page: impl FnOnce() -> Option<Cow<'a, FetchedPage>>,
    ) -> Indexability {
        let Some(profile) = self.profiles.get(profile_index) else {
            return Indexability::NotIndexable(NotIndexable::NotFetched);
        };
        if resource
            .verdicts
            .get(profile_index)
            .is_some_and(|v| !v.allowed)
        {
            return Indexability::NotIndexable(NotIndexable::Disallowed);
        }
        let status = match &resource.state {
            ResourceState::Fetched(slot) => slot.status(),
            ResourceState::Redirected { .. } => {
                return Indexability::NotIndexable(NotIndexable::Redirects);
            }
            ResourceState::Failed { .. } | ResourceState::NotFetched(_) => {
                return Indexability::NotIndexable(NotIndexable::NotFetched);
            }
        };
        if status != 200 {
            return Indexability::NotIndexable(NotIndexable::Status(status));
        }
        let Some(page) = page() else {
            return Indexability::NotIndexable(NotIndexable::NotFetched);
        };
        if page
            .signals
            .directives(profile, self.audit_time)
            .is_noindex()
        {
            return Indexability::NotIndexable(NotIndexable::Noindex);
        }
        if let Some(target) = page.canonical_elsewhere(&resource.url) {
            return Indexability::NotIndexable(NotIndexable::CanonicalElsewhere(target));
        }
        Indexability::Indexable
    }
}

/// How an audit of `profiles` lints robots.txt: the crawler-dependent checks (`disallow-all`,
/// `group-shadows-global`) for every robots.txt token of the profiles, in profile order, each
/// once (`googlebot-image` brings its `googlebot` fallback). [`Site::lint_options`] for a Site.
pub fn lint_options_for(profiles: &[Profile]) -> LintOptions {
    let mut user_agents: Vec<String> = Vec::new();
    for token in profiles.iter().flat_map(|p| &p.robots_tokens) {
        if !user_agents
            .iter()
            .any(|known| known.eq_ignore_ascii_case(token))
        {
            user_agents.push(token.clone());
        }
    }
    LintOptions {
        user_agents,
        ..LintOptions::default()
    }
}

/// Sorts resources by URL (each URL is there once). A `Resource` is a few hundred bytes, and
/// sorting them in place moved each one about log2(n) times: at the end of a 5,000-page crawl
/// that was a tenth of the process's instructions (callgrind). The order is computed on indices
/// instead, then applied in place one cycle of the permutation at a time: each resource moves
/// at most twice, and no second vector of resources is ever allocated (at 100,000 URLs that
/// copy was the largest allocation of the audit).
/// Sort `resources` by URL in place; the rank each had before, in the new order.
fn sort_by_url(resources: &mut [Resource]) -> Vec<u32> {
    // Positions fit: the crawl's slot numbers are u32.
    let mut order: Vec<u32> = (0..).take(resources.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        resources[a as usize]
            .url
            .as_str()
            .cmp(resources[b as usize].url.as_str())
    });
    // `order[i]` is the index of the resource that belongs at `i`.
    let mut placed = vec![false; resources.len()];
    for start in 0..resources.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at] as usize;
            if from == start {
                break;
            }
            resources.swap(at, from);
            at = from;
        }
    }
    order
}

/// The fields of a [`Site`], as the crawl hands them over.
pub(crate) struct SiteParts {
    pub(crate) start_url: Url,
    pub(crate) audit_time: Timestamp,
    pub(crate) profiles: Vec<Profile>,
    pub(crate) mode: CrawlMode,
    pub(crate) expected_blocked: BTreeSet<String>,
    pub(crate) obey_robots: bool,
    pub(crate) environment: EnvironmentSettings,
    pub(crate) robots: BTreeMap<String, RobotsFile>,
    pub(crate) sitemaps: Vec<SitemapFile>,
    pub(crate) sitemap_cycles: Vec<SitemapCycle>,
    pub(crate) resources: Vec<Resource>,
    pub(crate) stats: CrawlStats,
    pub(crate) page_store: Option<Arc<dyn PageStore>>,
}

/// Whether a URL can be indexed, and if not, the first reason found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Indexability {
    Indexable,
    NotIndexable(NotIndexable),
}

impl Indexability {
    pub fn is_indexable(&self) -> bool {
        matches!(self, Indexability::Indexable)
    }
}

/// Why a URL is not indexable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotIndexable {
    /// No final response was seen.
    NotFetched,
    /// Disallowed by robots.txt for the profile.
    Disallowed,
    /// The URL redirects.
    Redirects,
    /// The final status is not 200.
    Status(u16),
    /// An effective noindex (meta, header, `none`, past `unavailable_after`).
    Noindex,
    /// The page declares another URL canonical.
    CanonicalElsewhere(Url),
}

/// One known URL.
#[derive(Debug, Clone)]
pub struct Resource {
    /// The URL, fragment removed; shared with the link samples and references this page gives.
    pub url: Arc<Url>,
    /// How it was first referenced.
    pub kind: ResourceKind,
    /// Clicks from the start URL through followed links; `None` when not reached by links.
    pub depth: Option<u32>,
    /// What fetching it gave.
    pub state: ResourceState,
    /// The robots.txt verdict per audited profile, in [`Site::profiles`] order (shared by the
    /// URLs with the same verdicts).
    pub verdicts: Arc<[UrlVerdict]>,
    /// `<a href>` links pointing here from crawled pages.
    pub inbound_links: InboundLinks,
    /// References past the first few the lists keep ([`Site::references`]).
    pub other_references: u32,
    /// The first links here, the first references and the sitemap entries listing this URL:
    /// read through [`Site::link_samples`], [`Site::references`] and [`Site::listings`].
    pub(crate) lists: Lists,
}

impl Resource {
    /// Whether its lists (link samples, references, listings) are in the page store, past
    /// `--pages-in-memory`, not held.
    pub fn has_stored_lists(&self) -> bool {
        matches!(self.lists, Lists::Stored(_))
    }

    /// Whether a sitemap lists this URL.
    pub fn is_listed(&self) -> bool {
        self.listing_count() > 0
    }

    /// How many sitemap entries list this URL.
    pub fn listing_count(&self) -> usize {
        match &self.lists {
            Lists::Stored(stored) => stored.listings as usize,
            Lists::Held(held) => held.listed_in.len(),
        }
    }

    /// Whether the URL gave a final response (not a redirect, failure or skip): its page is
    /// [`Site::page`].
    pub fn is_fetched(&self) -> bool {
        matches!(self.state, ResourceState::Fetched(_))
    }

    /// The verdict for the profile at `index`.
    pub fn verdict(&self, profile_index: usize) -> Option<&UrlVerdict> {
        self.verdicts.get(profile_index)
    }
}

/// How a URL was first referenced: as a page (link, sitemap, canonical, start) or as an asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResourceKind {
    Page,
    Asset(AssetKind),
}

/// What fetching a URL gave.
#[derive(Debug, Clone)]
pub enum ResourceState {
    /// A final response (any status but a followed redirect), read through [`Site::page`].
    Fetched(PageSlot),
    /// A redirect chain ending at `final_url` (itself a resource when a response came).
    Redirected {
        hops: ThinVec<RedirectHop>,
        /// Boxed: every known URL has a state, few redirect, and an inline URL would make every
        /// state as large as this one.
        final_url: Box<Url>,
        /// The final response's status, when one came.
        final_status: Option<u16>,
    },
    /// No usable response.
    Failed {
        hops: ThinVec<RedirectHop>,
        kind: FailureKind,
        message: Box<str>,
    },
    /// Known but not fetched, and why.
    NotFetched(NotFetchedReason),
}

/// Where a fetched page is: in memory, or in the audit's page store past
/// [`crate::crawl::Bounds::pages_in_memory`].
#[derive(Debug, Clone)]
pub enum PageSlot {
    Held(Box<FetchedPage>),
    /// In the page store, with its status (which many rules read of every target) at hand.
    Stored {
        key: PageKey,
        status: u16,
    },
}

impl PageSlot {
    /// The final response's status, without reading a stored page back.
    pub fn status(&self) -> u16 {
        match self {
            PageSlot::Held(page) => page.status,
            PageSlot::Stored { status, .. } => *status,
        }
    }
}

/// A final response and the page's signals.
#[derive(Debug, Clone)]
pub struct FetchedPage {
    pub status: u16,
    /// The response's header lines named in [`KEPT_HEADER_LINES`], in the order received.
    pub headers: KeptHeaders,
    /// Body bytes read (after transfer decoding, up to the cap).
    pub body_len: u64,
    /// The body was cut at the crawler's byte cap.
    pub body_truncated: bool,
    /// What the page says about itself (header signals only for non-HTML). `links` and
    /// `assets` are emptied once the crawl has recorded them as [`InboundLinks`] and
    /// references on their targets, to bound memory.
    pub signals: Signals,
    /// Number of `<a href>` links to in-scope URLs on the page.
    pub internal_outlinks: u32,
    /// Number of assets the page references. `signals.assets` is emptied once the crawl has
    /// recorded them as references on the assets, like `links`.
    pub assets_found: u32,
    /// What the page became in a browser, when the audit rendered it (`--render`).
    pub rendered: Option<Box<RenderedPage>>,
}

impl FetchedPage {
    /// The first `Content-Type` header line's value, as received.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.first("content-type")
    }

    /// Whether part of the page went unread: the body was cut at the byte bound, or a signal
    /// bound (links, robots tags, attributes on a tag) dropped the rest. What the page lacks
    /// cannot be asserted then (`http/page-read-in-part` says so).
    pub fn read_in_part(&self) -> bool {
        self.body_truncated || self.signals.truncated
    }

    /// The first effective canonical (in `<head>` or a `Link` header) when it differs from `url`
    /// after normalisation.
    pub fn canonical_elsewhere(&self, url: &Url) -> Option<Url> {
        self.signals
            .effective_canonicals()
            .into_iter()
            .filter_map(|canonical| canonical.resolved.as_deref())
            .find(|target| !same_document(target, url))
            .cloned()
    }
}

/// Whether two URLs name the same document for canonical comparison (RULES.md §2, "Indexable"):
/// scheme and host case, default ports and fragments don't matter (the `url` crate normalises the
/// first two); percent-encoding case and encoded unreserved characters don't either. Trailing
/// slash and query are significant.
pub fn same_document(a: &Url, b: &Url) -> bool {
    let (a, b) = (without_fragment(a), without_fragment(b));
    // The rules compare every page with its canonical: without escapes (nearly every URL) the
    // normalised forms are the texts themselves, and no copy is made.
    if !a.contains('%') && !b.contains('%') {
        return a == b;
    }
    normalized(a) == normalized(b)
}

/// The form of a URL that [`same_document`] compares.
pub fn normalized_for_compare(url: &Url) -> String {
    normalized(without_fragment(url))
}

/// `url`'s text up to its fragment.
fn without_fragment(url: &Url) -> &str {
    &url[..url::Position::AfterQuery]
}

/// `text` (a serialised URL, so ASCII) with its escapes of unreserved characters decoded and
/// the others upper-cased.
fn normalized(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
            if let Ok(value) = u8::from_str_radix(hex, 16) {
                if value.is_ascii_alphanumeric() || matches!(value, b'-' | b'.' | b'_' | b'~') {
                    out.push(char::from(value));
                } else {
                    out.push('%');
                    out.push_str(&hex.to_ascii_uppercase());
                }
                i += 3;
                continue;
            }
        }
        out.push(char::from(bytes[i]));
        i += 1;
    }
    out
}

/// Why a known URL was not fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotFetchedReason {
    /// Outside the crawl scope (another host or scheme).
    OutOfScope,
    /// In scope, but left out by the include or exclude URL patterns (`--include`,
    /// `--exclude`).
    Excluded,
    /// In scope, but not listed: list mode (`--urls-from`) and `--sitemap-only` fetch only the
    /// URLs listed (in the file, in the sitemaps); this one was found in a link, a sitemap or a
    /// reference and is recorded.
    NotListed,
    /// Disallowed by robots.txt for every audited profile, and `--obey-robots` is set.
    Disallowed,
    /// The page bound was reached first.
    PageBound,
    /// The asset bound was reached first.
    AssetBound,
    /// Deeper than the depth bound.
    DepthBound,
    /// The crawl was interrupted or ran out of time first.
    Interrupted,
    /// A sitemap bound (index depth, sitemap count, URL count) was reached first.
    SitemapBound,
    /// The origin bound was reached: its robots.txt (needed first) could not be fetched.
    OriginBound,
    /// Not a kind of URL the crawl fetches (e.g. assets with asset checks off).
    NotRequested,
}

impl NotFetchedReason {
    /// Why, in words: `the page bound was reached first`.
    pub fn words(self) -> &'static str {
        match self {
            NotFetchedReason::OutOfScope => "outside the crawl scope",
            NotFetchedReason::Excluded => "excluded by the include/exclude URL patterns",
            NotFetchedReason::NotListed => {
                "not listed (only the listed URLs are fetched in this mode)"
            }
            NotFetchedReason::Disallowed => "disallowed by robots.txt and --obey-robots is set",
            NotFetchedReason::PageBound => "the page bound was reached first",
            NotFetchedReason::AssetBound => "the asset bound was reached first",
            NotFetchedReason::DepthBound => "deeper than the depth bound",
            NotFetchedReason::Interrupted => "the crawl was interrupted first",
            NotFetchedReason::SitemapBound => "a sitemap bound was reached first",
            NotFetchedReason::OriginBound => "the origin bound was reached first",
            NotFetchedReason::NotRequested => "not requested",
        }
    }
}

/// `<a href>` links pointing at a URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InboundLinks {
    /// Links from crawled pages without `nofollow`, `ugc` or `sponsored`.
    pub followed: u32,
    /// Links marked `nofollow`, `ugc` or `sponsored` (hints not to follow). Page-level nofollow
    /// is a directive of the linking page, read from its signals, not counted here.
    pub qualified: u32,
}

/// One link, for evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSample {
    /// The linking page; shared by all the samples it gives (one copy of a URL per page).
    pub from: Arc<Url>,
    /// 1-based (`NonZeroU32`: a sample is two words, and a crawl keeps a few per URL).
    pub line: Option<NonZeroU32>,
    pub rel: LinkRel,
}

/// A non-link reference to a URL from a crawled page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The referring page (or sitemap); shared by all the references it makes.
    pub from: Arc<Url>,
    pub kind: ReferenceKind,
    /// 1-based, like [`LinkSample::line`].
    pub line: Option<NonZeroU32>,
}

/// What kind of reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReferenceKind {
    Start,
    /// Listed to be fetched (list mode, `--urls-from`); `from` is the URL itself.
    Listed,
    Asset(AssetKind),
    Canonical,
    Hreflang,
    Redirect,
}

/// One sitemap entry listing a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapListing {
    /// The sitemap; shared by all the listings it gives.
    pub sitemap: Arc<Url>,
    pub line: u32,
}

/// What the crawl did, and where it stopped short.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlStats {
    pub pages_fetched: u64,
    pub assets_fetched: u64,
    pub sitemaps_fetched: u64,
    pub robots_fetched: u64,
    /// Bounds that cut the crawl short, each once, in the order hit.
    pub bounds_hit: Vec<Bound>,
    /// Interrupted (Ctrl-C, SIGTERM): the site is partial.
    pub interrupted: bool,
    /// In-scope URLs seen in links after the discovery bound, not recorded.
    pub urls_not_recorded: u64,
    /// Pages rendered in a browser (`--render`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pages_rendered: u64,
    /// Fetched pages kept in the page store, not in memory (past
    /// [`crate::crawl::Bounds::pages_in_memory`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pages_stored: u64,
    /// Why the page store stopped taking pages (a full disk): the pages after it were kept
    /// in memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_store_write_error: Option<String>,
    /// The first failure to read a stored page back ([`Site::page_store_error`]), set by the
    /// report's build: the findings and records that needed the page are missing, and the
    /// audit fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_store_read_error: Option<String>,
    /// Sitemap URLs named after twice the sitemap read bound, not recorded (the first
    /// [`crate::crawl::Bounds::max_sitemaps`] past it are recorded unread).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sitemaps_not_recorded: u64,
    /// In-scope pages left unfetched by the include or exclude patterns (recorded as
    /// [`NotFetchedReason::Excluded`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub urls_excluded: u64,
    /// The robots.txt `Crawl-delay`s the crawl honoured, by origin, in the order met.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crawl_delays: Vec<HonouredCrawlDelay>,
    /// The hosts the crawl slowed down for (429 or 503 answers, repeated timeouts or server
    /// errors), by origin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backoffs: Vec<HostBackoff>,
}

/// How the crawl slowed down for one host that answered 429 or 503, or kept failing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostBackoff {
    /// `scheme://host[:port]`.
    pub origin: String,
    /// Answers 429 (Too Many Requests) or 503 (Service Unavailable).
    pub overloaded: u64,
    /// Timeouts, dropped connections and other 5xx answers that came after another one.
    pub repeated_failures: u64,
    /// Requests asked again after a 429 or 503.
    pub retries: u64,
    /// The longest pause before the host was asked again, in milliseconds (a `Retry-After`, up
    /// to its bound, or the back-off).
    pub longest_pause_millis: u64,
    /// The least time between two requests to the host the crawl ended with, in milliseconds,
    /// when it was slowed down from its pace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowed_to_millis: Option<u64>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A robots.txt `Crawl-delay` the crawl waited between requests to an origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HonouredCrawlDelay {
    /// `scheme://host[:port]`.
    pub origin: String,
    /// The delay, in milliseconds.
    pub millis: u64,
    /// The robots.txt line it was read from.
    pub line: u32,
}

impl CrawlStats {
    /// Whether the crawl saw less than the whole site (a bound hit or an interruption).
    pub fn is_partial(&self) -> bool {
        self.interrupted || !self.bounds_hit.is_empty()
    }
}

/// A crawl bound, with its configured value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "bound", content = "limit", rename_all = "kebab-case")]
pub enum Bound {
    MaxPages(u64),
    MaxDepth(u32),
    MaxAssets(u64),
    MaxDiscovered(u64),
    /// Bytes of recorded URLs.
    DiscoveredBytes(u64),
    MaxOrigins(u64),
    SitemapDepth(u32),
    MaxSitemaps(u64),
    SitemapUrls(u64),
    /// Bytes of sitemap entries kept.
    SitemapEntryBytes(u64),
    /// Total time, in seconds.
    TotalTime(u64),
    /// Pages rendered in a browser (`--render`).
    MaxRendered(u64),
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::MaxPages(n) => write!(f, "page bound ({n} pages)"),
            Bound::MaxRendered(n) => write!(f, "render bound ({n} pages rendered)"),
            Bound::MaxDepth(n) => write!(f, "depth bound ({n} clicks)"),
            Bound::MaxAssets(n) => write!(f, "asset bound ({n} assets)"),
            Bound::MaxDiscovered(n) => write!(f, "discovery bound ({n} known URLs)"),
            Bound::DiscoveredBytes(n) => {
                write!(f, "discovery bound ({} of known URLs)", mebibytes(*n))
            }
            Bound::MaxOrigins(n) => write!(f, "origin bound ({n} origins)"),
            Bound::SitemapDepth(n) => write!(f, "sitemap index depth bound ({n})"),
            Bound::MaxSitemaps(n) => write!(f, "sitemap count bound ({n} sitemaps)"),
            Bound::SitemapUrls(n) => write!(f, "sitemap URL bound ({n} URLs)"),
            Bound::SitemapEntryBytes(n) => {
                write!(f, "sitemap entry bound ({} of entries kept)", mebibytes(*n))
            }
            Bound::TotalTime(secs) => write!(f, "time bound ({secs} s)"),
        }
    }
}

/// `n` bytes in MiB when whole, else in bytes.
fn mebibytes(n: u64) -> String {
    if n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    /// Every known URL has one, up to ten million: a field added here is paid that often
    /// (ARCHITECTURE.md, "Memory").
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_resource_takes_at_most_104_bytes() {
        assert!(
            std::mem::size_of::<Resource>() <= 104,
            "{}",
            std::mem::size_of::<Resource>()
        );
    }

    #[test]
    fn resources_are_sorted_by_url_in_place_whatever_the_permutation() {
        let resource = |n: u64| Resource {
            url: url(&format!("http://e.com/{n:05}")).into(),
            kind: ResourceKind::Page,
            depth: Some(u32::try_from(n).unwrap()),
            state: ResourceState::NotFetched(NotFetchedReason::NotRequested),
            verdicts: Arc::default(),
            inbound_links: InboundLinks::default(),
            other_references: 0,
            lists: Lists::default(),
        };
        // Several cycles of different lengths, fixed points, and the reversed and sorted orders.
        let mut orders: Vec<Vec<u64>> = vec![(0..500).rev().collect(), (0..500).collect()];
        orders.push((0..500).map(|n| (n * 37 + 11) % 500).collect());
        orders.push(
            (0..500)
                .map(|n| if n % 4 < 2 { n ^ 1 } else { n })
                .collect(),
        );
        for order in orders {
            let mut resources: Vec<Resource> = order.iter().map(|&n| resource(n)).collect();
            let ranks = sort_by_url(&mut resources);
            let depths: Vec<u32> = resources.iter().map(|r| r.depth.unwrap()).collect();
            assert_eq!(depths, (0..500).collect::<Vec<u32>>());
            // Each resource's rank is where it was before the sort.
            for (resource, rank) in resources.iter().zip(&ranks) {
                assert_eq!(u64::from(resource.depth.unwrap()), order[*rank as usize]);
            }
        }
    }

    #[test]
    fn same_document_ignores_case_ports_fragments_and_escape_case() {
        assert!(same_document(
            &url("HTTP://Example.COM:80/a"),
            &url("http://example.com/a#x")
        ));
        assert!(same_document(
            &url("http://e.com/%7euser"),
            &url("http://e.com/~user")
        ));
        assert!(same_document(
            &url("http://e.com/a%2fb"),
            &url("http://e.com/a%2Fb")
        ));
        assert!(!same_document(
            &url("http://e.com/a/"),
            &url("http://e.com/a")
        ));
        assert!(!same_document(
            &url("http://e.com/a?x=1"),
            &url("http://e.com/a")
        ));
        assert!(!same_document(
            &url("https://e.com/a"),
            &url("http://e.com/a")
        ));
        // An escape in a fragment is no part of the comparison; one in the query is.
        assert!(same_document(
            &url("http://e.com/~a?q=%7e#%41"),
            &url("http://e.com/%7Ea?q=~")
        ));
        assert_eq!(
            normalized_for_compare(&url("http://e.com/a%2fb?x#y%7e")),
            "http://e.com/a%2Fb?x"
        );
        assert_eq!(
            normalized_for_compare(&url("http://E.com/a#y")),
            "http://e.com/a"
        );
    }
}
