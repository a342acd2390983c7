//! crawlgate audits a site the way Googlebot reads it: robots.txt exactly as Google's library
//! parses and matches it, sitemaps, and every page's meta robots, `X-Robots-Tag` and
//! `rel=canonical`, cross-checked by rules whose findings quote their evidence.
//!
//! Crawl a site over HTTP with [`Auditor::audit`], or check a site you already have (saved
//! responses, a test fixture) with [`Auditor::check`]:
//!
//! ```
//! use crawlgate::crawl::{CannedResponse, CrawlConfig, OfflineSite};
//!
//! let site = OfflineSite::default()
//!     .with("http://shop.test/robots.txt", CannedResponse::ok("text/plain", "User-agent: *\nDisallow: /private/\n"))
//!     .with("http://shop.test/", CannedResponse::ok("text/html", r#"<a href="/private/x">x</a>"#))
//!     .with("http://shop.test/private/x", CannedResponse::ok("text/html", r#"<meta name="robots" content="noindex">"#));
//! let config = CrawlConfig::new("http://shop.test/".parse()?, "2026-06-01T00:00:00Z".parse()?);
//! let crawled = site.crawl(config)?;
//!
//! let report = crawlgate::Auditor::builder().build()?.check(&crawled);
//! let blocked_noindex = report.findings.iter().find(|f| f.finding.rule == "robots/blocked-noindex");
//! assert_eq!(blocked_noindex.map(|f| f.finding.url.as_str()), Some("http://shop.test/private/x"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Over HTTP (inside a tokio runtime):
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let auditor = crawlgate::Auditor::builder().max_pages(500).build()?;
//! let audit = auditor.audit("https://example.com/").await?;
//! println!("{} findings", audit.report.summary.findings);
//! # Ok(()) }
//! ```
//!
//! Add a rule of your own with [`AuditorBuilder::rule`] (see `examples/custom_rule.rs`).

mod auditor;
mod config;
pub mod diff;
pub mod output;

pub use auditor::{Audit, AuditError, Auditor, AuditorBuilder, DEFAULT_PAGE_WINDOW};
pub use config::{ConfigError, ConfigFile, RuleConfig, RuleLevel, SuppressEntry, Suppression};

#[doc(inline)]
pub use crawlgate_core::{
    Evidence, FailOn, Finding, Issue, Rule, RuleMeta, Severity, Site, UrlPattern, declare_rule,
};
/// The network side, as the CLI uses it: the crawl, robots.txt and sitemap fetching.
#[doc(inline)]
pub use crawlgate_crawl::{
    Access, AccessError, BasicAuth, ClientError, CrawlStore, HttpOptions, LaunchError,
    MAX_STORE_BYTES, Pace, RenderOptions, RenderSettings, ResolveError, Retry, STORE_FILE,
    SitemapFetch, SitemapLimits, SitemapSkip, SitemapStep, StopHandle, StoreError, StoreSummary,
    check_root_certificates, crawl, crawl_and_render, crawl_with_store, fetch_robots,
    fetch_sitemaps, find_chromium, parse_resolve, resolvable_host, take_userinfo,
};
#[doc(inline)]
pub use crawlgate_report::{Renderers, Report, write_reports};
#[doc(inline)]
pub use crawlgate_rules::RULES;

/// The engine's modules: robots.txt, sitemaps, page signals, the crawl's logic, the Site model,
/// the rule interface.
pub use crawlgate_core::{crawl, finding, http, robots, rule, signals, site, sitemap, url_pattern};
/// The report as Parquet tables (feature `parquet`, on by default).
#[cfg(feature = "parquet")]
pub use crawlgate_parquet as parquet;
/// Report model and renderers.
pub use crawlgate_report as report;
/// The rule catalogue: the audit's rules, the `diff/` rules, RULES.md.
pub use crawlgate_rules as rules;

// The Rust examples of the repository's README.md run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
