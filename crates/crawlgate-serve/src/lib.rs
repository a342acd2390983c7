//! An in-process HTTP/1.1 server for fixture sites, on `127.0.0.1` and an ephemeral port: for the
//! crawler's tests, `crawlgate audit --demo` and the end-to-end tests.
//!
//! A [`ServedSite`] is files by path (`index.html` for `/` and for `dir/`, the content type from
//! the extension), read from a folder or given from memory, pages made on request under a prefix
//! ([`ServedSite::generate`]: a large site or an endless crawler trap without files), plus
//! [`Route`]s that override a path: status, headers, `Location`, another file's body, gzip, a
//! delay, padding, an endless, trickled or broken body, a lying `Content-Length`, raw header
//! bytes. `{{origin}}` in files and routes becomes the server's `http://127.0.0.1:PORT`, so
//! fixture sites can carry absolute URLs. [`SiteServer`] serves it until dropped; [`SiteGroup`]
//! serves several named sites on several ports, each able to name the others
//! (`{{origin:NAME}}`), as `127.0.0.1:PORT` or under host names ([`HostNames`]:
//! `http://www.northwind.test`) that the client resolves to the ports. A site can be served over HTTPS ([`ServedSite::https`]) with a committed
//! certificate for 127.0.0.1 signed by [`LOOPBACK_CA_PEM`]; its origin is then
//! `https://127.0.0.1:PORT`.
//!
//! Every connection is bounded: a request head must arrive within 10 s, and shutting the server
//! down closes every connection. Responses go through hyper, which keeps them well-formed; the
//! routes that must break HTTP ([`Route::is_raw`]) are written by hand, one request per
//! connection.

mod body;
mod group;
mod raw;
mod respond;
mod route;
mod site;
mod tls;

pub use group::{HostNames, SiteGroup};
pub use route::Route;
pub use site::{ORIGIN_PLACEHOLDER, PageMaker, ROUTES_FILE, ServedSite, TLS_MARKER};
pub use tls::LOOPBACK_CA_PEM;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use thiserror::Error;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use url::Url;

/// Time a client has to send a request head (also bounds idle keep-alive connections).
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Requests remembered for [`SiteServer::requests`].
const MAX_LOGGED_REQUESTS: usize = 100_000;
/// Distinct User-Agent values remembered for [`SiteServer::user_agents`].
const MAX_USER_AGENTS: usize = 100;

/// Why a site cannot be served.
#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot read the site: {0}")]
    Site(String),
    #[error("cannot read `_routes.toml`: {0}")]
    Routes(String),
    #[error("cannot listen on 127.0.0.1: {0}")]
    Listen(#[from] std::io::Error),
    #[error("cannot serve over HTTPS: {0}")]
    Tls(String),
}

/// A running server. Stops when dropped (or on [`SiteServer::shutdown`]).
#[derive(Debug)]
pub struct SiteServer {
    addr: SocketAddr,
    /// `http://127.0.0.1:PORT/` (`https://` for a site served over HTTPS).
    base: Url,
    shutdown: watch::Sender<bool>,
    counters: Arc<Counters>,
    /// The server's own thread, when started with [`SiteServer::start_in_background`].
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SiteServer {
    /// Serve `site` on `127.0.0.1:0` from the current tokio runtime.
    pub async fn start(site: ServedSite) -> Result<Self, ServeError> {
        let tls = acceptor_for(&site)?;
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let base = base_url(addr, site.is_https())?;
        let own = origin_of(addr, site.is_https());
        let site = Arc::new(site.with_origin(&own));
        let (shutdown, stopped) = watch::channel(false);
        let counters = Arc::new(Counters::default());
        tokio::spawn(accept_loop(
            listener,
            site,
            Arc::clone(&counters),
            stopped,
            tls,
        ));
        Ok(Self {
            addr,
            base,
            shutdown,
            counters,
            thread: None,
        })
    }

    /// Serve `site` on `127.0.0.1:0` from a thread of its own (for synchronous callers: the
    /// CLI, end-to-end tests). Dropping the server stops and joins the thread.
    pub fn start_in_background(site: ServedSite) -> Result<Self, ServeError> {
        let tls = acceptor_for(&site)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let listener = runtime.block_on(TcpListener::bind(("127.0.0.1", 0)))?;
        let addr = listener.local_addr()?;
        let base = base_url(addr, site.is_https())?;
        let own = origin_of(addr, site.is_https());
        let site = Arc::new(site.with_origin(&own));
        let (shutdown, stopped) = watch::channel(false);
        let counters = Arc::new(Counters::default());
        let thread_counters = Arc::clone(&counters);
        let thread = std::thread::Builder::new()
            .name("crawlgate-serve".to_owned())
            .spawn(move || {
                runtime.block_on(accept_loop(listener, site, thread_counters, stopped, tls));
                // Connections still open end with the runtime.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })?;
        Ok(Self {
            addr,
            base,
            shutdown,
            counters,
            thread: Some(thread),
        })
    }

    /// The address served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT` (`https://` over HTTPS) joined with `path` (e.g. `/robots.txt`).
    pub fn url(&self, path: &str) -> Url {
        self.base.join(path).unwrap_or_else(|_| self.base.clone())
    }

    /// The request targets (`path?query`) received so far, in arrival order (the first 100,000).
    pub fn requests(&self) -> Vec<String> {
        self.counters
            .log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The header lines of each logged request, `(lowercase name, value)`, in arrival order (as
    /// [`SiteServer::requests`]; empty for a request answered by a route written by hand).
    pub fn request_headers(&self) -> Vec<Vec<(String, String)>> {
        self.counters
            .headers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// When each logged request arrived, in arrival order (as [`SiteServer::requests`]).
    pub fn arrival_times(&self) -> Vec<std::time::Instant> {
        self.counters
            .arrivals
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The distinct `User-Agent` values received, in the order first seen (empty for none).
    pub fn user_agents(&self) -> Vec<String> {
        self.counters
            .user_agents
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How many requests were being answered at once, at most (from arrival until the
    /// response headers were ready: route delays count).
    pub fn peak_in_flight(&self) -> usize {
        self.counters.peak.load(Ordering::SeqCst)
    }

    /// Stop serving: the listener closes and every open connection is dropped.
    pub fn shutdown(self) {
        drop(self);
    }
}

/// What the server counts, for tests.
#[derive(Debug, Default)]
struct Counters {
    in_flight: AtomicUsize,
    peak: AtomicUsize,
    log: Mutex<Vec<String>>,
    arrivals: Mutex<Vec<std::time::Instant>>,
    headers: Mutex<Vec<Vec<(String, String)>>>,
    user_agents: Mutex<Vec<String>>,
}

impl Counters {
    /// Count a request as being answered until the returned guard drops (also when the client
    /// goes away mid-delay).
    fn arrived(
        self: &Arc<Self>,
        target: &str,
        headers: Option<&hyper::HeaderMap>,
        user_agent: Option<&[u8]>,
    ) -> Answering {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        let arrived = std::time::Instant::now();
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        if log.len() < MAX_LOGGED_REQUESTS {
            log.push(target.to_owned());
            self.arrivals
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(arrived);
            let lines = headers
                .into_iter()
                .flatten()
                .map(|(name, value)| {
                    (
                        name.as_str().to_owned(),
                        String::from_utf8_lossy(value.as_bytes()).into_owned(),
                    )
                })
                .collect();
            self.headers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(lines);
        }
        drop(log);
        let user_agent = String::from_utf8_lossy(user_agent.unwrap_or_default());
        let mut agents = self
            .user_agents
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if agents.len() < MAX_USER_AGENTS && !agents.iter().any(|a| *a == user_agent) {
            agents.push(user_agent.into_owned());
        }
        Answering(Arc::clone(self))
    }
}

/// A request being answered.
struct Answering(Arc<Counters>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `http://127.0.0.1:PORT` (`https://` over HTTPS), what [`ORIGIN_PLACEHOLDER`] becomes.
fn origin_of(addr: SocketAddr, https: bool) -> String {
    let scheme = if https { "https" } else { "http" };
    format!("{scheme}://{addr}")
}

fn base_url(addr: SocketAddr, https: bool) -> Result<Url, ServeError> {
    Url::parse(&format!("{}/", origin_of(addr, https)))
        .map_err(|error| ServeError::Site(error.to_string()))
}

/// The TLS acceptor a site needs: `None` over plain HTTP. Routes written by hand need the bare
/// TCP socket (a reset is a TCP matter), so a site with some is not served over HTTPS.
fn acceptor_for(site: &ServedSite) -> Result<Option<TlsAcceptor>, ServeError> {
    if !site.is_https() {
        return Ok(None);
    }
    if site.has_raw_routes() {
        return Err(ServeError::Tls(
            "routes written by hand (a lying Content-Length, raw headers) are served over plain HTTP only".to_owned(),
        ));
    }
    tls::loopback_acceptor().map(Some)
}

impl Drop for SiteServer {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn accept_loop(
    listener: TcpListener,
    site: Arc<ServedSite>,
    counters: Arc<Counters>,
    mut stopped: watch::Receiver<bool>,
    tls: Option<TlsAcceptor>,
) {
    let by_hand = site.has_raw_routes();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped.changed() => return,
        };
        let Ok((stream, _)) = accepted else {
            // Out of file descriptors or similar: wait a little rather than spin.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let site = Arc::clone(&site);
        let counters = Arc::clone(&counters);
        let mut stopped = stopped.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let connection = async {
                if let Some(tls) = tls {
                    // The handshake is bounded like a request head; a client that fails it
                    // (one that does not trust the certificate) just goes away.
                    if let Ok(Ok(stream)) =
                        tokio::time::timeout(HEADER_READ_TIMEOUT, tls.accept(stream)).await
                    {
                        serve_with_hyper(TokioIo::new(stream), site, counters, true).await;
                    }
                } else if by_hand {
                    serve_one_by_peeking(stream, site, counters).await;
                } else {
                    serve_with_hyper(TokioIo::new(stream), site, counters, true).await;
                }
            };
            tokio::select! {
                () = connection => {}
                _ = stopped.changed() => {}
            }
        });
    }
}

/// Serve requests on one connection with hyper.
async fn serve_with_hyper<I>(
    io: I,
    site: Arc<ServedSite>,
    counters: Arc<Counters>,
    keep_alive: bool,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
        let site = Arc::clone(&site);
        let counters = Arc::clone(&counters);
        async move {
            let target = request
                .uri()
                .path_and_query()
                .map_or_else(|| request.uri().path().to_owned(), ToString::to_string);
            let user_agent = request
                .headers()
                .get(hyper::header::USER_AGENT)
                .map(hyper::header::HeaderValue::as_bytes);
            let _answering = counters.arrived(&target, Some(request.headers()), user_agent);
            respond::respond(&site, &request).await
        }
    });
    let _ = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .keep_alive(keep_alive)
        .serve_connection(io, service)
        .await;
}

/// Serve one request on a connection of a site with hand-written routes: read the head, answer
/// a raw route by hand, hand anything else to hyper (the head replayed).
async fn serve_one_by_peeking(
    mut stream: TcpStream,
    site: Arc<ServedSite>,
    counters: Arc<Counters>,
) {
    let Ok(Some(head)) =
        tokio::time::timeout(HEADER_READ_TIMEOUT, raw::read_head(&mut stream)).await
    else {
        return;
    };
    if let Some((path, query)) = raw::request_target(&head) {
        let decoded = respond::percent_decode(&path);
        if let Some(route) = site
            .route_for(&decoded, query.as_deref())
            .filter(|route| route.is_raw())
        {
            let target = match &query {
                Some(query) => format!("{path}?{query}"),
                None => path.clone(),
            };
            let answering = counters.arrived(&target, None, raw::user_agent(&head));
            let response = respond::answer(&site, &path, query.as_deref()).await;
            drop(answering);
            raw::write_response(stream, route, response).await;
            return;
        }
    }
    serve_with_hyper(
        TokioIo::new(raw::Rewind::new(head, stream)),
        site,
        counters,
        false,
    )
    .await;
}
