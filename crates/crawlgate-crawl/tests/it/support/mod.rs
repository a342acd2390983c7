//! Shared helpers: crawl configs, sites in memory, a crawl run that keeps its events.

use crawlgate_core::Site;
use crawlgate_core::crawl::{CrawlConfig, CrawlEvent};
use crawlgate_core::site::{Resource, ResourceState};
use crawlgate_crawl::{HttpOptions, StopHandle, crawl};
use crawlgate_serve::{ServedSite, SiteServer};
use std::sync::Mutex;
use std::time::Duration;
use url::Url;

/// A config starting at `start`, with a fixed audit time.
pub(crate) fn config(start: Url) -> CrawlConfig {
    CrawlConfig::new(start, "2026-06-01T00:00:00Z".parse().unwrap())
}

/// Generous network options for loopback tests (no timed assertions rely on them).
pub(crate) fn http() -> HttpOptions {
    HttpOptions {
        request_timeout: Duration::from_secs(10),
        total_time: Duration::from_secs(120),
        ..HttpOptions::default()
    }
}

/// Serve `site` from the test's runtime.
pub(crate) async fn serve(site: ServedSite) -> SiteServer {
    SiteServer::start(site).await.unwrap()
}

/// Crawl and keep every event.
pub(crate) async fn run(config: CrawlConfig, http: &HttpOptions) -> (Site, Vec<CrawlEvent>) {
    run_with_stop(config, http, &StopHandle::new(), |_| {}).await
}

/// Crawl with a stop handle; `each` also sees every event as it comes.
pub(crate) async fn run_with_stop(
    config: CrawlConfig,
    http: &HttpOptions,
    stop: &StopHandle,
    each: impl Fn(&CrawlEvent) + Send + Sync,
) -> (Site, Vec<CrawlEvent>) {
    let events = Mutex::new(Vec::new());
    let on_event = |event: &CrawlEvent| {
        each(event);
        events.lock().unwrap().push(event.clone());
    };
    let site = crawl(config, http, stop, &on_event).await.unwrap();
    (site, events.into_inner().unwrap())
}

/// The resource at `url`, which must be known.
pub(crate) fn resource<'a>(site: &'a Site, url: &Url) -> &'a Resource {
    site.resource(url)
        .unwrap_or_else(|| panic!("{url} is not known to the crawl"))
}

/// The status of a fetched resource.
pub(crate) fn status(site: &Site, url: &Url) -> u16 {
    match &resource(site, url).state {
        ResourceState::Fetched(page) => page.status(),
        other => panic!("{url} was not fetched: {other:?}"),
    }
}
