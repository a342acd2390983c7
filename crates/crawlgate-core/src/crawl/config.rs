//! What to crawl and how far: scope and bounds, each with a default.

use crate::signals::Profile;
use crate::site::EnvironmentSettings;
use jiff::Timestamp;
use std::collections::BTreeSet;
use url::Url;

/// What to crawl. Built with [`CrawlConfig::new`], then adjusted field by field.
#[derive(Debug, Clone)]
pub struct CrawlConfig {
    /// Where the crawl starts; its scheme, host and port define the default scope.
    pub start_url: Url,
    /// Crawler profiles whose verdicts and directives are evaluated (default: googlebot).
    pub profiles: Vec<Profile>,
    /// The names of the profiles robots.txt is meant to keep out (`gptbot`, `ccbot`): for them
    /// being blocked is the wanted state and a page allowed is the finding. Each must be among
    /// [`CrawlConfig::profiles`] ([`CrawlConfig::expect_blocked`] adds it); empty by default.
    pub expected_blocked: BTreeSet<String>,
    /// The audit's "now" (sitemap `lastmod` checks, `unavailable_after`).
    pub audit_time: Timestamp,
    pub scope: Scope,
    pub bounds: Bounds,
    /// Leave URLs that every audited profile is disallowed from unfetched (DESIGN.md §5). Off by
    /// default: an audit fetches disallowed URLs for diagnosis, to see the noindex Google can't.
    pub obey_robots: bool,
    /// Sitemaps given by the user, read besides those robots.txt names.
    pub sitemaps: Vec<Url>,
    /// Probe `/sitemap.xml` on the start origin when robots.txt does not name it.
    pub probe_sitemap: bool,
    /// Fetch the assets (stylesheets, scripts, images, icons) of crawled pages (headers only).
    pub fetch_assets: bool,
    /// What the site is (production, staging) and which hosts are not production: read by the
    /// `env/` rules. Default: not said, with the default non-production host patterns.
    pub environment: EnvironmentSettings,
}

impl CrawlConfig {
    /// Defaults: the googlebot profile, same-origin scope, [`Bounds::default`], diagnostic fetch
    /// of disallowed URLs, the `/sitemap.xml` probe and asset checks on.
    pub fn new(start_url: Url, audit_time: Timestamp) -> Self {
        Self {
            start_url,
            profiles: vec![Profile::googlebot()],
            expected_blocked: BTreeSet::new(),
            audit_time,
            scope: Scope::default(),
            bounds: Bounds::default(),
            obey_robots: false,
            sitemaps: Vec::new(),
            probe_sitemap: true,
            fetch_assets: true,
            environment: EnvironmentSettings::default(),
        }
    }

    /// Declare `profile` expected-blocked: audited (added to [`CrawlConfig::profiles`] when no
    /// profile of that name is there yet) and judged as a crawler robots.txt should keep out.
    pub fn expect_blocked(&mut self, profile: Profile) {
        if !self.profiles.iter().any(|p| p.name == profile.name) {
            self.profiles.push(profile.clone());
        }
        self.expected_blocked.insert(profile.name);
    }
}

/// Which URLs are crawled as pages. By default only the start URL's scheme + host + port.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Also crawl subdomains of the start host (same scheme and port).
    pub include_subdomains: bool,
    /// Further hosts crawled as if they were the start host: `host` (same scheme and port),
    /// `host:port` for that port only (same scheme), or an origin, `scheme://host[:port]`, for
    /// that scheme too (an `http://` shop with an `https://` checkout).
    pub allow_hosts: Vec<String>,
}

impl Scope {
    /// Whether `url` is crawled as a page when the crawl started at `start`.
    pub fn contains(&self, start: &Url, url: &Url) -> bool {
        if self
            .allow_hosts
            .iter()
            .any(|entry| is_origin_of(entry, url))
        {
            return true;
        }
        if url.scheme() != start.scheme() {
            return false;
        }
        let (Some(host), Some(start_host)) = (url.host_str(), start.host_str()) else {
            return false;
        };
        let port = url.port_or_known_default();
        if self
            .allow_hosts
            .iter()
            .filter_map(|entry| entry.rsplit_once(':'))
            .any(|(h, p)| h.eq_ignore_ascii_case(host) && p.parse::<u16>().ok() == port)
        {
            return true;
        }
        if port != start.port_or_known_default() {
            return false;
        }
        host == start_host
            || (self.include_subdomains
                && host.len() > start_host.len()
                && host.ends_with(start_host)
                && host.as_bytes()[host.len() - start_host.len() - 1] == b'.')
            || self
                .allow_hosts
                .iter()
                .any(|h| h.eq_ignore_ascii_case(host))
    }
}

/// Whether `entry` is an origin (`https://host[:port]`, the scheme's port when none is written)
/// and `url` is on it.
fn is_origin_of(entry: &str, url: &Url) -> bool {
    if !entry.contains("://") {
        return false;
    }
    let Ok(origin) = Url::parse(entry) else {
        return false;
    };
    origin.scheme() == url.scheme()
        && origin.host_str().is_some()
        && origin.host_str() == url.host_str()
        && origin.port_or_known_default() == url.port_or_known_default()
}

/// Every bound of the crawl. Each has a default; a crawl never runs unbounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// Pages fetched (default 10,000).
    pub max_pages: u64,
    /// Clicks from the start URL (default: none).
    pub max_depth: Option<u32>,
    /// Assets fetched (default 10,000).
    pub max_assets: u64,
    /// URLs recorded, fetched or not (default 100,000): a calendar trap cannot exhaust memory.
    pub max_discovered: u64,
    /// Origins whose robots.txt is fetched (default 50).
    pub max_origins: u64,
    /// Body bytes read per page (default 10 MiB); longer bodies are cut and marked truncated.
    pub max_page_bytes: u64,
    /// Body bytes read per robots.txt (default 2 MiB; Google reads 500 KiB, the rest is kept to
    /// list the rules it misses).
    pub max_robots_bytes: u64,
    /// Body bytes read per sitemap, as transferred (default 50 MiB + 1 MiB).
    pub max_sitemap_bytes: u64,
    /// Redirect hops followed per request (default 10).
    pub max_redirects: u32,
    /// Sitemap index nesting (default 3).
    pub sitemap_depth: u32,
    /// Sitemaps read (default 1,000).
    pub max_sitemaps: u64,
    /// URLs taken from sitemaps (default 5,000,000).
    pub max_sitemap_urls: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            max_pages: 10_000,
            max_depth: None,
            max_assets: 10_000,
            max_discovered: 100_000,
            max_origins: 50,
            max_page_bytes: 10 * 1024 * 1024,
            max_robots_bytes: 2 * 1024 * 1024,
            max_sitemap_bytes: 52_428_800 + 1024 * 1024,
            max_redirects: 10,
            sitemap_depth: 3,
            max_sitemaps: 1_000,
            max_sitemap_urls: 5_000_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn an_allowed_host_with_a_port_adds_that_origin_only() {
        let start = url("http://127.0.0.1:4000/");
        let scope = Scope {
            include_subdomains: false,
            allow_hosts: vec!["127.0.0.1:4001".into(), "localhost:4002".into()],
        };
        assert!(scope.contains(&start, &url("http://127.0.0.1:4001/a")));
        assert!(scope.contains(&start, &url("http://LOCALHOST:4002/a")));
        assert!(scope.contains(&start, &url("http://127.0.0.1:4000/a")));
        assert!(!scope.contains(&start, &url("http://127.0.0.1:4003/a")));
        assert!(!scope.contains(&start, &url("http://localhost:4000/a")));
        assert!(!scope.contains(&start, &url("https://127.0.0.1:4001/a")));
    }

    #[test]
    fn an_allowed_origin_adds_that_scheme_host_and_port() {
        let start = url("http://127.0.0.1:4000/");
        let scope = Scope {
            include_subdomains: false,
            allow_hosts: vec!["https://127.0.0.1:4001".into(), "https://shop.test".into()],
        };
        assert!(scope.contains(&start, &url("https://127.0.0.1:4001/checkout")));
        assert!(!scope.contains(&start, &url("http://127.0.0.1:4001/checkout")));
        assert!(!scope.contains(&start, &url("https://127.0.0.1:4002/")));
        assert!(scope.contains(&start, &url("https://SHOP.test:443/a")));
        assert!(!scope.contains(&start, &url("https://shop.test:8443/a")));
        assert!(!scope.contains(&start, &url("https://www.shop.test/a")));
        // A malformed origin adds nothing.
        let broken = Scope {
            include_subdomains: false,
            allow_hosts: vec!["https://".into(), "://x".into()],
        };
        assert!(!broken.contains(&start, &url("https://x/")));
    }

    #[test]
    fn scope_is_scheme_host_and_port_by_default() {
        let start = url("https://example.com/");
        let scope = Scope::default();
        assert!(scope.contains(&start, &url("https://example.com/a")));
        assert!(scope.contains(&start, &url("https://EXAMPLE.com:443/a")));
        assert!(!scope.contains(&start, &url("http://example.com/a")));
        assert!(!scope.contains(&start, &url("https://example.com:8443/a")));
        assert!(!scope.contains(&start, &url("https://www.example.com/a")));
        assert!(!scope.contains(&start, &url("https://badexample.com/a")));
    }

    #[test]
    fn subdomains_and_extra_hosts_by_option() {
        let start = url("https://example.com/");
        let scope = Scope {
            include_subdomains: true,
            allow_hosts: vec!["cdn.other.net".into()],
        };
        assert!(scope.contains(&start, &url("https://www.example.com/a")));
        assert!(!scope.contains(&start, &url("https://badexample.com/a")));
        assert!(scope.contains(&start, &url("https://cdn.other.net/a")));
    }
}
