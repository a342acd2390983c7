//! What the environment rules share: the site's home page as the crawl saw it.

use crate::support::final_response;
use crawlgate_core::Site;
use crawlgate_core::site::{FetchedPage, Resource};
use std::borrow::Cow;

/// The final response for the start URL (after its redirects), when one came.
pub(super) fn home(site: &Site) -> Option<(&Resource, Cow<'_, FetchedPage>)> {
    site.resource(&site.start_url)
        .and_then(|start| final_response(site, start))
}

/// Pages that answered 2xx with HTML: the pages a search engine could index.
pub(super) fn html_pages(site: &Site) -> impl Iterator<Item = (&Resource, Cow<'_, FetchedPage>)> {
    crate::support::ok_pages(site).filter(|(_, page)| page.signals.is_html)
}
