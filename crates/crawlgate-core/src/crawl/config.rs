//! What to crawl and how far: scope and bounds, each with a default.

use crate::UrlPattern;
use crate::signals::Profile;
use crate::site::{EnvironmentSettings, RobotsOverride};
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use url::{Host, Url};

/// What to crawl. Built with [`CrawlConfig::new`], then adjusted field by field.
#[derive(Debug, Clone)]
pub struct CrawlConfig {
    /// Where the crawl starts; its scheme, host and port define the default scope. In list mode
    /// and with [`CrawlMode::SitemapOnly`] it is fetched only when listed.
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
    /// What is fetched as pages: pages reached by links (the default), a list, or the sitemaps'
    /// URLs.
    pub mode: CrawlMode,
    /// The URLs fetched in [`CrawlMode::List`] (ignored in the other modes): exactly these pages,
    /// in this order; each one's origin is in scope (its robots.txt fetched, its sitemaps read).
    pub listed: Vec<Url>,
    /// Leave URLs that every audited profile is disallowed from unfetched (DESIGN.md §5). Off by
    /// default: an audit fetches disallowed URLs for diagnosis, to see the noindex Google can't.
    pub obey_robots: bool,
    /// Sitemaps given by the user, read besides those robots.txt names.
    pub sitemaps: Vec<Url>,
    /// Probe `/sitemap.xml` on the start origin when robots.txt does not name it.
    pub probe_sitemap: bool,
    /// Fetch the assets (stylesheets, scripts, images, icons) of crawled pages (headers only).
    pub fetch_assets: bool,
    /// robots.txt files read instead of origins' live ones, by origin (`scheme://host[:port]`,
    /// as [`crate::site::origin_of`] writes it): the audit's verdicts come from them, and their
    /// robots.txt is not fetched (Screaming Frog's custom robots.txt, Sitebulb's virtual one).
    pub robots_overrides: BTreeMap<String, RobotsOverride>,
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
            mode: CrawlMode::default(),
            listed: Vec::new(),
            obey_robots: false,
            sitemaps: Vec::new(),
            probe_sitemap: true,
            fetch_assets: true,
            robots_overrides: BTreeMap::new(),
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

/// What the crawl fetches as pages. robots.txt and sitemaps are read in every mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrawlMode {
    /// From the start URL, every in-scope page reached by links, plus the URLs sitemaps list and
    /// the canonical, hreflang and redirect targets of crawled pages.
    #[default]
    FollowLinks,
    /// Exactly [`CrawlConfig::listed`]: links, sitemap URLs and references found are recorded,
    /// not fetched ([`NotListed`](crate::site::NotFetchedReason::NotListed)).
    List,
    /// The in-scope URLs the sitemaps list (those robots.txt of the start origin names, its
    /// `/sitemap.xml` probe and [`CrawlConfig::sitemaps`]); links and references found on them
    /// are recorded, not fetched. The start URL is fetched only when a sitemap lists it.
    SitemapOnly,
}

impl CrawlMode {
    /// Whether links found on pages are followed (the link graph from the start URL is whole).
    pub fn follows_links(self) -> bool {
        self == CrawlMode::FollowLinks
    }

    /// `follow-links`, `list` or `sitemap-only`.
    pub fn as_str(self) -> &'static str {
        match self {
            CrawlMode::FollowLinks => "follow-links",
            CrawlMode::List => "list",
            CrawlMode::SitemapOnly => "sitemap-only",
        }
    }
}

/// Which URLs are crawled as pages. By default only the start URL's scheme + host + port.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Also crawl every host under the start host's registrable domain (same scheme and port):
    /// from `www.example.com`, `example.com` and `shop.example.com`, but not `other.co.uk` from
    /// `www.example.co.uk`, nor `other.github.io` from `client.github.io` (the public suffix
    /// list, private section included). A host with no registrable domain (an IP address,
    /// `localhost`, a public suffix) covers itself and its subdomains. See [`subdomain_root`].
    pub include_subdomains: bool,
    /// Further hosts crawled as if they were the start host: `host` (same scheme and port),
    /// `host:port` for that port only (same scheme), or an origin, `scheme://host[:port]`, for
    /// that scheme too (an `http://` shop with an `https://` checkout).
    pub allow_hosts: Vec<String>,
    /// When not empty, in-scope pages whose URL matches none of these are not fetched
    /// ([`Excluded`](crate::site::NotFetchedReason::Excluded)).
    pub include: Vec<UrlPattern>,
    /// In-scope pages whose URL matches one of these are not fetched
    /// ([`Excluded`](crate::site::NotFetchedReason::Excluded)). robots.txt, sitemaps and assets
    /// are never excluded.
    pub exclude: Vec<UrlPattern>,
}

/// Why a URL is excluded from the crawl by [`Scope::include`] or [`Scope::exclude`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exclusion<'a> {
    /// It matches this exclude pattern (the first that does).
    Matches(&'a UrlPattern),
    /// Include patterns are given and it matches none.
    MatchesNoInclude,
}

impl std::fmt::Display for Exclusion<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exclusion::Matches(pattern) => write!(f, "it matches the exclude pattern `{pattern}`"),
            Exclusion::MatchesNoInclude => f.write_str("it matches none of the include patterns"),
        }
    }
}

impl Scope {
    /// Whether `url` is crawled as a page when the crawl started at `start` (hosts, schemes and
    /// ports only: [`Scope::exclusion`] is the include/exclude check).
    pub fn contains(&self, start: &Url, url: &Url) -> bool {
        self.contains_under(start, &subdomain_root(start), url)
    }

    /// Why the include and exclude patterns leave `url` unfetched, or `None` when they let it be
    /// fetched. An exclude pattern wins over an include pattern.
    pub fn exclusion(&self, url: &Url) -> Option<Exclusion<'_>> {
        if let Some(pattern) = self.exclude.iter().find(|p| p.matches(url)) {
            return Some(Exclusion::Matches(pattern));
        }
        (!self.include.is_empty() && !self.include.iter().any(|p| p.matches(url)))
            .then_some(Exclusion::MatchesNoInclude)
    }

    /// [`Scope::contains`], with the start host's [`subdomain_root`] computed once by the caller.
    pub(crate) fn contains_under(&self, start: &Url, root: &str, url: &Url) -> bool {
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
            || (self.include_subdomains && is_under(host, root))
            || self
                .allow_hosts
                .iter()
                .any(|h| h.eq_ignore_ascii_case(host))
    }
}

/// Whether `host` is `root` or one of its subdomains (a trailing dot ignored on both).
fn is_under(host: &str, root: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let root = root.strip_suffix('.').unwrap_or(root);
    host.eq_ignore_ascii_case(root)
        || (host.len() > root.len()
            && host.as_bytes()[host.len() - root.len() - 1] == b'.'
            && host[host.len() - root.len()..].eq_ignore_ascii_case(root))
}

/// The host under which [`Scope::include_subdomains`] crawls from `start`: its registrable
/// domain by the public suffix list (ICANN and private sections: `example.co.uk` from
/// `www.example.co.uk`, `client.github.io` from `client.github.io`; a name under no listed
/// suffix takes the list's default rule, its last two labels), or the host itself when it has
/// none (an IP address, a one-label name such as `localhost`, a public suffix itself).
pub fn subdomain_root(start: &Url) -> Cow<'_, str> {
    let Some(Host::Domain(host)) = start.host() else {
        return Cow::Borrowed(start.host_str().unwrap_or_default());
    };
    let bare = host.strip_suffix('.').unwrap_or(host);
    match psl::domain(bare.as_bytes()).and_then(|d| std::str::from_utf8(d.as_bytes()).ok()) {
        Some(domain) => Cow::Owned(domain.to_ascii_lowercase()),
        None => Cow::Borrowed(bare),
    }
}

/// Which URLs belong to the audited site, as the crawl decides it: the [`Scope`] around the
/// start URL (subdomains under its registrable domain when asked), plus, in list mode, the
/// origins of the listed URLs. [`super::Crawl::site_scope`] gives it to code outside the state
/// machine that must decide the same way (the HTTP client sends credentials only there).
#[derive(Debug, Clone)]
pub struct SiteScope {
    start: Url,
    /// The start host's [`subdomain_root`], computed once.
    root: String,
    scope: Scope,
    listed_origins: BTreeSet<String>,
}

impl SiteScope {
    pub(crate) fn new(start: &Url, scope: &Scope, listed_origins: BTreeSet<String>) -> Self {
        Self {
            start: start.clone(),
            root: subdomain_root(start).into_owned(),
            scope: scope.clone(),
            listed_origins,
        }
    }

    /// The origin of `url` alone (a single robots.txt or sitemap fetch).
    pub fn of_origin(url: &Url) -> Self {
        Self::new(url, &Scope::default(), BTreeSet::new())
    }

    /// Whether `url` belongs to the audited site.
    pub fn contains(&self, url: &Url) -> bool {
        self.scope.contains_under(&self.start, &self.root, url)
            || (!self.listed_origins.is_empty()
                && self
                    .listed_origins
                    .contains(crate::site::origin_of(url).as_ref()))
    }

    /// Whether `origin` is one of the listed URLs' (list mode).
    pub(crate) fn lists_origin(&self, origin: &str) -> bool {
        self.listed_origins.contains(origin)
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
    /// Bytes of the URLs recorded (default 32 MiB): a site of 2 KB URLs stops being recorded
    /// long before 100,000 of them.
    pub max_discovered_bytes: u64,
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
    /// Bytes of sitemap entries and of their issues kept for the sitemap rules over all
    /// sitemaps, as estimated by [`crate::sitemap::Entry::kept_bytes`] and each issue's size
    /// (default 16 MiB). Past it, a sitemap's entries are still read for their URLs and
    /// counted, but neither they nor their issues are kept.
    pub max_sitemap_entry_bytes: u64,
    /// Fetched pages held in memory (default 100,000); past it, when the crawl has a page
    /// store ([`crate::crawl::Crawl::set_page_store`]), each further page goes to the store and
    /// is read back when a rule asks: memory then grows by the URL, not the page.
    pub pages_in_memory: u64,
    /// Entries of the URLs' evidence lists (link samples, references, sitemap listings) held
    /// at once when the crawl has a page store (default 800,000, eight per page of
    /// `pages_in_memory`'s default); past it the crawl spills them there, and merges each URL's
    /// at its end. Each spill is a run the merge reads a block of at a time: 0 spills after
    /// every response (tests), and a large crawl then merges as many runs as it had responses.
    pub lists_in_memory: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            max_pages: 10_000,
            max_depth: None,
            max_assets: 10_000,
            max_discovered: 100_000,
            max_discovered_bytes: 32 * 1024 * 1024,
            max_origins: 50,
            max_page_bytes: 10 * 1024 * 1024,
            max_robots_bytes: 2 * 1024 * 1024,
            max_sitemap_bytes: 52_428_800 + 1024 * 1024,
            max_redirects: 10,
            sitemap_depth: 3,
            max_sitemaps: 1_000,
            max_sitemap_urls: 5_000_000,
            max_sitemap_entry_bytes: 16 * 1024 * 1024,
            pages_in_memory: 100_000,
            lists_in_memory: 800_000,
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
            allow_hosts: vec!["127.0.0.1:4001".into(), "localhost:4002".into()],
            ..Scope::default()
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
            allow_hosts: vec!["https://127.0.0.1:4001".into(), "https://shop.test".into()],
            ..Scope::default()
        };
        assert!(scope.contains(&start, &url("https://127.0.0.1:4001/checkout")));
        assert!(!scope.contains(&start, &url("http://127.0.0.1:4001/checkout")));
        assert!(!scope.contains(&start, &url("https://127.0.0.1:4002/")));
        assert!(scope.contains(&start, &url("https://SHOP.test:443/a")));
        assert!(!scope.contains(&start, &url("https://shop.test:8443/a")));
        assert!(!scope.contains(&start, &url("https://www.shop.test/a")));
        // A malformed origin adds nothing.
        let broken = Scope {
            allow_hosts: vec!["https://".into(), "://x".into()],
            ..Scope::default()
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
            ..Scope::default()
        };
        assert!(scope.contains(&start, &url("https://www.example.com/a")));
        assert!(!scope.contains(&start, &url("https://badexample.com/a")));
        assert!(scope.contains(&start, &url("https://cdn.other.net/a")));
    }

    fn subdomains() -> Scope {
        Scope {
            include_subdomains: true,
            ..Scope::default()
        }
    }

    /// Whether `--include-subdomains` from `start` covers each of `hosts` (https, default port).
    fn covers(start: &str, hosts: &[&str]) -> Vec<bool> {
        let start = url(&format!("https://{start}/"));
        hosts
            .iter()
            .map(|host| subdomains().contains(&start, &url(&format!("https://{host}/a"))))
            .collect()
    }

    #[test]
    fn subdomains_are_those_of_the_registrable_domain() {
        assert_eq!(
            covers(
                "www.example.com",
                &[
                    "shop.example.com",
                    "example.com",
                    "a.b.example.com",
                    "WWW.Example.COM"
                ]
            ),
            [true; 4]
        );
        assert_eq!(
            covers(
                "www.example.com",
                &[
                    "badexample.com",
                    "example.org",
                    "com",
                    "example.com.evil.net"
                ]
            ),
            [false; 4]
        );
        // Same scheme and port still.
        let start = url("https://www.example.com/");
        assert!(!subdomains().contains(&start, &url("http://shop.example.com/")));
        assert!(!subdomains().contains(&start, &url("https://shop.example.com:8443/")));
        assert!(!Scope::default().contains(&start, &url("https://shop.example.com/")));
    }

    #[test]
    fn a_multi_label_public_suffix_is_not_one_site() {
        assert_eq!(
            subdomain_root(&url("https://www.example.co.uk/")),
            "example.co.uk"
        );
        assert_eq!(
            covers(
                "www.example.co.uk",
                &["shop.example.co.uk", "example.co.uk"]
            ),
            [true; 2]
        );
        assert_eq!(
            covers(
                "www.example.co.uk",
                &["other.co.uk", "co.uk", "www.other.co.uk"]
            ),
            [false; 3]
        );
    }

    #[test]
    fn private_section_suffixes_keep_each_customer_apart() {
        // An agency auditing a client on a shared host must not crawl the neighbours.
        assert_eq!(
            subdomain_root(&url("https://client.github.io/")),
            "client.github.io"
        );
        assert_eq!(
            covers(
                "client.github.io",
                &["client.github.io", "docs.client.github.io"]
            ),
            [true; 2]
        );
        assert_eq!(
            covers("client.github.io", &["other.github.io", "github.io"]),
            [false; 2]
        );
        assert_eq!(
            covers(
                "www.shop.blogspot.com",
                &["shop.blogspot.com", "other.blogspot.com"]
            ),
            [true, false]
        );
    }

    #[test]
    fn a_host_without_a_registrable_domain_covers_itself_and_its_subdomains() {
        // An IP address.
        let ip = url("http://127.0.0.1:8080/");
        assert_eq!(subdomain_root(&ip), "127.0.0.1");
        assert!(subdomains().contains(&ip, &url("http://127.0.0.1:8080/a")));
        assert!(!subdomains().contains(&ip, &url("http://0.1:8080/a")));
        assert!(!subdomains().contains(&ip, &url("http://1:8080/a")));
        let v6 = url("http://[::1]:8080/");
        assert_eq!(subdomain_root(&v6), "[::1]");
        assert!(subdomains().contains(&v6, &url("http://[::1]:8080/a")));
        // localhost.
        assert_eq!(subdomain_root(&url("http://localhost/")), "localhost");
        assert_eq!(
            covers("localhost", &["localhost", "app.localhost"]),
            [true; 2]
        );
        assert_eq!(covers("localhost", &["otherhost"]), [false]);
        // A bare public suffix.
        assert_eq!(subdomain_root(&url("https://co.uk/")), "co.uk");
        assert_eq!(covers("co.uk", &["co.uk", "x.co.uk"]), [true; 2]);
        assert_eq!(covers("co.uk", &["uk", "co.jp"]), [false; 2]);
    }

    #[test]
    fn names_under_unlisted_suffixes_take_the_default_rule() {
        // `.test` (the demo's and the tests' names) is on no list: the last two labels.
        assert_eq!(
            subdomain_root(&url("http://www.northwind.test/")),
            "northwind.test"
        );
        assert_eq!(
            covers("www.northwind.test", &["help.northwind.test", "other.test"]),
            [true, false]
        );
        // A trailing dot names the same host.
        assert_eq!(
            subdomain_root(&url("https://www.example.com./")),
            "example.com"
        );
        assert_eq!(covers("www.example.com.", &["shop.example.com"]), [true]);
        // International names are compared in their ASCII (punycode) form.
        let idn = url("https://www.bücher.de/");
        assert_eq!(subdomain_root(&idn), "xn--bcher-kva.de");
        assert!(subdomains().contains(&idn, &url("https://shop.bücher.de/")));
    }

    #[test]
    fn include_and_exclude_patterns_decide_which_pages_are_fetched() {
        let pattern = |text: &str| UrlPattern::parse(text).unwrap();
        let scope = Scope {
            include: vec![pattern("*/shop/*"), pattern("*/blog/*")],
            exclude: vec![pattern("*?sort=*"), pattern("*/blog/drafts/*")],
            ..Scope::default()
        };
        assert_eq!(scope.exclusion(&url("https://e.com/shop/tents")), None);
        assert_eq!(scope.exclusion(&url("https://e.com/blog/post")), None);
        assert_eq!(
            scope.exclusion(&url("https://e.com/about")),
            Some(Exclusion::MatchesNoInclude)
        );
        // Exclude wins over include.
        let sorted = url("https://e.com/shop/tents?sort=price");
        assert_eq!(
            scope.exclusion(&sorted),
            Some(Exclusion::Matches(&pattern("*?sort=*")))
        );
        assert_eq!(
            scope.exclusion(&sorted).unwrap().to_string(),
            "it matches the exclude pattern `*?sort=*`"
        );
        assert!(
            scope
                .exclusion(&url("https://e.com/blog/drafts/x"))
                .is_some()
        );
        // No patterns: nothing excluded.
        assert_eq!(Scope::default().exclusion(&url("https://e.com/x")), None);
    }
}
