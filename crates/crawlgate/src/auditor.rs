//! The [`Auditor`]: crawl a site, run the rules, build the report.

use crate::config::{ConfigError, RuleConfig};
use crawlgate_core::crawl::{Bounds, CrawlConfig, CrawlError, CrawlEvent, CrawlMode, Scope};
use crawlgate_core::rule::{Declared, Findings, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::{Finding, RuleMeta, Site};
use crawlgate_crawl::{CrawlStore, HttpOptions, RenderSettings, StopHandle};
use crawlgate_report::{BuildOptions, Report};
use jiff::Timestamp;
use std::net::SocketAddr;
use std::sync::Arc;
use thiserror::Error;
use url::Url;

/// Why an audit could not start. Everything after the start (failed fetches, bounds) is data in
/// the report.
#[derive(Debug, Error)]
pub enum AuditError {
    #[error("`{url}` is not a valid URL: {reason}")]
    InvalidUrl { url: String, reason: String },
    #[error(transparent)]
    Crawl(#[from] CrawlError),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// A finished audit: what the crawl saw, and the report.
#[derive(Debug)]
pub struct Audit {
    pub site: Site,
    pub report: Report,
}

/// What one rule found: its meta, its findings (within the per-rule bound), how many it left out.
type RuleRun = (&'static RuleMeta, Vec<Finding>, u64);

type EventCallback = Arc<dyn Fn(&CrawlEvent) + Send + Sync>;

/// Crawls a site and cross-checks it. Build one with [`Auditor::builder`].
pub struct Auditor {
    /// The crawl settings; its start URL and audit time are placeholders, replaced per audit.
    crawl: CrawlConfig,
    http: HttpOptions,
    rules: Vec<Arc<dyn Rule>>,
    rule_config: RuleConfig,
    on_event: Option<EventCallback>,
    stop: StopHandle,
    audit_time: Option<Timestamp>,
    generated_at: bool,
    /// Render the crawl's pages in headless Chromium (`--render`).
    render: Option<RenderSettings>,
    /// Resources per window when page-local rules run over a site with stored pages.
    page_window: usize,
}

/// Resources per window ([`AuditorBuilder::page_window`]): the window's stored pages are held
/// in memory while the page-local rules read them.
pub const DEFAULT_PAGE_WINDOW: usize = 32_768;

impl std::fmt::Debug for Auditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auditor")
            .field("crawl", &self.crawl)
            .field("rules", &self.rules.len())
            .finish_non_exhaustive()
    }
}

impl Auditor {
    /// An auditor with the defaults: the googlebot profile, every built-in rule, the crawl bounds
    /// of [`Bounds::default`] and the HTTP options of [`HttpOptions::default`].
    pub fn builder() -> AuditorBuilder {
        AuditorBuilder {
            auditor: Auditor {
                crawl: CrawlConfig::new(placeholder_start(), Timestamp::UNIX_EPOCH),
                http: HttpOptions::default(),
                rules: crawlgate_rules::RULES
                    .iter()
                    .map(|rule| Arc::new(BuiltIn(*rule)) as Arc<dyn Rule>)
                    .collect(),
                rule_config: RuleConfig::default(),
                on_event: None,
                stop: StopHandle::new(),
                audit_time: None,
                generated_at: false,
                render: None,
                page_window: DEFAULT_PAGE_WINDOW,
            },
            ca_certs: Vec::new(),
            resolve: Vec::new(),
        }
    }

    /// Crawl `start_url` over HTTP, run the rules, build the report.
    pub async fn audit(&self, start_url: &str) -> Result<Audit, AuditError> {
        let start = Url::parse(start_url).map_err(|e| AuditError::InvalidUrl {
            url: start_url.to_owned(),
            reason: e.to_string(),
        })?;
        let audit_time = self.audit_time.unwrap_or_else(Timestamp::now);
        self.audit_with(self.crawl_config(start, audit_time)).await
    }

    /// Crawl with a ready crawl configuration (its start URL, audit time, profiles and bounds
    /// replace the builder's), run the rules, build the report.
    pub async fn audit_with(&self, config: CrawlConfig) -> Result<Audit, AuditError> {
        self.audit_with_store(config, None).await
    }

    /// [`Auditor::audit_with`], the crawl's responses recorded in `store` as they come and, for
    /// a resumed one, answered from it ([`crawlgate_crawl::crawl_with_store`]). The store must be
    /// bound to `config` ([`CrawlStore::bind`]) with this auditor's HTTP options
    /// ([`Auditor::http_options`]).
    pub async fn audit_with_store(
        &self,
        config: CrawlConfig,
        store: Option<&CrawlStore>,
    ) -> Result<Audit, AuditError> {
        let site = self.crawl_with_store(config, store).await?;
        let report = self.check(&site);
        Ok(Audit { site, report })
    }

    /// The crawl of [`Auditor::audit_with_store`] alone (and the rendering, when asked): the
    /// site, for [`Auditor::check`] or [`Auditor::check_owned`].
    pub async fn crawl_with_store(
        &self,
        config: CrawlConfig,
        store: Option<&CrawlStore>,
    ) -> Result<Site, AuditError> {
        let on_event = self.on_event.clone();
        let callback = move |event: &CrawlEvent| {
            if let Some(on_event) = &on_event {
                on_event(event);
            }
        };
        // The browser starts before the crawl: a missing Chromium fails the audit in a second,
        // not after the crawl.
        let renderer = match &self.render {
            Some(settings) => Some(
                crawlgate_crawl::launch(settings, &self.http)
                    .await
                    .map_err(|error| CrawlError::Render(error.to_string()))?,
            ),
            None => None,
        };
        let render = renderer.as_ref().zip(self.render.as_ref());
        let site = crawlgate_crawl::crawl_with_store(
            config, &self.http, render, store, &self.stop, &callback,
        )
        .await?;
        drop(renderer);
        Ok(site)
    }

    /// The HTTP options the crawl uses.
    pub fn http_options(&self) -> &HttpOptions {
        &self.http
    }

    /// The crawl configuration this auditor would use for `start` at `audit_time`.
    pub fn crawl_config(&self, start: Url, audit_time: Timestamp) -> CrawlConfig {
        CrawlConfig {
            start_url: start,
            audit_time,
            ..self.crawl.clone()
        }
    }

    /// Run the rules over an already crawled site (offline use) and build the report.
    pub fn check(&self, site: &Site) -> Report {
        let (findings, metas, options) = self.findings_and_metas(site);
        let mut report = crawlgate_report::build(site, findings.kept, &metas, &options);
        findings.unlisted.count_in(&mut report);
        report
    }

    /// [`Auditor::check`], taking the site: the report's page records replace the site's one by
    /// one ([`crawlgate_report::build_owned`]), so a large crawl's peak memory is the larger of
    /// the two, not both. The same report.
    pub fn check_owned(&self, mut site: Site) -> Report {
        let results = self.run_rules_in_windows(&mut site);
        let (findings, metas, options) = self.outcome_and_metas(&site, results);
        let mut report = crawlgate_report::build_owned(site, findings.kept, &metas, &options);
        findings.unlisted.count_in(&mut report);
        report
    }

    /// The rules' findings over `site`, the rules that ran, and the build options.
    fn findings_and_metas(&self, site: &Site) -> (RuleOutcome, Vec<&RuleMeta>, BuildOptions) {
        let results = self.run_rules(site, &self.running_rules(site));
        self.outcome_and_metas(site, results)
    }

    /// [`Auditor::findings_and_metas`] of the rules' `results`.
    fn outcome_and_metas(
        &self,
        site: &Site,
        results: Vec<RuleRun>,
    ) -> (RuleOutcome, Vec<&RuleMeta>, BuildOptions) {
        let findings = self.findings(results);
        // The rules that ran: a disabled rule is not reported as checked.
        let metas: Vec<&RuleMeta> = self
            .rules
            .iter()
            .map(|rule| rule.meta())
            .filter(|meta| self.runs(meta, site))
            .collect();
        let options = BuildOptions {
            tool_version: env!("CARGO_PKG_VERSION").to_owned(),
            // Whole seconds: the reports show it to a reader.
            generated_at: self.generated_at.then(|| {
                let now = Timestamp::now();
                now.round(jiff::Unit::Second).unwrap_or(now).to_string()
            }),
        };
        (findings, metas, options)
    }

    /// Whether the rule runs on `site`: enabled, and for a rule that compares rendered pages,
    /// only when pages were rendered (otherwise it checked nothing, and the reports, JUnit's
    /// passing tests included, must not say it did).
    fn runs(&self, meta: &RuleMeta, site: &Site) -> bool {
        self.rule_config.is_enabled(meta.id)
            && (!crawlgate_rules::render::needs_rendering(meta.id)
                || self.render.is_some()
                || site.stats.pages_rendered > 0)
    }

    fn findings(&self, results: Vec<RuleRun>) -> RuleOutcome {
        // Sized once: growing it while every rule's findings are still held would copy them.
        let mut kept = Vec::with_capacity(results.iter().map(|(_, found, _)| found.len()).sum());
        let mut suppressed = 0;
        let mut omitted_by_rule = std::collections::BTreeMap::new();
        for (meta, mut found, omitted) in results {
            if omitted > 0 {
                omitted_by_rule.insert(meta.id.to_owned(), omitted);
            }
            self.rule_config.apply_levels(&mut found);
            for finding in found {
                if self.rule_config.suppression_for(&finding).is_some() {
                    suppressed += 1;
                } else {
                    kept.push(finding);
                }
            }
        }
        RuleOutcome {
            kept,
            unlisted: Unlisted {
                suppressed,
                omitted_by_rule,
            },
        }
    }

    /// Every rule that runs on `site`, in order, with its findings and how many its bound left
    /// out. The rules only read the site, so they run on as many threads as there are cores
    /// (each takes the next rule not yet taken); the results are put back in rule order, so the
    /// report is the same whatever the threads did.
    fn run_rules(&self, site: &Site, rules: &[&dyn Rule]) -> Vec<RuleRun> {
        let run = |rule: &dyn Rule| {
            let meta = rule.meta();
            let mut found = Vec::new();
            let mut sink = Findings::new(meta, self.rule_config.severity(meta.id), &mut found);
            rule.check(site, &mut sink);
            let omitted = sink.finish();
            (meta, found, omitted)
        };
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(rules.len());
        if threads <= 1 {
            return rules.iter().map(|rule| run(*rule)).collect();
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            let mut done = Vec::new();
            loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(rule) = rules.get(index) else {
                    return done;
                };
                done.push((index, run(*rule)));
            }
        };
        let mut results: Vec<(usize, RuleRun)> = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            let mut results = work();
            for helper in helpers {
                // A rule that panics takes the audit down as it would on one thread.
                results.extend(
                    helper
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                );
            }
            results
        });
        results.sort_unstable_by_key(|(index, _)| *index);
        results.into_iter().map(|(_, result)| result).collect()
    }

    /// The rules that run on `site`, in order.
    fn running_rules(&self, site: &Site) -> Vec<&dyn Rule> {
        self.rules
            .iter()
            .map(AsRef::as_ref)
            .filter(|rule| self.runs(rule.meta(), site))
            .collect()
    }

    /// [`Auditor::run_rules`] over a site whose pages may be in the page store: the
    /// page-local rules ([`Rule::page_local`]) run over the site a window of resources at a
    /// time ([`Site::set_window`]), so that each stored page is read back once for all of them
    /// rather than once per rule; the others run over the whole site. The same findings: each
    /// window's are gathered and bounded as one run's would be.
    fn run_rules_in_windows(&self, site: &mut Site) -> Vec<RuleRun> {
        let rules = self.running_rules(site);
        if site.stats.pages_stored == 0 {
            return self.run_rules(site, &rules);
        }
        let (local, whole): (Vec<&dyn Rule>, Vec<&dyn Rule>) =
            rules.iter().partition(|rule| rule.page_local());
        let mut whole_runs = self.run_rules(site, &whole).into_iter();
        let mut gathered: Vec<RuleRun> = local
            .iter()
            .map(|rule| (rule.meta(), Vec::new(), 0))
            .collect();
        let count = site.resource_count();
        let window = self.page_window.max(1);
        for start in (0..count).step_by(window) {
            site.set_window(Some(start..start.saturating_add(window)));
            for ((_, kept, omitted), (_, found, left_out)) in
                gathered.iter_mut().zip(self.run_rules(site, &local))
            {
                kept.extend(found);
                *omitted += left_out + crawlgate_core::rule::keep_first_findings(kept);
            }
        }
        site.set_window(None);
        // Back in rule order: each part kept its rules' order.
        let mut local_runs = gathered.into_iter();
        rules
            .iter()
            .filter_map(|rule| {
                if rule.page_local() {
                    local_runs.next()
                } else {
                    whole_runs.next()
                }
            })
            .collect()
    }

    /// The stop handle: call `stop()` (from a signal handler, another task) to end the crawl early;
    /// the audit then reports what it saw, marked partial.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// The rules this auditor runs, built-in and added, in order.
    pub fn rules(&self) -> impl Iterator<Item = &dyn Rule> {
        self.rules.iter().map(AsRef::as_ref)
    }
}

struct RuleOutcome {
    kept: Vec<Finding>,
    unlisted: Unlisted,
}

/// What the rules found that the report counts but does not list.
struct Unlisted {
    suppressed: u64,
    /// Findings past [`crawlgate_core::rule::MAX_FINDINGS_PER_RULE`], by rule id.
    omitted_by_rule: std::collections::BTreeMap<String, u64>,
}

impl Unlisted {
    fn count_in(self, report: &mut Report) {
        report.summary.suppressed = self.suppressed;
        report.summary.findings_omitted = self.omitted_by_rule;
    }
}

/// The template crawl configuration's start URL: never crawled, replaced by every audit's own.
fn placeholder_start() -> Url {
    Url::parse("http://crawlgate.invalid/").expect("a valid URL")
}

/// A built-in rule (a `&'static dyn Rule`) as a shareable rule object.
#[derive(Debug)]
struct BuiltIn(&'static dyn Rule);

impl Declared for BuiltIn {
    fn meta(&self) -> &'static RuleMeta {
        self.0.meta()
    }
}

impl Rule for BuiltIn {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        self.0.check(site, out);
    }

    fn page_local(&self) -> bool {
        self.0.page_local()
    }
}

/// Builds an [`Auditor`].
#[derive(Debug)]
#[must_use]
pub struct AuditorBuilder {
    auditor: Auditor,
    /// [`AuditorBuilder::ca_cert`]'s certificates, added to the HTTP options at the end.
    ca_certs: Vec<Vec<u8>>,
    /// [`AuditorBuilder::resolve`]'s host names, added to the HTTP options at the end.
    resolve: Vec<(String, SocketAddr)>,
}

impl AuditorBuilder {
    /// The crawler profiles to evaluate (replaces the default googlebot; the expected-blocked
    /// ones of [`AuditorBuilder::expect_blocked`] are kept).
    pub fn profiles(mut self, profiles: Vec<Profile>) -> Self {
        if !profiles.is_empty() {
            let crawl = &mut self.auditor.crawl;
            let kept: Vec<Profile> = crawl
                .profiles
                .drain(..)
                .filter(|p| crawl.expected_blocked.contains(&p.name))
                .filter(|p| !profiles.iter().any(|q| q.name == p.name))
                .collect();
            crawl.profiles = profiles;
            crawl.profiles.extend(kept);
        }
        self
    }

    /// Declare a crawler expected-blocked: robots.txt is meant to keep it out, so a block is
    /// then the wanted state and a page it may crawl is the finding
    /// (`robots/expected-blocked-allowed`). The profile is audited too (added to the profiles
    /// when missing). Repeatable.
    pub fn expect_blocked(mut self, profile: Profile) -> Self {
        self.auditor.crawl.expect_blocked(profile);
        self
    }

    /// Crawl bounds (pages, depth, bytes, …).
    pub fn bounds(mut self, bounds: Bounds) -> Self {
        self.auditor.crawl.bounds = bounds;
        self
    }

    /// The most pages to fetch.
    pub fn max_pages(mut self, max_pages: u64) -> Self {
        self.auditor.crawl.bounds.max_pages = max_pages;
        self
    }

    /// Which hosts are crawled as pages, and which of their URLs (include/exclude patterns).
    pub fn scope(mut self, scope: Scope) -> Self {
        self.auditor.crawl.scope = scope;
        self
    }

    /// What is fetched as pages: [`CrawlMode::FollowLinks`] (the default) or
    /// [`CrawlMode::SitemapOnly`]; for list mode, [`AuditorBuilder::list`].
    pub fn mode(mut self, mode: CrawlMode) -> Self {
        self.auditor.crawl.mode = mode;
        self
    }

    /// List mode: fetch exactly `urls` as pages (plus their origins' robots.txt and sitemaps),
    /// following nothing.
    pub fn list(mut self, urls: Vec<Url>) -> Self {
        self.auditor.crawl.mode = CrawlMode::List;
        self.auditor.crawl.listed = urls;
        self
    }

    /// Leave disallowed URLs unfetched (default: fetch them for diagnosis).
    pub fn obey_robots(mut self, obey: bool) -> Self {
        self.auditor.crawl.obey_robots = obey;
        self
    }

    /// Read these sitemaps too.
    pub fn sitemaps(mut self, sitemaps: Vec<Url>) -> Self {
        self.auditor.crawl.sitemaps = sitemaps;
        self
    }

    /// Probe `/sitemap.xml` (default on).
    pub fn probe_sitemap(mut self, probe: bool) -> Self {
        self.auditor.crawl.probe_sitemap = probe;
        self
    }

    /// Fetch assets' headers (default on).
    pub fn fetch_assets(mut self, fetch: bool) -> Self {
        self.auditor.crawl.fetch_assets = fetch;
        self
    }

    /// HTTP options: concurrency, timeouts, User-Agent. Certificates given with
    /// [`AuditorBuilder::ca_cert`] and host names given with [`AuditorBuilder::resolve`] are
    /// kept, before or after.
    pub fn http(mut self, http: HttpOptions) -> Self {
        self.auditor.http = http;
        self
    }

    /// Trust this root certificate too (PEM text, one or more certificates, or one DER
    /// certificate), besides the system's: for a staging site behind an internal CA. Repeatable;
    /// [`AuditorBuilder::build`] checks it.
    pub fn ca_cert(mut self, certificate: impl Into<Vec<u8>>) -> Self {
        self.ca_certs.push(certificate.into());
        self
    }

    /// Connect to `addr` for `host` instead of asking DNS, like curl's `--resolve`: audit a new
    /// server under the production host name before the DNS switch. URLs, `Host` headers and
    /// TLS certificate checks keep the name. With port 0 in `addr` the URL's port is used (or
    /// its scheme's default); with another, URLs that name no port connect to it. Repeatable (a
    /// host given twice: the later wins); [`AuditorBuilder::build`] checks the host name.
    /// [`crate::parse_resolve`] reads `HOST=ADDR[:PORT]`.
    pub fn resolve(mut self, host: impl Into<String>, addr: SocketAddr) -> Self {
        self.resolve.push((host.into(), addr));
        self
    }

    /// Add a rule of your own.
    pub fn rule(mut self, rule: impl Rule + 'static) -> Self {
        self.auditor.rules.push(Arc::new(rule));
        self
    }

    /// Rule severities, rules turned off, suppressions.
    pub fn rule_config(mut self, config: RuleConfig) -> Self {
        self.auditor.rule_config = config;
        self
    }

    /// Called with every crawl event (progress).
    pub fn on_event(mut self, callback: impl Fn(&CrawlEvent) + Send + Sync + 'static) -> Self {
        self.auditor.on_event = Some(Arc::new(callback));
        self
    }

    /// The audit's "now" (default: the clock at the start of the audit).
    pub fn audit_time(mut self, time: Timestamp) -> Self {
        self.auditor.audit_time = Some(time);
        self
    }

    /// Stamp the report with the time it was generated (default off: reports are deterministic).
    pub fn timestamp_report(mut self, on: bool) -> Self {
        self.auditor.generated_at = on;
        self
    }

    /// Resources per window when the page-local rules run over a site whose pages are in the
    /// page store ([`DEFAULT_PAGE_WINDOW`]; at least 1): each window's stored pages are held in
    /// memory while those rules read them. A smaller window holds less; a larger one costs the
    /// rules fewer passes.
    pub fn page_window(mut self, resources: usize) -> Self {
        self.auditor.page_window = resources.max(1);
        self
    }

    /// Render the crawl's pages in headless Chromium once the crawl is done (`--render`), within
    /// `settings`' bounds and the crawl's total time; the `render/` rules compare both versions.
    /// The audit fails to start when the browser cannot (Debian's `chromium` package).
    pub fn render(mut self, settings: RenderSettings) -> Self {
        self.auditor.render = Some(settings);
        self
    }

    /// Check the configuration against the rules, the certificates of
    /// [`AuditorBuilder::ca_cert`] and the host names of [`AuditorBuilder::resolve`], and finish.
    pub fn build(self) -> Result<Auditor, ConfigError> {
        let mut auditor = self.auditor;
        for (index, certificate) in self.ca_certs.iter().enumerate() {
            crawlgate_crawl::check_root_certificates(certificate).map_err(|error| {
                ConfigError::CaCert {
                    index: index + 1,
                    message: error.to_string(),
                }
            })?;
        }
        auditor.http.extra_root_certs.extend(self.ca_certs);
        for (host, addr) in self.resolve {
            let host = crawlgate_crawl::resolvable_host(&host)?;
            auditor.http.resolve.push((host, addr));
        }
        for named in auditor.rule_config.named_rules() {
            if !auditor.rules.iter().any(|rule| rule.meta().id == named) {
                return Err(ConfigError::UnknownRule(named.to_owned()));
            }
        }
        // A profile named by the rule configuration is a built-in one or an audited one; any
        // other name is most likely a typo that would silently configure nothing.
        for named in auditor.rule_config.named_profiles() {
            if Profile::builtin(named).is_none()
                && !auditor.crawl.profiles.iter().any(|p| p.name == named)
            {
                return Err(ConfigError::UnknownProfile(named.to_owned()));
            }
        }
        Ok(auditor)
    }
}
