//! The concurrent loop that drives [`Crawl`] over HTTP.
//!
//! Keep asking the state machine for requests until it has none ready or the concurrency is full;
//! hold a request back while its host is at its limit of requests in flight or, under a rate
//! limit ([`crate::Pace`]), until its host's next start is due; run each request on a task
//! (fetch, then parse and extract: on that task for a small body, on a blocking thread for a
//! large one); record each prepared response on this loop; forward events;
//! stop when nothing is in flight and nothing is ready, when the total time is up, or when the
//! stop handle is pulled.

use crate::client::Fetcher;
use crate::page_file::PageFile;
use crate::render::{RenderPhase, RenderSettings};
use crate::retry::{HostSignal, asks_again, signal_of};
use crate::store::{CrawlStore, Recorder};
use crate::{HttpOptions, MAX_CRAWL_DELAY, Pace, Retry, StopHandle};
use crawlgate_core::Site;
use crawlgate_core::crawl::{
    Crawl, CrawlConfig, CrawlError, CrawlEvent, Prepared, Preparer, Request, RequestKind, Response,
};
use crawlgate_core::robots::product_token_of_header;
use crawlgate_core::site::{FailureKind, HonouredCrawlDelay, HostBackoff, RobotsEffect, origin_of};
use crawlgate_render::Renderer;
// foldhash, not SipHash: `fill` looks hosts up for every held-back request on every pass.
use foldhash::{HashMap, HashMapExt as _};
use std::collections::VecDeque;
use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::task::{Id, JoinSet};
use tokio::time::Instant;

/// Requests taken from the state machine but held back by the per-host limit, per unit of
/// concurrency. Bounded so that a slow host cannot pull the whole frontier into memory.
const WAITING_PER_SLOT: usize = 4;

/// Crawl from `config.start_url` over HTTP, within `config`'s scope and bounds and `http`'s
/// limits, reporting progress to `on_event`. Fetch failures, bounds hit and interruptions are
/// data in the returned [`Site`]; only a crawl that cannot start is an error.
///
/// Events: everything [`Crawl::drain_events`] yields, plus a [`CrawlEvent::Progress`] after each
/// batch of responses (one or more) and a final [`CrawlEvent::Done`].
///
/// A start URL (or `--sitemap` URL) with credentials in it (`https://user:pass@host/`) is
/// crawled without them; they become [`crate::Access::basic_auth`] when that is not set, sent
/// to the crawl's scope like the rest of [`HttpOptions::access`].
pub async fn crawl(
    config: CrawlConfig,
    http: &HttpOptions,
    stop: &StopHandle,
    on_event: &(dyn Fn(&CrawlEvent) + Send + Sync),
) -> Result<Site, CrawlError> {
    crawl_and_render(config, http, None, stop, on_event).await
}

/// [`crawl`], then (with a browser) the crawl's HTML pages rendered in it within the same total
/// time ([`crate::RenderSettings`]; the results on each page's `rendered`).
pub async fn crawl_and_render(
    config: CrawlConfig,
    http: &HttpOptions,
    render: Option<(&Renderer, &RenderSettings)>,
    stop: &StopHandle,
    on_event: &(dyn Fn(&CrawlEvent) + Send + Sync),
) -> Result<Site, CrawlError> {
    crawl_with_store(config, http, render, None, stop, on_event).await
}

/// A page file for a crawl that may fetch more than `Bounds::pages_in_memory` pages and
/// assets, beside the crawl store (or in the system's temporary folder). When it cannot be
/// made, the pages stay in memory and the Site says why.
fn give_page_store(crawl: &mut Crawl, store: Option<&CrawlStore>) {
    let bounds = &crawl.config().bounds;
    if bounds.pages_in_memory >= bounds.max_pages.saturating_add(bounds.max_assets) {
        return;
    }
    let dir = store
        .and_then(|store| store.path().parent())
        .map_or_else(std::env::temp_dir, Path::to_path_buf);
    match PageFile::create_in(&dir) {
        Ok(file) => crawl.set_page_store(Arc::new(file)),
        Err(error) => crawl.page_store_failed(format!("{}: {error}", dir.display())),
    }
}

/// [`crawl_and_render`] with a [`CrawlStore`]: every request the crawl hands out is answered
/// from the store when an earlier run recorded its response (a resumed crawl), else fetched,
/// and every response fetched is recorded in it. The store must be bound to this crawl
/// ([`CrawlStore::bind`]).
pub async fn crawl_with_store(
    mut config: CrawlConfig,
    http: &HttpOptions,
    render: Option<(&Renderer, &RenderSettings)>,
    store: Option<&CrawlStore>,
    stop: &StopHandle,
    on_event: &(dyn Fn(&CrawlEvent) + Send + Sync),
) -> Result<Site, CrawlError> {
    let mut http = http.clone();
    let from_url = crate::take_userinfo(&mut config.start_url);
    for sitemap in &mut config.sitemaps {
        crate::take_userinfo(sitemap);
    }
    if http.access.basic_auth.is_none() {
        http.access.basic_auth = from_url;
    }
    let http = &http;
    let mut crawl = Crawl::new(config)?;
    give_page_store(&mut crawl, store);
    let fetcher = Fetcher::new(http)
        .map_err(|error| CrawlError::HttpClient(error.to_string()))?
        .send_credentials_to(crawl.site_scope());
    let mut driver = Driver {
        preparer: crawl.preparer(),
        crawl,
        fetcher,
        concurrency: http.concurrency.max(1),
        per_host_limit: http.per_host.map(|n| n.max(1)),
        running: JoinSet::new(),
        tasks: HashMap::new(),
        per_host: HashMap::new(),
        waiting: VecDeque::new(),
        pacing: Pacing::new(http),
        recorder: store.and_then(CrawlStore::recorder),
        store,
        sitemap_parse: Arc::new(Semaphore::new(1)),
    };
    // Past the deadline the crawl stops handing out requests; `None` when it lies beyond what a
    // clock can represent (no bound in practice).
    let deadline = Instant::now().checked_add(http.total_time);
    loop {
        if stop.is_stopped() {
            driver.crawl.interrupt();
            break;
        }
        driver.fill();
        forward(&mut driver.crawl, on_event);
        if driver.running.is_empty() && driver.waiting.is_empty() {
            // Nothing running and nothing held back: the state machine had nothing ready.
            break;
        }
        // While requests are held back only by the rate limit, wake when the first is due.
        let next_due = driver.next_due();
        tokio::select! {
            biased;
            () = stop.stopped() => {
                driver.crawl.interrupt();
                break;
            }
            () = sleep_until(deadline) => {
                driver.crawl.time_bound_reached(http.total_time.as_secs());
                break;
            }
            Some(joined) = driver.running.join_next_with_id() => {
                driver.completed(joined);
                // Record whatever else has finished meanwhile before refilling: one wake-up of
                // this loop then serves several responses.
                while let Some(joined) = driver.running.try_join_next_with_id() {
                    driver.completed(joined);
                }
                forward(&mut driver.crawl, on_event);
                on_event(&CrawlEvent::Progress(driver.progress()));
            }
            () = sleep_until(next_due) => {}
        }
    }
    // Requests still in flight are abandoned; `finish` records them as interrupted.
    driver.running.abort_all();
    forward(&mut driver.crawl, on_event);
    let backoffs = driver.pacing.backoffs();
    driver.crawl.backed_off(backoffs);
    let scope = driver.crawl.site_scope().clone();
    let bounds = driver.crawl.config().bounds.clone();
    let fetcher = driver.fetcher.clone();
    let mut site = driver.crawl.finish();
    if let Some((renderer, settings)) = render
        && !stop.is_stopped()
        && deadline.is_none_or(|at| Instant::now() < at)
    {
        RenderPhase {
            renderer,
            settings,
            http,
            fetcher: &fetcher,
            scope: &scope,
            bounds: &bounds,
            deadline,
            stop,
        }
        .run(&mut site)
        .await;
    }
    on_event(&CrawlEvent::Done(site.stats.clone()));
    Ok(site)
}

struct Driver<'store> {
    crawl: Crawl,
    preparer: Preparer,
    fetcher: Fetcher,
    concurrency: usize,
    /// [`HttpOptions::per_host`].
    per_host_limit: Option<usize>,
    /// Each task fetches one request and prepares its response (or gives it back for a retry).
    running: JoinSet<Option<Fetched>>,
    /// The request of each running task, so that a task that panicked still completes.
    tasks: HashMap<Id, Pending>,
    /// Running requests per `host:port`.
    per_host: HashMap<String, usize>,
    /// Requests handed out by the state machine whose host is at its limit or not yet due, in
    /// order (a retry first).
    waiting: VecDeque<Pending>,
    pacing: Pacing,
    /// Answers requests an earlier run recorded.
    store: Option<&'store CrawlStore>,
    /// Records each response fetched (the store's writer).
    recorder: Option<Recorder>,
    /// One large sitemap parsed at a time while urlsets keep their entries. The state machine
    /// fetches two sitemaps at once; a parse keeping 50,000 entries holds tens of megabytes
    /// until it is recorded, so fetches overlap and such parses take turns (once entries are
    /// dropped as they are parsed, parses run side by side again).
    sitemap_parse: Arc<Semaphore>,
}

/// A request handed out by the state machine and not yet recorded.
struct Pending {
    request: Request,
    /// `host:port`.
    host: String,
    /// Times it was asked again after a 429 or 503.
    retries: u32,
    /// Answered from the store: no request to its host is open.
    replayed: bool,
}

/// What a task hands back.
struct Fetched {
    /// The prepared response; `None` when it is to be asked again.
    prepared: Option<Prepared>,
    /// What the answer says about the host's health.
    signal: HostSignal,
}

/// When each host may be asked next, under [`HttpOptions::pace`].
struct Pacing {
    pace: Pace,
    /// The product token whose robots.txt `Crawl-delay` counts: crawlgate's own.
    own_token: String,
    /// Host names that `HttpOptions::resolve` sends to a loopback address.
    resolved_to_loopback: Vec<String>,
    /// Per `host:port`, from its first request on.
    hosts: HashMap<String, HostPace>,
    /// Whether any host has an interval or a pause: without one nothing is ever held back for
    /// its turn.
    any_paced: bool,
    retry: Retry,
}

/// One host's pace.
struct HostPace {
    /// The least time between two starts; `None`: no limit.
    interval: Option<Duration>,
    /// The earliest next start.
    next: Instant,
    /// Whether the host is on this machine and left unpaced ([`Pace::loopback_too`] not set):
    /// then it honours no Crawl-delay and is paused briefly at most.
    unpaced_loopback: bool,
    /// The longest pause it gets ([`pause_bound`]).
    pause_bound: Duration,
    /// Timeouts, dropped connections and 5xx answers in a row (the second one pauses).
    failures_in_a_row: u32,
    /// Pauses in a row (each doubles the next back-off).
    pauses_in_a_row: u32,
    /// How the host was backed off, for the stats; `None` while it never was.
    backoff: Option<HostBackoff>,
}

impl Pacing {
    fn new(http: &HttpOptions) -> Self {
        Pacing {
            pace: http.pace,
            own_token: product_token_of_header(&http.user_agent)
                .unwrap_or(&http.user_agent)
                .to_owned(),
            resolved_to_loopback: http
                .resolve
                .iter()
                .filter(|(_, addr)| addr.ip().is_loopback())
                .map(|(host, _)| host.to_ascii_lowercase())
                .collect(),
            hosts: HashMap::new(),
            any_paced: false,
            retry: http.retry,
        }
    }

    /// A host's answer says something about its health: an overloaded or failing host is
    /// paused (and an overloaded one slowed down). Returns whether the request is to be asked
    /// again: an overloaded answer within the retry bound.
    fn answered(&mut self, pending: &Pending, signal: HostSignal, now: Instant) -> bool {
        let retry_within = self.retry_within(pending);
        let Some(pace) = self.hosts.get_mut(&pending.host) else {
            return false;
        };
        let (retry_after, overloaded) = match signal {
            HostSignal::Healthy => {
                pace.failures_in_a_row = 0;
                pace.pauses_in_a_row = 0;
                return false;
            }
            HostSignal::Overloaded { retry_after } => (retry_after, true),
            HostSignal::Failing => {
                pace.failures_in_a_row += 1;
                if pace.failures_in_a_row < 2 {
                    return false;
                }
                (None, false)
            }
        };
        let backoff = pace.backoff.get_or_insert_with(|| HostBackoff {
            origin: origin_of(&pending.request.url).into_owned(),
            ..HostBackoff::default()
        });
        if overloaded {
            backoff.overloaded += 1;
        } else {
            backoff.repeated_failures += 1;
        }
        // A paced host answering 429 or 503 is asked at half its rate from then on, not only
        // paused. An unpaced one (a loopback host: a fixture or a development server) is
        // paused only, so that its crawl stays as fast as it allows.
        if let Some(interval) = pace.interval.filter(|_| overloaded) {
            let slower = (interval * 2).min(MAX_SLOWED_INTERVAL);
            if slower > interval {
                pace.interval = Some(slower);
                backoff.slowed_to_millis = Some(millis(slower));
            }
        }
        let doubling = pace.pauses_in_a_row.min(16);
        pace.pauses_in_a_row += 1;
        let pause = retry_after
            .unwrap_or_else(|| self.retry.backoff.saturating_mul(1 << doubling))
            .min(pace.pause_bound);
        pace.next = pace.next.max(now + pause);
        backoff.longest_pause_millis = backoff.longest_pause_millis.max(millis(pause));
        self.any_paced = true;
        let again = asks_again(signal, retry_within);
        if again {
            backoff.retries += 1;
        }
        again
    }

    /// The longest pause after which `pending` may be asked again, `None` when it may not
    /// (it was asked again as often as [`Retry::max_retries`] allows).
    fn retry_within(&self, pending: &Pending) -> Option<Duration> {
        if pending.retries >= self.retry.max_retries {
            return None;
        }
        Some(
            self.hosts
                .get(&pending.host)
                .map_or(self.retry.max_pause, |pace| pace.pause_bound),
        )
    }

    /// How each host that was backed off was, for the stats.
    fn backoffs(&self) -> Vec<HostBackoff> {
        self.hosts
            .values()
            .filter_map(|pace| pace.backoff.clone())
            .collect()
    }

    /// Whether a request to `host` (`host:port`) may start now.
    /// Whether `host` is on this machine and left unpaced; false before its first request.
    fn is_unpaced_loopback(&self, host: &str) -> bool {
        self.hosts
            .get(host)
            .is_some_and(|pace| pace.unpaced_loopback)
    }

    fn is_due(&self, host: &str, now: Instant) -> bool {
        self.hosts.get(host).is_none_or(|pace| pace.next <= now)
    }

    /// A request to `host` starts now: its next one is due an interval later.
    fn started(&mut self, request: &Request, host: &str, now: Instant) {
        if let Some(pace) = self.hosts.get_mut(host) {
            if let Some(interval) = pace.interval {
                pace.next = pace.next.max(now) + interval;
            }
            return;
        }
        let loopback = self.is_loopback(request);
        let unpaced_loopback = loopback && !self.pace.loopback_too;
        let interval = self.pace.interval(loopback);
        self.any_paced |= interval.is_some();
        self.hosts.insert(
            host.to_owned(),
            HostPace {
                interval,
                next: now + interval.unwrap_or_default(),
                unpaced_loopback,
                pause_bound: pause_bound(&self.retry, unpaced_loopback),
                failures_in_a_row: 0,
                pauses_in_a_row: 0,
                backoff: None,
            },
        );
    }

    /// The `Crawl-delay` of `file` for crawlgate's own token, when it applies to `host` (whose
    /// robots.txt request started its pace): honoured, on a host that is paced at all, and
    /// longer than the pace's interval. Raises the host's interval to it (at most
    /// [`MAX_CRAWL_DELAY`]) and says what it chose.
    fn apply_crawl_delay(
        &mut self,
        host: &str,
        file: &crawlgate_core::site::RobotsFile,
    ) -> Option<HonouredCrawlDelay> {
        let pace = self.hosts.get_mut(host)?;
        if !self.pace.honour_crawl_delay
            || file.effect != RobotsEffect::Rules
            || pace.unpaced_loopback
        {
            return None;
        }
        let delay = file.parsed.crawl_delay(&[self.own_token.as_str()])?;
        let wait = Duration::try_from_secs_f64(delay.seconds)
            .unwrap_or(MAX_CRAWL_DELAY)
            .min(MAX_CRAWL_DELAY);
        if wait.is_zero() || pace.interval.is_some_and(|interval| interval >= wait) {
            return None;
        }
        pace.interval = Some(wait);
        // The first page waits too, counted from robots.txt's answer.
        pace.next = pace.next.max(Instant::now() + wait);
        self.any_paced = true;
        Some(HonouredCrawlDelay {
            origin: file.origin.clone(),
            millis: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
            line: delay.line,
        })
    }

    /// When `host`'s next request is due (`None` before its first).
    fn due(&self, host: &str) -> Option<Instant> {
        self.hosts.get(host).map(|pace| pace.next)
    }

    fn is_loopback(&self, request: &Request) -> bool {
        match request.url.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
            Some(url::Host::Domain(name)) => {
                let name = name.trim_end_matches('.').to_ascii_lowercase();
                name == "localhost"
                    || name.ends_with(".localhost")
                    || self.resolved_to_loopback.contains(&name)
            }
            None => false,
        }
    }
}

impl Driver<'_> {
    /// The state machine's counts, with `in_flight` the requests actually open: the state
    /// machine also counts those held back here for their host's turn.
    fn progress(&self) -> crawlgate_core::crawl::Progress {
        crawlgate_core::crawl::Progress {
            in_flight: self.running.len() as u64,
            ..self.crawl.progress()
        }
    }

    /// Start requests until the concurrency is full or nothing can start.
    fn fill(&mut self) {
        let now = Instant::now();
        // Held-back requests first, in the order the frontier gave them.
        let mut index = 0;
        while self.running.len() < self.concurrency && index < self.waiting.len() {
            if self.can_start(&self.waiting[index].host, now) {
                if let Some(pending) = self.waiting.remove(index) {
                    self.start(pending);
                }
            } else {
                index += 1;
            }
        }
        let max_waiting = self.concurrency.saturating_mul(WAITING_PER_SLOT);
        while self.running.len() < self.concurrency && self.waiting.len() < max_waiting {
            let Some(request) = self.crawl.next_request() else {
                break;
            };
            let mut pending = Pending {
                host: host_key(&request),
                request,
                retries: 0,
                replayed: false,
            };
            if let Some(response) = self.store.and_then(|store| store.lookup(&pending.request)) {
                pending.replayed = true;
                self.replay(pending, response);
            } else if self.can_start(&pending.host, now) {
                self.start(pending);
            } else {
                self.waiting.push_back(pending);
            }
        }
    }

    /// Whether a request to `host` may start now: the host has room and is due.
    fn can_start(&self, host: &str, now: Instant) -> bool {
        self.has_room(host) && self.pacing.is_due(host, now)
    }

    /// Whether `host` has fewer requests in flight than its limit.
    fn has_room(&self, host: &str) -> bool {
        self.per_host.get(host).copied().unwrap_or(0) < self.host_limit(host)
    }

    /// Requests in flight at once to `host` at most ([`HttpOptions::per_host`]).
    fn host_limit(&self, host: &str) -> usize {
        match self.per_host_limit {
            Some(limit) => limit,
            None if self.pacing.is_unpaced_loopback(host) => self.concurrency,
            None => crate::DEFAULT_PER_HOST,
        }
    }

    /// When the loop must wake to start a held-back request that waits for its host's turn
    /// (one whose host is full waits for a running request to finish instead).
    fn next_due(&self) -> Option<Instant> {
        if !self.pacing.any_paced || self.running.len() >= self.concurrency {
            return None;
        }
        earliest_turn(
            self.waiting
                .iter()
                .filter(|pending| self.has_room(&pending.host))
                .map(|pending| self.pacing.due(&pending.host)),
        )
    }

    fn start(&mut self, pending: Pending) {
        self.pacing
            .started(&pending.request, &pending.host, Instant::now());
        *self.per_host.entry(pending.host.clone()).or_insert(0) += 1;
        let fetcher = self.fetcher.clone();
        let preparer = self.preparer.clone();
        let recorder = self.recorder.clone();
        let task_request = pending.request.clone();
        let retry_within = self.pacing.retry_within(&pending);
        let sitemap_parse = Arc::clone(&self.sitemap_parse);
        let handle = self.running.spawn(async move {
            let response = fetcher.fetch(&task_request).await;
            let signal = signal_of(&response, std::time::SystemTime::now());
            if asks_again(signal, retry_within) {
                return Some(Fetched {
                    prepared: None,
                    signal,
                });
            }
            if let Some(recorder) = recorder {
                recorder.record(&task_request, &response).await;
            }
            Some(Fetched {
                prepared: Some(prepare(preparer, task_request, response, &sitemap_parse).await?),
                signal,
            })
        });
        self.tasks.insert(handle.id(), pending);
    }

    /// Complete `pending` with the response an earlier run stored: prepared on a task like a
    /// fetched one, with no request open to its host. Its host's pace starts as it would have
    /// (robots.txt's Crawl-delay then applies to what is still fetched).
    fn replay(&mut self, pending: Pending, response: Response) {
        self.pacing
            .started(&pending.request, &pending.host, Instant::now());
        let preparer = self.preparer.clone();
        let task_request = pending.request.clone();
        let sitemap_parse = Arc::clone(&self.sitemap_parse);
        let handle = self.running.spawn(async move {
            Some(Fetched {
                prepared: Some(prepare(preparer, task_request, response, &sitemap_parse).await?),
                signal: HostSignal::Healthy,
            })
        });
        self.tasks.insert(handle.id(), pending);
    }

    /// Record a finished task's response.
    fn completed(&mut self, joined: Result<(Id, Option<Fetched>), tokio::task::JoinError>) {
        let (id, fetched) = match joined {
            Ok((id, fetched)) => (id, fetched),
            Err(error) => (error.id(), None),
        };
        let Some(mut pending) = self.tasks.remove(&id) else {
            return;
        };
        if !pending.replayed
            && let Some(count) = self.per_host.get_mut(&pending.host)
        {
            *count = count.saturating_sub(1);
        }
        let (prepared, signal) = match fetched {
            Some(Fetched { prepared, signal }) => (prepared, signal),
            None => (None, HostSignal::Healthy),
        };
        // A replayed answer says nothing of the host's health now.
        let again = !pending.replayed && self.pacing.answered(&pending, signal, Instant::now());
        if prepared.is_none() && again {
            pending.retries += 1;
            self.waiting.push_front(pending);
            return;
        }
        let Pending { request, host, .. } = pending;
        // A task that panicked (a bug, never input) still completes its request, as a failure.
        let prepared = prepared.unwrap_or_else(|| {
            self.preparer.prepare(
                &request,
                Response {
                    hops: Vec::new(),
                    outcome: Err((
                        FailureKind::InvalidResponse,
                        "crawlgate failed while processing this response".to_owned(),
                    )),
                },
            )
        });
        self.crawl.complete_prepared(&request, prepared);
        if request.kind == RequestKind::Robots {
            let origin = origin_of(&request.url).into_owned();
            if let Some(file) = self.crawl.robots_file(&origin)
                && let Some(honoured) = self.pacing.apply_crawl_delay(&host, file)
            {
                self.crawl.honoured_crawl_delay(honoured);
            }
        }
    }
}

/// The longest pause on a loopback host that is not paced (a fixture, a development server):
/// its `Retry-After` is honoured up to this, so that a test or a demo never waits a minute.
const LOOPBACK_MAX_PAUSE: Duration = Duration::from_secs(3);

/// The longest pause a host gets: [`Retry::max_pause`], or less on an unpaced loopback host.
fn pause_bound(retry: &Retry, unpaced_loopback: bool) -> Duration {
    if unpaced_loopback {
        retry.max_pause.min(LOOPBACK_MAX_PAUSE)
    } else {
        retry.max_pause
    }
}

/// The most a host's pace is slowed down to by 429 and 503 answers.
const MAX_SLOWED_INTERVAL: Duration = Duration::from_secs(10);

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Prepare `response`: on this task when that is quick, else on a blocking thread (a sitemap
/// that keeps its entries once `sitemap_parse` lets it). `None` when the blocking thread
/// panicked (the request then completes as a failure).
async fn prepare(
    preparer: Preparer,
    request: Request,
    response: Response,
    sitemap_parse: &Semaphore,
) -> Option<Prepared> {
    if is_quick_to_prepare(&response) {
        return Some(preparer.prepare(&request, response));
    }
    // The semaphore is never closed; held until the parse is done.
    let _turn = match request.kind {
        RequestKind::Sitemap if preparer.keeps_sitemap_entries() => {
            sitemap_parse.acquire().await.ok()
        }
        _ => None,
    };
    tokio::task::spawn_blocking(move || preparer.prepare(&request, response))
        .await
        .ok()
}

/// Bodies up to this size are prepared on the network task that fetched them.
const PREPARE_INLINE_MAX_BYTES: usize = 32 * 1024;

/// Whether preparing `response` is short enough to do on a network thread. Parsing and
/// extraction are CPU work; a large page would hold up the network threads, so it goes to a
/// blocking thread. A small one costs less there than the two thread hand-offs (wake-ups,
/// futex calls) a blocking thread adds: on 20,000 pages of 2.5 KB, preparing them inline cut
/// the crawl's CPU by 14% and its time by 10% (BENCHMARKS.md, "Crawler").
fn is_quick_to_prepare(response: &Response) -> bool {
    match &response.outcome {
        Ok(received) => received.body.len() <= PREPARE_INLINE_MAX_BYTES,
        Err(_) => true,
    }
}

/// `host:port` of a request, the unit of the per-host limit.
fn host_key(request: &Request) -> String {
    format!(
        "{}:{}",
        request.url.host_str().unwrap_or(""),
        request.url.port_or_known_default().unwrap_or(0)
    )
}

/// The earliest of the turns of held-back requests whose host has room (`None`: a host not
/// asked yet, due at once). A turn already past counts: it came after `fill` looked at the
/// clock, and without a wake-up for it a crawl with nothing in flight would wait for its
/// deadline.
fn earliest_turn(turns: impl Iterator<Item = Option<Instant>>) -> Option<Instant> {
    let now = Instant::now();
    turns.map(|turn| turn.unwrap_or(now)).min()
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

fn forward(crawl: &mut Crawl, on_event: &(dyn Fn(&CrawlEvent) + Send + Sync)) {
    for event in crawl.drain_events() {
        on_event(&event);
    }
}

#[cfg(test)]
mod tests {
    use super::earliest_turn;
    use std::time::Duration;
    use tokio::time::Instant;

    #[test]
    fn a_turn_that_came_while_the_loop_decided_still_wakes_it() {
        let past = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .unwrap();
        let later = Instant::now() + Duration::from_secs(1);
        assert_eq!(
            earliest_turn([Some(past), Some(later)].into_iter()),
            Some(past)
        );
        assert!(earliest_turn([None, Some(later)].into_iter()).is_some_and(|at| at < later));
        assert_eq!(earliest_turn(std::iter::empty()), None);
    }
}
