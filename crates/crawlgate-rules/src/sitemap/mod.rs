//! Sitemap rules: discovery and fetch, the documents themselves, and their URLs crossed with the
//! crawl.

mod url_blocked;

pub use url_blocked::UrlBlocked;
