//! JavaScript rendering: a page loaded in headless Chromium over Chrome's debugging protocol (CDP)
//! (through `chromiumoxide`), and what rendering produced.
//!
//! One [`Renderer`] is one browser process with a fresh temporary profile, launched once and
//! killed when the renderer is dropped. [`Renderer::render`] opens each page in its own
//! incognito browser context (no cookie, cache or storage shared between pages) and closes it
//! after. Every request the page makes is paused by the Fetch domain before it leaves the
//! browser and put to the caller's [`RequestGate`]; the main document can be served from the
//! bytes the crawler already fetched ([`Document`]), so the rendered DOM is built from exactly
//! the raw HTML the crawler read.
//!
//! The browser is kept from making requests of its own (background services off by switch,
//! Google's service hosts unresolvable, the favicon blocked) and pages run without service
//! workers (as in Googlebot's renderer), so every request on the wire is one the gate allowed.
//! Cross-site frames stay in the page's process, so their requests are paused like the
//! page's; so are dedicated workers' (their responses, though, are not observed:
//! [`RequestOutcome::Allowed`]).
//!
//! A page that fails to render is data ([`RenderOutcome::Failed`]), never an error: only a
//! browser that cannot start is ([`LaunchError`]).

mod launch;
mod page;

pub use launch::{LaunchError, find_chromium};

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use url::Url;

/// How the browser is started and how far each page may go.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// The browser binary. `None`: the first of `chromium`, `chromium-browser`, `google-chrome`
    /// and `google-chrome-stable` on `PATH` ([`find_chromium`]).
    pub chromium: Option<PathBuf>,
    /// Pages rendered at once (default 2): each costs a renderer process and a core while its
    /// scripts run.
    pub concurrency: usize,
    /// Time a page gets from navigation until its DOM is read (default 10 s). Network idle ends
    /// it earlier: no request in flight for 500 ms after the load event.
    pub page_budget: Duration,
    /// Requests one page may make (default 500). Past it, requests are failed in the browser,
    /// not recorded, and [`Rendered::requests_cut`] is set.
    pub max_requests_per_page: usize,
    /// Bytes of serialised DOM kept (default 5 MiB); past it the DOM is cut on a character
    /// boundary and [`Rendered::dom_truncated`] is set.
    pub max_dom_bytes: usize,
    /// The `User-Agent` the browser sends (and `navigator.userAgent`): the crawler's own or the
    /// audited profile's, so that the server answers the renderer as it answered the crawler.
    pub user_agent: String,
    /// Width and height in CSS pixels (default 412 × 915, Googlebot Smartphone's width: Google
    /// indexes mobile-first, so the mobile layout is the one that counts).
    pub viewport: (u32, u32),
    /// Emulate a mobile device (default true, with the default viewport): `<meta name=viewport>`
    /// is honoured and `matchMedia` sees a touch screen, as Googlebot Smartphone renders.
    pub mobile: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            chromium: None,
            concurrency: 2,
            page_budget: Duration::from_secs(10),
            max_requests_per_page: 500,
            max_dom_bytes: 5 * 1024 * 1024,
            user_agent: concat!("crawlgate/", env!("CARGO_PKG_VERSION")).to_owned(),
            viewport: (412, 915),
            mobile: true,
        }
    }
}

/// One running browser. Launched once; renders pages, [`RenderOptions::concurrency`] at a
/// time. Dropping it kills the browser and removes its temporary profile.
pub struct Renderer {
    inner: Arc<launch::Browser>,
    permits: tokio::sync::Semaphore,
    options: RenderOptions,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("binary", &self.inner.binary)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// Start the browser. Fails when no binary is found or it does not start and answer on
    /// Chrome's debugging protocol (CDP) within 20 s.
    pub async fn launch(options: RenderOptions) -> Result<Renderer, LaunchError> {
        let inner = launch::Browser::launch(&options).await?;
        Ok(Renderer {
            inner: Arc::new(inner),
            permits: tokio::sync::Semaphore::new(options.concurrency.max(1)),
            options,
        })
    }

    /// The options the browser was launched with.
    pub fn options(&self) -> &RenderOptions {
        &self.options
    }

    /// The process id of the browser (its renderers and helpers are its children), for
    /// measuring its memory.
    pub fn pid(&self) -> Option<u32> {
        self.inner.pid
    }

    /// Render `url`. `document`: the response the crawler already fetched for it; the main
    /// document is then served from it inside the browser instead of being fetched again, and
    /// the gate is not asked for it. Every other request of the page (and the main document
    /// when `document` is `None`) goes to `gate` first. Waits for a free slot first.
    pub async fn render(
        &self,
        url: &Url,
        document: Option<&Document>,
        gate: &dyn RequestGate,
    ) -> Rendered {
        let started = std::time::Instant::now();
        // The semaphore is never closed, so acquiring fails only in theory; rendering without a
        // slot would merely exceed the concurrency.
        let _permit = self.permits.acquire().await.ok();
        page::render(&self.inner, &self.options, url, document, gate, started).await
    }
}

/// A response the crawler already has: served to the browser as the main document.
#[derive(Debug, Clone)]
pub struct Document {
    /// The HTTP status.
    pub status: u16,
    /// Header lines as received. `Content-Encoding`, `Content-Length` and `Transfer-Encoding`
    /// are dropped before serving: `body` is the decoded body.
    pub headers: Vec<(String, String)>,
    /// The decoded body.
    pub body: bytes::Bytes,
}

/// The caller's say over each request a page makes.
pub trait RequestGate: Send + Sync {
    /// Asked once per request, before it leaves the browser (a redirect's next hop is asked
    /// again). Async so that the caller can wait for the host's turn under its rate limit
    /// before answering; the page's other requests are decided meanwhile.
    fn decide<'a>(
        &'a self,
        request: &'a GateRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>>;
}

/// A request a page is about to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateRequest {
    /// Where it goes.
    pub url: Url,
    /// What the browser fetches it as, in CDP's names: `Document` (the page, a frame),
    /// `Stylesheet`, `Image`, `Media`, `Font`, `Script`, `XHR` (Chromium 156 names `fetch()`
    /// requests so too), `EventSource`, `WebSocket`, `Manifest`, `Ping`, `Other` (a worker's
    /// script), ….
    pub resource_type: String,
    /// The HTTP method.
    pub method: String,
}

/// The gate's answer.
#[derive(Clone, PartialEq, Eq)]
pub enum Decision {
    /// Let the request go, with these header lines added (or replacing the browser's of the same
    /// name): the caller adds its access headers only to in-scope origins.
    Allow {
        /// Header lines to add. Secret: never logged nor shown by `Debug`.
        extra_headers: Vec<(String, String)>,
    },
    /// Fail the request in the browser (`BlockedByClient`): the page sees a network error.
    Block {
        /// Why, recorded in [`RequestOutcome::Blocked`].
        reason: String,
    },
}

impl Decision {
    /// Allow, adding nothing.
    pub fn allow() -> Self {
        Decision::Allow {
            extra_headers: Vec::new(),
        }
    }
}

impl std::fmt::Debug for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Header values are access secrets (auth, cookies): names only.
            Decision::Allow { extra_headers } => f
                .debug_struct("Allow")
                .field(
                    "extra_headers",
                    &extra_headers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
                )
                .finish(),
            Decision::Block { reason } => f.debug_struct("Block").field("reason", reason).finish(),
        }
    }
}

/// What rendering produced. Always returned, whatever happened to the page.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The page's URL when its DOM was read (after redirects, `history.pushState`, …); the
    /// requested URL when it could not be read.
    pub final_url: Url,
    /// `document.documentElement.outerHTML` after the page settled, prefixed with the doctype
    /// when the document has one. Empty when it could not be read.
    pub dom: String,
    /// The DOM was longer than [`RenderOptions::max_dom_bytes`] and was cut.
    pub dom_truncated: bool,
    /// `document.body.innerText.length` (UTF-16 code units, as JavaScript counts), to compare
    /// a page's visible text with and without its resources.
    pub text_length: usize,
    /// Every request the page made, in the order the browser asked for them (the first
    /// [`RenderOptions::max_requests_per_page`]).
    pub requests: Vec<RenderRequest>,
    /// The page made more requests than [`RenderOptions::max_requests_per_page`]; the rest were
    /// failed in the browser and not recorded.
    pub requests_cut: bool,
    /// Uncaught exceptions and `console.error` lines, the first [`MAX_ERRORS`], each cut to
    /// [`MAX_ERROR_BYTES`].
    pub errors: Vec<String>,
    /// How rendering ended.
    pub outcome: RenderOutcome,
    /// From the call until the page was closed, including the wait for a free slot.
    pub elapsed: Duration,
}

/// Errors kept per page ([`Rendered::errors`]).
pub const MAX_ERRORS: usize = 50;
/// Bytes kept of each error line.
pub const MAX_ERROR_BYTES: usize = 1024;

/// One request a page made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderRequest {
    /// Where it went.
    pub url: Url,
    /// What the browser fetched it as (CDP's name, as in [`GateRequest::resource_type`]).
    pub resource_type: String,
    /// What became of it.
    pub outcome: RequestOutcome,
}

/// What became of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestOutcome {
    /// A response arrived (or, for the main document given as a [`Document`], was served).
    Served {
        /// Its HTTP status.
        status: u16,
    },
    /// The gate blocked it.
    Blocked {
        /// The gate's reason.
        reason: String,
    },
    /// The gate let it go, and no response was observed: it was still in flight when the page
    /// was closed, or it was a worker's (a worker's requests are paused and decided like the
    /// page's, but their responses are reported on the worker's own session, not read here).
    Allowed,
    /// It failed in the network (or was never answered: the page was closed first).
    Failed {
        /// Chromium's error, e.g. `net::ERR_CONNECTION_REFUSED`.
        error_text: String,
    },
}

/// How rendering a page ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderOutcome {
    /// The page loaded and its network went idle within the budget.
    Settled,
    /// The budget ran out first (scripts still running, requests still in flight); the DOM was
    /// read as it stood, after stopping any script still running.
    TimedOut,
    /// No DOM could be read: the navigation failed, the browser crashed or stopped answering.
    Failed {
        /// What went wrong.
        reason: String,
    },
}
