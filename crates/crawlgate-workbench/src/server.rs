//! The HTTP side: hyper over HTTP/1.1, the routes, the security headers, the `Host` and
//! `Content-Type` checks, the bounds on connections and bodies.

use crate::{CheckError, CheckRequest, MAX_BODY_BYTES, Workbench, WorkbenchError};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

/// The page and its assets, embedded.
const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// Every response's policy: nothing but this server's own script, style and API.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// Time a client has to send a request head (also bounds idle keep-alive connections).
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a client has to send a request body.
const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 32;

/// The workbench's HTTP server, bound and not yet serving.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    workbench: Arc<Workbench>,
}

impl Server {
    /// Listens on `addr` (port 0: an ephemeral port). A non-loopback address is refused unless
    /// `allow_remote`: the API answers anyone who reaches it.
    pub async fn bind(
        workbench: Workbench,
        addr: SocketAddr,
        allow_remote: bool,
    ) -> Result<Server, WorkbenchError> {
        if !addr.ip().is_loopback() && !allow_remote {
            return Err(WorkbenchError::NotLoopback(addr));
        }
        let listen = |source| WorkbenchError::Listen { addr, source };
        let listener = TcpListener::bind(addr).await.map_err(listen)?;
        let addr = listener.local_addr().map_err(listen)?;
        Ok(Server {
            listener,
            addr,
            workbench: Arc::new(workbench),
        })
    }

    /// The address listened on (its port resolved).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/` (`http://[::1]:PORT/` over IPv6).
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until `shutdown` completes; open connections are then closed.
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        let (stop, stopped) = watch::channel(false);
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let hosts = Arc::new(Hosts::of(self.addr));
        tokio::pin!(shutdown);
        loop {
            let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
                break;
            };
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = &mut shutdown => break,
            };
            let Ok((stream, _)) = accepted else {
                // Out of file descriptors or similar: wait a little rather than spin.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            };
            let _ = stream.set_nodelay(true);
            let workbench = Arc::clone(&self.workbench);
            let hosts = Arc::clone(&hosts);
            let mut stopped = stopped.clone();
            tokio::spawn(async move {
                let service = service_fn(move |request| {
                    let workbench = Arc::clone(&workbench);
                    let hosts = Arc::clone(&hosts);
                    async move {
                        Ok::<_, std::convert::Infallible>(answer(request, &workbench, &hosts).await)
                    }
                });
                let connection = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_READ_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service);
                tokio::select! {
                    _ = connection => {}
                    _ = stopped.changed() => {}
                }
                drop(slot);
            });
        }
        let _ = stop.send(true);
    }
}

/// The `Host` values answered: the address listened on, `localhost` on a loopback or wildcard
/// one, any IP literal on a wildcard one; always with the port. A DNS name pointed at this
/// address by someone else's page (DNS rebinding) is refused.
#[derive(Debug)]
struct Hosts {
    ip: IpAddr,
    port: u16,
}

impl Hosts {
    fn of(addr: SocketAddr) -> Hosts {
        Hosts {
            ip: addr.ip(),
            port: addr.port(),
        }
    }

    fn allows(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host, Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        let wildcard = self.ip.is_unspecified();
        if name.eq_ignore_ascii_case("localhost") {
            return wildcard || self.ip.is_loopback();
        }
        let literal = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        match literal.parse::<IpAddr>() {
            Ok(ip) => wildcard || ip == self.ip || (ip.is_loopback() && self.ip.is_loopback()),
            Err(_) => false,
        }
    }
}

type Answer = Response<Full<Bytes>>;

async fn answer(request: Request<Incoming>, workbench: &Arc<Workbench>, hosts: &Hosts) -> Answer {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    if !hosts.allows(&host) {
        return text(
            StatusCode::FORBIDDEN,
            "this server answers only requests to its own address (Host header)",
        );
    }
    match (request.method(), request.uri().path()) {
        (&Method::GET, "/") => asset(INDEX_HTML, "text/html; charset=utf-8"),
        (&Method::GET, "/app.js") => asset(APP_JS, "text/javascript; charset=utf-8"),
        (&Method::GET, "/app.css") => asset(APP_CSS, "text/css; charset=utf-8"),
        (&Method::GET, "/favicon.ico") => secure(
            Response::builder().status(StatusCode::NO_CONTENT),
            Bytes::new(),
        ),
        (&Method::GET, "/api/state") => json(StatusCode::OK, &workbench.state()),
        (&Method::POST, "/api/check") => check(request, workbench, &host).await,
        (_, "/" | "/app.js" | "/app.css" | "/favicon.ico" | "/api/state") => not_allowed("GET"),
        (_, "/api/check") => not_allowed("POST"),
        _ => text(StatusCode::NOT_FOUND, "not found"),
    }
}

async fn check(request: Request<Incoming>, workbench: &Arc<Workbench>, host: &str) -> Answer {
    let headers = request.headers();
    let json_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if !json_type {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST /api/check takes Content-Type: application/json",
        );
    }
    // A browser names the page that sent the request: it must be this server's own.
    if let Some(origin) = headers.get(header::ORIGIN)
        && origin.as_bytes() != format!("http://{host}").as_bytes()
    {
        return error(StatusCode::FORBIDDEN, "cross-origin requests are refused");
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|bytes| bytes > MAX_BODY_BYTES as u64) {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
        );
    }
    let body = Limited::new(request.into_body(), MAX_BODY_BYTES);
    let bytes = match tokio::time::timeout(BODY_READ_TIMEOUT, body.collect()).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(_)) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("the request body is larger than {MAX_BODY_BYTES} bytes, or broken"),
            );
        }
        Err(_) => {
            return error(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive in time",
            );
        }
    };
    let request: CheckRequest = match serde_json::from_slice(&bytes) {
        Ok(request) => request,
        Err(reason) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("not a check request: {reason}"),
            );
        }
    };
    let workbench = Arc::clone(workbench);
    // CPU work (a large report's URLs), off the connection tasks.
    let checked = tokio::task::spawn_blocking(move || workbench.check(&request)).await;
    match checked {
        Ok(Ok(response)) => json(StatusCode::OK, &response),
        Ok(Err(refused @ CheckError::DraftTooLarge(_))) => {
            error(StatusCode::PAYLOAD_TOO_LARGE, &refused.to_string())
        }
        Ok(Err(refused)) => error(StatusCode::BAD_REQUEST, &refused.to_string()),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the check failed"),
    }
}

/// A response with every security header.
fn secure(builder: hyper::http::response::Builder, body: Bytes) -> Answer {
    let builder = builder
        .header(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::X_FRAME_OPTIONS, "DENY")
        .header(header::REFERRER_POLICY, "no-referrer")
        .header(header::CACHE_CONTROL, "no-store")
        .header("cross-origin-opener-policy", "same-origin")
        .header("cross-origin-resource-policy", "same-origin");
    builder.body(Full::new(body)).unwrap_or_else(|_| {
        let mut response = Response::new(Full::new(Bytes::new()));
        *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        response
    })
}

fn asset(body: &'static str, content_type: &'static str) -> Answer {
    secure(
        Response::builder().header(header::CONTENT_TYPE, content_type),
        Bytes::from_static(body.as_bytes()),
    )
}

fn text(status: StatusCode, message: &str) -> Answer {
    secure(
        Response::builder()
            .status(status)
            .header(header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        Bytes::from(format!("{message}\n")),
    )
}

fn json(status: StatusCode, value: &impl serde::Serialize) -> Answer {
    match serde_json::to_vec(value) {
        Ok(body) => secure(
            Response::builder()
                .status(status)
                .header(header::CONTENT_TYPE, "application/json"),
            Bytes::from(body),
        ),
        Err(_) => text(StatusCode::INTERNAL_SERVER_ERROR, "cannot write the answer"),
    }
}

fn error(status: StatusCode, message: &str) -> Answer {
    json(status, &serde_json::json!({ "error": message }))
}

fn not_allowed(allow: &'static str) -> Answer {
    secure(
        Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(header::ALLOW, HeaderValue::from_static(allow))
            .header(header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        Bytes::from_static(b"method not allowed\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::Hosts;

    #[test]
    fn only_the_listen_address_and_localhost_are_answered() {
        let loopback = Hosts::of("127.0.0.1:8080".parse().unwrap());
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "127.0.0.2:8080",
        ] {
            assert!(loopback.allows(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "localhost",
            "",
            "10.0.0.1:8080",
            "127.0.0.1.nip.io:8080",
        ] {
            assert!(!loopback.allows(host), "{host}");
        }
        let wildcard = Hosts::of("0.0.0.0:80".parse().unwrap());
        assert!(wildcard.allows("192.168.1.5"));
        assert!(wildcard.allows("192.168.1.5:80"));
        assert!(!wildcard.allows("rebound.example"));
        let v6 = Hosts::of("[::1]:9000".parse().unwrap());
        assert!(v6.allows("[::1]:9000"));
        assert!(!v6.allows("[::1]"));
    }
}
