//! crawlgate's network code: the one crate that talks HTTP.
//!
//! The crawl's decisions (robots.txt first per origin, Google's status semantics, sitemap
//! discovery and index recursion, the breadth-first frontier, scope, bounds) are made by the pure
//! state machine [`crawlgate_core::crawl::Crawl`]; this crate drives it over tokio + reqwest,
//! concurrently ([`crawl`]). It also fetches single files for the CLI ([`fetch_robots`],
//! [`fetch_sitemaps`]). The fixture and demo server is the `crawlgate-serve` crate.
//!
//! Nothing here prints: progress arrives as [`CrawlEvent`]s through a callback.

mod client;
mod driver;
mod fetch_one;
mod resolve;
mod roots;

pub use client::{ClientError, Fetcher};
pub use crawlgate_core::crawl::{CrawlConfig, CrawlError, CrawlEvent, Progress};
pub use driver::crawl;
pub use fetch_one::{
    SitemapFetch, SitemapLimits, SitemapSkip, SitemapStep, fetch_robots, fetch_sitemaps,
};
pub use resolve::{ResolveError, parse_resolve, resolvable_host};
pub use roots::check_root_certificates;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Notify;

/// How the crawler uses the network. Every bound has a default.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpOptions {
    /// Requests in flight at once, over all hosts (default 16).
    pub concurrency: usize,
    /// Requests in flight at once to one host and port (default 8).
    pub per_host: usize,
    /// Time allowed for one HTTP request, from connecting to the last body byte (default 20 s).
    /// Each redirect hop is a request of its own.
    pub request_timeout: Duration,
    /// Time allowed for the whole crawl (default 1 hour); past it the crawl finishes with what it
    /// saw, and the Site says the time bound was hit.
    pub total_time: Duration,
    /// The `User-Agent` header sent with every request.
    pub user_agent: String,
    /// Root certificates trusted besides the system's (default none): each item PEM text (one or
    /// more certificates) or one DER certificate. For a site behind an internal CA.
    pub extra_root_certs: Vec<Vec<u8>>,
    /// Host names answered from this list instead of DNS, like curl's `--resolve` (default
    /// none): `(host, address)`. An address with port 0 takes the URL's port (or its scheme's
    /// default); with a port, URLs that name none connect to it. URLs, `Host` headers and TLS
    /// certificate checks keep the host name. For a new server audited under the production
    /// name before the DNS switch. [`parse_resolve`] reads `HOST=ADDR[:PORT]`.
    pub resolve: Vec<(String, SocketAddr)>,
    /// How often one host (`host:port`) may be asked (default [`Pace::DEFAULT`]).
    pub pace: Pace,
}

/// The politeness of a crawl: request starts to one host spaced by at least `1 / rate` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    /// Requests started per second to one host, at most; `None`: no limit. Positive and finite.
    pub per_host_rate: Option<f64>,
    /// Whether the rate applies to loopback hosts too (`127.0.0.0/8`, `::1`, `localhost` and
    /// `*.localhost`, and names that [`HttpOptions::resolve`] maps to a loopback address): a
    /// site served on this machine is a fixture, a benchmark or a development server, never
    /// someone's production.
    pub loopback_too: bool,
    /// Whether a robots.txt `Crawl-delay` in a group that applies to crawlgate's own User-Agent
    /// token (its product token: `crawlgate`, or that of `HttpOptions::user_agent`) spaces the
    /// requests to that host further, up to [`MAX_CRAWL_DELAY`]. Google ignores the field, but
    /// crawlgate is the one crawling. On loopback hosts only with `loopback_too`.
    pub honour_crawl_delay: bool,
}

/// The longest robots.txt `Crawl-delay` honoured; a longer one is cut to it (a site asking for
/// an hour between requests would never be audited).
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(30);

impl Pace {
    /// The default an agency can run against production without asking: 5 requests per second
    /// to each host, loopback hosts unlimited.
    pub const DEFAULT: Pace = Pace {
        per_host_rate: Some(5.0),
        loopback_too: false,
        honour_crawl_delay: true,
    };

    /// No rate limit of crawlgate's own (a robots.txt `Crawl-delay` for crawlgate still counts).
    pub const UNLIMITED: Pace = Pace {
        per_host_rate: None,
        loopback_too: false,
        honour_crawl_delay: true,
    };

    /// At most `rate` requests per second to every host, loopback ones included (an explicit
    /// `--rate`); `None` when `rate` is not positive and finite.
    pub fn per_second(rate: f64) -> Option<Pace> {
        (rate.is_finite() && rate > 0.0).then_some(Pace {
            per_host_rate: Some(rate),
            loopback_too: true,
            honour_crawl_delay: true,
        })
    }

    /// The least time between two request starts to a host, `None` for no limit.
    pub fn interval(&self, loopback: bool) -> Option<Duration> {
        if loopback && !self.loopback_too {
            return None;
        }
        self.per_host_rate
            .and_then(|rate| Duration::try_from_secs_f64(1.0 / rate).ok())
    }
}

impl Default for Pace {
    fn default() -> Self {
        Pace::DEFAULT
    }
}

impl std::fmt::Display for Pace {
    /// `at most 5 requests/s per host (loopback hosts unlimited)`, or `no rate limit`; then
    /// `, Crawl-delay ignored` when it is.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.per_host_rate {
            None => f.write_str("no rate limit")?,
            Some(rate) => {
                write!(f, "at most {rate} requests/s per host")?;
                if !self.loopback_too {
                    f.write_str(" (loopback hosts unlimited)")?;
                }
            }
        }
        if !self.honour_crawl_delay {
            f.write_str(", Crawl-delay ignored")?;
        }
        Ok(())
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            concurrency: 16,
            per_host: 8,
            request_timeout: Duration::from_secs(20),
            total_time: Duration::from_secs(60 * 60),
            user_agent: default_user_agent(),
            extra_root_certs: Vec::new(),
            resolve: Vec::new(),
            pace: Pace::DEFAULT,
        }
    }
}

/// `crawlgate/<version> (+https://github.com/crawlgate/crawlgate)`: crawlgate's own User-Agent,
/// used for every request (verdicts are computed for the audited profiles, never for it).
pub fn default_user_agent() -> String {
    format!(
        "crawlgate/{} (+https://github.com/crawlgate/crawlgate)",
        env!("CARGO_PKG_VERSION")
    )
}

/// Stops a running crawl from another task or a signal handler; the crawl then finishes with
/// what it saw (partial).
#[derive(Debug, Clone, Default)]
pub struct StopHandle {
    inner: Arc<StopInner>,
}

#[derive(Debug, Default)]
struct StopInner {
    stopped: AtomicBool,
    notify: Notify,
}

impl StopHandle {
    /// A handle that has not been stopped.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask the crawl to stop. Idempotent; callable from any thread.
    pub fn stop(&self) {
        self.inner.stopped.store(true, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }

    /// Whether [`StopHandle::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.inner.stopped.load(Ordering::SeqCst)
    }

    /// Resolves once the handle is stopped.
    pub(crate) async fn stopped(&self) {
        loop {
            let notified = self.inner.notify.notified();
            if self.is_stopped() {
                return;
            }
            notified.await;
        }
    }
}
