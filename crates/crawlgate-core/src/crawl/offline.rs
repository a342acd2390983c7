//! Drive a crawl without a network: every request is answered from memory. Used by the rule
//! fixtures (mini-sites described in files) and by library users replaying saved responses.

use crate::crawl::{Crawl, CrawlConfig, CrawlError, Request, Response};
use crate::finding::RedirectHop;
use crate::http::HeaderLine;
use crate::site::{FailureKind, MemoryPageStore, Received, Site};
use serde::Deserialize;
use std::collections::BTreeMap;
use url::Url;

/// Run a crawl to the end, answering each request with `fetch`, one at a time.
pub fn run_offline(
    config: CrawlConfig,
    mut fetch: impl FnMut(&Request) -> Response,
) -> Result<Site, CrawlError> {
    let mut crawl = Crawl::new(config)?;
    // Past `Bounds::pages_in_memory`, pages go through the same records a page file holds.
    crawl.set_page_store(std::sync::Arc::new(MemoryPageStore::default()));
    while let Some(request) = crawl.next_request() {
        let response = fetch(&request);
        crawl.complete(&request, response);
    }
    Ok(crawl.finish())
}

/// A site held in memory: canned responses by URL. URLs it does not list answer 404.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct OfflineSite {
    /// Responses by absolute URL.
    #[serde(default)]
    pub responses: BTreeMap<String, CannedResponse>,
}

/// One canned response.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CannedResponse {
    /// HTTP status (default 200; 3xx with `location` redirects).
    #[serde(default = "ok")]
    pub status: u16,
    /// Header lines as `Name: value`, in order.
    #[serde(default)]
    pub headers: Vec<String>,
    /// The body as text.
    #[serde(default)]
    pub body: String,
    /// More body after `body`, part by part: for bodies a TOML string cannot hold (bytes that
    /// are not UTF-8) or would make unreadable (hundreds of kilobytes of filler).
    #[serde(default)]
    pub parts: Vec<BodyPart>,
    /// A redirect target (sets `Location`), relative or absolute.
    #[serde(default)]
    pub location: Option<String>,
    /// No response at all: `timeout`, `reset`, `dns`, `connect`, `body`.
    #[serde(default)]
    pub failure: Option<String>,
}

/// One part of a canned body: `text` then `bytes`, the pair repeated `repeat` times.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyPart {
    #[serde(default)]
    pub text: String,
    /// Raw bytes (in TOML, an array of integers such as `[0xEF, 0xBB, 0xBF]`).
    #[serde(default)]
    pub bytes: Vec<u8>,
    /// How many times the part is written (default 1).
    #[serde(default = "once")]
    pub repeat: usize,
}

/// A canned body never grows past this, whatever its parts ask for.
pub const MAX_CANNED_BODY_BYTES: usize = 16 * 1024 * 1024;

fn ok() -> u16 {
    200
}

fn once() -> usize {
    1
}

impl OfflineSite {
    /// Answer a request as a server would, following redirects up to the request's bound.
    pub fn respond(&self, request: &Request) -> Response {
        let mut hops = Vec::new();
        let mut url = request.url.clone();
        loop {
            let canned = self.responses.get(url.as_str());
            if let Some(failure) = canned.and_then(|c| c.failure.as_deref()) {
                return Response {
                    hops,
                    outcome: Err((
                        failure_kind(failure),
                        format!("{failure} (offline fixture)"),
                    )),
                };
            }
            let (status, headers, body) = match canned {
                Some(c) => (c.status, c.header_lines(), c.body_bytes()),
                None => (404, Vec::new(), b"not found".to_vec()),
            };
            let location = canned.and_then(|c| c.location.clone());
            if let (300..=399, Some(location)) = (status, location) {
                hops.push(RedirectHop {
                    url: url.to_string(),
                    status,
                    location: Some(location.clone()),
                });
                let Ok(next) = url.join(&location) else {
                    return Response {
                        hops,
                        outcome: Err((
                            FailureKind::InvalidRedirect,
                            format!("bad Location `{location}`"),
                        )),
                    };
                };
                if hops.iter().any(|h| h.url == next.as_str()) {
                    return Response {
                        hops,
                        outcome: Err((
                            FailureKind::RedirectLoop,
                            format!("redirect loop back to {next}"),
                        )),
                    };
                }
                if hops.len() > request.max_redirects as usize {
                    return Response {
                        hops,
                        outcome: Err((
                            FailureKind::TooManyRedirects,
                            format!("more than {} redirects", request.max_redirects),
                        )),
                    };
                }
                url = next;
                continue;
            }
            let limit = usize::try_from(request.max_body_bytes).unwrap_or(usize::MAX);
            let (body, body_truncated) = match request.read_body {
                false => (Vec::new(), false),
                true if body.len() > limit => (body[..limit].to_vec(), true),
                true => (body, false),
            };
            return Response {
                hops,
                outcome: Ok(Received {
                    final_url: url,
                    status,
                    headers,
                    body,
                    body_truncated,
                }),
            };
        }
    }

    /// Crawl this site from `config.start_url`.
    pub fn crawl(&self, config: CrawlConfig) -> Result<Site, CrawlError> {
        run_offline(config, |request| self.respond(request))
    }

    /// Add a response (builder style, for tests).
    #[must_use]
    pub fn with(mut self, url: &str, response: CannedResponse) -> Self {
        let key = Url::parse(url).map_or_else(|_| url.to_owned(), |u| u.to_string());
        self.responses.insert(key, response);
        self
    }
}

impl CannedResponse {
    /// The body: `body`, then each of `parts`, cut at [`MAX_CANNED_BODY_BYTES`].
    pub fn body_bytes(&self) -> Vec<u8> {
        let mut out = self.body.as_bytes().to_vec();
        for part in &self.parts {
            let unit = [part.text.as_bytes(), &part.bytes].concat();
            for _ in 0..part.repeat {
                if out.len() >= MAX_CANNED_BODY_BYTES || unit.is_empty() {
                    break;
                }
                out.extend_from_slice(&unit);
            }
        }
        out.truncate(MAX_CANNED_BODY_BYTES);
        out
    }

    /// A 200 response with `content_type` and `body`.
    pub fn ok(content_type: &str, body: &str) -> Self {
        Self {
            status: 200,
            headers: vec![format!("Content-Type: {content_type}")],
            body: body.to_owned(),
            ..Self::default()
        }
    }
}

/// A header line written `Name: value`, as received (both sides trimmed; no colon: a name
/// with an empty value).
pub fn parse_header_line(line: &str) -> HeaderLine {
    let (name, value) = line.split_once(':').unwrap_or((line, ""));
    HeaderLine::new(name.trim(), value.trim())
}

impl CannedResponse {
    /// Its header lines as received: each `Name: value`, then `Location` when it redirects.
    pub fn header_lines(&self) -> Vec<HeaderLine> {
        let canned = self;
        let mut lines: Vec<HeaderLine> = canned
            .headers
            .iter()
            .map(|line| parse_header_line(line))
            .collect();
        if let Some(location) = &canned.location {
            lines.push(HeaderLine::new("Location", location.clone()));
        }
        lines
    }
}

fn failure_kind(name: &str) -> FailureKind {
    match name {
        "dns" => FailureKind::Dns,
        "connect" => FailureKind::Connect,
        "reset" => FailureKind::Reset,
        "body" => FailureKind::Body,
        "tls" => FailureKind::Tls,
        _ => FailureKind::Timeout,
    }
}
