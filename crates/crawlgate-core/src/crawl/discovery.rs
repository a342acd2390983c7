//! Discovery: URLs found in robots.txt, sitemaps, links, canonicals and hreflang, the scope
//! check, and the evidence samples kept for each.

use super::{Crawl, CrawlEvent, CrawlMode, Progression, RequestKind, SitemapSlot, Slot, Via};
use crate::signals::{AssetKind, LinkRel};
use crate::site::lists::Lists;
use crate::site::{
    Bound, InboundLinks, LinkSample, NotFetchedReason, Reference, ReferenceKind, Resource,
    ResourceKind, ResourceState, SitemapCycle, SitemapFile, SitemapListing, SitemapSource,
    SitemapState,
};
use std::borrow::Cow;
use std::num::NonZeroU32;
use std::sync::Arc;
use thin_vec::ThinVec;
use url::Url;

/// Links kept per URL as evidence samples.
pub(super) const LINK_SAMPLES: usize = 20;
/// Non-link references kept per URL as evidence samples.
pub(super) const REFERENCE_SAMPLES: usize = 20;

impl Crawl {
    /// The slot for `url`, created if new and the discovery bound allows.
    pub(super) fn slot_for(&mut self, url: &Url, kind: ResourceKind) -> Option<(usize, bool)> {
        if let Some(index) = self.slot_index.get(&self.slots, url.as_str()) {
            return Some((index, false));
        }
        // The slot index counts in u32: past that, a bound however large it was set.
        let max_discovered = self
            .config
            .bounds
            .max_discovered
            .min(u64::from(u32::MAX - 1));
        if self.slots.len() as u64 >= max_discovered {
            self.stats.urls_not_recorded += 1;
            self.hit(Bound::MaxDiscovered(self.config.bounds.max_discovered));
            return None;
        }
        let bytes = url.as_str().len() as u64;
        if self.slot_bytes.saturating_add(bytes) > self.config.bounds.max_discovered_bytes {
            self.stats.urls_not_recorded += 1;
            self.hit(Bound::DiscoveredBytes(
                self.config.bounds.max_discovered_bytes,
            ));
            return None;
        }
        self.slot_bytes += bytes;
        let index = self.slots.len();
        self.slots.push(Slot {
            resource: Resource {
                url: Arc::new(url.clone()),
                kind,
                depth: None,
                state: ResourceState::NotFetched(NotFetchedReason::NotRequested),
                verdicts: Arc::default(),
                inbound_links: InboundLinks::default(),
                other_references: 0,
                lists: Lists::default(),
            },
            progression: Progression::Unqueued(NotFetchedReason::NotRequested),
        });
        self.slot_index.insert(&self.slots, index);
        Some((index, true))
    }

    pub(super) fn in_scope(&self, url: &Url) -> bool {
        self.site_scope.contains(url)
    }

    /// Whether the include/exclude patterns leave the in-scope page `url` unfetched.
    pub(super) fn excluded(&self, url: &Url) -> bool {
        self.config.scope.exclusion(url).is_some()
    }

    /// Record that the page at `index` is known and not to be fetched, for `reason` (out of
    /// scope, excluded, not listed), unless it already has a state. Its origin's robots.txt is
    /// still fetched: its verdict is evidence (canonical/target-blocked, robots/blocked-linked).
    pub(super) fn leave_unfetched(&mut self, index: usize, reason: NotFetchedReason) {
        if self.slots[index].progression != Progression::Unqueued(NotFetchedReason::NotRequested) {
            return;
        }
        self.slots[index].progression = Progression::Unqueued(reason);
        let url = self.slots[index].resource.url.clone();
        if reason == NotFetchedReason::Excluded {
            self.stats.urls_excluded += 1;
            self.events.push(CrawlEvent::Skipped {
                url: url.to_string(),
                reason,
            });
        }
        self.ensure_origin(&url);
    }

    /// Whether the crawl's mode fetches a page found this way.
    fn fetched_when_found(&self, via: &Via<'_>) -> bool {
        match self.config.mode {
            CrawlMode::FollowLinks => !matches!(via, Via::Listed),
            CrawlMode::List => matches!(via, Via::Listed),
            CrawlMode::SitemapOnly => matches!(via, Via::Sitemap(_)),
        }
    }

    /// Record that `url` was found `via` something, queue it when it is to be fetched; its
    /// slot, when it is recorded.
    pub(super) fn discover_page(&mut self, url: &Url, via: Via<'_>) -> Option<usize> {
        let url = crawlable(url)?;
        let in_scope = self.in_scope(&url);
        // Out-of-scope pages are recorded only when something other than a plain link or a sitemap
        // points at them (a canonical, hreflang or redirect target): rules check those.
        if !in_scope && !matches!(via, Via::Reference(_)) {
            return None;
        }
        let (index, _) = self.slot_for(&url, ResourceKind::Page)?;
        let depth = match &via {
            Via::Start => Some(0),
            Via::Link { depth, .. } => depth.map(|d| d + 1),
            _ => None,
        };
        let from_link = matches!(via, Via::Link { .. } | Via::Start);
        let fetched = self.fetched_when_found(&via);
        let depth_before = self.slots[index].resource.depth;
        self.change_lists(index, |resource| note_found(resource, &url, depth, via));
        if self.slots[index].resource.depth != depth_before {
            self.pass_depth_on(index);
        }
        let unfetched = if !in_scope {
            Some(NotFetchedReason::OutOfScope)
        } else if self.slots[index].progression
            == Progression::Unqueued(NotFetchedReason::NotRequested)
            && self.excluded(&url)
        {
            // Matched once per URL, when first found (most links reach known pages).
            Some(NotFetchedReason::Excluded)
        } else if !fetched {
            // List mode and --sitemap-only: found, recorded, not fetched.
            Some(NotFetchedReason::NotListed)
        } else {
            None
        };
        if let Some(reason) = unfetched {
            self.leave_unfetched(index, reason);
            return Some(index);
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
                NotFetchedReason::NotRequested
                | NotFetchedReason::DepthBound
                | NotFetchedReason::NotListed,
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
        Some(index)
    }

    /// The page in `index` has a click depth now, or a lower one. When it was recorded before
    /// it had one (fetched as a sitemap URL, say, before a link to it was read), the pages it
    /// links to got none from it: they get theirs now, and so on down. Without this, a page's
    /// depth (and `sitemap/orphan-url`) would depend on the order responses arrived in.
    pub(super) fn pass_depth_on(&mut self, index: usize) {
        if self.links_without_depth.is_empty() {
            return;
        }
        let mut pending = vec![index];
        while let Some(from) = pending.pop() {
            let Some(depth) = self.slots[from].resource.depth else {
                continue;
            };
            let Some(targets) = self.links_without_depth.remove(&from) else {
                continue;
            };
            let linked = depth.saturating_add(1);
            for target in targets {
                let resource = &mut self.slots[target as usize].resource;
                if resource.depth.is_none_or(|old| linked < old) {
                    resource.depth = Some(linked);
                    pending.push(target as usize);
                }
            }
        }
    }

    pub(super) fn discover_asset(
        &mut self,
        url: &Url,
        kind: AssetKind,
        from: &Arc<Url>,
        line: Option<u32>,
    ) {
        let line = line.and_then(NonZeroU32::new);
        let Some(url) = crawlable(url) else { return };
        let Some((index, new)) = self.slot_for(&url, ResourceKind::Asset(kind)) else {
            return;
        };
        self.change_lists(index, |resource| {
            push_reference(
                resource,
                Reference {
                    from: Arc::clone(from),
                    kind: ReferenceKind::Asset(kind),
                    line,
                },
            );
        });
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

    pub(super) fn discover_sitemap(
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
            } else {
                add_source(&mut self.sitemaps[existing].file.sources, source);
            }
            return;
        }
        if self.sitemaps.len() as u64 >= self.config.bounds.max_sitemaps.saturating_mul(2) {
            // Past the read bound, as many again are recorded unread (the report lists what was
            // skipped); the rest is only counted, so that indexes of 50,000 children each
            // cannot grow the list without end.
            self.hit(Bound::MaxSitemaps(self.config.bounds.max_sitemaps));
            self.stats.sitemaps_not_recorded += 1;
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
    pub(super) fn ancestor_named(&self, parent: Option<usize>, url: &Url) -> Option<Url> {
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
}

/// Sources kept per sitemap: enough for the rules (every kind is kept once, whatever the
/// count), bounded for a sitemap that thousands of index entries or `Sitemap:` lines repeat.
const MAX_SOURCES_PER_SITEMAP: usize = 16;

/// Add `source` to a sitemap's sources unless it is there or the list is full; a kind not yet
/// listed is added even then (the rules ask whether robots.txt, the probe or the user named it).
fn add_source(sources: &mut Vec<SitemapSource>, source: SitemapSource) {
    let kind_listed = sources
        .iter()
        .any(|s| std::mem::discriminant(s) == std::mem::discriminant(&source));
    if kind_listed && sources.len() >= MAX_SOURCES_PER_SITEMAP {
        return;
    }
    if !sources.contains(&source) {
        sources.push(source);
    }
}

/// Record on `resource` how it was found (`url` is its own URL) and its click depth.
fn note_found(resource: &mut Resource, url: &Url, depth: Option<u32>, via: Via<'_>) {
    if let Some(d) = depth {
        resource.depth = Some(resource.depth.map_or(d, |old| old.min(d)));
    }
    let own = |kind| Reference {
        from: Arc::new(url.clone()),
        kind,
        line: None,
    };
    match via {
        Via::Start => push_reference(resource, own(ReferenceKind::Start)),
        Via::Listed => push_reference(resource, own(ReferenceKind::Listed)),
        Via::Link {
            from,
            line,
            rel,
            occurrences,
            ..
        } => count_link(resource, from, line, rel, occurrences),
        Via::Sitemap(listing) => insert_listing(resource, listing),
        Via::Reference(reference) => push_reference(resource, reference),
    }
}

/// Counts `occurrences` links from `from` and keeps the first few as samples. Most links reach
/// pages whose samples are full: the linking URL is copied only when it is kept.
fn count_link(
    resource: &mut Resource,
    from: &Arc<Url>,
    line: Option<u32>,
    rel: LinkRel,
    occurrences: u32,
) {
    let line = line.and_then(NonZeroU32::new);
    let links = &mut resource.inbound_links;
    if rel.is_qualified() {
        links.qualified = links.qualified.saturating_add(occurrences);
    } else {
        links.followed = links.followed.saturating_add(occurrences);
    }
    let Some(held) = resource.lists.held_mut() else {
        return;
    };
    if let Some(at) = sample_slot(
        &held.samples,
        (from.as_str(), line),
        LINK_SAMPLES,
        |sample| (sample.from.as_str(), sample.line),
    ) {
        let sample = LinkSample {
            from: Arc::clone(from),
            line,
            rel,
        };
        insert_sample(&mut held.samples, at, sample, LINK_SAMPLES);
    }
}

pub(super) fn push_reference(resource: &mut Resource, reference: Reference) {
    let Some(held) = resource.lists.held_mut() else {
        return;
    };
    if held.references.contains(&reference) {
        return;
    }
    if keep_first_samples(
        &mut held.references,
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
    let Some(held) = resource.lists.held_mut() else {
        return;
    };
    let at = held.listed_in.partition_point(|kept| {
        (kept.sitemap.as_str(), kept.line) <= (listing.sitemap.as_str(), listing.line)
    });
    insert_compact(&mut held.listed_in, at, listing);
}

/// Inserts `item` at `at`; an empty list gets room for exactly one. The crawl keeps these lists
/// (listings, samples, references) for every known URL, most hold one item, and a first push
/// would make room for four.
fn insert_compact<T>(list: &mut ThinVec<T>, at: usize, item: T) {
    if list.capacity() == 0 {
        list.reserve_exact(1);
    }
    list.insert(at, item);
}

/// Keep at most `cap` samples: the first by `key` (page URL, line), in that order, whatever the
/// order responses arrive in, so evidence is the same on every run. Returns whether a sample
/// (this one or one kept before) was left out.
fn keep_first_samples<T>(
    samples: &mut ThinVec<T>,
    sample: T,
    cap: usize,
    key: impl Fn(&T) -> (&str, Option<NonZeroU32>),
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
    new_key: (&str, Option<NonZeroU32>),
    cap: usize,
    key: impl Fn(&T) -> (&str, Option<NonZeroU32>),
) -> Option<usize> {
    let at = samples.partition_point(|kept| key(kept) <= new_key);
    (at < cap).then_some(at)
}

/// Inserts `sample` at `at` and trims to `cap`. Returns whether one was left out.
fn insert_sample<T>(samples: &mut ThinVec<T>, at: usize, sample: T, cap: usize) -> bool {
    insert_compact(samples, at, sample);
    if samples.len() > cap {
        samples.truncate(cap);
        return true;
    }
    false
}

/// The URL as the crawl keys it (fragment dropped), when it is http(s). Borrowed when it has no
/// fragment: every link of every page comes through here, most of them already known.
pub(super) fn crawlable(url: &Url) -> Option<Cow<'_, Url>> {
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

#[cfg(test)]
mod sample_tests {
    use super::keep_first_samples;
    use thin_vec::ThinVec;

    #[test]
    fn the_samples_kept_do_not_depend_on_arrival_order() {
        let pages = ["/f", "/b", "/d", "/a", "/e", "/c", "/g"];
        let mut forward = ThinVec::new();
        let mut backward = ThinVec::new();
        let mut dropped = 0;
        for page in pages {
            dropped += u32::from(keep_first_samples(&mut forward, page, 3, |p| (p, None)));
        }
        for page in pages.iter().rev() {
            keep_first_samples(&mut backward, *page, 3, |p| (p, None));
        }
        assert_eq!(forward.as_slice(), ["/a", "/b", "/c"]);
        assert_eq!(backward, forward);
        assert_eq!(dropped, 4);
    }
}
