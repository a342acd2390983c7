//! What a page became in a browser (`--render`): the signals of the DOM its scripts left, beside
//! the raw HTML's, and the requests rendering made.
//!
//! Google renders a page in an evergreen Chromium before indexing it, unless its raw HTML says
//! noindex ("if Google encounters the noindex tag, it skips rendering and JavaScript
//! execution"): what scripts change can change what is indexed. The browser itself is driven by
//! `crawlgate-crawl`; this is the data it leaves, built the same way from a live render and from
//! a fixture ([`RenderedPage::from_capture`]).

use crate::http::HeaderLine;
use crate::signals::{LinkSource, PageInput, PageLink, Signals, extract};
use std::collections::HashSet;
use thin_vec::ThinVec;
use url::Url;

/// Links only present after rendering kept as samples (all are counted).
pub const MAX_ADDED_LINK_SAMPLES: usize = 20;
/// Requests refused to the page (robots.txt) kept per page (all are counted).
pub const MAX_BLOCKED_REQUESTS: usize = 50;

/// How rendering ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderOutcome {
    /// The page went quiet (no request in flight for a while after its load event).
    Settled,
    /// The page's time budget ran out first; the DOM was read as it stood.
    TimedOut,
    /// Navigation failed, the browser or the page's process crashed: no DOM.
    Failed { reason: String },
}

/// A request the page made that was not served to it because robots.txt disallows it for the
/// audited profile (as Googlebot's renderer would not fetch it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedRequest {
    pub url: Url,
    /// As the browser names it: `Script`, `Stylesheet`, `XHR`, `Fetch`, `Font`, `Image`, …
    pub resource_type: String,
    /// Why, in words: the deciding robots.txt rule.
    pub reason: String,
}

/// A page loaded in headless Chromium: what its rendered DOM says, and how rendering went.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedPage {
    pub outcome: RenderOutcome,
    /// The signals read from the rendered DOM (with the response's header signals, which
    /// scripts cannot change). `links` and `assets` are emptied; what rendering added is below.
    pub signals: Signals,
    /// `<a href>` links in the raw HTML and in the rendered DOM (distinct by href and rel).
    pub raw_links: u32,
    pub rendered_links: u32,
    /// Resolved link targets present only after rendering: the first
    /// [`MAX_ADDED_LINK_SAMPLES`], and how many in all.
    pub links_added: Vec<Url>,
    pub links_added_count: u32,
    /// Length of the rendered body's text (`innerText`, UTF-16 units).
    pub text_length: u64,
    /// The same, rendered again with the requests robots.txt refused served (when some were,
    /// and the audit does not obey robots.txt itself): what the page loses without them.
    pub text_length_unblocked: Option<u64>,
    /// Requests robots.txt kept from the page: the first [`MAX_BLOCKED_REQUESTS`], and how many.
    pub blocked: Vec<BlockedRequest>,
    pub blocked_count: u32,
    /// Requests the page made in all, and whether the per-page request bound cut them.
    pub requests: u32,
    pub requests_cut: bool,
    /// Uncaught exceptions and `console.error` lines (bounded by the renderer).
    pub errors: Vec<String>,
    /// The serialised DOM was cut at its byte bound: what it lacks cannot be asserted.
    pub dom_truncated: bool,
}

/// What one render captured, as the renderer hands it over.
#[derive(Debug, Clone)]
pub struct RenderCapture<'a> {
    /// The final URL of the page (relative references resolve against it).
    pub url: &'a Url,
    pub status: u16,
    /// The response's header lines (their robots and canonical signals hold after rendering).
    pub headers: &'a [HeaderLine],
    /// The raw body the page was rendered from.
    pub raw_body: &'a [u8],
    /// The DOM after rendering (`outerHTML` of the document); empty when rendering failed.
    pub dom: &'a str,
    pub dom_truncated: bool,
    pub outcome: RenderOutcome,
    pub text_length: u64,
    pub text_length_unblocked: Option<u64>,
    /// Every request refused to the page, in order.
    pub blocked: Vec<BlockedRequest>,
    pub requests: u32,
    pub requests_cut: bool,
    pub errors: Vec<String>,
}

impl RenderedPage {
    /// Read both versions of the page and keep what rendering changed. The rendered DOM is
    /// UTF-8 whatever the response declared, so it is read as such.
    pub fn from_capture(capture: RenderCapture<'_>) -> Self {
        let raw = extract(&PageInput {
            url: capture.url,
            status: capture.status,
            headers: capture.headers,
            body: capture.raw_body,
        });
        let headers = rendered_headers(capture.headers);
        let mut signals = extract(&PageInput {
            url: capture.url,
            status: capture.status,
            headers: &headers,
            body: capture.dom.as_bytes(),
        });
        if matches!(capture.outcome, RenderOutcome::Failed { .. }) {
            // No DOM: nothing but the headers speaks for the page.
            signals.meta_robots.clear();
            signals
                .canonicals
                .retain(|c| matches!(c.source, LinkSource::Header { .. }));
            signals.hreflang.clear();
            signals.links.clear();
        }
        let raw_targets: HashSet<&str> = link_targets(&raw.links).collect();
        let mut added: Vec<&str> = link_targets(&signals.links)
            .filter(|target| !raw_targets.contains(target))
            .collect();
        added.sort_unstable();
        added.dedup();
        let links_added_count = u32::try_from(added.len()).unwrap_or(u32::MAX);
        let links_added = added
            .into_iter()
            .take(MAX_ADDED_LINK_SAMPLES)
            .filter_map(|target| Url::parse(target).ok())
            .collect();
        let raw_links = u32::try_from(raw.links.len()).unwrap_or(u32::MAX);
        let rendered_links = u32::try_from(signals.links.len()).unwrap_or(u32::MAX);
        signals.links = ThinVec::new();
        signals.assets = ThinVec::new();
        let blocked_count = u32::try_from(capture.blocked.len()).unwrap_or(u32::MAX);
        let mut blocked = capture.blocked;
        blocked.truncate(MAX_BLOCKED_REQUESTS);
        Self {
            outcome: capture.outcome,
            signals,
            raw_links,
            rendered_links,
            links_added,
            links_added_count,
            text_length: capture.text_length,
            text_length_unblocked: capture.text_length_unblocked,
            blocked,
            blocked_count,
            requests: capture.requests,
            requests_cut: capture.requests_cut,
            errors: capture.errors,
            dom_truncated: capture.dom_truncated || capture.dom.is_empty(),
        }
    }

    /// Whether the render produced a DOM to compare (it did not fail).
    pub fn has_dom(&self) -> bool {
        !matches!(self.outcome, RenderOutcome::Failed { .. })
    }

    /// Whether the rendered DOM may lack something the page would show read whole: rendering
    /// failed or timed out, or the DOM or the signals were cut.
    pub fn read_in_part(&self) -> bool {
        !matches!(self.outcome, RenderOutcome::Settled)
            || self.dom_truncated
            || self.signals.truncated
    }
}

/// The resolved targets of `<a href>` links Google follows (any rel but a broken href).
fn link_targets(links: &[PageLink]) -> impl Iterator<Item = &str> {
    links
        .iter()
        .filter_map(|link| link.resolved.as_ref().map(Url::as_str))
}

/// The response's headers, with its `Content-Type` replaced by UTF-8 HTML: the rendered DOM is
/// a string whatever the bytes were.
fn rendered_headers(headers: &[HeaderLine]) -> Vec<HeaderLine> {
    let mut lines: Vec<HeaderLine> = headers
        .iter()
        .filter(|line| !line.name.eq_ignore_ascii_case("content-type"))
        .cloned()
        .collect();
    lines.push(HeaderLine::new("content-type", "text/html; charset=utf-8"));
    lines
}
