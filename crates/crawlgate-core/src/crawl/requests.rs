//! Handing out requests: robots.txt first per origin, then the frontier's queues, within the
//! bounds.

use super::{
    Crawl, CrawlEvent, OriginState, Progression, Purpose, Request, RequestId, RequestKind,
};
use crate::site::robots_file::ROBOTS_MAX_REDIRECTS;
use crate::site::{Bound, NotFetchedReason, ResourceKind, UrlVerdict, origin_of};
use std::collections::VecDeque;
use url::Url;

impl Crawl {
    pub(super) fn issue(&mut self, url: Url, kind: RequestKind, purpose: Purpose) -> Request {
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

    pub(super) fn next_from(&mut self, queue: QueueName) -> Option<Request> {
        loop {
            let index = self.queue(queue).pop_front()?;
            if self.slots[index].progression != Progression::Queued {
                continue; // a duplicate entry, or filled in by a redirect meanwhile
            }
            let is_asset = matches!(self.slots[index].resource.kind, ResourceKind::Asset(_));
            let url = Url::clone(&self.slots[index].resource.url);
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
    pub(super) fn ensure_origin(&mut self, url: &Url) -> bool {
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
    pub(super) fn ensure_origin_for_proof(&mut self, url: &Url) {
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

    pub(super) fn hit(&mut self, bound: Bound) {
        if !self.stats.bounds_hit.contains(&bound) {
            self.stats.bounds_hit.push(bound.clone());
            self.events.push(CrawlEvent::BoundHit(bound));
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) enum QueueName {
    Links,
    Assets,
    Seeds,
}
