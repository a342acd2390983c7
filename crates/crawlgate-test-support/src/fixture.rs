//! Fixture mini-sites: `fixtures/rules/<family>/<name>/{fires,clean}.toml` (and the further
//! cases beside them), crawled offline (no network) through the same crawl logic as real audits.
//! The renderer tests' canned sites (`crates/crawlgate-report/tests/sites/`) have the same shape.

use crawlgate_core::crawl::{
    Bounds, CrawlConfig, OfflineSite, Request, Response, parse_header_line, run_offline,
};
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::site::{
    BlockedRequest, HostPattern, Received, RenderCapture, RenderOutcome, RenderedPage,
};
use crawlgate_core::{Finding, Site};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;

/// A mini-site description: the crawl's settings, then the site (`[[page]]` and the other tables
/// of [`OfflineSite`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    /// Where the crawl starts (default `http://site.test/`).
    #[serde(default = "default_start")]
    pub start: String,
    /// Crawler profiles (default `["googlebot"]`).
    #[serde(default)]
    pub profiles: Vec<String>,
    /// Profiles declared expected-blocked (`--expect-blocked`), added to the profiles when
    /// missing.
    #[serde(default)]
    pub expect_blocked: Vec<String>,
    #[serde(default)]
    pub obey_robots: bool,
    /// Further hosts in the crawl's scope (`host` or `host:port`).
    #[serde(default)]
    pub allow_hosts: Vec<String>,
    /// The audit time (default 2026-06-01T12:00:00Z).
    #[serde(default)]
    pub audit_time: Option<String>,
    /// Sitemaps given on the command line.
    #[serde(default)]
    pub sitemaps: Vec<String>,
    /// Probe `/sitemap.xml` (default true).
    #[serde(default = "yes")]
    pub probe_sitemap: bool,
    #[serde(default)]
    pub max_pages: Option<u64>,
    /// Body bytes read per page (`--max-body-bytes`; default the crawl's).
    #[serde(default)]
    pub max_body_bytes: Option<u64>,
    /// What the site is declared to be, `production` or `staging` (the `env/` rules).
    #[serde(default)]
    pub environment: Option<String>,
    /// Non-production host patterns (default: the built-in list).
    #[serde(default)]
    pub non_production_hosts: Option<Vec<String>>,
    /// Bodies built when the fixture loads, for what a TOML string cannot hold (see
    /// [`GeneratedBody`]).
    #[serde(default)]
    pub generated: BTreeMap<String, GeneratedBody>,
    /// What rendering a page in a browser gives (`--render`), by page URL: the `render/` rules'
    /// input, built as a live render's is ([`RenderedPage::from_capture`]) from the page's canned
    /// response and this DOM.
    #[serde(default)]
    pub rendered: BTreeMap<String, RenderedFixture>,
    #[serde(flatten)]
    pub site: OfflineSite,
}

/// One page's render: the DOM its scripts left and how it went.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderedFixture {
    /// The rendered DOM (`outerHTML`); empty when rendering failed.
    #[serde(default)]
    pub dom: String,
    /// `settled` (default), `timed-out`, or `failed` (with `reason`).
    #[serde(default)]
    pub outcome: Option<String>,
    #[serde(default)]
    pub reason: String,
    /// The rendered body's text length (default: the DOM's length).
    #[serde(default)]
    pub text_length: Option<u64>,
    /// The text length rendered again with the blocked requests served.
    #[serde(default)]
    pub text_length_unblocked: Option<u64>,
    /// Requests robots.txt kept from the page.
    #[serde(default)]
    pub blocked: Vec<BlockedFixture>,
    /// Uncaught exceptions and `console.error` lines.
    #[serde(default)]
    pub errors: Vec<String>,
}

/// A request refused to a rendered page.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockedFixture {
    pub url: String,
    /// `Script`, `Stylesheet`, `XHR`, … (default `Script`).
    #[serde(default = "script")]
    pub resource_type: String,
    #[serde(default = "blocked_reason")]
    pub reason: String,
}

fn script() -> String {
    "Script".to_owned()
}

fn blocked_reason() -> String {
    "disallowed by robots.txt".to_owned()
}

impl RenderedFixture {
    fn outcome(&self) -> Result<RenderOutcome, String> {
        match self.outcome.as_deref().unwrap_or("settled") {
            "settled" => Ok(RenderOutcome::Settled),
            "timed-out" => Ok(RenderOutcome::TimedOut),
            "failed" => Ok(RenderOutcome::Failed {
                reason: self.reason.clone(),
            }),
            other => Err(format!(
                "rendered outcome `{other}`: expected settled, timed-out or failed"
            )),
        }
    }
}

/// A 200 response whose body is built at load time: `head`, then `line` repeated `count` times
/// (`{n}` in it numbered from 1), then `tail`; optionally gzip-compressed, and optionally cut to
/// its first `cut` bytes. For documents too large to commit (50,001 URLs, 50 MiB) and for gzip.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedBody {
    #[serde(default)]
    pub headers: Vec<String>,
    #[serde(default)]
    pub head: String,
    #[serde(default)]
    pub line: String,
    #[serde(default)]
    pub count: u32,
    #[serde(default)]
    pub tail: String,
    #[serde(default)]
    pub gzip: bool,
    #[serde(default)]
    pub cut: Option<usize>,
}

impl GeneratedBody {
    fn body(&self) -> Vec<u8> {
        let mut text = self.head.clone();
        let numbered = self.line.contains("{n}");
        for n in 1..=self.count {
            if numbered {
                text.push_str(&self.line.replace("{n}", &n.to_string()));
            } else {
                text.push_str(&self.line);
            }
        }
        text.push_str(&self.tail);
        let mut body = if self.gzip {
            let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
            encoder.write_all(text.as_bytes()).expect("gzip in memory");
            encoder.finish().expect("gzip in memory")
        } else {
            text.into_bytes()
        };
        if let Some(cut) = self.cut {
            body.truncate(cut);
        }
        body
    }

    fn respond(&self, request: &Request, body: &[u8]) -> Response {
        let limit = usize::try_from(request.max_body_bytes).unwrap_or(usize::MAX);
        let body_truncated = body.len() > limit;
        Response {
            hops: Vec::new(),
            outcome: Ok(Received {
                final_url: request.url.clone(),
                status: 200,
                headers: self
                    .headers
                    .iter()
                    .map(|line| parse_header_line(line))
                    .collect(),
                body: body[..body.len().min(limit)].to_vec(),
                body_truncated,
            }),
        }
    }
}

/// The audit time of a fixture that names none.
pub const AUDIT_TIME: &str = "2026-06-01T12:00:00Z";

fn default_start() -> String {
    "http://site.test/".to_owned()
}

fn yes() -> bool {
    true
}

/// The fixture folder of a rule id: `fixtures/rules/<family>/<name>/`.
pub fn rule_dir(rule_id: &str) -> PathBuf {
    crate::fixtures_dir().join("rules").join(rule_id)
}

/// Crawl a fixture file offline into a Site; the error names the file.
pub fn load_site(path: &std::path::Path) -> Result<Site, String> {
    load_fixture(path)?.crawl()
}

/// Read a fixture file; the error names the file.
pub fn load_fixture(path: &std::path::Path) -> Result<Fixture, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A built-in profile by name, else a custom one, as `--profile` reads names.
fn profile(name: &str) -> Profile {
    Profile::builtin(name).unwrap_or_else(|| Profile::custom(name))
}

impl Fixture {
    /// Crawl the mini-site offline into a Site.
    pub fn crawl(&self) -> Result<Site, String> {
        self.crawl_holding(Bounds::default().pages_in_memory)
    }

    /// [`Fixture::crawl`] with every fetched page in the page store, none held in memory, and
    /// the URLs' lists spilled after every response: the rules then read each page and list
    /// back from its record, as past `--pages-in-memory`.
    pub fn crawl_stored(&self) -> Result<Site, String> {
        self.crawl_holding(0)
    }

    /// Crawl with at most `pages_in_memory` pages held, and no list entry held past a response
    /// when that is 0.
    fn crawl_holding(&self, pages_in_memory: u64) -> Result<Site, String> {
        let fixture = self;
        let start = url::Url::parse(&fixture.start).map_err(|e| e.to_string())?;
        let audit_time = fixture
            .audit_time
            .as_deref()
            .unwrap_or(AUDIT_TIME)
            .parse()
            .map_err(|e| format!("audit_time: {e}"))?;
        let mut config = CrawlConfig::new(start, audit_time);
        config.bounds.pages_in_memory = pages_in_memory;
        if pages_in_memory == 0 {
            config.bounds.lists_in_memory = 0;
        }
        if !fixture.profiles.is_empty() {
            config.profiles = fixture.profiles.iter().map(|name| profile(name)).collect();
        }
        for name in &fixture.expect_blocked {
            config.expect_blocked(profile(name));
        }
        config.obey_robots = fixture.obey_robots;
        config.scope.allow_hosts.clone_from(&fixture.allow_hosts);
        config.probe_sitemap = fixture.probe_sitemap;
        if let Some(max) = fixture.max_pages {
            config.bounds.max_pages = max;
        }
        if let Some(max) = fixture.max_body_bytes {
            config.bounds.max_page_bytes = max;
        }
        if let Some(environment) = &fixture.environment {
            config.environment.environment = Some(environment.parse()?);
        }
        if let Some(hosts) = &fixture.non_production_hosts {
            config.environment.non_production_hosts = hosts
                .iter()
                .map(|host| HostPattern::parse(host))
                .collect::<Result<_, _>>()?;
        }
        config.sitemaps = fixture
            .sitemaps
            .iter()
            .filter_map(|s| url::Url::parse(s).ok())
            .collect();
        let generated: BTreeMap<&str, (&GeneratedBody, Vec<u8>)> = fixture
            .generated
            .iter()
            .map(|(url, spec)| (url.as_str(), (spec, spec.body())))
            .collect();
        let mut site = run_offline(config, |request| {
            match generated.get(request.url.as_str()) {
                Some((spec, body)) => spec.respond(request, body),
                None => fixture.site.respond(request),
            }
        })
        .map_err(|e| e.to_string())?;
        for (url, rendered) in &fixture.rendered {
            let page_url = url::Url::parse(url).map_err(|e| format!("rendered `{url}`: {e}"))?;
            let canned = fixture
                .site
                .responses
                .get(page_url.as_str())
                .ok_or_else(|| format!("rendered `{url}`: no response for it"))?;
            let headers = canned.header_lines();
            let blocked = rendered
                .blocked
                .iter()
                .map(|b| {
                    Ok(BlockedRequest {
                        url: url::Url::parse(&b.url)
                            .map_err(|e| format!("blocked `{}`: {e}", b.url))?,
                        resource_type: b.resource_type.clone(),
                        reason: b.reason.clone(),
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let raw_body = canned.body_bytes();
            let page = RenderedPage::from_capture(RenderCapture {
                url: &page_url,
                status: canned.status,
                headers: &headers,
                raw_body: &raw_body,
                dom: &rendered.dom,
                dom_truncated: false,
                outcome: rendered.outcome()?,
                text_length: rendered.text_length.unwrap_or(rendered.dom.len() as u64),
                text_length_unblocked: rendered.text_length_unblocked,
                requests: u32::try_from(blocked.len()).unwrap_or(u32::MAX) + 1,
                blocked,
                requests_cut: false,
                errors: rendered.errors.clone(),
            });
            if !site.set_rendered(&page_url, page) {
                return Err(format!("rendered `{url}`: not a fetched page of the crawl"));
            }
        }
        Ok(site)
    }
}

/// Run one rule over a site: its findings, in report order.
pub fn run(rule: &dyn Rule, site: &Site) -> Vec<Finding> {
    let mut findings = Vec::new();
    rule.check(site, &mut Findings::new(rule.meta(), None, &mut findings));
    findings.sort_by(Finding::report_order);
    findings
}
