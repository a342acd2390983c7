//! One HTTP request as an audit needs it: GET with redirects followed by hand (each hop recorded
//! with its status and `Location`), a body read up to a cap and marked truncated past it, and
//! every failure turned into data ([`FailureKind`]).
//!
//! reqwest's transparent decompression (gzip, brotli, deflate) is on: Googlebot asks for
//! compressed responses too, and the body caps then count decoded bytes, which bounds a
//! decompression bomb. Its consequence, accepted and documented in ARCHITECTURE.md: when a
//! response was decoded, its recorded headers lack `Content-Encoding` and `Content-Length` (the
//! decoder removes them). A sitemap served gzipped *as a file* (no `Content-Encoding`) arrives as
//! gzip bytes and the sitemap parser recognises it by its magic bytes.

use crate::resolve::{ResolveError, resolvable_host};
use crate::roots::root_certificates;
use crate::{Access, HttpOptions};
use crawlgate_core::crawl::{Request, Response, SiteScope};
use crawlgate_core::finding::RedirectHop;
use crawlgate_core::http::HeaderLine;
use crawlgate_core::site::{FailureKind, Received};
use reqwest::StatusCode;
use reqwest::header::{COOKIE, HeaderMap, HeaderName, HeaderValue, LOCATION};
use std::error::Error as _;
use std::sync::{Arc, Once};
use std::time::Duration;
use thiserror::Error;
use url::Url;

/// Why the HTTP client could not be set up.
#[derive(Debug, Error)]
pub enum ClientError {
    #[error("cannot set up the HTTP client: {0}")]
    Build(String),
    #[error("not a usable root certificate: {0}")]
    RootCertificate(String),
    /// A host-name override ([`HttpOptions::resolve`]) names no usable host.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}

/// Body bytes reserved up front at most, whatever `Content-Length` claims.
const MAX_PREALLOCATION: u64 = 1024 * 1024;

/// Header lines accepted in one response by the fallback client. hyper's default (100), which
/// the main client keeps, fails pages that real sites serve (a shop setting 100 cookies); such a
/// response is asked for again (the server sees the request twice) by a client with this limit.
/// Only the fallback sets one: with a limit set, hyper allocates and fills an array that long
/// for every response (at 256 that was 5% of a crawl's CPU, perf, 20,000 small pages; hyper's
/// default costs nothing). The head's size stays bounded by hyper's read buffer (about 400 KiB)
/// whatever this says.
const MAX_RESPONSE_HEADERS: usize = 1_000;

/// Makes HTTP requests the way the crawl needs them. Cheap to clone (the connection pool is
/// shared).
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    /// For responses with more header lines than hyper's default ([`MAX_RESPONSE_HEADERS`]).
    wide_client: reqwest::Client,
    request_timeout: Duration,
    /// The headers of [`HttpOptions::access`], marked sensitive, and where they may go.
    credentials: Option<Arc<Credentials>>,
}

/// Access headers and the URLs that receive them.
#[derive(Debug)]
struct Credentials {
    headers: HeaderMap,
    basic_auth: Option<crate::BasicAuth>,
    /// Receives them: the URLs of the audited site. `None` until
    /// [`Fetcher::send_credentials_to`] says: a fetcher sends credentials nowhere by default.
    site: Option<SiteScope>,
}

impl Credentials {
    fn covers(&self, url: &Url) -> bool {
        self.site.as_ref().is_some_and(|site| site.contains(url))
    }
}

/// What one hop gave: a response (maybe a redirect to follow) with its body read as asked.
struct Hop {
    status: u16,
    headers: Vec<HeaderLine>,
    location: Option<String>,
    body: Vec<u8>,
    body_truncated: bool,
}

impl Fetcher {
    /// A client with `http`'s User-Agent and per-request timeout, trusting the system's root
    /// certificates and `http.extra_root_certs`, answering `http.resolve`'s host names from its
    /// addresses (a host listed twice: the later entry wins). Redirects are not followed by the
    /// client (they are followed and recorded by [`Fetcher::fetch`]).
    pub fn new(http: &HttpOptions) -> Result<Self, ClientError> {
        install_crypto_provider();
        let provider = rustls::crypto::CryptoProvider::get_default()
            .cloned()
            .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
        let mut extra_roots = Vec::new();
        for bytes in &http.extra_root_certs {
            extra_roots.extend(root_certificates(bytes)?);
        }
        let tls = crate::tls::client_config(provider, extra_roots)
            .map_err(|error| ClientError::Build(error.to_string()))?;
        let build = |builder: reqwest::ClientBuilder| {
            builder
                .build()
                .map_err(|error| ClientError::Build(error_chain(&error)))
        };
        Ok(Self {
            client: build(client_builder(http, tls.clone())?)?,
            wide_client: build(client_builder(http, tls)?.http1_max_headers(MAX_RESPONSE_HEADERS))?,
            request_timeout: http.request_timeout,
            credentials: credential_headers(&http.access)?.map(|headers| {
                Arc::new(Credentials {
                    headers,
                    basic_auth: http.access.basic_auth.clone(),
                    site: None,
                })
            }),
        })
    }

    /// Send [`HttpOptions::access`] with requests to the URLs of `site`, and with no other
    /// request (each redirect hop is checked on its own).
    #[must_use]
    pub fn send_credentials_to(mut self, site: &SiteScope) -> Self {
        if let Some(credentials) = &self.credentials {
            self.credentials = Some(Arc::new(Credentials {
                headers: credentials.headers.clone(),
                basic_auth: credentials.basic_auth.clone(),
                site: Some(site.clone()),
            }));
        }
        self
    }

    /// Run one crawl request: GET, redirects followed up to `request.max_redirects` hops, body
    /// read up to `request.max_body_bytes` (not at all when `read_body` is false).
    pub async fn fetch(&self, request: &Request) -> Response {
        self.fetch_url(
            &request.url,
            request.max_redirects,
            request.read_body.then_some(request.max_body_bytes),
        )
        .await
    }

    /// GET `url`, following up to `max_redirects` redirect hops by hand; read the final body up
    /// to `max_body_bytes` bytes (`None`: don't read it).
    pub async fn fetch_url(
        &self,
        url: &Url,
        max_redirects: u32,
        max_body_bytes: Option<u64>,
    ) -> Response {
        let mut hops: Vec<RedirectHop> = Vec::new();
        let mut url = url.clone();
        loop {
            let hop = match self.hop(&url, max_body_bytes).await {
                Ok(hop) => hop,
                Err(failure) => {
                    return Response {
                        hops,
                        outcome: Err(failure),
                    };
                }
            };
            let Some(location) = hop.location.filter(|_| is_redirect(hop.status)) else {
                return Response {
                    hops,
                    outcome: Ok(Received {
                        final_url: url,
                        status: hop.status,
                        headers: hop.headers,
                        body: hop.body,
                        body_truncated: hop.body_truncated,
                    }),
                };
            };
            hops.push(RedirectHop {
                url: url.to_string(),
                status: hop.status,
                location: Some(location.clone()),
            });
            let next = match url.join(location.trim()) {
                Ok(next) if matches!(next.scheme(), "http" | "https") => next,
                Ok(next) => {
                    return failed(
                        hops,
                        FailureKind::InvalidRedirect,
                        format!("redirect to `{next}`, which is not an http or https URL"),
                    );
                }
                Err(error) => {
                    return failed(
                        hops,
                        FailureKind::InvalidRedirect,
                        format!("redirect with an unusable Location `{location}`: {error}"),
                    );
                }
            };
            let mut next = next;
            next.set_fragment(None);
            if next == url || hops.iter().any(|h| h.url == next.as_str()) {
                return failed(
                    hops,
                    FailureKind::RedirectLoop,
                    format!("redirect loop back to {next}"),
                );
            }
            if hops.len() > usize::try_from(max_redirects).unwrap_or(usize::MAX) {
                return failed(
                    hops,
                    FailureKind::TooManyRedirects,
                    format!("more than {max_redirects} redirects"),
                );
            }
            url = next;
        }
    }

    /// One request, bounded in time from connecting to the last body byte read.
    async fn hop(
        &self,
        url: &Url,
        max_body_bytes: Option<u64>,
    ) -> Result<Hop, (FailureKind, String)> {
        let timeout = self.request_timeout;
        match tokio::time::timeout(timeout, self.hop_unbounded(url, max_body_bytes)).await {
            Ok(result) => result,
            Err(_) => Err((
                FailureKind::Timeout,
                format!(
                    "no complete response within {} s",
                    format_seconds(timeout.as_secs_f64())
                ),
            )),
        }
    }

    async fn hop_unbounded(
        &self,
        url: &Url,
        max_body_bytes: Option<u64>,
    ) -> Result<Hop, (FailureKind, String)> {
        let credentials = self
            .credentials
            .as_deref()
            .filter(|credentials| credentials.covers(url));
        let get = |client: &reqwest::Client| {
            // A `Url`, not its text: reqwest would parse the text again.
            let request = client.get(url.clone());
            let Some(credentials) = credentials else {
                return request;
            };
            let request = request.headers(credentials.headers.clone());
            match &credentials.basic_auth {
                Some(auth) => request.basic_auth(&auth.user, Some(&auth.password)),
                None => request,
            }
        };
        let mut response = match get(&self.client).send().await {
            Ok(response) => response,
            Err(error) if has_too_many_headers(&error) => get(&self.wide_client)
                .send()
                .await
                .map_err(|error| classify(&error))?,
            Err(error) => return Err(classify(&error)),
        };
        let status = response.status().as_u16();
        // Sized to the lines (collecting from the map's iterator would leave room to spare, kept
        // for the page's whole life).
        let mut headers: Vec<HeaderLine> = Vec::with_capacity(response.headers().len());
        headers.extend(response.headers().iter().map(|(name, value)| {
            HeaderLine::new(
                name.as_str(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        }));
        let location = response
            .headers()
            .get(LOCATION)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let mut body = Vec::new();
        let mut body_truncated = false;
        // A redirect's body is never needed.
        if let Some(cap) = max_body_bytes.filter(|_| location.is_none() || !is_redirect(status)) {
            let reserve = response
                .content_length()
                .unwrap_or(0)
                .min(cap)
                .min(MAX_PREALLOCATION);
            body.reserve(usize::try_from(reserve).unwrap_or(0));
            let cap = usize::try_from(cap).unwrap_or(usize::MAX);
            while let Some(chunk) = response.chunk().await.map_err(|error| classify(&error))? {
                let room = cap.saturating_sub(body.len());
                if chunk.len() > room {
                    body.extend_from_slice(chunk.get(..room).unwrap_or_default());
                    body_truncated = true;
                    break;
                }
                body.extend_from_slice(&chunk);
            }
        }
        Ok(Hop {
            status,
            headers,
            location,
            body,
            body_truncated,
        })
    }
}

/// The request headers `access` adds, each value marked sensitive (kept out of HTTP/2 header
/// compression tables); `None` when it adds none.
fn credential_headers(access: &Access) -> Result<Option<HeaderMap>, ClientError> {
    // Basic authentication is added per request by reqwest (`RequestBuilder::basic_auth`),
    // which encodes it and marks it sensitive.
    if access.is_empty() {
        return Ok(None);
    }
    let invalid = |name: &str| ClientError::Build(format!("header `{name}` cannot be sent"));
    let mut headers = HeaderMap::new();
    for (name, value) in &access.headers {
        let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid(name))?;
        let mut value = HeaderValue::from_str(value).map_err(|_| invalid(name))?;
        value.set_sensitive(true);
        headers.append(header, value);
    }
    if let Some(cookie) = &access.cookie {
        let mut value = HeaderValue::from_str(cookie).map_err(|_| invalid("Cookie"))?;
        value.set_sensitive(true);
        headers.append(COOKIE, value);
    }
    Ok(Some(headers))
}

/// A client builder with every setting of `http` and the TLS settings `tls` (a reqwest builder
/// cannot be cloned, so each client starts from its own).
fn client_builder(
    http: &HttpOptions,
    tls: rustls::ClientConfig,
) -> Result<reqwest::ClientBuilder, ClientError> {
    // The extra roots are in `tls`, merged with the platform's: an internal CA is trusted, the
    // public ones stay.
    let mut builder = reqwest::Client::builder()
        .dns_resolver(crate::resolve::SystemResolver)
        .tls_backend_preconfigured(tls);
    for (host, addr) in &http.resolve {
        builder = builder.resolve(&resolvable_host(host)?, *addr);
    }
    Ok(builder
        .user_agent(http.user_agent.clone())
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(http.request_timeout)
        // As many idle connections as requests may be in flight to one host: a connection
        // closed for want of room is opened again for the next request.
        .pool_max_idle_per_host(http.per_host.unwrap_or(http.concurrency).max(1))
        .tcp_nodelay(true))
}

fn failed(hops: Vec<RedirectHop>, kind: FailureKind, message: String) -> Response {
    Response {
        hops,
        outcome: Err((kind, message)),
    }
}

/// The statuses a browser (and Googlebot) follows through `Location`.
fn is_redirect(status: u16) -> bool {
    matches!(
        StatusCode::from_u16(status),
        Ok(StatusCode::MOVED_PERMANENTLY
            | StatusCode::FOUND
            | StatusCode::SEE_OTHER
            | StatusCode::TEMPORARY_REDIRECT
            | StatusCode::PERMANENT_REDIRECT)
    )
}

/// rustls needs one process-wide crypto provider; crawlgate uses ring (no C build). Installing
/// twice is harmless: a provider installed first (by us or the embedding program) is kept.
fn install_crypto_provider() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Err means a provider is already installed, which is all that is needed.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Whether hyper refused a response head as too large: more header lines than the client
/// accepts (or a head past its buffer, which asking again with more lines will not change).
fn has_too_many_headers(error: &reqwest::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = error.source();
    while let Some(cause) = source {
        if let Some(hyper_error) = cause.downcast_ref::<hyper::Error>() {
            return hyper_error.is_parse_too_large();
        }
        source = cause.source();
    }
    false
}

/// Turn a reqwest error into a failure kind, looking through its causes.
fn classify(error: &reqwest::Error) -> (FailureKind, String) {
    let message = error_chain(error);
    let kind = failure_kind(error, &message);
    (kind, message)
}

fn failure_kind(error: &reqwest::Error, message: &str) -> FailureKind {
    if error.is_timeout() {
        return FailureKind::Timeout;
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = error.source();
    let mut depth = 0;
    while let Some(cause) = source {
        if cause.downcast_ref::<rustls::Error>().is_some() {
            return FailureKind::Tls;
        }
        if let Some(kind) = cause
            .downcast_ref::<std::io::Error>()
            .and_then(io_failure_kind)
        {
            return kind;
        }
        if let Some(hyper_error) = cause.downcast_ref::<hyper::Error>() {
            if hyper_error.is_incomplete_message() {
                return FailureKind::Reset;
            }
            if hyper_error.is_parse() || hyper_error.is_parse_status() {
                return FailureKind::InvalidResponse;
            }
            if hyper_error.is_timeout() {
                return FailureKind::Timeout;
            }
        }
        source = cause.source();
        depth += 1;
        if depth > 32 {
            break;
        }
    }
    if message.contains("dns error") {
        FailureKind::Dns
    } else if error.is_connect() {
        FailureKind::Connect
    } else if error.is_body() || error.is_decode() {
        FailureKind::Body
    } else {
        FailureKind::InvalidResponse
    }
}

/// The failure an I/O error stands for. An `io::Error` wrapping another error hides it from
/// `source()` (tokio-rustls wraps a TLS alert in `InvalidData`, hyper-util wraps that in `Other`),
/// so the wrapped errors are looked at too.
fn io_failure_kind(io: &std::io::Error) -> Option<FailureKind> {
    let mut io = io;
    for _ in 0..8 {
        let inner = io.get_ref();
        if inner.is_some_and(|inner| inner.downcast_ref::<rustls::Error>().is_some()) {
            return Some(FailureKind::Tls);
        }
        match io.kind() {
            std::io::ErrorKind::ConnectionRefused => return Some(FailureKind::Connect),
            std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::UnexpectedEof => return Some(FailureKind::Reset),
            std::io::ErrorKind::TimedOut => return Some(FailureKind::Timeout),
            _ => {}
        }
        io = inner?.downcast_ref::<std::io::Error>()?;
    }
    None
}

/// An error and its causes, `outer: inner: innermost`, without repeats.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = vec![error.to_string()];
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if parts.last().is_none_or(|last| !last.contains(&text)) && parts.len() < 16 {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

/// `20` for whole seconds, `0.5` otherwise.
fn format_seconds(seconds: f64) -> String {
    let text = format!("{seconds:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_five_redirect_statuses_are_followed() {
        for status in [301, 302, 303, 307, 308] {
            assert!(is_redirect(status), "{status}");
        }
        for status in [200, 300, 304, 305, 306, 404, 999] {
            assert!(!is_redirect(status), "{status}");
        }
    }

    #[test]
    fn seconds_are_printed_without_trailing_zeros() {
        assert_eq!(format_seconds(20.0), "20");
        assert_eq!(format_seconds(0.5), "0.5");
        assert_eq!(format_seconds(1.25), "1.25");
    }
}
