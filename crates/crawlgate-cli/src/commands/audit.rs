//! `crawlgate audit URL`: crawl, cross-check, write the reports, print a summary.

use crate::commands::atomic::write_atomically;
use crate::commands::crawl_args::{CrawlArgs, checked_rate, checked_seconds};
use crate::commands::{live, net};
use crate::demo::Demo;
use crate::exit;
use anyhow::{Context, Result, bail};
use crawlgate::crawl::{Bounds, CrawlEvent};
use crawlgate::output::report::audit_summary;
use crawlgate::report::{
    Baseline, BaselineState, Format, RenderOptions, Renderers, UrlMap, baseline_json, write_reports,
};
use crawlgate::signals::Profile;
use crawlgate::site::{Environment, HostPattern, ResourceState, RobotsEffect};
use crawlgate::{Audit, Auditor, ConfigFile, FailOn, Severity};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The config file read when `--config` is not given and it exists in the current folder.
const DEFAULT_CONFIG: &str = "crawlgate.toml";
/// Formats written when none is asked for.
const DEFAULT_FORMATS: [&str; 3] = ["html", "md", "json"];

/// Crawl a site, cross-check robots.txt, sitemaps, meta robots, X-Robots-Tag and canonicals, and
/// write the reports.
///
/// Reports go to the output folder as `report.<ext>` (default: html, md and json). Exit status:
/// 0 when no finding is at or above --fail-on; 1 when one is; 2 on a usage or runtime error; 3
/// when the audit is inconclusive (the start URL or its robots.txt gave no usable response). A
/// crawl cut short by a bound is not inconclusive; the summary says so.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate audit https://example.com/\n  crawlgate audit --demo\n  crawlgate audit https://example.com/ --profile googlebot --profile bingbot --format sarif --fail-on warning\n  crawlgate audit https://example.com/ --report-dir reports/csv-findings --format csv-findings"
)]
pub(crate) struct AuditArgs {
    /// Where the audit starts; its scheme, host and port are the crawl's scope.
    #[arg(
        value_name = "URL",
        required_unless_present = "demo",
        conflicts_with = "demo"
    )]
    url: Option<String>,

    /// Audit the bundled demo shop (www.northwind.test and its other sites), served on
    /// 127.0.0.1 for the length of the audit; the audit resolves its host names itself.
    #[arg(long)]
    demo: bool,

    /// A report format: html, md, json, sarif, junit, or a plugin's name (see --report-dir).
    /// Repeatable (default: html, md and json).
    #[arg(long = "format", value_name = "FORMAT")]
    formats: Vec<String>,

    /// Where the reports are written.
    #[arg(
        short = 'o',
        long,
        value_name = "DIR",
        default_value = "crawlgate-report"
    )]
    output_dir: PathBuf,

    /// Exit 1 when a finding is at least this severe: critical, error, warning, notice, or never.
    #[arg(long, value_name = "SEVERITY", default_value = "error")]
    fail_on: FailOn,

    /// A config file (default: ./crawlgate.toml when it exists): the audit options, per-rule
    /// `off` or severity, and URL suppressions with a reason. Flags given on the command line win.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// A folder holding a report plugin (report.toml and tera templates), or a folder of them.
    /// Repeatable; then `--format <its name>`.
    #[arg(long = "report-dir", value_name = "DIR")]
    report_dirs: Vec<PathBuf>,

    /// Stamp the reports with the time of the audit (off by default: reports are deterministic).
    #[arg(long)]
    timestamp: bool,

    /// No progress display.
    #[arg(short, long)]
    quiet: bool,

    /// What the audited site is: `production` (then staging settings on it are critical:
    /// `Disallow: /`, a site-wide noindex, canonical, hreflang or sitemap URLs on a
    /// non-production host) or `staging` (then being open to search engines is an error). Not
    /// given: the `env/` rules stay quiet.
    #[arg(long, value_name = "ENV")]
    environment: Option<Environment>,

    /// A host pattern that is not production, added to the built-in ones (`localhost`,
    /// `staging.`, `dev.`, `preview.`, `*.vercel.app`, …): `*` matches any run of characters, a
    /// trailing dot means a label (`uat.` matches `uat.example.com`), anything else the host and
    /// its subdomains. Repeatable.
    #[arg(long = "non-production-host", value_name = "PATTERN", value_parser = HostPattern::parse)]
    non_production_hosts: Vec<HostPattern>,

    /// An earlier audit's report.json (or a --write-baseline file): each finding is marked new
    /// or known (same rule, URL, profile and evidence, line numbers aside), and --fail-on counts
    /// only the new ones.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,

    /// Map the baseline's host onto this audit's before matching: `OLD=NEW` (`host`,
    /// `host:port` or `scheme://host[:port]` each side). Repeatable.
    #[arg(
        long = "baseline-map-host",
        value_name = "OLD=NEW",
        requires = "baseline"
    )]
    baseline_map_hosts: Vec<String>,

    /// Rewrite the baseline's URLs with a regex before matching: `REGEX=REPLACEMENT`.
    /// Repeatable.
    #[arg(
        long = "baseline-map",
        value_name = "REGEX=REPLACEMENT",
        requires = "baseline"
    )]
    baseline_maps: Vec<String>,

    /// Write this audit's findings as a baseline file for a later `--baseline`.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,

    /// A crawler robots.txt keeps out on purpose (gptbot, ccbot, claudebot, any profile name):
    /// audited too (added to the --profile list), its being blocked is then a notice, and the
    /// pages it may still crawl are the finding (robots/expected-blocked-allowed). Repeatable.
    #[arg(long = "expect-blocked", value_name = "NAME")]
    expect_blocked: Vec<String>,

    #[command(flatten)]
    crawl: CrawlArgs,
}

pub(crate) fn run(mut args: AuditArgs) -> Result<ExitCode> {
    let demo = if args.demo {
        Some(Demo::start()?)
    } else {
        None
    };
    let loaded = load_config(args.config.as_deref())?;
    if let Some((file, path)) = &loaded {
        apply_config(&mut args, file, path.parent())?;
    }
    let mut file = loaded.map(|(file, _)| file);
    // The demo's own settings fill in what neither the flags nor a config file set; its rule
    // settings count only without a config file.
    if let Some(settings) = demo.as_ref().map(Demo::settings).transpose()?.flatten() {
        apply_config(&mut args, &settings, None)?;
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
    let mut start = match (&demo, &args.url) {
        (Some(demo), _) => demo.start_url()?,
        (None, Some(url)) => match net::as_url(url) {
            Some(url) => url?,
            None => bail!(
                "the start URL `{}` is not an http or https URL (write it in full, e.g. https://example.com/)",
                net::without_userinfo(url)
            ),
        },
        (None, None) => bail!("give a start URL, or --demo"),
    };

    let progress = live::progress_bar(args.quiet);
    let started = Instant::now();
    let bar = progress.clone();
    let mut http = args.crawl.http()?;
    net::credentials_from_url(&mut start, &mut http);
    let audit_time = if demo.is_some() {
        Demo::audit_time()
    } else {
        jiff::Timestamp::now()
    };
    let config = crawl_config(&args, start.clone(), audit_time);
    let mut builder = Auditor::builder()
        // The audited profiles, for the rule configuration's profile names to be checked.
        .profiles(config.profiles.clone())
        .http(http.clone())
        .timestamp_report(args.timestamp)
        .on_event(move |event| {
            if let CrawlEvent::Progress(counts) = event {
                bar.set_message(live::progress_message(counts, started.elapsed()));
            }
        });
    if let Some(file) = &file {
        builder = builder.rule_config(file.rule_config()?);
    }
    // The demo's HTTPS site is served with a certificate only this audit trusts, and its host
    // names are resolved by this audit only.
    for certificate in demo.iter().flat_map(Demo::root_certificates) {
        builder = builder.ca_cert(certificate);
    }
    for (host, addr) in demo.iter().flat_map(Demo::resolve) {
        builder = builder.resolve(host, addr);
    }
    let auditor = builder.build()?;
    let baseline = load_baseline(&args)?;
    live::stop_on_signals(auditor.stop_handle());
    let mut audit = runtime.block_on(auditor.audit_with(config))?;
    progress.finish_and_clear();
    drop(runtime);
    drop(demo);

    if let Some(baseline) = &baseline {
        baseline.mark(&mut audit.report);
    }
    if let Some(path) = &args.write_baseline {
        write_atomically(path, |out| {
            Ok(out.write_all(baseline_json(&audit.report).as_bytes())?)
        })
        .context("the baseline")?;
    }
    let options = RenderOptions {
        fail_on: args.fail_on,
    };
    std::fs::create_dir_all(&args.output_dir)
        .with_context(|| format!("cannot create `{}`", args.output_dir.display()))?;
    let written = write_reports(
        &audit.report,
        &renderers,
        &formats,
        &options,
        &args.output_dir,
    )
    .context("cannot write the reports")?;
    print!("{}", audit_summary(&audit.report, &http, &written));
    Ok(exit::code(exit_status(&audit, args.fail_on)))
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
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the baseline `{}`", path.display()))?;
    let baseline = Baseline::from_json(&text, &map)
        .with_context(|| format!("in the baseline `{}`", path.display()))?;
    Ok(Some(baseline))
}

/// The config file and its path: the one named, or `./crawlgate.toml` when it exists.
fn load_config(path: Option<&Path>) -> Result<Option<(ConfigFile, PathBuf)>> {
    let path = match path {
        Some(path) => path,
        None if Path::new(DEFAULT_CONFIG).is_file() => Path::new(DEFAULT_CONFIG),
        None => return Ok(None),
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the config file `{}`", path.display()))?;
    ConfigFile::parse(&text)
        .map(|file| Some((file, path.to_path_buf())))
        .with_context(|| format!("in `{}`", path.display()))
}

/// Fill in from the config file what the command line left at its default. `folder` is the
/// config file's (relative `ca_certs` paths are read from there).
fn apply_config(args: &mut AuditArgs, file: &ConfigFile, folder: Option<&Path>) -> Result<()> {
    let crawl = &mut args.crawl;
    if crawl.connect.ca_certs.is_empty() {
        for certificate in file.ca_certs.iter().flatten() {
            let path = Path::new(certificate);
            crawl.connect.ca_certs.push(match folder {
                Some(folder) if path.is_relative() => folder.join(path),
                _ => path.to_path_buf(),
            });
        }
    }
    if crawl.connect.resolve.is_empty() {
        crawl.connect.resolve = file.resolve_entries().context("config")?;
    }
    if crawl.profiles.is_empty() {
        crawl.profiles = file.profiles.clone().unwrap_or_default();
    }
    if let Some(max_pages) = file
        .max_pages
        .filter(|_| crawl.max_pages == Bounds::default().max_pages)
    {
        crawl.max_pages = max_pages;
    }
    if crawl.max_depth.is_none() {
        crawl.max_depth = file.max_depth;
    }
    if let Some(concurrency) = file
        .concurrency
        .filter(|_| crawl.concurrency == crawlgate::HttpOptions::default().concurrency)
    {
        crawl.concurrency = concurrency;
    }
    if file.rate.is_some() && file.delay.is_some() {
        bail!("config: give `rate` or `delay`, not both (one is the other's inverse)");
    }
    if crawl.rate.is_none() && crawl.delay.is_none() {
        crawl.rate = file
            .rate
            .map(checked_rate)
            .transpose()
            .map_err(|e| anyhow::anyhow!("config: rate: {e}"))?;
        crawl.delay = file
            .delay
            .map(checked_seconds)
            .transpose()
            .map_err(|e| anyhow::anyhow!("config: delay: {e}"))?;
    }
    if let Some(retries) = file
        .retries
        .filter(|_| crawl.retries == crawlgate::Retry::DEFAULT.max_retries)
    {
        if retries > 10 {
            bail!("config: retries: `{retries}` is not a number from 0 to 10");
        }
        crawl.retries = retries;
    }
    apply_access_config(&mut crawl.connect, file);
    crawl.obey_robots |= file.obey_robots.unwrap_or(false);
    crawl.ignore_crawl_delay |= file.ignore_crawl_delay.unwrap_or(false);
    crawl.include_subdomains |= file.include_subdomains.unwrap_or(false);
    if crawl.sitemaps.is_empty() {
        for sitemap in file.sitemaps.iter().flatten() {
            crawl.sitemaps.push(
                url::Url::parse(sitemap)
                    .with_context(|| format!("config: sitemap `{sitemap}` is not a URL"))?,
            );
        }
    }
    if crawl.allow_hosts.is_empty() {
        crawl.allow_hosts = file.allow_hosts.clone().unwrap_or_default();
    }
    if crawl.user_agent.is_none() {
        crawl.user_agent.clone_from(&file.user_agent);
    }
    if args.expect_blocked.is_empty() {
        args.expect_blocked = file.expect_blocked.clone().unwrap_or_default();
    }
    if let (None, Some(environment)) = (args.environment, &file.environment) {
        args.environment = Some(
            environment
                .parse()
                .map_err(|e| anyhow::anyhow!("config: environment: {e}"))?,
        );
    }
    for pattern in file.non_production_hosts.iter().flatten() {
        args.non_production_hosts.push(
            HostPattern::parse(pattern)
                .map_err(|e| anyhow::anyhow!("config: non_production_hosts: {e}"))?,
        );
    }
    if let Some(fail_on) = &file.fail_on {
        // `--fail-on` has a default, so the file's value counts only when it is stricter or the
        // flag was left at `error`.
        if args.fail_on.0 == Some(Severity::Error) {
            args.fail_on = fail_on
                .parse::<FailOn>()
                .map_err(|e| anyhow::anyhow!("config: fail_on: {e}"))?;
        }
    }
    Ok(())
}

/// The crawl configuration: the crawl flags', plus the expected-blocked profiles and the
/// environment.
fn crawl_config(
    args: &AuditArgs,
    start: url::Url,
    audit_time: jiff::Timestamp,
) -> crawlgate::crawl::CrawlConfig {
    let mut config = args.crawl.config(start, audit_time);
    for name in &args.expect_blocked {
        config.expect_blocked(profile_named(name));
    }
    config.environment.environment = args.environment;
    config
        .environment
        .non_production_hosts
        .extend(args.non_production_hosts.iter().cloned());
    config
}

/// A profile by name, as `--profile` reads it: a built-in one, else a custom crawler token.
fn profile_named(name: &str) -> Profile {
    Profile::builtin(name).unwrap_or_else(|| Profile::custom(name))
}

/// The config file's `headers`, `cookie` and `basic_auth`, where neither the command line nor
/// the environment gave them.
fn apply_access_config(connect: &mut net::ConnectArgs, file: &ConfigFile) {
    if connect.headers.is_empty() {
        connect.headers = file.headers.clone().unwrap_or_default();
    }
    if connect.cookies.is_empty() {
        connect.cookies.extend(file.cookie.iter().cloned());
    }
    if connect.basic_auth.is_none() {
        connect.basic_auth.clone_from(&file.basic_auth);
    }
}

/// The formats to write (`asked`, or html, md and json when none), built-in names normalised
/// (`markdown` → `md`) and checked against the renderers; `hint` ends the error's list of what is
/// available. Shared by `audit` and `diff`.
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
        if renderers.get(&canonical).is_none() {
            bail!(
                "unknown report format `{name}` (available: {}{hint})",
                renderers.names().join(", ")
            );
        }
        names.push(canonical);
    }
    Ok(names)
}

/// 3 when inconclusive, 1 when a finding is at or above the threshold, else 0.
fn exit_status(audit: &Audit, fail_on: FailOn) -> u8 {
    let site = &audit.site;
    let start_failed = site
        .resource(&site.start_url)
        .is_some_and(|r| matches!(r.state, ResourceState::Failed { .. }));
    let robots_unreachable = site.robots_for(&site.start_url).is_some_and(|robots| {
        robots.effect == RobotsEffect::DisallowAll && !site.stats.interrupted
    });
    if start_failed || robots_unreachable {
        return exit::INCONCLUSIVE;
    }
    // Against a baseline only the new findings count.
    let failing = audit
        .report
        .findings
        .iter()
        .filter(|f| f.baseline != Some(BaselineState::Known))
        .any(|f| fail_on.fails(f.finding.severity));
    if failing { exit::FINDINGS } else { exit::OK }
}
