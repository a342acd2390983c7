//! The CPU work of a response (robots.txt parse, sitemap parse, signal extraction), separable from
//! the crawl's bookkeeping so a driver can run it on worker threads.

use crate::crawl::{CrawlConfig, Request, RequestKind, Response};
use crate::finding::RedirectHop;
use crate::signals::{PageInput, extract};
use crate::site::{FailureKind, FetchedPage, RobotsFile, SitemapState, origin_of};
use crate::sitemap::{self, SitemapOptions};
use jiff::Timestamp;
use std::io::Read;
use url::Url;

/// Prepares responses for [`crate::crawl::Crawl::complete_prepared`]. Cheap to clone; `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Preparer {
    audit_time: Timestamp,
}

/// A response, parsed and ready to record.
#[derive(Debug)]
pub enum Prepared {
    Robots(Box<RobotsFile>),
    Sitemap(Box<SitemapState>),
    Resource(Box<ResourceOutcome>),
}

/// A page or asset response, its body reduced to signals.
#[derive(Debug)]
pub enum ResourceOutcome {
    Fetched {
        hops: Vec<RedirectHop>,
        final_url: Url,
        page: Box<FetchedPage>,
    },
    Failed {
        hops: Vec<RedirectHop>,
        kind: FailureKind,
        message: String,
    },
}

impl Preparer {
    pub(crate) fn new(config: &CrawlConfig) -> Self {
        Self {
            audit_time: config.audit_time,
        }
    }

    /// Parse or extract what `response` holds for `request`. The body is dropped once read.
    pub fn prepare(&self, request: &Request, response: Response) -> Prepared {
        let Response { hops, outcome } = response;
        match request.kind {
            RequestKind::Robots => Prepared::Robots(Box::new(RobotsFile::from_fetch(
                origin_of(&request.url).into_owned(),
                request.url.clone(),
                hops,
                outcome,
            ))),
            RequestKind::Sitemap => Prepared::Sitemap(Box::new(self.sitemap(hops, outcome))),
            RequestKind::Page | RequestKind::Asset => Prepared::Resource(Box::new(match outcome {
                Err((kind, message)) => ResourceOutcome::Failed {
                    hops,
                    kind,
                    message,
                },
                Ok(received) => {
                    let signals = extract(&PageInput {
                        url: &received.final_url,
                        status: received.status,
                        headers: &received.headers,
                        body: &received.body,
                    });
                    let content_type = received.content_type().map(str::to_owned);
                    ResourceOutcome::Fetched {
                        hops,
                        final_url: received.final_url,
                        page: Box::new(FetchedPage {
                            status: received.status,
                            content_type,
                            body_len: received.body.len() as u64,
                            body_truncated: received.body_truncated,
                            headers: received.headers,
                            signals,
                            internal_outlinks: 0,
                            assets_found: 0,
                            rendered: None,
                        }),
                    }
                }
            })),
        }
    }

    fn sitemap(
        &self,
        hops: Vec<RedirectHop>,
        outcome: Result<crate::site::Received, (FailureKind, String)>,
    ) -> SitemapState {
        match outcome {
            Err((kind, message)) => SitemapState::Failed {
                hops,
                kind,
                message,
            },
            Ok(received) if !(200..300).contains(&received.status) => SitemapState::HttpError {
                hops,
                final_url: received.final_url,
                status: received.status,
            },
            Ok(received) => {
                let mut options = SitemapOptions::new(self.audit_time);
                options.url = Some(received.final_url.clone());
                let mut entries = Vec::new();
                // Kept up to the protocol's limit; the summary still counts (and flags) the
                // rest. Unbounded, a 50 MiB text sitemap of short URLs (a few hundred KB
                // gzipped) would hold two million entries (~300 bytes each) per sitemap parsed.
                let collect = |entry| {
                    if (entries.len() as u64) < sitemap::MAX_ENTRIES {
                        entries.push(entry);
                    }
                };
                // A body cut at the crawler's cap ends in a read error, so the parser reports the
                // sitemap as read partially (`sitemap/fetch-error`) instead of as complete.
                let summary = if received.body_truncated {
                    let cut = CutAtCap(received.body.len());
                    sitemap::parse(received.body.as_slice().chain(cut), &options, collect)
                } else {
                    sitemap::parse(received.body.as_slice(), &options, collect)
                };
                let content_type = received.content_type().map(str::to_owned);
                SitemapState::Parsed {
                    hops,
                    final_url: received.final_url,
                    status: received.status,
                    content_type,
                    summary,
                    entries,
                }
            }
        }
    }
}

/// The end of a body cut at the crawler's byte cap: reading it fails, saying so.
struct CutAtCap(usize);

impl Read for CutAtCap {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other(format!(
            "the response is longer than the crawler's cap of {} bytes and was cut there",
            self.0
        )))
    }
}
