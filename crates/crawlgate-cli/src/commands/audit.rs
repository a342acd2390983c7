//! `crawlgate audit URL`: crawl, cross-check, write the reports, print a summary.

use crate::commands::atomic::{self, write_atomically};
use crate::commands::audit_config::{Filled, apply_config, load_config};
use crate::commands::crawl_args::{
    CrawlArgs, Start, parse_concurrency, parse_seconds, profile_named,
};
use crate::commands::input::{MAX_REPORT_BYTES, read_text_at_most};
use crate::commands::store::{FinishedStore, OpenStore, quit_cost};
use crate::commands::{live, net};
use crate::demo::Demo;
use crate::exit;
use anyhow::{Context, Result, bail};
use crawlgate::crawl::CrawlEvent;
use crawlgate::output::report::{audit_summary, start_error_message, start_unreachable_message};
use crawlgate::report::{
    Baseline, BaselineState, Format, RenderOptions, Renderers, Report, SarifMap, UrlMap,
    baseline_json, write_reports,
};
use crawlgate::site::{Bound, Environment, HostPattern, ResourceState, RobotsEffect};
use crawlgate::{Auditor, ConfigFile, FailOn, RenderSettings, Site};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Formats written when none is asked for.
const DEFAULT_FORMATS: [&str; 3] = ["html", "md", "json"];

/// Crawl a site, cross-check robots.txt, sitemaps, meta robots, X-Robots-Tag and canonicals, and
/// write the reports.
///
/// What is crawled: from URL, the pages its links reach within scope (--include-subdomains,
/// --allow-host), narrowed by --include and --exclude (excluded pages are counted, not fetched);
/// or exactly the URLs of --urls-from FILE (list mode); or the URLs the sitemaps list
/// (--sitemap-only).
///
/// Reports go to the output folder as `report.<ext>` (default: html, md and json). Exit status:
/// 0 when no finding is at or above --fail-on; 1 when one is; 2 on a usage or runtime error; 3
/// when the audit is inconclusive (the start URL answered an error or nothing, or its robots.txt
/// gave no usable response). When the start URL's host gives no response at all (DNS, refused
/// connection, TLS, timeout), standard error says why and no report is written. A crawl cut
/// short by a bound is not inconclusive; the summary says so.
#[derive(Debug, clap::Args)]
#[command(
    // One way to say what is audited; none here when the config file names `urls_from`.
    group = clap::ArgGroup::new("start").multiple(false).args(["url", "demo", "urls_from"]),
    after_help = "Examples:\n  crawlgate audit https://example.com/\n  crawlgate audit --demo\n  crawlgate audit https://example.com/ --profile googlebot --profile bingbot --format sarif --fail-on warning\n  crawlgate audit https://example.com/ --report-dir reports/csv-findings --format csv-findings\n  crawlgate audit https://example.com/ --exclude '*/cart*' --include-subdomains\n  crawlgate audit --urls-from urls.txt"
)]
// The flags are independent switches, as on the command line.
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct AuditArgs {
    /// Where the audit starts; its scheme, host and port are the crawl's scope. Not needed with
    /// --urls-from (or `urls_from` in the config file), whose first URL stands for it, nor with
    /// --demo.
    #[arg(value_name = "URL")]
    pub(crate) url: Option<String>,

    /// Audit the bundled demo shop (www.northwind.test and its other sites), served on
    /// 127.0.0.1 for the length of the audit; the audit resolves its host names itself.
    #[arg(long)]
    pub(crate) demo: bool,

    // First, so that --help lists its groups (crawl, scope, access) before reports and CI.
    #[command(flatten)]
    pub(crate) crawl: CrawlArgs,

    /// A report format: html, md, json, sarif, junit, parquet (six tables: pages.parquet, …), or
    /// a plugin's name (see --report-dir). Repeatable (default: html, md and json).
    #[arg(help_heading = "Reports", long = "format", value_name = "FORMAT")]
    pub(crate) formats: Vec<String>,

    /// Where the reports are written.
    #[arg(
        help_heading = "Reports",
        short = 'o',
        long,
        value_name = "DIR",
        default_value = "crawlgate-report"
    )]
    pub(crate) output_dir: PathBuf,

    /// Exit 1 when a finding is at least this severe: critical, error, warning, notice, or never.
    #[arg(
        help_heading = "CI",
        long,
        value_name = "SEVERITY",
        default_value = "error"
    )]
    pub(crate) fail_on: FailOn,

    /// A config file (default: ./crawlgate.toml when it exists): the audit options, per-rule
    /// `off` or severity, and URL suppressions with a reason. Flags given on the command line win.
    #[arg(help_heading = "CI", long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,

    /// A folder holding a report plugin (report.toml and tera templates), or a folder of them.
    /// Repeatable; then `--format <its name>`.
    #[arg(help_heading = "Reports", long = "report-dir", value_name = "DIR")]
    pub(crate) report_dirs: Vec<PathBuf>,

    #[command(flatten)]
    pub(crate) render: RenderArgs,

    /// Keep no crawl store in the report folder (by default the audit keeps one there while it
    /// crawls, so that an interrupted audit can be continued with --resume DIR, and removes it
    /// once the crawl is complete and the reports are written).
    #[arg(help_heading = "Crawl", long, conflicts_with_all = ["store", "resume"])]
    pub(crate) no_store: bool,

    /// Stamp the reports with the time of the audit (off by default: reports are deterministic).
    #[arg(help_heading = "Reports", long)]
    pub(crate) timestamp: bool,

    /// No progress display.
    #[arg(help_heading = "Reports", short, long)]
    pub(crate) quiet: bool,

    /// What the audited site is: `production` (then staging settings on it are critical:
    /// `Disallow: /`, a site-wide noindex, canonical, hreflang or sitemap URLs on a
    /// non-production host) or `staging` (then being open to search engines is an error). Not
    /// given: the `env/` rules stay quiet.
    #[arg(help_heading = "CI", long, value_name = "ENV")]
    pub(crate) environment: Option<Environment>,

    /// A host pattern that is not production, added to the built-in ones (`localhost`,
    /// `staging.`, `dev.`, `preview.`, `*.vercel.app`, …): `*` matches any run of characters, a
    /// trailing dot means a label (`uat.` matches `uat.example.com`), anything else the host and
    /// its subdomains. Repeatable.
    #[arg(help_heading = "CI", long = "non-production-host", value_name = "PATTERN", value_parser = HostPattern::parse)]
    pub(crate) non_production_hosts: Vec<HostPattern>,

    /// An earlier audit's report.json (or a --write-baseline file): each finding is marked new
    /// or known (same rule, URL, profile and evidence, line numbers aside), and --fail-on counts
    /// only the new ones.
    #[arg(help_heading = "CI", long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,

    /// Map the baseline's host onto this audit's before matching: `OLD=NEW` (`host`,
    /// `host:port` or `scheme://host[:port]` each side). Repeatable.
    #[arg(
        help_heading = "CI",
        long = "baseline-map-host",
        value_name = "OLD=NEW",
        requires = "baseline"
    )]
    pub(crate) baseline_map_hosts: Vec<String>,

    /// Rewrite the baseline's URLs with a regex before matching: `REGEX=REPLACEMENT`.
    /// Repeatable.
    #[arg(
        help_heading = "CI",
        long = "baseline-map",
        value_name = "REGEX=REPLACEMENT",
        requires = "baseline"
    )]
    pub(crate) baseline_maps: Vec<String>,

    /// Where a site URL lives in the repository, for the SARIF report (GitHub code scanning
    /// wants repository-relative locations): `URL=PATH`, URL exact
    /// (`https://www.example.com/robots.txt=public/robots.txt`, lines kept) or a URL pattern
    /// (`https://www.example.com/products/*=templates/product.html`, lines dropped). Unmapped
    /// URLs go to `crawlgate/site/HOST/PATH`. Repeatable.
    #[arg(
        help_heading = "Reports",
        long = "sarif-map",
        value_name = "URL=PATH",
        value_parser = parse_sarif_map_entry
    )]
    pub(crate) sarif_map: Vec<String>,

    /// Write this audit's findings as a baseline file for a later `--baseline`.
    #[arg(help_heading = "CI", long, value_name = "FILE")]
    pub(crate) write_baseline: Option<PathBuf>,

    /// Also write XML sitemaps of the pages the first profile may index into this folder, as
    /// `crawlgate sitemap generate --from REPORT -o DIR` would from this audit's report.
    #[arg(help_heading = "Reports", long, value_name = "DIR")]
    pub(crate) write_sitemaps: Option<PathBuf>,

    /// A crawler robots.txt keeps out on purpose (gptbot, ccbot, claudebot, any profile name):
    /// audited too (added to the --profile list), its being blocked is then a notice, and the
    /// pages it may still crawl are the finding (robots/expected-blocked-allowed). Repeatable.
    #[arg(help_heading = "Crawl", long = "expect-blocked", value_name = "NAME")]
    pub(crate) expect_blocked: Vec<String>,
}

/// `--render` and its bounds.
#[derive(Debug, clap::Args)]
pub(crate) struct RenderArgs {
    /// Also load the crawl's HTML pages in headless Chromium (Debian's `chromium` package) once
    /// the crawl is done, and compare what their scripts leave with the raw HTML (the `render/`
    /// rules). Requests robots.txt disallows for the first audited profile are not served to
    /// the pages, as Googlebot's renderer would not fetch them.
    #[arg(help_heading = "Rendering", long)]
    pub(crate) render: bool,

    /// Pages rendered at most, the shallowest first.
    #[arg(help_heading = "Rendering", long, value_name = "N", default_value_t = RenderSettings::default().max_pages, requires = "render")]
    pub(crate) render_pages: u64,

    /// Seconds a page gets to render (it ends earlier once its network is idle).
    #[arg(help_heading = "Rendering", long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, requires = "render")]
    pub(crate) render_timeout: Duration,

    /// Pages rendered at once (each takes a browser process and a core while its scripts run).
    #[arg(help_heading = "Rendering", long, value_name = "N", default_value_t = RenderSettings::default().options.concurrency, value_parser = parse_concurrency, requires = "render")]
    pub(crate) render_concurrency: usize,
}

impl RenderArgs {
    /// The render settings asked for, after checking that a browser is here (so that a missing
    /// one fails before the crawl); `None` without `--render`.
    fn settings(&self) -> Result<Option<RenderSettings>> {
        if !self.render {
            return Ok(None);
        }
        crawlgate::find_chromium(None)?;
        let mut settings = RenderSettings {
            max_pages: self.render_pages,
            ..RenderSettings::default()
        };
        settings.options.page_budget = self.render_timeout;
        settings.options.concurrency = self.render_concurrency;
        Ok(Some(settings))
    }
}

pub(crate) fn run(mut args: AuditArgs, matches: Option<&clap::ArgMatches>) -> Result<ExitCode> {
    let demo = if args.demo {
        Some(Demo::start()?)
    } else {
        None
    };
    let mut filled = Filled::from_command_line(matches);
    let loaded = load_config(args.config.as_deref())?;
    if let Some((file, path)) = &loaded {
        apply_config(&mut args, file, path.parent(), &mut filled)?;
    }
    let mut file = loaded.map(|(file, _)| file);
    // The demo's own settings fill in what neither the flags nor a config file set; its rule
    // settings count only without a config file.
    if let Some(settings) = demo.as_ref().map(Demo::settings).transpose()?.flatten() {
        apply_config(&mut args, &settings, None, &mut filled)?;
        file.get_or_insert(settings);
    }
    let mut renderers = Renderers::builtin();
    for dir in &args.report_dirs {
        renderers
            .load_plugin_dir(dir)
            .with_context(|| format!("cannot load the report plugin in `{}`", dir.display()))?;
    }
    let formats = report_formats(&args.formats, &renderers, "; add plugins with --report-dir")?;

    let runtime = net::runtime()?;
    let mut start = match &demo {
        Some(demo) => Start {
            url: demo.start_url()?,
            listed: None,
        },
        None => args.crawl.start(args.url.as_deref(), ", or --demo")?,
    };

    resume_into_its_folder(&mut args, &filled);
    // Where the results go is checked before the crawl, not after it.
    check_outputs(&args)?;
    let progress = live::progress_bar(args.quiet);
    let started = Instant::now();
    let bar = progress.clone();
    let mut http = args.crawl.http()?;
    start.take_credentials(&mut http);
    let fresh_time = if demo.is_some() {
        Demo::audit_time()
    } else {
        jiff::Timestamp::now()
    };
    let default_store = (!args.no_store).then_some(args.output_dir.as_path());
    let mut store = OpenStore::resume(&args.crawl)?;
    let audit_time = OpenStore::audit_time(store.as_ref(), fresh_time);
    let config = crawl_config(&args, start, audit_time)?;
    let auditor = build_auditor(
        &args,
        &config,
        &http,
        file.as_ref(),
        demo.as_ref(),
        move |counts| {
            bar.set_message(live::progress_message(counts, started.elapsed()));
        },
    )?;
    let baseline = load_baseline(&args)?;
    if store.is_none() {
        store = OpenStore::create(&args.crawl, default_store, audit_time)?;
    }
    if let Some(store) = &mut store {
        store.bind(&config, auditor.http_options())?;
    }
    let after_crawl = live::stop_on_signals(auditor.stop_handle());
    let crawled =
        runtime.block_on(auditor.crawl_with_store(config, store.as_ref().map(|open| &open.store)));
    let site = OpenStore::abandon_on_error(&mut store, crawled)?;
    progress.finish_and_clear();
    // A page still being parsed when the crawl stopped (its deadline, a signal) runs on a
    // blocking thread that a dropped runtime would wait for; its result is not wanted (the page
    // is recorded as interrupted), so the report does not wait for it.
    runtime.shutdown_background();
    after_crawl.set(quit_cost(store.as_ref(), "the reports"));
    let finished = store.and_then(|store| store.close(&site));
    drop(demo);
    // No HTTP response from the start URL's host: nothing was audited, so no report (one would
    // only blame robots.txt for a host that is down or mistyped).
    if let Some(message) = start_unreachable_message(&site) {
        FinishedStore::settle(finished, true);
        eprint!("{}", crate::terminal::safe(&message));
        return Ok(exit::code(exit::INCONCLUSIVE));
    }
    let outcome = CrawlOutcome::of(&site);
    let start_error = start_error_message(&site);
    // The report takes the site: its page records replace the site's one by one, and the site
    // is gone before the reports are rendered (on a large crawl each is most of the memory, and
    // a template's context copies the report).
    let mut report = auditor.check_owned(site);
    if let Some(baseline) = &baseline {
        baseline.mark(&mut report);
    }
    let status = exit_status(&outcome, &report, args.fail_on);
    let written = write_outputs(&args, &report, &renderers, &formats, &http);
    FinishedStore::settle(finished, written.is_ok());
    written?;
    print_afterword(start_error.as_deref(), &report);
    Ok(exit::code(status))
}

/// The Auditor of `config`'s crawl: its HTTP options, rule configuration, rendering, the demo's
/// certificate and host names, and `on_progress` for the progress line.
fn build_auditor(
    args: &AuditArgs,
    config: &crawlgate::crawl::CrawlConfig,
    http: &crawlgate::HttpOptions,
    file: Option<&ConfigFile>,
    demo: Option<&Demo>,
    on_progress: impl Fn(&crawlgate::crawl::Progress) + Send + Sync + 'static,
) -> Result<Auditor> {
    let mut builder = Auditor::builder()
        // The audited profiles, for the rule configuration's profile names to be checked.
        .profiles(config.profiles.clone())
        .http(http.clone())
        .timestamp_report(args.timestamp)
        .on_event(move |event| {
            if let CrawlEvent::Progress(counts) = event {
                on_progress(counts);
            }
        });
    if let Some(file) = file {
        builder = builder.rule_config(file.rule_config()?);
    }
    // The demo's HTTPS site is served with a certificate only this audit trusts, and its host
    // names are resolved by this audit only.
    for certificate in demo.iter().flat_map(|demo| demo.root_certificates()) {
        builder = builder.ca_cert(certificate);
    }
    for (host, addr) in demo.iter().flat_map(|demo| demo.resolve()) {
        builder = builder.resolve(host, addr);
    }
    if let Some(settings) = args.render.settings()? {
        builder = builder.render(settings);
    }
    Ok(builder.build()?)
}

/// What the reader must know after the summary: the start URL answered an error, the page
/// store stopped taking pages, or pages could not be read back from it.
fn print_afterword(start_error: Option<&str>, report: &Report) {
    if let Some(message) = start_error {
        eprint!("{}", crate::terminal::safe(message));
    }
    if let Some(error) = &report.crawl.page_store_write_error {
        super::warn_page_store_refused(error);
    }
    if let Some(error) = &report.crawl.page_store_read_error {
        eprintln!(
            "error: pages could not be read back from the page store ({}); the findings are \
             incomplete (run again, or with a larger --pages-in-memory)",
            crate::terminal::safe(error)
        );
    }
}

/// Write what the audit found: the baseline, the reports, the summary, the sitemaps asked for.
fn write_outputs(
    args: &AuditArgs,
    report: &Report,
    renderers: &Renderers,
    formats: &[String],
    http: &crawlgate::HttpOptions,
) -> Result<()> {
    if let Some(path) = &args.write_baseline {
        write_atomically(path, |out| {
            Ok(out.write_all(baseline_json(report).as_bytes())?)
        })
        .context("the baseline")?;
    }
    let written = write_audit_reports(args, report, renderers, formats)?;
    super::print_summary(&audit_summary(report, http, &written));
    if let Some(dir) = &args.write_sitemaps {
        super::sitemap::write_sitemaps(report, &super::sitemap::GenerateOptions::default(), dir)
            .context("--write-sitemaps")?;
    }
    Ok(())
}

/// An audit resumed from a folder (`--resume DIR`) writes its reports there unless told where.
fn resume_into_its_folder(args: &mut AuditArgs, filled: &Filled) {
    if let Some(dir) = &args.crawl.resume
        && !filled.contains("output_dir")
    {
        args.output_dir.clone_from(dir);
    }
}

/// Check that every output path can be written: the report folder, `--write-baseline`,
/// `--write-sitemaps`.
fn check_outputs(args: &AuditArgs) -> Result<()> {
    atomic::check_output_dir(&args.output_dir)?;
    if let Some(path) = &args.write_baseline {
        atomic::check_output_file(path, "--write-baseline")?;
    }
    if let Some(dir) = &args.write_sitemaps {
        atomic::check_output_dir(dir).context("--write-sitemaps")?;
    }
    Ok(())
}

/// Write the reports in `formats` into the output folder; the files written.
fn write_audit_reports(
    args: &AuditArgs,
    report: &Report,
    renderers: &Renderers,
    formats: &[String],
) -> Result<Vec<PathBuf>> {
    let options = RenderOptions {
        fail_on: args.fail_on,
        sarif_map: sarif_map(&args.sarif_map)?,
    };
    write_report_files(report, renderers, formats, &options, &args.output_dir)
}

/// Write `formats` into `dir` (created if missing): the renderers' `report.<ext>` files, and the
/// Parquet tables when `parquet` is among them; the files written. Every format is tried: one
/// that fails costs only itself. Shared by `audit` and `diff`.
pub(crate) fn write_report_files(
    report: &Report,
    renderers: &Renderers,
    formats: &[String],
    options: &RenderOptions,
    dir: &Path,
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let (tables, rendered): (Vec<String>, Vec<String>) = formats
        .iter()
        .cloned()
        .partition(|name| name == Format::Parquet.as_str());
    let reports = write_reports(report, renderers, &rendered, options, dir)
        .context("cannot write the reports");
    let tables = if tables.is_empty() {
        Ok(Vec::new())
    } else {
        crawlgate::parquet::write_tables(report, dir).context("cannot write the Parquet tables")
    };
    match (reports, tables) {
        (Ok(mut written), Ok(tables)) => {
            written.extend(tables);
            Ok(written)
        }
        (Err(error), Ok(_)) | (Ok(_), Err(error)) => Err(error),
        (Err(reports), Err(tables)) => Err(anyhow::anyhow!(
            "{}; {}",
            super::error_text(&reports),
            super::error_text(&tables)
        )),
    }
}

/// A `--sarif-map` entry, checked when the command line is read.
pub(crate) fn parse_sarif_map_entry(entry: &str) -> Result<String, String> {
    SarifMap::new()
        .with_entry(entry)
        .map(|_| entry.to_owned())
        .map_err(|e| e.to_string())
}

/// The `--sarif-map` entries (and the config file's `sarif_map`) as one map.
pub(crate) fn sarif_map(entries: &[String]) -> Result<SarifMap> {
    entries.iter().try_fold(SarifMap::new(), |map, entry| {
        map.with_entry(entry).context("--sarif-map")
    })
}

/// The baseline of `--baseline`, its URLs mapped by `--baseline-map-host` and `--baseline-map`.
fn load_baseline(args: &AuditArgs) -> Result<Option<Baseline>> {
    let Some(path) = &args.baseline else {
        return Ok(None);
    };
    let mut map = UrlMap::new();
    for spec in &args.baseline_map_hosts {
        map = map.with_host(spec).context("--baseline-map-host")?;
    }
    for spec in &args.baseline_maps {
        map = map.with_regex(spec).context("--baseline-map")?;
    }
    let text = read_text_at_most(
        path,
        MAX_REPORT_BYTES,
        "the baseline",
        Some("give the baseline file `--write-baseline` wrote (the findings' fingerprints only)"),
    )?;
    let baseline = Baseline::from_json(&text, &map)
        .with_context(|| format!("in the baseline `{}`", path.display()))?;
    Ok(Some(baseline))
}

/// The crawl configuration: the crawl flags', plus the expected-blocked profiles and the
/// environment.
fn crawl_config(
    args: &AuditArgs,
    start: Start,
    audit_time: jiff::Timestamp,
) -> Result<crawlgate::crawl::CrawlConfig> {
    let mut config = args.crawl.config(start, audit_time)?;
    for name in &args.expect_blocked {
        config.expect_blocked(profile_named(name).context("--expect-blocked")?);
    }
    config.environment.environment = args.environment;
    config
        .environment
        .non_production_hosts
        .extend(args.non_production_hosts.iter().cloned());
    Ok(config)
}

/// The formats to write (`asked`, or html, md and json when none), built-in names normalised
/// (`markdown` → `md`, `Parquet` → `parquet`) and checked against the renderers and `parquet`
/// (the tables, written by no renderer); `hint` ends the error's list of what is available.
/// Shared by `audit` and `diff`.
pub(crate) fn report_formats(
    asked: &[String],
    renderers: &Renderers,
    hint: &str,
) -> Result<Vec<String>> {
    let asked: Vec<&str> = if asked.is_empty() {
        DEFAULT_FORMATS.to_vec()
    } else {
        asked.iter().map(String::as_str).collect()
    };
    let mut names = Vec::with_capacity(asked.len());
    for name in asked {
        let canonical = name
            .parse::<Format>()
            .map_or_else(|_| name.to_owned(), |format| format.as_str().to_owned());
        if canonical != Format::Parquet.as_str() && renderers.get(&canonical).is_none() {
            let mut available = renderers.names();
            available.push(Format::Parquet.as_str());
            available.sort_unstable();
            bail!(
                "unknown report format `{name}` (available: {}{hint})",
                available.join(", ")
            );
        }
        names.push(canonical);
    }
    Ok(names)
}

/// What the exit status needs to know of the crawl, read before the report takes the site.
struct CrawlOutcome {
    /// The start URL failed or answered an error, or robots.txt could not be read: the audit
    /// saw no page.
    saw_no_page: bool,
    /// Stopped before its end (Ctrl-C, SIGTERM, --max-time).
    stopped_early: bool,
}

impl CrawlOutcome {
    fn of(site: &Site) -> Self {
        let start_failed = site
            .resource(&site.start_url)
            .is_some_and(|r| matches!(r.state, ResourceState::Failed { .. }));
        let robots_unreachable = site.robots_for(&site.start_url).is_some_and(|robots| {
            robots.effect == RobotsEffect::DisallowAll && !site.stats.interrupted
        });
        // An error status (or a redirect loop) at the start URL: the audit saw no page.
        let start_error = crawlgate::rules::http::start_url_answer(site).is_some();
        let time_bound = site
            .stats
            .bounds_hit
            .iter()
            .any(|bound| matches!(bound, Bound::TotalTime(_)));
        CrawlOutcome {
            saw_no_page: start_failed || start_error || robots_unreachable,
            stopped_early: site.stats.interrupted || time_bound,
        }
    }
}

/// 3 when inconclusive, 1 when a finding is at or above the threshold, else 0.
fn exit_status(crawl: &CrawlOutcome, report: &Report, fail_on: FailOn) -> u8 {
    // Pages the rules could not read back: the findings are incomplete whatever they say.
    if crawl.saw_no_page || report.crawl.page_store_read_error.is_some() {
        return exit::INCONCLUSIVE;
    }
    // Against a baseline only the new findings count.
    let failing = report
        .findings
        .iter()
        .filter(|f| f.baseline != Some(BaselineState::Known))
        .any(|f| fail_on.fails(f.finding.severity));
    if failing {
        return exit::FINDINGS;
    }
    // An audit stopped before its end (Ctrl-C, SIGTERM, --max-time) proves nothing clean: a CI
    // gate that timed out must not pass. Other bounds (pages, depth) are the user's choice of
    // how much to audit, and the summary says they were hit.
    if fail_on != FailOn::NEVER && crawl.stopped_early {
        return exit::INCONCLUSIVE;
    }
    exit::OK
}
