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
mod page_file;
mod render;
mod resolve;
mod retry;
mod roots;
mod store;
mod tls;

pub use client::{ClientError, Fetcher};
pub use crawlgate_core::crawl::{CrawlConfig, CrawlError, CrawlEvent, Progress};
pub use crawlgate_render::{RenderOptions, Renderer};
pub use driver::{crawl, crawl_and_render, crawl_with_store};
pub use fetch_one::{
    SitemapFetch, SitemapLimits, SitemapSkip, SitemapStep, fetch_robots, fetch_sitemaps,
};
pub use page_file::PageFile;
pub use render::{LaunchError, RenderSettings, find_chromium, launch};
pub use resolve::{ResolveError, parse_resolve, resolvable_host};
pub use roots::check_root_certificates;
pub use store::{CrawlStore, MAX_STORE_BYTES, STORE_FILE, StoreError, StoreSummary};

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Notify;
use url::Url;

/// Requests in flight at once to one host when [`HttpOptions::per_host`] does not say.
pub const DEFAULT_PER_HOST: usize = 8;

/// How the crawler uses the network. Every bound has a default.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpOptions {
    /// Requests in flight at once, over all hosts (default 16).
    pub concurrency: usize,
    /// Requests in flight at once to one host and port. `None` (the default):
    /// [`DEFAULT_PER_HOST`] to each host, and to a loopback host left unpaced (see
    /// [`Pace::loopback_too`]) as many as `concurrency` allows: like the pace, the cap spares
    /// someone's server, and a site served on this machine is no one else's.
    pub per_host: Option<usize>,
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
    /// What to do when a host answers 429 or 503, or keeps failing (default
    /// [`Retry::DEFAULT`]).
    pub retry: Retry,
    /// Credentials and headers for a site behind authentication (default none), sent to the
    /// crawl's scope only.
    pub access: Access,
}

/// How the crawl backs off a host that is overloaded or failing.
///
/// A 429 (Too Many Requests) or 503 (Service Unavailable) answer pauses the host for its
/// `Retry-After` (seconds or an HTTP date), or without one for the back-off
/// ([`Retry::backoff`], doubling with each pause in a row), at most [`Retry::max_pause`] (3 s
/// on a loopback host that is not paced); halves its rate (when it has one: see [`Pace`]); and
/// asks again, up to [`Retry::max_retries`] times per URL, unless the `Retry-After` is past the
/// bound (asking before it would not honour it: the answer stands). The last answer is recorded. A
/// timeout, a dropped connection or another 5xx after another one pauses the host for the
/// back-off too, without asking again (the answer is the finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    /// Times one URL is asked again after a 429 or 503 (default 2; 0: never).
    pub max_retries: u32,
    /// The longest pause (default 60 s): a longer `Retry-After` pauses the host this long and
    /// the URL is not asked again.
    pub max_pause: Duration,
    /// The first pause without `Retry-After` (default 1 s), doubling with each failure in a row
    /// up to `max_pause`.
    pub backoff: Duration,
}

impl Retry {
    /// 2 retries, pauses of 1 s doubling up to 60 s.
    pub const DEFAULT: Retry = Retry {
        max_retries: 2,
        max_pause: Duration::from_secs(60),
        backoff: Duration::from_secs(1),
    };
}

impl Default for Retry {
    fn default() -> Self {
        Retry::DEFAULT
    }
}

/// What a site behind authentication needs (a staging site before a migration): sent with
/// every request to a URL in the crawl's scope (pages, robots.txt, sitemaps, assets, redirect
/// hops that stay in scope) and with no other request, so a third-party host never sees them.
///
/// Every value here is a secret: `Debug` shows header names only, and nothing in crawlgate
/// writes the values anywhere but into the requests.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// Extra request headers, `(name, value)`, checked by [`Access::header`].
    pub headers: Vec<(String, String)>,
    /// A `Cookie` header value (`name=value; other=value`).
    pub cookie: Option<String>,
    /// HTTP basic authentication.
    pub basic_auth: Option<BasicAuth>,
}

/// A user name and password for HTTP basic authentication (RFC 7617).
#[derive(Clone, PartialEq, Eq)]
pub struct BasicAuth {
    pub user: String,
    pub password: String,
}

/// Why an access setting cannot be used. Never quotes a value, only names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccessError {
    #[error("a header is written `Name: value`; this one has no colon")]
    NoColon,
    #[error("`{0}` is not a valid header name")]
    BadName(String),
    #[error("the value of header `{0}` holds a character a header cannot carry (a line break?)")]
    BadValue(String),
    #[error("header `{0}` is set by crawlgate itself{1}")]
    Reserved(String, &'static str),
    #[error("basic authentication is written `USER:PASSWORD`; the colon is missing")]
    BasicAuthNoColon,
    #[error("the cookie holds a character a header cannot carry (a line break?)")]
    BadCookie,
}

impl Access {
    /// Read a header line `Name: value` given by the user. Names are checked as HTTP tokens,
    /// values as header values (no line breaks); `Host`, `Content-Length`, `Transfer-Encoding`
    /// and `Connection` are crawlgate's own, and `User-Agent` has its own option.
    pub fn header(line: &str) -> Result<(String, String), AccessError> {
        let Some((name, value)) = line.split_once(':') else {
            return Err(AccessError::NoColon);
        };
        let name = name.trim();
        let value = value.trim();
        let parsed = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| AccessError::BadName(name.to_owned()))?;
        match parsed.as_str() {
            "user-agent" => {
                return Err(AccessError::Reserved(
                    name.to_owned(),
                    " (give it with --user-agent)",
                ));
            }
            "host" | "content-length" | "transfer-encoding" | "connection" => {
                return Err(AccessError::Reserved(name.to_owned(), ""));
            }
            _ => {}
        }
        reqwest::header::HeaderValue::from_str(value)
            .map_err(|_| AccessError::BadValue(name.to_owned()))?;
        Ok((name.to_owned(), value.to_owned()))
    }

    /// Read `USER:PASSWORD` (the password may hold colons; the user may not).
    pub fn basic_auth(text: &str) -> Result<BasicAuth, AccessError> {
        let (user, password) = text.split_once(':').ok_or(AccessError::BasicAuthNoColon)?;
        Ok(BasicAuth {
            user: user.to_owned(),
            password: password.to_owned(),
        })
    }

    /// Check a cookie header value.
    pub fn cookie(text: &str) -> Result<String, AccessError> {
        let text = text.trim();
        reqwest::header::HeaderValue::from_str(text).map_err(|_| AccessError::BadCookie)?;
        Ok(text.to_owned())
    }

    /// Whether anything is set.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty() && self.cookie.is_none() && self.basic_auth.is_none()
    }

    /// The request header lines these settings add, values included: each header, `Cookie`,
    /// and `Authorization: Basic …`. For a client other than crawlgate's own (the rendering
    /// browser), which must send them to the site's scope only; they are secrets, never logged.
    pub fn header_lines(&self) -> Vec<(String, String)> {
        use base64::Engine as _;
        let mut lines = self.headers.clone();
        if let Some(cookie) = &self.cookie {
            lines.push(("Cookie".to_owned(), cookie.clone()));
        }
        if let Some(auth) = &self.basic_auth {
            let token = base64::engine::general_purpose::STANDARD
                .encode(format!("{}:{}", auth.user, auth.password));
            lines.push(("Authorization".to_owned(), format!("Basic {token}")));
        }
        lines
    }

    /// What is sent, without a secret: `basic auth, cookie, header X-Staging-Token`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.basic_auth.is_some() {
            parts.push("basic auth".to_owned());
        }
        if self.cookie.is_some() {
            parts.push("cookie".to_owned());
        }
        for (name, _) in &self.headers {
            parts.push(format!("header {name}"));
        }
        parts.join(", ")
    }
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access")
            .field(
                "headers",
                &self
                    .headers
                    .iter()
                    .map(|(name, _)| name)
                    .collect::<Vec<_>>(),
            )
            .field("cookie", &self.cookie.as_ref().map(|_| "<redacted>"))
            .field("basic_auth", &self.basic_auth)
            .finish()
    }
}

impl std::fmt::Debug for BasicAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BasicAuth(<redacted>)")
    }
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
            per_host: None,
            request_timeout: Duration::from_secs(20),
            total_time: Duration::from_secs(60 * 60),
            user_agent: default_user_agent(),
            extra_root_certs: Vec::new(),
            resolve: Vec::new(),
            pace: Pace::DEFAULT,
            retry: Retry::DEFAULT,
            access: Access::default(),
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

/// Take the credentials out of `url` (`https://user:pass@host/` → `https://host/`): the
/// user name and password, percent-decoded, when it had any.
pub fn take_userinfo(url: &mut Url) -> Option<BasicAuth> {
    if url.username().is_empty() && url.password().is_none() {
        return None;
    }
    let decode = |text: &str| {
        percent_encoding::percent_decode_str(text)
            .decode_utf8_lossy()
            .into_owned()
    };
    let auth = BasicAuth {
        user: decode(url.username()),
        password: decode(url.password().unwrap_or("")),
    };
    // Only URLs that cannot have credentials refuse these (none that the crawl takes).
    let _ = url.set_username("");
    let _ = url.set_password(None);
    Some(auth)
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
