//! HTTP status rules: what the crawled URLs themselves answer. Internal `<a href>` links to
//! URLs that answer 4xx, 5xx or nothing, or that redirect; redirect chains and loops; the start
//! URL answering an error; bodies labelled `text/html` that are not HTML; pages longer than the
//! audit read. Each finding is about
//! the URL that answers (the target), with the pages linking to it as evidence. Sitemap entries
//! and canonicals pointing at such URLs are the `sitemap/url-*` and `canonical/target-*` rules'.

mod internal_link_4xx;
mod internal_link_5xx;
mod internal_link_redirect;
mod not_html;
mod page_read_in_part;
mod redirect_chain;
mod redirect_loop;
mod start_url_error;

pub use internal_link_4xx::InternalLink4xx;
pub use internal_link_5xx::InternalLink5xx;
pub use internal_link_redirect::InternalLinkRedirect;
pub use not_html::NotHtml;
pub use page_read_in_part::PageReadInPart;
pub use redirect_chain::RedirectChain;
pub use redirect_loop::RedirectLoop;
pub use start_url_error::{
    StartUnreachable, StartUrlError, failure_words, start_status_words, start_unreachable,
    start_url_answer,
};

use crate::support::link_evidence;
use crawlgate_core::finding::RedirectHop;
use crawlgate_core::site::{FailureKind, Resource, ResourceState};
use crawlgate_core::{Evidence, Site};
use std::fmt::Write as _;

/// What fetching a URL ended in, as the status rules sort it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End<'a> {
    /// A final response with this status, `redirected` when reached through redirects.
    Status { status: u16, redirected: bool },
    /// No usable response (network failure, broken response, unusable `Location`).
    NoResponse { kind: FailureKind, message: &'a str },
    /// A redirect back to a URL already in the chain.
    Loop,
    /// More redirects than the crawler follows.
    TooManyRedirects,
    /// Not fetched, or interrupted: nothing to say.
    Unknown,
}

/// How fetching `resource` ended.
pub(crate) fn end(resource: &Resource) -> End<'_> {
    match &resource.state {
        ResourceState::Fetched(page) => End::Status {
            status: page.status(),
            redirected: false,
        },
        ResourceState::Redirected {
            final_status: Some(status),
            ..
        } => End::Status {
            status: *status,
            redirected: true,
        },
        ResourceState::Failed { kind, message, .. } => match kind {
            FailureKind::RedirectLoop => End::Loop,
            FailureKind::TooManyRedirects => End::TooManyRedirects,
            FailureKind::Interrupted => End::Unknown,
            kind => End::NoResponse {
                kind: *kind,
                message,
            },
        },
        ResourceState::Redirected { .. } | ResourceState::NotFetched(_) => End::Unknown,
    }
}

/// The redirect hops of `resource` (empty when it answered directly or was not fetched).
pub(crate) fn hops(resource: &Resource) -> &[RedirectHop] {
    match &resource.state {
        ResourceState::Redirected { hops, .. } | ResourceState::Failed { hops, .. } => hops,
        ResourceState::Fetched(_) | ResourceState::NotFetched(_) => &[],
    }
}

/// Where the last hop of a chain points: its `Location` resolved against its URL.
pub(crate) fn last_location(hops: &[RedirectHop]) -> Option<String> {
    let last = hops.last()?;
    let location = last.location.as_deref()?;
    let from = url::Url::parse(&last.url).ok()?;
    Some(
        from.join(location.trim())
            .map_or_else(|_| location.to_owned(), |url| url.to_string()),
    )
}

/// The chain as evidence, `final_url` being where it ends.
pub(crate) fn chain_evidence(resource: &Resource, final_url: String) -> Evidence {
    Evidence::Redirect {
        url: resource.url.to_string(),
        hops: hops(resource).to_vec(),
        final_url,
    }
}

/// Hops a message spells out; longer chains show the first two and the last (the evidence
/// keeps every hop).
const HOPS_IN_WORDS: usize = 4;

/// The chain in words: `http://a/ (301) → http://b/ (302) → http://c/`.
pub(crate) fn chain_words(hops: &[RedirectHop], end: &str) -> String {
    let mut text = String::new();
    for (index, hop) in hops.iter().enumerate() {
        if hops.len() > HOPS_IN_WORDS && index >= 2 && index + 1 < hops.len() {
            if index == 2 {
                let _ = write!(text, "… ({} more) → ", hops.len() - 3);
            }
            continue;
        }
        let _ = write!(text, "{} ({}) → ", hop.url, hop.status);
    }
    text.push_str(end);
    text
}

/// Every `<a href>` link to the resource from crawled pages (followed or not).
pub(crate) fn links_total(resource: &Resource) -> u32 {
    let links = &resource.inbound_links;
    links.followed.saturating_add(links.qualified)
}

/// `linked once from a crawled page`, `linked 57 times from crawled pages`.
pub(crate) fn linked_words(resource: &Resource) -> String {
    match links_total(resource) {
        1 => "linked once from a crawled page".to_owned(),
        n => format!("linked {n} times from crawled pages"),
    }
}

/// The links to the resource as evidence: the samples the crawl kept (the first by page and
/// line), then, when there are more, a note with the total.
pub(crate) fn inbound_evidence(site: &Site, resource: &Resource) -> Vec<Evidence> {
    let links = &resource.inbound_links;
    let mut evidence: Vec<Evidence> = site
        .link_samples(resource)
        .iter()
        .map(|sample| link_evidence(sample, &resource.url))
        .collect();
    let total = links_total(resource);
    if usize::try_from(total).unwrap_or(usize::MAX) > evidence.len() {
        evidence.push(Evidence::Note {
            text: format!(
                "linked {} times in total ({} followed; {} nofollow, ugc or sponsored); quoted: the first link on each of the first {} linking pages",
                total,
                links.followed,
                links.qualified,
                evidence.len()
            ),
        });
    }
    evidence
}
