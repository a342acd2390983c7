//! crawlgate.toml for `crawlgate audit`: every option of the command line has a key (the
//! option's name with `_` for `-`: `max_pages`, `per_host`, `formats`, …; `profiles`,
//! `sitemaps`, `headers`, `cookie` for the repeatable `--profile`, `--sitemap`, `--header`,
//! `--cookie`). The command line (and the environment: `$CRAWLGATE_BASIC_AUTH`,
//! `$CRAWLGATE_COOKIE`) wins; the file fills in what it did not give; the demo's own settings
//! fill in what neither gave. Paths the file names are read from its folder when relative;
//! the files it asks to write (`output_dir`, `write_baseline`, `write_sitemaps`) are relative to
//! the current one.

use crate::commands::audit::{AuditArgs, parse_sarif_map_entry};
use crate::commands::crawl_args::{
    checked_bound_bytes, checked_concurrency, checked_max_discovered, checked_rate,
    checked_seconds, parse_robots_override,
};
use crate::commands::input::read_text_at_most;
use anyhow::{Context, Result, anyhow, bail};
use clap::ArgMatches;
use clap::parser::ValueSource;
use crawlgate::site::HostPattern;
use crawlgate::{ConfigFile, FailOn};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The config file read when `--config` is not given and it exists in the current folder.
const DEFAULT_CONFIG: &str = "crawlgate.toml";

/// The options already set, by clap id (the field name): those the command line gave, then
/// each one a file filled in.
pub(crate) struct Filled(BTreeSet<String>);

impl Filled {
    /// The options `matches` got from the command line or the environment (not defaults).
    pub(crate) fn from_command_line(matches: Option<&ArgMatches>) -> Self {
        let given = matches.into_iter().flat_map(|matches| {
            matches
                .ids()
                .filter(|id| {
                    matches!(
                        matches.value_source(id.as_str()),
                        Some(ValueSource::CommandLine | ValueSource::EnvVariable)
                    )
                })
                .map(|id| id.as_str().to_owned())
        });
        Filled(given.collect())
    }

    /// Whether `id` was given (on the command line, or by a file applied before).
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.0.contains(id)
    }

    /// Whether `id` is still open, marking it filled when `value` is `Some`: the file's value
    /// is then to be taken.
    fn take<T>(&mut self, id: &str, value: Option<T>) -> Option<T> {
        let value = value?;
        (!self.0.contains(id)).then(|| {
            self.0.insert(id.to_owned());
            value
        })
    }
}

/// A config file larger than this is refused (a real one is a few KB).
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The config file and its path: the one named, or `./crawlgate.toml` when it exists.
pub(crate) fn load_config(path: Option<&Path>) -> Result<Option<(ConfigFile, PathBuf)>> {
    let path = match path {
        Some(path) => path,
        None if Path::new(DEFAULT_CONFIG).is_file() => Path::new(DEFAULT_CONFIG),
        None => return Ok(None),
    };
    let text = read_text_at_most(path, MAX_CONFIG_BYTES, "the config file", None)?;
    ConfigFile::parse(&text)
        .map(|file| Some((file, path.to_path_buf())))
        .with_context(|| format!("in `{}`", path.display()))
}

/// Fill in from `file` every option not yet `filled`. `folder` is the file's (relative input
/// paths are read from there).
pub(crate) fn apply_config(
    args: &mut AuditArgs,
    file: &ConfigFile,
    folder: Option<&Path>,
    filled: &mut Filled,
) -> Result<()> {
    apply_crawl_config(args, file, filled)?;
    apply_scope_config(args, file, folder, filled)?;
    apply_access_config(args, file, folder, filled)?;
    apply_report_config(args, file, folder, filled)
}

fn config_error(key: &str) -> impl Fn(String) -> anyhow::Error + '_ {
    move |message| anyhow!("config: {key}: {message}")
}

/// How far and how fast: bounds, pace, profiles, what robots.txt is read as.
fn apply_crawl_config(args: &mut AuditArgs, file: &ConfigFile, filled: &mut Filled) -> Result<()> {
    if let Some(names) = filled.take("expect_blocked", file.expect_blocked.clone()) {
        args.expect_blocked = names;
    }
    let crawl = &mut args.crawl;
    if let Some(profiles) = filled.take("profiles", file.profiles.clone()) {
        crawl.profiles = profiles;
    }
    if let Some(n) = filled.take("max_pages", file.max_pages) {
        crawl.max_pages = n;
    }
    if let Some(n) = filled.take("max_depth", file.max_depth) {
        crawl.max_depth = Some(n);
    }
    if let Some(n) = filled.take("concurrency", file.concurrency) {
        crawl.concurrency = checked_concurrency(n).map_err(config_error("concurrency"))?;
    }
    if let Some(n) = filled.take("per_host", file.per_host) {
        crawl.per_host = Some(checked_concurrency(n).map_err(config_error("per_host"))?);
    }
    if file.rate.is_some() && file.delay.is_some() {
        bail!("config: give `rate` or `delay`, not both (one is the other's inverse)");
    }
    // One pace: a rate or a delay on the command line leaves both keys of the file aside.
    if !filled.0.contains("rate") && !filled.0.contains("delay") {
        if let Some(rate) = filled.take("rate", file.rate) {
            crawl.rate = Some(checked_rate(rate).map_err(config_error("rate"))?);
        }
        if let Some(delay) = filled.take("delay", file.delay) {
            crawl.delay = Some(checked_seconds(delay).map_err(config_error("delay"))?);
        }
    }
    if let Some(ignore) = filled.take("ignore_crawl_delay", file.ignore_crawl_delay) {
        crawl.ignore_crawl_delay = ignore;
    }
    if let Some(retries) = filled.take("retries", file.retries) {
        if retries > 10 {
            bail!("config: retries: `{retries}` is not a number from 0 to 10");
        }
        crawl.retries = retries;
    }
    if let Some(seconds) = filled.take("timeout", file.timeout) {
        crawl.timeout = checked_seconds(seconds).map_err(config_error("timeout"))?;
    }
    if let Some(seconds) = filled.take("max_time", file.max_time) {
        crawl.max_time = checked_seconds(seconds).map_err(config_error("max_time"))?;
    }
    if let Some(bytes) = filled.take("max_body_bytes", file.max_body_bytes) {
        crawl.max_body_bytes = bytes;
    }
    if let Some(obey) = filled.take("obey_robots", file.obey_robots) {
        crawl.obey_robots = obey;
    }
    if let Some(user_agent) = filled.take("user_agent", file.user_agent.clone()) {
        crawl.user_agent = Some(user_agent);
    }
    if let Some(off) = filled.take("no_assets", file.no_assets) {
        crawl.no_assets = off;
    }
    if let Some(off) = filled.take("no_sitemap_probe", file.no_sitemap_probe) {
        crawl.no_sitemap_probe = off;
    }
    // A store given on the command line (or resumed) wins over the file's `no_store`.
    if crawl.resume.is_none() {
        if let Some(dir) = filled.take("store", file.store.as_ref()) {
            crawl.store = Some(PathBuf::from(dir));
        }
        if crawl.store.is_none()
            && let Some(off) = filled.take("no_store", file.no_store)
        {
            args.no_store = off;
        }
    }
    if let Some(sitemaps) = filled.take("sitemaps", file.sitemaps.as_ref()) {
        crawl.sitemaps = sitemaps
            .iter()
            .map(|sitemap| {
                crate::commands::net::parse_http_url(sitemap).map_err(config_error("sitemaps"))
            })
            .collect::<Result<_>>()?;
    }
    Ok(())
}

/// What is crawled: hosts, include/exclude, list mode, sitemap-only, the discovery bound.
fn apply_scope_config(
    args: &mut AuditArgs,
    file: &ConfigFile,
    folder: Option<&Path>,
    filled: &mut Filled,
) -> Result<()> {
    let url_given = args.url.is_some() || args.demo;
    let crawl = &mut args.crawl;
    if let Some(on) = filled.take("include_subdomains", file.include_subdomains) {
        crawl.include_subdomains = on;
    }
    if let Some(hosts) = filled.take("allow_hosts", file.allow_hosts.clone()) {
        crawl.allow_hosts = hosts;
    }
    if let Some(n) = filled.take("max_discovered_bytes", file.max_discovered_bytes) {
        crawl.max_discovered_bytes =
            checked_bound_bytes(n).map_err(config_error("max_discovered_bytes"))?;
    }
    if let Some(n) = filled.take("pages_in_memory", file.pages_in_memory) {
        crawl.pages_in_memory = n;
    }
    if let Some(n) = filled.take("max_sitemap_entry_bytes", file.max_sitemap_entry_bytes) {
        crawl.max_sitemap_entry_bytes =
            checked_bound_bytes(n).map_err(config_error("max_sitemap_entry_bytes"))?;
    }
    if let Some(n) = filled.take("max_discovered", file.max_discovered) {
        crawl.max_discovered = checked_max_discovered(n).map_err(config_error("max_discovered"))?;
    }
    // The patterns were checked when the file was read.
    if let Some(patterns) = filled.take("include", file.include.clone()) {
        crawl.include = patterns;
    }
    if let Some(patterns) = filled.take("exclude", file.exclude.clone()) {
        crawl.exclude = patterns;
    }
    // What to fetch. The file's `urls_from` counts when the command line names no URL, list or
    // --sitemap-only; its `sitemap_only` when the command line gives no --urls-from.
    if file.urls_from.is_some() && file.sitemap_only == Some(true) {
        bail!("config: give `urls_from` or `sitemap_only`, not both");
    }
    let list_given = crawl.urls_from.is_some();
    if !url_given
        && !crawl.sitemap_only
        && let Some(list) = filled.take("urls_from", file.urls_from.as_ref())
    {
        crawl.urls_from = Some(relative_to(folder, PathBuf::from(list)));
    }
    if !list_given && let Some(on) = filled.take("sitemap_only", file.sitemap_only) {
        crawl.sitemap_only = on;
    }
    if let Some(entries) = filled.take("robots_overrides", file.robots_overrides.as_ref()) {
        crawl.robots_overrides = entries
            .iter()
            .map(|entry| {
                let (origin, path) =
                    parse_robots_override(entry).map_err(config_error("robots_overrides"))?;
                Ok((origin, relative_to(folder, path)))
            })
            .collect::<Result<_>>()?;
    }
    Ok(())
}

/// How to connect and log in: certificates, host names, headers, cookie, basic auth.
fn apply_access_config(
    args: &mut AuditArgs,
    file: &ConfigFile,
    folder: Option<&Path>,
    filled: &mut Filled,
) -> Result<()> {
    let connect = &mut args.crawl.connect;
    if let Some(certificates) = filled.take("ca_certs", file.ca_certs.as_ref()) {
        connect.ca_certs = certificates
            .iter()
            .map(|path| relative_to(folder, PathBuf::from(path)))
            .collect();
    }
    if file.resolve.is_some() && !filled.0.contains("resolve") {
        connect.resolve = file.resolve_entries().context("config")?;
        filled.0.insert("resolve".to_owned());
    }
    if let Some(headers) = filled.take("headers", file.headers.clone()) {
        connect.headers = headers;
    }
    if let Some(cookie) = filled.take("cookies", file.cookie.clone()) {
        connect.cookies = vec![cookie];
    }
    if let Some(auth) = filled.take("basic_auth", file.basic_auth.clone()) {
        connect.basic_auth = Some(auth);
    }
    Ok(())
}

/// What is written and when CI fails: formats, folders, baselines, environment, threshold.
fn apply_report_config(
    args: &mut AuditArgs,
    file: &ConfigFile,
    folder: Option<&Path>,
    filled: &mut Filled,
) -> Result<()> {
    if let Some(formats) = filled.take("formats", file.formats.clone()) {
        args.formats = formats;
    }
    if let Some(dir) = filled.take("output_dir", file.output_dir.as_ref()) {
        args.output_dir = PathBuf::from(dir);
    }
    if let Some(dirs) = filled.take("report_dirs", file.report_dirs.as_ref()) {
        args.report_dirs = dirs
            .iter()
            .map(|dir| relative_to(folder, PathBuf::from(dir)))
            .collect();
    }
    if let Some(on) = filled.take("timestamp", file.timestamp) {
        args.timestamp = on;
    }
    if let Some(on) = filled.take("render", file.render) {
        args.render.render = on;
    }
    if let Some(n) = filled.take("render_pages", file.render_pages) {
        args.render.render_pages = n;
    }
    if let Some(seconds) = filled.take("render_timeout", file.render_timeout) {
        args.render.render_timeout =
            checked_seconds(seconds).map_err(config_error("render_timeout"))?;
    }
    if let Some(n) = filled.take("render_concurrency", file.render_concurrency) {
        args.render.render_concurrency =
            checked_concurrency(n).map_err(config_error("render_concurrency"))?;
    }
    if let Some(on) = filled.take("quiet", file.quiet) {
        args.quiet = on;
    }
    if let Some(path) = filled.take("baseline", file.baseline.as_ref()) {
        args.baseline = Some(relative_to(folder, PathBuf::from(path)));
    }
    if let Some(maps) = filled.take("baseline_map_hosts", file.baseline_map_hosts.clone()) {
        args.baseline_map_hosts = maps;
    }
    if let Some(maps) = filled.take("baseline_maps", file.baseline_maps.clone()) {
        args.baseline_maps = maps;
    }
    if let Some(entries) = filled.take("sarif_map", file.sarif_map.as_ref()) {
        // Checked as `--sarif-map` checks its values; the map is built once, for the reports.
        for entry in entries {
            parse_sarif_map_entry(entry).map_err(config_error("sarif_map"))?;
        }
        args.sarif_map.clone_from(entries);
    }
    if let Some(dir) = filled.take("write_sitemaps", file.write_sitemaps.as_ref()) {
        args.write_sitemaps = Some(PathBuf::from(dir));
    }
    if let Some(path) = filled.take("write_baseline", file.write_baseline.as_ref()) {
        args.write_baseline = Some(PathBuf::from(path));
    }
    if let Some(environment) = filled.take("environment", file.environment.as_ref()) {
        args.environment = Some(environment.parse().map_err(config_error("environment"))?);
    }
    // Added to the command line's: the built-in patterns are a list to extend, not replace.
    for pattern in file.non_production_hosts.iter().flatten() {
        args.non_production_hosts
            .push(HostPattern::parse(pattern).map_err(config_error("non_production_hosts"))?);
    }
    if let Some(fail_on) = filled.take("fail_on", file.fail_on.as_ref()) {
        args.fail_on = fail_on.parse::<FailOn>().map_err(config_error("fail_on"))?;
    }
    Ok(())
}

/// A path from the config file: relative ones are read from its folder.
fn relative_to(folder: Option<&Path>, path: PathBuf) -> PathBuf {
    match folder {
        Some(folder) if path.is_relative() => folder.join(path),
        _ => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cli;
    use clap::{CommandFactory, FromArgMatches};
    use std::time::Duration;

    /// `crawlgate audit ARGS…` with `toml` as its config file (read from `/cfg`).
    fn audit_with(args: &[&str], toml: &str) -> Result<AuditArgs> {
        let mut command_line = vec!["crawlgate", "audit"];
        command_line.extend_from_slice(args);
        let matches = Cli::command().try_get_matches_from(command_line).unwrap();
        let audit_matches = matches.subcommand_matches("audit").unwrap();
        let mut args = AuditArgs::from_arg_matches(audit_matches).unwrap();
        let file = ConfigFile::parse(toml).unwrap();
        let mut filled = Filled::from_command_line(Some(audit_matches));
        apply_config(&mut args, &file, Some(Path::new("/cfg")), &mut filled)?;
        Ok(args)
    }

    #[test]
    fn the_file_fills_in_what_the_command_line_did_not_give() {
        let toml = "per_host = 2\ntimeout = 7.5\nmax_time = 60\nmax_body_bytes = 1000\n\
                    no_assets = true\nformats = [\"sarif\"]\noutput_dir = \"out\"\n\
                    report_dirs = [\"plugins\"]\nquiet = true\nmax_pages = 7\n\
                    fail_on = \"warning\"\nbaseline = \"old.json\"\n";
        let args = audit_with(&["https://example.com/"], toml).unwrap();
        assert_eq!(args.crawl.per_host, Some(2));
        assert_eq!(args.crawl.timeout, Duration::from_millis(7500));
        assert_eq!(args.crawl.max_time, Duration::from_secs(60));
        assert_eq!(args.crawl.max_body_bytes, 1000);
        assert!(args.crawl.no_assets && args.quiet);
        assert_eq!(args.formats, ["sarif"]);
        assert_eq!(args.output_dir, PathBuf::from("out"));
        assert_eq!(args.report_dirs, [PathBuf::from("/cfg/plugins")]);
        assert_eq!(args.baseline, Some(PathBuf::from("/cfg/old.json")));
        assert_eq!(args.crawl.max_pages, 7);
        assert_eq!(args.fail_on, "warning".parse().unwrap());
        // A flag wins even when it says what the default says.
        let args = audit_with(
            &[
                "https://example.com/",
                "--max-pages=10000",
                "--fail-on=error",
            ],
            toml,
        )
        .unwrap();
        assert_eq!(args.crawl.max_pages, 10_000);
        assert_eq!(args.fail_on, "error".parse().unwrap());
        for bad in [
            "per_host = 0",
            "timeout = -1",
            "concurrency = 5000",
            "retries = 11",
        ] {
            let error = audit_with(&["https://example.com/"], bad).unwrap_err();
            assert!(error.to_string().starts_with("config: "), "{bad}: {error}");
        }
    }

    #[test]
    fn sarif_map_comes_from_the_file_unless_the_command_line_gives_one() {
        let toml = "sarif_map = [\"https://e.com/robots.txt=public/robots.txt\"]\n";
        let args = audit_with(&["https://e.com/"], toml).unwrap();
        assert_eq!(
            args.sarif_map,
            ["https://e.com/robots.txt=public/robots.txt"]
        );
        let args = audit_with(
            &[
                "https://e.com/",
                "--sarif-map=https://e.com/*=templates/page.html",
            ],
            toml,
        )
        .unwrap();
        assert_eq!(args.sarif_map, ["https://e.com/*=templates/page.html"]);
        let error = audit_with(
            &["https://e.com/"],
            "sarif_map = [\"https://e.com/x=/abs\"]",
        )
        .unwrap_err();
        assert!(
            error.to_string().starts_with("config: sarif_map: "),
            "{error}"
        );
    }

    /// Options that have no config key, and why.
    const NO_KEY: &[(&str, &str)] = &[
        ("url", "the site is named per run (or by `urls_from`)"),
        ("demo", "the demo has its own settings"),
        ("config", "it names the file itself"),
        ("help", "not an audit option"),
        (
            "resume",
            "it continues one interrupted run, named on the command line",
        ),
    ];

    /// A config key for every `crawlgate audit` option: asked of serde, which lists the keys
    /// it knows when it meets one it does not.
    #[test]
    fn every_audit_option_has_a_config_key() {
        let error = crawlgate::ConfigFile::parse("not_a_key = 1")
            .unwrap_err()
            .to_string();
        let aliases = [("cookies", "cookie")];
        let command = Cli::command();
        let audit = command.find_subcommand("audit").expect("the audit command");
        let mut missing = Vec::new();
        for arg in audit.get_arguments() {
            let id = arg.get_id().as_str();
            if NO_KEY.iter().any(|(name, _)| *name == id) {
                continue;
            }
            let key = aliases
                .iter()
                .find(|(option, _)| *option == id)
                .map_or(id, |(_, key)| *key);
            if !error.contains(&format!("`{key}`")) {
                missing.push(key.to_owned());
            }
        }
        assert!(missing.is_empty(), "no config key for {missing:?}: {error}");
    }
}
