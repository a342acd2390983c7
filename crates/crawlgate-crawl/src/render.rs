//! Rendering (`--render`): once the crawl is done, its HTML pages are loaded in headless
//! Chromium (`crawlgate-render`) and what their scripts changed is attached to the Site
//! ([`crawlgate_core::site::RenderedPage`]).
//!
//! Each page is fetched once more by crawlgate's own client (its access headers go to the site's
//! scope only) and the browser is served exactly those bytes, so the raw and rendered versions
//! compared are of one response. Every request the page then makes goes through [`Gate`]:
//! refused when robots.txt disallows it for the audited profile (as Googlebot's renderer would
//! not fetch it; recorded), spaced by the crawl's pace per host, and given the access headers
//! only when it stays in the site's scope. Robots.txt of origins the crawl never met (a CDN, an
//! API host) is fetched by the gate, for a bounded number of them.

use crate::HttpOptions;
use crate::client::Fetcher;
use crawlgate_core::crawl::{Bounds, SiteScope};
use crawlgate_core::http::HeaderLine;
use crawlgate_core::site::robots_file::ROBOTS_MAX_REDIRECTS;
use crawlgate_core::site::{
    BlockedRequest, Bound, RenderCapture, RenderOutcome, RenderedPage, ResourceKind, RobotsFile,
    Site, UrlVerdict, origin_of, robots_url_of,
};
use crawlgate_render::{
    Decision, Document, GateRequest, RenderOptions, Renderer, RequestGate, RequestOutcome,
};
use futures_util::StreamExt as _;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use tokio::time::Instant;
use url::Url;

pub use crawlgate_render::{LaunchError, find_chromium};

/// Origins besides those the crawl fetched whose robots.txt the gate fetches (the rest are
/// taken as allowing everything, unverified).
const MAX_OTHER_ORIGINS: usize = 50;

/// What `--render` asks for: how the browser runs, and how many pages it renders.
#[derive(Debug, Clone)]
pub struct RenderSettings {
    /// The browser and its per-page bounds (concurrency, time budget, requests, DOM bytes).
    /// Its `user_agent` is replaced by the crawl's.
    pub options: RenderOptions,
    /// Pages rendered at most (default 500), the shallowest first.
    pub max_pages: u64,
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            options: RenderOptions::default(),
            max_pages: 500,
        }
    }
}

/// Start the browser for `settings` with the crawl's User-Agent; a clear error when it cannot.
pub async fn launch(
    settings: &RenderSettings,
    http: &HttpOptions,
) -> Result<Renderer, LaunchError> {
    let mut options = settings.options.clone();
    options.user_agent.clone_from(&http.user_agent);
    Renderer::launch(options).await
}

/// What a render phase needs from the crawl that came before it.
pub(crate) struct RenderPhase<'a> {
    pub(crate) renderer: &'a Renderer,
    pub(crate) settings: &'a RenderSettings,
    pub(crate) http: &'a HttpOptions,
    pub(crate) fetcher: &'a Fetcher,
    pub(crate) scope: &'a SiteScope,
    /// The crawl's bounds: bodies are read as the crawl read them.
    pub(crate) bounds: &'a Bounds,
    /// When the crawl's total time runs out; `None`: never.
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: &'a crate::StopHandle,
}

impl RenderPhase<'_> {
    /// Render the site's pages, shallowest first, within the bounds, and attach the results.
    pub(crate) async fn run(&self, site: &mut Site) {
        let Some(profile_index) = site.render_profile() else {
            return;
        };
        let pages = self.pages_to_render(site, profile_index);
        let (rendered, out_of_time) = self.render_all(site, profile_index, &pages).await;
        if out_of_time {
            let seconds = self.http.total_time.as_secs();
            if !site.stats.bounds_hit.contains(&Bound::TotalTime(seconds)) {
                site.stats.bounds_hit.push(Bound::TotalTime(seconds));
            }
        }
        if self.stop.is_stopped() {
            site.stats.interrupted = true;
        }
        for (url, page) in rendered {
            site.set_rendered(&url, page);
        }
    }

    /// Render `pages` (up to the browser's concurrency at once) until done, stopped or out of
    /// time: the pages rendered, and whether time ran out.
    async fn render_all(
        &self,
        site: &Site,
        profile_index: usize,
        pages: &[Url],
    ) -> (Vec<(Url, RenderedPage)>, bool) {
        // One robots.txt cache and one pace for both gates: a host is not asked faster for
        // being rendered twice.
        let other_robots = tokio::sync::Mutex::new(HashMap::new());
        let next_start = Mutex::new(HashMap::new());
        let gate = |lift_robots| Gate {
            site,
            profile_index,
            scope: self.scope,
            credentials: self.http.access.header_lines(),
            fetcher: self.fetcher,
            max_robots_bytes: self.bounds.max_robots_bytes,
            other_robots: &other_robots,
            pace: self.http.pace,
            next_start: &next_start,
            lift_robots,
        };
        let (gate, lifted) = (gate(false), gate(true));
        // The second render, with what robots.txt refused served, is for an audit that fetches
        // disallowed URLs anyway; one that obeys robots.txt does not fetch them for it.
        let lifted = (!site.obey_robots).then_some(&lifted);
        let concurrency = self.settings.options.concurrency.max(1);
        let work = futures_util::stream::iter(pages)
            .map(|url| self.render_one(url, &gate, lifted))
            .buffer_unordered(concurrency);
        let mut work = std::pin::pin!(work);
        let mut rendered = Vec::new();
        loop {
            tokio::select! {
                biased;
                () = self.stop.stopped() => return (rendered, false),
                () = sleep_until(self.deadline) => return (rendered, true),
                next = work.next() => match next {
                    Some(Some(page)) => rendered.push(page),
                    Some(None) => {}
                    None => return (rendered, false),
                },
            }
        }
    }

    /// The crawl's HTML pages answered 200 in the site's scope and open to the profile, the
    /// shallowest first, at most [`RenderSettings::max_pages`] (the bound is recorded when it
    /// leaves some out).
    fn pages_to_render(&self, site: &mut Site, profile_index: usize) -> Vec<Url> {
        let mut candidates: Vec<(u32, &Url)> = site
            .fetched()
            .filter(|(resource, page)| {
                resource.kind == ResourceKind::Page
                    && page.status == 200
                    && page.signals.is_html
                    && self.scope.contains(&resource.url)
                    && resource.verdict(profile_index).is_none_or(|v| v.allowed)
            })
            .map(|(resource, _)| (resource.depth.unwrap_or(u32::MAX), &*resource.url))
            .collect();
        candidates.sort();
        let max = usize::try_from(self.settings.max_pages).unwrap_or(usize::MAX);
        let cut = candidates.len() > max;
        let pages: Vec<Url> = candidates
            .into_iter()
            .take(max)
            .map(|(_, url)| url.clone())
            .collect();
        if cut {
            site.stats
                .bounds_hit
                .push(Bound::MaxRendered(self.settings.max_pages));
        }
        pages
    }

    /// Fetch `url` again, render it from those bytes, and read both versions. `None` when the
    /// page no longer answers 200 with a body at its own URL.
    async fn render_one(
        &self,
        url: &Url,
        gate: &Gate<'_>,
        lifted: Option<&Gate<'_>>,
    ) -> Option<(Url, RenderedPage)> {
        let response = self
            .fetcher
            .fetch_url(url, 0, Some(self.bounds.max_page_bytes))
            .await;
        let received = response.outcome.ok()?;
        if received.status != 200 || received.final_url != *url {
            return None;
        }
        let document = Document {
            status: received.status,
            headers: received
                .headers
                .iter()
                .map(|line| (line.name.clone(), line.value.clone()))
                .collect(),
            body: received.body.clone().into(),
        };
        let rendered = self.renderer.render(url, Some(&document), gate).await;
        let refused = rendered
            .requests
            .iter()
            .any(|request| matches!(request.outcome, RequestOutcome::Blocked { .. }));
        let text_length_unblocked = match lifted {
            Some(lifted) if refused => Some(
                self.renderer
                    .render(url, Some(&document), lifted)
                    .await
                    .text_length as u64,
            ),
            _ => None,
        };
        let headers: Vec<HeaderLine> = received.headers;
        let raw_body = received.body;
        let page_url = url.clone();
        let built = tokio::task::spawn_blocking(move || {
            let blocked = rendered
                .requests
                .iter()
                .filter_map(|request| match &request.outcome {
                    RequestOutcome::Blocked { reason } => Some(BlockedRequest {
                        url: request.url.clone(),
                        resource_type: request.resource_type.clone(),
                        reason: reason.clone(),
                    }),
                    _ => None,
                })
                .collect();
            RenderedPage::from_capture(RenderCapture {
                url: &page_url,
                status: 200,
                headers: &headers,
                raw_body: &raw_body,
                dom: &rendered.dom,
                dom_truncated: rendered.dom_truncated,
                outcome: match rendered.outcome {
                    crawlgate_render::RenderOutcome::Settled => RenderOutcome::Settled,
                    crawlgate_render::RenderOutcome::TimedOut => RenderOutcome::TimedOut,
                    crawlgate_render::RenderOutcome::Failed { reason } => {
                        RenderOutcome::Failed { reason }
                    }
                },
                text_length: rendered.text_length as u64,
                text_length_unblocked,
                blocked,
                requests: u32::try_from(rendered.requests.len()).unwrap_or(u32::MAX),
                requests_cut: rendered.requests_cut,
                errors: rendered.errors,
            })
        })
        .await
        .ok()?;
        Some((url.clone(), built))
    }
}

/// Sleep until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// Decides every request a rendered page makes, as Googlebot's renderer would: robots.txt first.
struct Gate<'a> {
    site: &'a Site,
    /// The audited profile the pages are rendered as.
    profile_index: usize,
    scope: &'a SiteScope,
    /// The access headers (`--header`, `--cookie`, `--basic-auth`), for in-scope requests only.
    credentials: Vec<(String, String)>,
    fetcher: &'a Fetcher,
    /// Body bytes read per robots.txt fetched here (the crawl's bound).
    max_robots_bytes: u64,
    /// Robots.txt of origins the crawl did not fetch, fetched on first use.
    other_robots: &'a tokio::sync::Mutex<HashMap<String, Option<Arc<RobotsFile>>>>,
    pace: crate::Pace,
    /// Per `host:port`, when the next request may start.
    next_start: &'a Mutex<HashMap<String, Instant>>,
    /// Serve what robots.txt disallows too (the second render that measures what a page loses
    /// without it).
    lift_robots: bool,
}

impl RequestGate for Gate<'_> {
    fn decide<'a>(
        &'a self,
        request: &'a GateRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async move {
            let url = &request.url;
            if !matches!(url.scheme(), "http" | "https") {
                return Decision::allow(); // data:, blob:: nothing leaves the browser
            }
            let verdict = self.verdict(url).await;
            if !verdict.allowed && !self.lift_robots {
                return Decision::Block {
                    reason: blocked_reason(&verdict),
                };
            }
            self.wait_turn(url).await;
            Decision::Allow {
                extra_headers: if self.scope.contains(url) {
                    self.credentials.clone()
                } else {
                    Vec::new()
                },
            }
        })
    }
}

impl Gate<'_> {
    /// The robots.txt verdict on `url` for the render profile: from the crawl's robots.txt for
    /// its origin, else from one fetched now.
    async fn verdict(&self, url: &Url) -> UrlVerdict {
        if self.site.robots_for(url).is_some() {
            return self.site.verdict(self.profile_index, url);
        }
        let origin = origin_of(url).into_owned();
        let robots = {
            let mut known = self.other_robots.lock().await;
            if let Some(robots) = known.get(&origin) {
                robots.clone()
            } else {
                let robots = if known.len() < MAX_OTHER_ORIGINS {
                    Some(Arc::new(self.fetch_robots(url, &origin).await))
                } else {
                    None
                };
                known.insert(origin, robots.clone());
                robots
            }
        };
        match (robots, self.site.profiles.get(self.profile_index)) {
            (Some(robots), Some(profile)) => UrlVerdict::compute(Some(&robots), profile, url),
            _ => UrlVerdict::unknown(url),
        }
    }

    async fn fetch_robots(&self, url: &Url, origin: &str) -> RobotsFile {
        let robots_url = Url::parse(&robots_url_of(url)).unwrap_or_else(|_| url.clone());
        // As the crawl fetches robots.txt: Google follows five redirect hops, then reads a 404.
        let hops = u32::try_from(ROBOTS_MAX_REDIRECTS).unwrap_or(u32::MAX);
        let response = self
            .fetcher
            .fetch_url(&robots_url, hops, Some(self.max_robots_bytes))
            .await;
        RobotsFile::from_fetch(
            origin.to_owned(),
            robots_url,
            response.hops,
            response.outcome,
        )
    }

    /// Wait for the host's turn under the crawl's pace.
    async fn wait_turn(&self, url: &Url) {
        let loopback = is_loopback(url);
        let Some(interval) = self.pace.interval(loopback) else {
            return;
        };
        let host = format!(
            "{}:{}",
            url.host_str().unwrap_or(""),
            url.port_or_known_default().unwrap_or(0)
        );
        let start = {
            let mut next = self
                .next_start
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let now = Instant::now();
            let start = next.get(&host).copied().map_or(now, |at| at.max(now));
            next.insert(host, start + interval);
            start
        };
        tokio::time::sleep_until(start).await;
    }
}

/// Whether `url` names this machine (its pace then applies only when asked for).
fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => {
            name.eq_ignore_ascii_case("localhost")
                || name.to_ascii_lowercase().ends_with(".localhost")
        }
        None => false,
    }
}

/// Why a request was refused, in words: the deciding rule, or what the robots.txt fetch meant.
fn blocked_reason(verdict: &UrlVerdict) -> String {
    match (&verdict.decided_by, verdict.effect) {
        (Some(rule), _) => format!("{} {rule}", verdict.robots_url),
        (None, Some(effect)) => format!("{}: {}", verdict.robots_url, effect.as_str()),
        (None, None) => format!("{}: disallowed", verdict.robots_url),
    }
}
