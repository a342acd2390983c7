//! Recording: completed responses (robots.txt, sitemaps, pages and assets) into the Site.

use super::discovery::{crawlable, push_reference};
use super::{Crawl, CrawlEvent, CrawlMode, Progression, RequestKind, Via, prepare};
use crate::site::{
    Bound, FetchedPage, NotFetchedReason, PageSlot, Reference, ReferenceKind, ResourceKind,
    ResourceState, RobotsFile, SitemapCycle, SitemapListing, SitemapSource, SitemapState,
    page_store,
};
use crate::sitemap::{Entry, SitemapKind};
use std::num::NonZeroU32;
use std::sync::Arc;
use thin_vec::ThinVec;
use url::Url;

impl Crawl {
    pub(super) fn record_robots(&mut self, file: RobotsFile) {
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
        if !self.reads_sitemaps_of(&origin, &origin_url) {
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

    /// Whether the sitemaps a robots.txt names are read: those of in-scope origins; in list mode
    /// those of the listed URLs' origins; with `--sitemap-only` the start origin's.
    fn reads_sitemaps_of(&self, origin: &str, robots_url: &Url) -> bool {
        match self.config.mode {
            CrawlMode::FollowLinks => self.in_scope(robots_url),
            CrawlMode::List => self.site_scope.lists_origin(origin),
            CrawlMode::SitemapOnly => origin == self.start_origin,
        }
    }

    pub(super) fn record_sitemap(&mut self, index: usize, state: SitemapState) {
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
                status, summary, ..
            } => (
                Some(*status),
                Some(summary.kind),
                // As many as were kept before the preparer could leave some out.
                summary.entry_count.min(crate::sitemap::MAX_ENTRIES),
            ),
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
        let alternates = hreflang_alternates(&state);
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
        let listed_by = Arc::new(sitemap_url.clone());
        for (page, line) in pages {
            if self.sitemap_urls >= self.config.bounds.max_sitemap_urls {
                self.hit(Bound::SitemapUrls(self.config.bounds.max_sitemap_urls));
                self.entry_budget.mark_urls_full();
                break;
            }
            self.sitemap_urls += 1;
            if page.origin() != served_origin && !self.in_scope(&page) {
                self.ensure_origin_for_proof(&page);
            }
            self.discover_page(
                &page,
                Via::Sitemap(SitemapListing {
                    sitemap: Arc::clone(&listed_by),
                    line,
                }),
            );
        }
        self.discover_sitemap_alternates(&listed_by, alternates);
        self.keep_entries_within_bound(index);
    }

    /// Drops the entries and the per-entry issues of sitemap `index` that pass the bound on
    /// bytes kept over all sitemaps (the entries' URLs were discovered already; only their own
    /// checks are lost). Issues about the document as a whole (no line) are always kept.
    fn keep_entries_within_bound(&mut self, index: usize) {
        let bound = self.config.bounds.max_sitemap_entry_bytes;
        let SitemapState::Parsed {
            entries, summary, ..
        } = &mut self.sitemaps[index].file.state
        else {
            return;
        };
        let mut full = false;
        let mut within = |bytes: usize| {
            let bytes = bytes as u64;
            if full || self.sitemap_entry_bytes.saturating_add(bytes) > bound {
                full = true;
                return false;
            }
            self.sitemap_entry_bytes += bytes;
            true
        };
        let kept = entries
            .iter()
            .take_while(|entry| within(entry.kept_bytes()))
            .count();
        let entries_cut = kept < entries.len();
        entries.truncate(kept);
        let before = summary.issues.len();
        summary.issues.retain(|issue| {
            issue.line.is_none() || within(std::mem::size_of_val(issue) + issue.message.len())
        });
        if entries_cut || summary.issues.len() < before {
            entries.shrink_to_fit();
            summary.issues.shrink_to_fit();
            self.hit(Bound::SitemapEntryBytes(bound));
        }
        self.entry_budget
            .set_bytes_left(bound.saturating_sub(self.sitemap_entry_bytes));
    }

    /// Discovers a urlset's `xhtml:link` hreflang alternates as hreflang references from the
    /// sitemap, so the hreflang rules can judge them like a page's. Most name URLs the sitemap
    /// lists too (known by then, not counted again); the new ones count towards the sitemap URL
    /// bound like `<loc>`s.
    fn discover_sitemap_alternates(&mut self, sitemap_url: &Arc<Url>, alternates: Vec<Located>) {
        for (alternate, line) in alternates {
            let Some(alternate) = crawlable(&alternate) else {
                continue;
            };
            if self
                .slot_index
                .get(&self.slots, alternate.as_str())
                .is_none()
            {
                if self.sitemap_urls >= self.config.bounds.max_sitemap_urls {
                    self.hit(Bound::SitemapUrls(self.config.bounds.max_sitemap_urls));
                    self.entry_budget.mark_urls_full();
                    break;
                }
                self.sitemap_urls += 1;
            }
            self.discover_page(
                &alternate,
                Via::Reference(Reference {
                    from: Arc::clone(sitemap_url),
                    kind: ReferenceKind::Hreflang,
                    line: NonZeroU32::new(line),
                }),
            );
        }
    }

    pub(super) fn is_ancestor(&self, candidate: usize, of: usize) -> bool {
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

    pub(super) fn record_resource(
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
                    hops: hops.into(),
                    kind: failure,
                    message: message.into(),
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
                        hops: hops.into(),
                        final_url: Box::new(final_url.clone()),
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
        let from_url = Arc::clone(&self.slots[from].resource.url);
        let kind = self.slots[from].resource.kind;
        let depth = self.slots[from].resource.depth;
        let (target, _) = self.slot_for(final_url, kind)?;
        self.change_lists(target, |resource| {
            push_reference(
                resource,
                Reference {
                    from: from_url,
                    kind: ReferenceKind::Redirect,
                    line: None,
                },
            );
        });
        // The client followed the redirect, but an excluded page is not recorded as fetched:
        // the chain stays on the source, the target is known and excluded.
        if kind == ResourceKind::Page && self.in_scope(final_url) && self.excluded(final_url) {
            self.leave_unfetched(target, NotFetchedReason::Excluded);
            return None;
        }
        let resource = &mut self.slots[target].resource;
        if let Some(d) = depth
            && resource.depth.is_none_or(|old| d < old)
        {
            resource.depth = Some(d);
            self.pass_depth_on(target);
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
        // One copy of the page's URL, shared by every sample and reference it gives.
        let url = Arc::clone(&self.slots[index].resource.url);
        let crawl_links = matches!(self.slots[index].resource.kind, ResourceKind::Page)
            && (200..300).contains(&page.status)
            && self.in_scope(&url);
        if crawl_links {
            let depth = self.slots[index].resource.depth;
            let links = std::mem::take(&mut page.signals.links);
            let mut internal = 0u32;
            // Links of a page of no known depth yet, kept until it has one.
            let mut without_depth = Vec::new();
            for link in &links {
                let Some(target) = &link.resolved else {
                    continue;
                };
                if !self.in_scope(target) {
                    continue;
                }
                internal = internal.saturating_add(link.occurrences);
                let found = self.discover_page(
                    target,
                    Via::Link {
                        from: &url,
                        line: link.line,
                        rel: link.rel,
                        occurrences: link.occurrences,
                        depth,
                    },
                );
                if depth.is_none()
                    && let Some(slot) = found.and_then(|slot| u32::try_from(slot).ok())
                {
                    without_depth.push(slot);
                }
            }
            if !without_depth.is_empty() {
                self.links_without_depth.insert(index, without_depth);
            }
            page.internal_outlinks = internal;
            // Canonical, hreflang and refresh targets, in that order, read in place (no copy of
            // each target URL).
            let reference = |kind, line: Option<u32>| {
                Via::Reference(Reference {
                    from: Arc::clone(&url),
                    kind,
                    line: line.and_then(NonZeroU32::new),
                })
            };
            for canonical in &mut page.signals.canonicals {
                let Some(target) = canonical.resolved.as_deref() else {
                    continue;
                };
                let line = canonical.source.line();
                self.discover_page(target, reference(ReferenceKind::Canonical, line));
                // A self-canonical (most pages have one) shares the page's URL rather than hold
                // a second copy to the end of the crawl.
                if *target == *url {
                    canonical.resolved = Some(Arc::clone(&url));
                }
            }
            for alternate in &page.signals.hreflang {
                if let Some(target) = &alternate.resolved {
                    let line = alternate.source.line();
                    self.discover_page(target, reference(ReferenceKind::Hreflang, line));
                }
            }
            if let Some(target) = page
                .signals
                .meta_refresh
                .as_ref()
                .and_then(|r| r.resolved.as_ref())
            {
                self.discover_page(target, reference(ReferenceKind::Redirect, None));
            }
            let assets = std::mem::take(&mut page.signals.assets);
            page.assets_found = u32::try_from(assets.len()).unwrap_or(u32::MAX);
            for asset in assets {
                if let Some(target) = &asset.resolved {
                    self.discover_asset(target, asset.kind, &url, asset.line);
                }
            }
        } else {
            // Dropped, not cleared: a cleared list keeps its room for as long as the page.
            page.signals.links = ThinVec::new();
            page.assets_found = u32::try_from(page.signals.assets.len()).unwrap_or(u32::MAX);
            page.signals.assets = ThinVec::new();
        }
        self.slots[index].resource.state = ResourceState::Fetched(self.keep_page(page));
    }

    /// Where a recorded page stays: in memory up to `Bounds::pages_in_memory`, then in the
    /// page store. A page the store cannot take stays in memory, and storing stops (a full
    /// disk does not cost a record per page to find out again).
    fn keep_page(&mut self, page: FetchedPage) -> PageSlot {
        if self.pages_held >= self.config.bounds.pages_in_memory
            && let Some(store) = self.writable_page_store().cloned()
            && page_store::encode(&page, &mut self.page_record).is_some()
        {
            match store.put(&self.page_record) {
                Ok(key) => {
                    self.stats.pages_stored += 1;
                    return PageSlot::Stored {
                        key,
                        status: page.status,
                    };
                }
                Err(error) => self.page_store_failed(error.to_string()),
            }
        }
        self.pages_held += 1;
        PageSlot::Held(Box::new(page))
    }
}

/// A URL and the 1-based line naming it.
type Located = (Url, u32);

/// The absolute `xhtml:link` alternates of a parsed urlset's entries, with their lines.
fn hreflang_alternates(state: &SitemapState) -> Vec<Located> {
    match state {
        SitemapState::Parsed {
            summary, entries, ..
        } if summary.kind != SitemapKind::Index => entries
            .iter()
            .flat_map(|e| &e.alternates)
            .filter_map(|a| Url::parse(a.href.trim()).ok().map(|u| (u, a.line)))
            .collect(),
        _ => Vec::new(),
    }
}

/// A sitemap entry's URL: absolute `loc`s only (relative ones are `sitemap/loc-invalid`).
fn entry_url(entry: &Entry) -> Option<Url> {
    Url::parse(entry.loc.trim()).ok()
}
