//! The workbench over real HTTP on 127.0.0.1 (an ephemeral port): its API (`api.rs`), and its
//! page in headless Chromium driven over CDP (`browser.rs`). One test binary
//! (ARCHITECTURE.md, "tests/"): a module per subject.

mod api;
mod browser;

use crawlgate_workbench::{Draft, Server, Workbench};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// Every exchange with the server is bounded by this.
const TIMEOUT: Duration = Duration::from_secs(20);

/// A workbench served on 127.0.0.1:0 from the current runtime, until dropped.
pub(crate) struct Served {
    pub(crate) addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub(crate) async fn serve(workbench: Workbench) -> Served {
    let server = Server::bind(workbench, "127.0.0.1:0".parse().unwrap(), false)
        .await
        .expect("the workbench listens on 127.0.0.1");
    let addr = server.local_addr();
    assert!(addr.ip().is_loopback());
    let (stop, stopped) = oneshot::channel();
    tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    Served {
        addr,
        stop: Some(stop),
    }
}

pub(crate) fn draft(body: &str) -> Draft {
    Draft::new(body, "test.robots.txt")
}

/// An answer: status, header lines (lowercase names), body.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| {
            panic!(
                "not JSON ({error}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

/// One HTTP/1.1 request, written by hand (so that any `Host`, `Content-Type` or `Origin` can be
/// sent), `Connection: close`, the answer read to its end; bounded by [`TIMEOUT`].
pub(crate) async fn request(
    addr: SocketAddr,
    head: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await.expect("connects");
        let mut text = format!("{head} HTTP/1.1\r\nConnection: close\r\n");
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            let _ = write!(text, "Host: {addr}\r\n");
        }
        for (name, value) in headers {
            let _ = write!(text, "{name}: {value}\r\n");
        }
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        {
            let _ = write!(text, "Content-Length: {}\r\n", body.len());
        }
        text.push_str("\r\n");
        stream.write_all(text.as_bytes()).await.expect("writes");
        // The server may answer (413) before reading everything: a failed write is no failure.
        let _ = stream.write_all(body).await;
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer).await;
        answer
    };
    let answer = tokio::time::timeout(TIMEOUT, exchange)
        .await
        .expect("the server answers in time");
    parse(&answer)
}

fn parse(answer: &[u8]) -> Reply {
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(answer)));
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: answer[end + 4..].to_vec(),
    }
}

pub(crate) async fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, &format!("GET {path}"), &[], b"").await
}

pub(crate) async fn post_check(addr: SocketAddr, body: &Value) -> Reply {
    let body = serde_json::to_vec(body).unwrap();
    request(
        addr,
        "POST /api/check",
        &[("Content-Type", "application/json")],
        &body,
    )
    .await
}

/// The robots.txt of the test report's `http://shop.test`.
pub(crate) const SHOP_ROBOTS: [&str; 5] = [
    "User-agent: *",
    "Disallow: /private/",
    "Dissallow: /tmp/",
    "",
    "Sitemap: http://shop.test/sitemap.xml",
];

fn page(
    url: &str,
    kind: &str,
    allowed: bool,
    rule: Option<&str>,
    noindex: bool,
    in_sitemap: bool,
) -> Value {
    let view = json!({
        "allowed": allowed,
        "robots_rule": rule,
        "directives": if noindex { json!(["noindex"]) } else { json!([]) },
        "noindex": noindex,
        "indexable": allowed && !noindex,
    });
    json!({
        "url": url,
        "kind": kind,
        "depth": 1,
        "state": if allowed { "fetched" } else { "not-fetched" },
        "status": if allowed { json!(200) } else { Value::Null },
        "in_sitemaps": if in_sitemap { json!(["http://shop.test/sitemap.xml"]) } else { json!([]) },
        "inbound_links": 1,
        "profiles": { "bingbot": view.clone(), "googlebot": view },
    })
}

/// A report of `http://shop.test/` audited for googlebot and bingbot (fixtures/reports/minimal.json
/// with a robots.txt, pages and two findings): `/private/a` (noindex) is refused by line 2 and
/// has a `robots/blocked-noindex` finding; line 3 has a `robots/typo-field` finding; `extra`
/// pages are added as allowed pages.
pub(crate) fn shop_report(extra: &[&str]) -> crawlgate_report::Report {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/reports/minimal.json"
    );
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    report["target"]["start_url"] = json!("http://shop.test/");
    report["target"]["profiles"] = json!(["googlebot", "bingbot"]);
    report["rules_checked"] = json!([
        "robots/blocked-noindex",
        "robots/typo-field",
        "sitemap/url-blocked"
    ]);
    report["robots"] = json!([{
        "origin": "http://shop.test",
        "url": "http://shop.test/robots.txt",
        "status": 200,
        "hops": [],
        "effect": "rules",
        "effect_reason": "answered 200: its rules apply",
        "lines": SHOP_ROBOTS,
        "lines_total": SHOP_ROBOTS.len(),
        "cited_lines": [2, 3],
        "sitemaps": ["http://shop.test/sitemap.xml"],
    }]);
    let mut pages = vec![
        page("http://shop.test/", "page", true, None, false, true),
        page(
            "http://shop.test/assets/site.css",
            "stylesheet",
            true,
            None,
            false,
            false,
        ),
        page(
            "http://shop.test/private/a",
            "page",
            false,
            Some("line 2: Disallow: /private/"),
            true,
            false,
        ),
        page(
            "http://shop.test/shop/boots",
            "page",
            true,
            None,
            false,
            true,
        ),
    ];
    pages.extend(
        extra
            .iter()
            .map(|url| page(url, "page", true, None, false, false)),
    );
    report["pages"] = Value::Array(pages);
    report["findings"] = json!([
        {
            "rule": "robots/blocked-noindex",
            "severity": "error",
            "url": "http://shop.test/private/a",
            "profile": "googlebot",
            "message": "robots.txt disallows this URL for Googlebot, so the noindex it carries is never read",
            "evidence": [{
                "kind": "robots_rule",
                "robots_url": "http://shop.test/robots.txt",
                "line": 2,
                "group": ["*"],
                "directive": "Disallow",
                "pattern": "/private/",
            }],
            "fingerprint": "0000000000000001",
        },
        {
            "rule": "robots/typo-field",
            "severity": "warning",
            "url": "http://shop.test/robots.txt",
            "message": "`Dissallow` is read as `Disallow` only through Google's typo tolerance",
            "evidence": [],
            "fingerprint": "0000000000000002",
        },
    ]);
    serde_json::from_value(report).expect("the test report reads as a Report")
}
