//! Single-file fetches for the CLI: a robots.txt with Google's status semantics, and a sitemap
//! with (for an index) its children, bounded.

use crate::HttpOptions;
use crate::client::Fetcher;
use crawlgate_core::crawl::{Bounds, Response, SiteScope};
use crawlgate_core::site::{FailureKind, RobotsFile, origin_of, robots_url_of};
use std::collections::HashSet;
use url::Url;

/// Fetch the robots.txt governing `url` (`{scheme}://{host}[:{port}]/robots.txt`: a robots.txt
/// anywhere else is not valid for Google) and apply Google's status semantics: 2xx parse; 3xx
/// followed up to 5 hops, then as 404; 4xx except 429 allow all; 5xx, 429, timeout, DNS, reset or
/// broken body disallow all. The body is read up to the crawl's robots.txt cap (2 MiB, so the
/// rules past Google's 500 KiB cut can be listed). A client that cannot be set up is recorded as
/// a TLS failure (that is the only part that can fail).
///
/// [`HttpOptions::access`] (and credentials written in `url`, which are taken out of it) go to
/// `url`'s origin only, as for [`fetch_sitemaps`].
pub async fn fetch_robots(url: &Url, http: &HttpOptions) -> RobotsFile {
    let mut url = url.clone();
    let fetcher = single_fetcher(&mut url, http);
    let origin = origin_of(&url).into_owned();
    let robots_url = Url::parse(&robots_url_of(&url)).unwrap_or_else(|_| url.clone());
    let bounds = Bounds::default();
    let response = match fetcher {
        Ok(fetcher) => {
            fetcher
                .fetch_url(
                    &robots_url,
                    bounds.max_redirects,
                    Some(bounds.max_robots_bytes),
                )
                .await
        }
        Err(error) => Response {
            hops: Vec::new(),
            outcome: Err((FailureKind::Tls, error.to_string())),
        },
    };
    RobotsFile::from_fetch(origin, robots_url, response.hops, response.outcome)
}

/// A fetcher for one file at `url` (and what it leads to): credentials in the URL are taken
/// out of it and, unless [`HttpOptions::access`] has its own, sent as basic authentication;
/// the access settings go to `url`'s origin only.
fn single_fetcher(url: &mut Url, http: &HttpOptions) -> Result<Fetcher, crate::ClientError> {
    let from_url = crate::take_userinfo(url);
    let fetcher = if from_url.is_some() && http.access.basic_auth.is_none() {
        let mut http = http.clone();
        http.access.basic_auth = from_url;
        Fetcher::new(&http)?
    } else {
        Fetcher::new(http)?
    };
    Ok(fetcher.send_credentials_to(&SiteScope::of_origin(url)))
}

/// Bounds of a sitemap walk (the crawl's defaults: index depth 3, 1,000 sitemaps, 51 MiB a file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapLimits {
    /// Index nesting followed: children of the first sitemap are at depth 1.
    pub max_depth: u32,
    /// Sitemaps fetched in all.
    pub max_sitemaps: u64,
    /// Body bytes read per sitemap, as transferred (after HTTP content decoding).
    pub max_bytes: u64,
    /// Redirect hops followed per sitemap.
    pub max_redirects: u32,
}

impl Default for SitemapLimits {
    fn default() -> Self {
        let bounds = Bounds::default();
        Self {
            max_depth: bounds.sitemap_depth,
            max_sitemaps: bounds.max_sitemaps,
            max_bytes: bounds.max_sitemap_bytes,
            max_redirects: bounds.max_redirects,
        }
    }
}

/// One fetched sitemap.
#[derive(Debug, Clone)]
pub struct SitemapFetch {
    /// The URL as named (by the user or by the parent index).
    pub url: Url,
    /// The index that named it; `None` for the first.
    pub parent: Option<Url>,
    /// 0 for the first sitemap, parent's depth + 1 for children.
    pub depth: u32,
    /// Redirect hops, then the final response (body bounded) or why there was none.
    pub response: Response,
}

/// Why a sitemap named by an index was not fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SitemapSkip {
    /// It is (or redirects to) the index itself or one of its ancestors.
    Cycle { repeats: Url },
    /// It was already read through another index entry.
    Duplicate,
    /// Deeper than [`SitemapLimits::max_depth`].
    DepthBound(u32),
    /// [`SitemapLimits::max_sitemaps`] were fetched already.
    CountBound(u64),
}

/// What the walk met, in document order (depth first).
#[derive(Debug)]
pub enum SitemapStep<'a> {
    /// A sitemap was fetched. The visitor returns the child sitemaps to follow (an index's
    /// `<loc>`s; nothing for other kinds).
    Fetched(&'a SitemapFetch),
    /// A sitemap was not fetched (or, for a cycle found after redirects, not read).
    Skipped {
        url: &'a Url,
        parent: Option<&'a Url>,
        reason: SitemapSkip,
    },
}

struct Pending {
    url: Url,
    parent: Option<Url>,
    depth: u32,
    /// `(named, final)` URLs of the ancestors, nearest last.
    ancestors: Vec<(Url, Url)>,
}

/// Fetch the sitemap at `url` and, when `visit` says it is an index, its children, depth first,
/// within `limits`; cycles (on named URLs and on final URLs after redirects) are detected and
/// skipped. `visit` sees each step and returns the children to follow.
pub async fn fetch_sitemaps(
    url: &Url,
    http: &HttpOptions,
    limits: &SitemapLimits,
    mut visit: impl FnMut(SitemapStep<'_>) -> Vec<Url>,
) {
    let mut own_url = url.clone();
    let fetcher = single_fetcher(&mut own_url, http);
    let url = &own_url;
    let fetcher = match fetcher {
        Ok(fetcher) => fetcher,
        Err(error) => {
            let fetch = SitemapFetch {
                url: url.clone(),
                parent: None,
                depth: 0,
                response: Response {
                    hops: Vec::new(),
                    outcome: Err((FailureKind::Tls, error.to_string())),
                },
            };
            visit(SitemapStep::Fetched(&fetch));
            return;
        }
    };
    let mut stack = vec![Pending {
        url: without_fragment(url),
        parent: None,
        depth: 0,
        ancestors: Vec::new(),
    }];
    let mut seen: HashSet<Url> = HashSet::new();
    let mut fetch_count = 0u64;
    while let Some(next) = stack.pop() {
        let skip = |reason| SitemapStep::Skipped {
            url: &next.url,
            parent: next.parent.as_ref(),
            reason,
        };
        if let Some(repeats) = repeated_ancestor(&next.ancestors, &next.url) {
            visit(skip(SitemapSkip::Cycle { repeats }));
            continue;
        }
        if seen.contains(&next.url) {
            visit(skip(SitemapSkip::Duplicate));
            continue;
        }
        if next.depth > limits.max_depth {
            visit(skip(SitemapSkip::DepthBound(limits.max_depth)));
            continue;
        }
        if fetch_count >= limits.max_sitemaps {
            visit(skip(SitemapSkip::CountBound(limits.max_sitemaps)));
            continue;
        }
        fetch_count += 1;
        seen.insert(next.url.clone());
        let response = fetcher
            .fetch_url(&next.url, limits.max_redirects, Some(limits.max_bytes))
            .await;
        let final_url = match &response.outcome {
            Ok(received) => received.final_url.clone(),
            Err(_) => next.url.clone(),
        };
        if !response.hops.is_empty()
            && let Some(repeats) = repeated_ancestor(&next.ancestors, &final_url)
        {
            visit(skip(SitemapSkip::Cycle { repeats }));
            continue;
        }
        let fetch = SitemapFetch {
            url: next.url.clone(),
            parent: next.parent.clone(),
            depth: next.depth,
            response,
        };
        let children = visit(SitemapStep::Fetched(&fetch));
        let mut ancestors = next.ancestors.clone();
        ancestors.push((next.url.clone(), final_url));
        // Reversed onto the stack so children are walked in document order.
        for child in children.into_iter().rev() {
            stack.push(Pending {
                url: without_fragment(&child),
                parent: Some(next.url.clone()),
                depth: next.depth + 1,
                ancestors: ancestors.clone(),
            });
        }
    }
}

/// The ancestor (named URL) that `url` repeats, by its named or final URL.
fn repeated_ancestor(ancestors: &[(Url, Url)], url: &Url) -> Option<Url> {
    ancestors
        .iter()
        .find(|(named, final_url)| named == url || final_url == url)
        .map(|(named, _)| named.clone())
}

fn without_fragment(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    url
}
