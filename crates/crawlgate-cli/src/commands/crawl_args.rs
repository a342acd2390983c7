//! The crawl flags shared by `crawlgate crawl` and `crawlgate audit`: scope, bounds, profiles,
//! robots.txt handling. They build a [`CrawlConfig`] and [`HttpOptions`]; every default is the
//! library's.

use crate::commands::input::{read_at_most, read_url_list};
use crate::commands::net::{self, ConnectArgs};
use anyhow::{Context as _, bail};
use crawlgate::crawl::{Bounds, CrawlConfig, CrawlMode};
use crawlgate::signals::Profile;
use crawlgate::site::{RobotsOverride, origin_of};
use crawlgate::{HttpOptions, Pace, Retry, UrlPattern};
use std::path::{Path, PathBuf};
use std::time::Duration;
use url::Url;

/// How far and how fast to crawl, and as whom to judge robots.txt.
// The flags are independent switches, as on the command line.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct CrawlArgs {
    /// Fetch at most N pages.
    #[arg(help_heading = "Crawl", long, value_name = "N", default_value_t = Bounds::default().max_pages)]
    pub(crate) max_pages: u64,

    /// Follow links at most N clicks from the start URL (default: no limit). URLs named by a
    /// sitemap, canonical or redirect are fetched whatever their depth.
    #[arg(help_heading = "Crawl", long, value_name = "N")]
    pub(crate) max_depth: Option<u32>,

    /// Requests in flight at once, over all hosts.
    #[arg(help_heading = "Crawl", long, value_name = "N", default_value_t = HttpOptions::default().concurrency, value_parser = parse_concurrency)]
    pub(crate) concurrency: usize,

    /// Requests in flight at once to one host [default: 8; to a host on this machine, unless
    /// --rate paces it: as many as --concurrency allows].
    #[arg(help_heading = "Crawl", long, value_name = "N", value_parser = parse_concurrency)]
    pub(crate) per_host: Option<usize>,

    /// Start at most N requests per second to one host, loopback hosts included (decimals
    /// allowed: `0.5` is one request every two seconds; `0`: no limit). Default: 5 per second to
    /// each host, none to hosts on this machine (`127.0.0.1`, `::1`, `localhost`, or a --resolve to
    /// them).
    #[arg(help_heading = "Crawl", long, value_name = "N", value_parser = parse_rate, conflicts_with = "delay")]
    pub(crate) rate: Option<f64>,

    /// Wait at least SECONDS between two request starts to one host (the same as --rate
    /// 1/SECONDS).
    #[arg(help_heading = "Crawl", long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) delay: Option<Duration>,

    /// Don't wait the `Crawl-delay` that robots.txt asks of crawlgate (in a `User-agent:
    /// crawlgate` or `*` group; honoured by default, up to 30 s, except on hosts of this machine
    /// unless --rate is given).
    #[arg(help_heading = "Crawl", long)]
    pub(crate) ignore_crawl_delay: bool,

    /// Ask a URL again at most N times after a 429 (Too Many Requests) or 503 (Service
    /// Unavailable), waiting its Retry-After (up to 60 s) or a back-off doubling from 1 s; the
    /// host is slowed down too. 0: record the first answer.
    #[arg(help_heading = "Crawl", long, value_name = "N", default_value_t = Retry::DEFAULT.max_retries, value_parser = clap::value_parser!(u32).range(0..=10))]
    pub(crate) retries: u32,

    /// Seconds allowed for one request, from connecting to the last body byte.
    #[arg(help_heading = "Crawl", long, value_name = "SECONDS", default_value = "20", value_parser = parse_seconds)]
    pub(crate) timeout: Duration,

    /// Seconds allowed for the whole crawl; past them it stops and reports what it saw.
    #[arg(help_heading = "Crawl", long, value_name = "SECONDS", default_value = "3600", value_parser = parse_seconds)]
    pub(crate) max_time: Duration,

    /// Read at most this many bytes of each page; longer bodies are cut and marked truncated.
    #[arg(help_heading = "Crawl", long, value_name = "BYTES", default_value_t = Bounds::default().max_page_bytes)]
    pub(crate) max_body_bytes: u64,

    /// A crawler to judge robots.txt and robots directives for: googlebot, googlebot-image,
    /// bingbot, gptbot, claudebot, ccbot, `*`, or any product token. Repeat for several
    /// (default: googlebot).
    #[arg(help_heading = "Crawl", long = "profile", value_name = "NAME")]
    pub(crate) profiles: Vec<String>,

    /// Don't fetch URLs that robots.txt disallows for every profile (by default they are fetched,
    /// with crawlgate's own User-Agent, to see what they say: a blocked page's noindex).
    #[arg(help_heading = "Crawl", long)]
    pub(crate) obey_robots: bool,

    /// Also read this sitemap (besides those robots.txt names). Repeatable.
    #[arg(help_heading = "Scope", long = "sitemap", value_name = "URL", value_parser = net::parse_http_url)]
    pub(crate) sitemaps: Vec<Url>,

    /// Crawl every host of the start host's registrable domain too (same scheme and port): from
    /// www.example.com, example.com and shop.example.com, never other.co.uk from
    /// www.example.co.uk nor other.github.io from client.github.io (the public suffix list). An
    /// IP address or localhost covers itself and its subdomains only.
    #[arg(help_heading = "Scope", long)]
    pub(crate) include_subdomains: bool,

    /// Crawl this host too, as if it were the start host (same scheme and port), or HOST:PORT
    /// for that port, or an origin (`https://HOST[:PORT]`) for that scheme too. Repeatable.
    #[arg(help_heading = "Scope", long = "allow-host", value_name = "HOST")]
    pub(crate) allow_hosts: Vec<String>,

    /// Audit as if FILE were ORIGIN's live robots.txt (`https://www.example.com=robots-new.txt`):
    /// the what-if before a robots.txt change. That robots.txt is not fetched; the report says
    /// which file was read. Repeatable, one per origin.
    #[arg(help_heading = "Crawl", long = "robots-override", value_name = "ORIGIN=FILE", value_parser = parse_robots_override)]
    pub(crate) robots_overrides: Vec<(String, PathBuf)>,
    /// Fetch only pages whose full URL matches PATTERN (repeatable: any one is enough). `*`
    /// matches any run of characters, `/` included, `?` one character, `[?]` a `?`:
    /// `https://example.com/shop/*`, `*/blog/*`. Others in scope are recorded as excluded,
    /// counted, not fetched. Applies to pages (links, sitemap URLs, canonical and redirect
    /// targets), never to robots.txt, sitemaps or assets; the start URL must be included.
    #[arg(help_heading = "Scope", long = "include", value_name = "PATTERN", value_parser = UrlPattern::parse)]
    pub(crate) include: Vec<UrlPattern>,

    /// Don't fetch pages whose full URL matches PATTERN (repeatable; wins over --include):
    /// `*/cart*`, `*[?]sort=*`. They are recorded as excluded and counted, as with --include.
    #[arg(help_heading = "Scope", long = "exclude", value_name = "PATTERN", value_parser = UrlPattern::parse)]
    pub(crate) exclude: Vec<UrlPattern>,

    /// List mode: fetch exactly the URLs in FILE (`-`: standard input; one http(s) URL per
    /// line, blank lines and `#` comments skipped; at most --max-pages of them), plus each
    /// listed origin's robots.txt and sitemaps. Links, sitemap URLs and canonical targets are
    /// recorded, not fetched; assets of listed pages are checked unless --no-assets. The first
    /// URL stands for the start URL (give no URL argument).
    #[arg(
        help_heading = "Scope",
        long,
        value_name = "FILE",
        conflicts_with = "sitemap_only"
    )]
    pub(crate) urls_from: Option<PathBuf>,

    /// Fetch the URLs the sitemaps list (robots.txt's, the /sitemap.xml probe's and
    /// --sitemap's), within scope, and follow no links (they are recorded). The start URL is
    /// fetched only when a sitemap lists it.
    #[arg(help_heading = "Scope", long)]
    pub(crate) sitemap_only: bool,

    /// Record at most N URLs, fetched or not (links found past it are counted, not kept): what
    /// bounds memory on a site that links without end.
    #[arg(help_heading = "Scope", long, value_name = "N", default_value_t = Bounds::default().max_discovered, value_parser = parse_max_discovered)]
    pub(crate) max_discovered: u64,

    /// Record at most this many bytes of URL text (the same bound, in bytes: a site of 2 KB
    /// URLs reaches it long before --max-discovered).
    #[arg(help_heading = "Scope", long, value_name = "BYTES", default_value_t = Bounds::default().max_discovered_bytes, value_parser = parse_bound_bytes)]
    pub(crate) max_discovered_bytes: u64,

    /// Hold at most N fetched pages and assets in memory; past it each is written to a
    /// temporary file beside the crawl store and read back when a rule needs it (slower, but
    /// memory then grows by the URL, not the page); the URLs' link samples, references and
    /// sitemap listings then go there too past 800,000 entries. 0 keeps no page in memory.
    #[arg(help_heading = "Scope", long, value_name = "N", default_value_t = Bounds::default().pages_in_memory)]
    pub(crate) pages_in_memory: u64,

    /// Keep at most this many bytes of sitemap entries (and their issues) for the sitemap
    /// checks, over all sitemaps; past it, entries are still crawled and counted.
    #[arg(help_heading = "Scope", long, value_name = "BYTES", default_value_t = Bounds::default().max_sitemap_entry_bytes, value_parser = parse_bound_bytes)]
    pub(crate) max_sitemap_entry_bytes: u64,

    /// The User-Agent header sent (default: crawlgate's own). Verdicts are always computed for
    /// the profiles, never for this string.
    #[arg(help_heading = "Crawl", long, value_name = "UA")]
    pub(crate) user_agent: Option<String>,

    /// Don't check the stylesheets, scripts and images of crawled pages.
    #[arg(help_heading = "Crawl", long)]
    pub(crate) no_assets: bool,

    /// Don't probe /sitemap.xml when robots.txt names no sitemap there.
    #[arg(help_heading = "Scope", long)]
    pub(crate) no_sitemap_probe: bool,

    /// Keep every response in a crawl store in DIR as the crawl goes (`crawl-store.sqlite`),
    /// so that a crawl stopped by Ctrl-C, a kill or a crash can be continued with --resume
    /// DIR. `audit` keeps one in its report folder by default (see --no-store) and removes it
    /// once the crawl is complete and the reports are written; one asked for here is kept.
    #[arg(
        help_heading = "Crawl",
        long,
        value_name = "DIR",
        conflicts_with = "resume"
    )]
    pub(crate) store: Option<PathBuf>,

    /// Continue the interrupted crawl whose store is in DIR (an audit's report folder, or a
    /// --store DIR): what it fetched is answered from the store, the rest is fetched, and the
    /// report is the one an uninterrupted crawl makes. Give the options that started it (the
    /// store refuses another crawl); credentials are not stored, so give them again.
    #[arg(help_heading = "Crawl", long, value_name = "DIR")]
    pub(crate) resume: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) connect: ConnectArgs,
}

/// What a crawl starts from: the start URL, and in list mode the URLs listed (the first is the
/// start URL).
#[derive(Debug, Clone)]
pub(crate) struct Start {
    pub(crate) url: Url,
    pub(crate) listed: Option<Vec<Url>>,
}

impl Start {
    /// Take credentials written in the start URL or the listed ones (`https://user:pass@host/`)
    /// out of them, as basic authentication unless `--basic-auth` gave some: the crawl sends
    /// them to its scope only, and every URL shown is without them.
    pub(crate) fn take_credentials(&mut self, http: &mut HttpOptions) {
        let mut found = crawlgate::take_userinfo(&mut self.url);
        for url in self.listed.iter_mut().flatten() {
            let from_list = crawlgate::take_userinfo(url);
            found = found.or(from_list);
        }
        if http.access.basic_auth.is_none() {
            http.access.basic_auth = found;
        }
    }
}

impl CrawlArgs {
    /// The start: the URL argument, or the `--urls-from` list (read here) and its first URL.
    /// `what` names the command's other way to start, for the error when none is given.
    pub(crate) fn start(&self, url: Option<&str>, what: &str) -> anyhow::Result<Start> {
        if let Some(source) = &self.urls_from {
            let listed = read_url_list(source, self.max_pages)?;
            return Ok(Start {
                url: listed[0].clone(),
                listed: Some(listed),
            });
        }
        let Some(url) = url else {
            bail!("give a start URL, --urls-from FILE{what}");
        };
        match net::as_url(url) {
            Some(parsed) => Ok(Start {
                url: parsed?,
                listed: None,
            }),
            None => bail!(
                "the start URL `{}` is not an http or https URL (write it in full, e.g. https://example.com/)",
                net::without_userinfo(url)
            ),
        }
    }

    /// The crawl configuration for a crawl from `start` at `audit_time`.
    pub(crate) fn config(
        &self,
        start: Start,
        audit_time: jiff::Timestamp,
    ) -> anyhow::Result<CrawlConfig> {
        let mut config = CrawlConfig::new(start.url, audit_time);
        for (origin, path) in &self.robots_overrides {
            config
                .robots_overrides
                .insert(origin.clone(), read_robots_override(path)?);
        }
        if let Some(listed) = start.listed {
            config.mode = CrawlMode::List;
            config.listed = listed;
        } else if self.sitemap_only {
            config.mode = CrawlMode::SitemapOnly;
        }
        if !self.profiles.is_empty() {
            config.profiles = self
                .profiles
                .iter()
                .map(|name| profile_named(name).context("--profile"))
                .collect::<anyhow::Result<_>>()?;
        }
        config.bounds.max_pages = self.max_pages;
        config.bounds.max_depth = self.max_depth;
        config.bounds.max_page_bytes = self.max_body_bytes;
        config.bounds.max_discovered = self.max_discovered;
        config.bounds.max_discovered_bytes = self.max_discovered_bytes;
        config.bounds.pages_in_memory = self.pages_in_memory;
        config.bounds.max_sitemap_entry_bytes = self.max_sitemap_entry_bytes;
        config.obey_robots = self.obey_robots;
        config.sitemaps.clone_from(&self.sitemaps);
        config.scope.include_subdomains = self.include_subdomains;
        config.scope.allow_hosts = self
            .allow_hosts
            .iter()
            .map(|host| host.to_ascii_lowercase())
            .collect();
        config.scope.include.clone_from(&self.include);
        config.scope.exclude.clone_from(&self.exclude);
        config.fetch_assets = !self.no_assets;
        config.probe_sitemap = !self.no_sitemap_probe;
        Ok(config)
    }

    /// The network options: the connection ones ([`ConnectArgs::http`]) and the crawl's limits.
    pub(crate) fn http(&self) -> anyhow::Result<HttpOptions> {
        let mut http = HttpOptions {
            concurrency: self.concurrency,
            per_host: self.per_host,
            request_timeout: self.timeout,
            total_time: self.max_time,
            ..self.connect.http()?
        };
        if let Some(user_agent) = &self.user_agent {
            http.user_agent.clone_from(user_agent);
        }
        http.pace = self.pace();
        http.retry.max_retries = self.retries;
        Ok(http)
    }
}

impl CrawlArgs {
    /// The per-host pace: `--rate`, `--delay`, or the library's default.
    pub(crate) fn pace(&self) -> Pace {
        let pace = match (self.rate, self.delay) {
            (Some(rate), _) => Pace::per_second(rate).unwrap_or(Pace::UNLIMITED),
            (None, Some(delay)) => {
                Pace::per_second(1.0 / delay.as_secs_f64()).unwrap_or(Pace::UNLIMITED)
            }
            (None, None) => Pace::DEFAULT,
        };
        Pace {
            honour_crawl_delay: !self.ignore_crawl_delay,
            ..pace
        }
    }
}

/// A robots.txt override file read at most: four times what the crawl keeps of a robots.txt
/// (2 MiB), so that a file past Google's limits is still audited as such.
const MAX_ROBOTS_OVERRIDE_BYTES: u64 = 8 * 1024 * 1024;

/// `ORIGIN=FILE`: the origin normalised (`https://www.example.com`), the file as given.
pub(crate) fn parse_robots_override(text: &str) -> Result<(String, PathBuf), String> {
    let (origin, file) = text
        .split_once('=')
        .filter(|(_, file)| !file.trim().is_empty())
        .ok_or_else(|| {
            format!("`{text}` is not ORIGIN=FILE (e.g. https://www.example.com=robots-new.txt)")
        })?;
    let url = Url::parse(origin.trim())
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
        .ok_or_else(|| {
            format!("`{origin}` is not an origin: write it with its scheme, e.g. https://www.example.com")
        })?;
    if !matches!(url.path(), "" | "/") || url.query().is_some() {
        return Err(format!(
            "`{origin}` is not an origin: a robots.txt governs a whole scheme, host and port, so give no path"
        ));
    }
    Ok((origin_of(&url).into_owned(), PathBuf::from(file.trim())))
}

/// The override file's bytes, named by its path.
pub(crate) fn read_robots_override(path: &Path) -> anyhow::Result<RobotsOverride> {
    let (body, complete) = read_at_most(path, MAX_ROBOTS_OVERRIDE_BYTES)
        .with_context(|| format!("--robots-override: cannot read `{}`", path.display()))?;
    if !complete {
        anyhow::bail!(
            "--robots-override: `{}` is larger than {} MiB: not a robots.txt",
            path.display(),
            MAX_ROBOTS_OVERRIDE_BYTES / 1024 / 1024
        );
    }
    Ok(RobotsOverride {
        name: path.display().to_string(),
        body,
    })
}

/// Requests per second to one host: a finite number from 0 (no limit) to 10,000.
fn parse_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|rate| checked_rate(rate).ok())
        .ok_or_else(|| rate_error(text))
}

/// A rate (`rate` in crawlgate.toml) in the range [`parse_rate`] accepts.
pub(crate) fn checked_rate(rate: f64) -> Result<f64, String> {
    if (0.0..=10_000.0).contains(&rate) {
        Ok(rate)
    } else {
        Err(rate_error(&rate.to_string()))
    }
}

fn rate_error(shown: &str) -> String {
    format!("`{shown}` is not a rate from 0 (no limit) to 10000 requests per second")
}

/// The discovery bound's range: the start URL must fit, and past ten million known URLs the
/// crawl's records alone take gigabytes.
const MAX_DISCOVERED_RANGE: std::ops::RangeInclusive<u64> = 1..=10_000_000;

/// URLs recorded at most: 1 to 10,000,000.
fn parse_max_discovered(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| max_discovered_error(text))
        .and_then(checked_max_discovered)
}

/// A discovery bound (`max_discovered` in crawlgate.toml) in the range the flag accepts.
pub(crate) fn checked_max_discovered(n: u64) -> Result<u64, String> {
    if MAX_DISCOVERED_RANGE.contains(&n) {
        Ok(n)
    } else {
        Err(max_discovered_error(&n.to_string()))
    }
}

fn max_discovered_error(shown: &str) -> String {
    format!("`{shown}` is not a number of URLs from 1 to 10000000")
}

/// Requests in flight at once: 1 to 1,024.
pub(crate) fn parse_concurrency(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| checked_concurrency(n).ok())
        .ok_or_else(|| format!("`{text}` is not a number from 1 to 1024"))
}

/// A memory bound in bytes (`--max-discovered-bytes`, `--max-sitemap-entry-bytes`): from 1 KiB
/// to 16 GiB.
pub(crate) fn parse_bound_bytes(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| checked_bound_bytes(n).ok())
        .ok_or_else(|| {
            format!("`{text}` is not a number of bytes from 1024 to 17179869184 (16 GiB)")
        })
}

/// A memory bound in bytes (in crawlgate.toml) in the range [`parse_bound_bytes`] accepts.
pub(crate) fn checked_bound_bytes(n: u64) -> Result<u64, String> {
    if (1024..=16 * 1024 * 1024 * 1024).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "`{n}` is not a number of bytes from 1024 to 17179869184 (16 GiB)"
        ))
    }
}

/// A number of requests in flight (`concurrency`, `per_host` in crawlgate.toml) in the range
/// [`parse_concurrency`] accepts.
pub(crate) fn checked_concurrency(n: usize) -> Result<usize, String> {
    if (1..=1024).contains(&n) {
        Ok(n)
    } else {
        Err(format!("`{n}` is not a number from 1 to 1024"))
    }
}

/// A positive number of seconds, decimals allowed (`20`, `0.5`), at most a year.
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    checked_seconds(seconds).map_err(|_| seconds_error(text))
}

/// A number of seconds (`delay` in crawlgate.toml) in the range [`parse_seconds`] accepts.
pub(crate) fn checked_seconds(seconds: f64) -> Result<Duration, String> {
    if seconds > 0.0 && seconds <= 366.0 * 24.0 * 3600.0 {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(seconds_error(&seconds.to_string()))
    }
}

fn seconds_error(shown: &str) -> String {
    format!("`{shown}` is out of range: give a positive number of seconds (at most a year)")
}

/// A profile by name, as `--profile` and `--expect-blocked` read it: a built-in one, else a
/// custom crawler's product token, which RFC 9309 (section 2.2.1) makes letters, `_` and `-`
/// (digits allowed too: `360Spider`). Anything else, the empty name included, matches no
/// `User-agent` line the way the user means, so it is refused.
pub(crate) fn profile_named(name: &str) -> anyhow::Result<Profile> {
    if let Some(profile) = Profile::builtin(name) {
        return Ok(profile);
    }
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        bail!(
            "`{name}` is not a crawler name: use a built-in profile (googlebot, bingbot, gptbot, \
             …) or a product token of letters, digits, `_` and `-`"
        );
    }
    Ok(Profile::custom(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        crawl: CrawlArgs,
    }

    fn parse(flags: &[&str]) -> CrawlArgs {
        let mut command_line = vec!["crawlgate"];
        command_line.extend_from_slice(flags);
        Cli::try_parse_from(command_line).unwrap().crawl
    }

    fn start() -> Start {
        Start {
            url: Url::parse("https://example.com/").unwrap(),
            listed: None,
        }
    }

    #[test]
    fn defaults_are_the_librarys() {
        let args = parse(&[]);
        let config = args.config(start(), jiff::Timestamp::UNIX_EPOCH).unwrap();
        assert_eq!(config.bounds, Bounds::default());
        assert_eq!(config.profiles, vec![Profile::googlebot()]);
        assert!(!config.obey_robots && config.fetch_assets && config.probe_sitemap);
        assert_eq!(args.http().unwrap(), HttpOptions::default());
    }

    #[test]
    fn rate_and_delay_set_the_pace() {
        assert_eq!(parse(&[]).pace(), Pace::DEFAULT);
        assert_eq!(parse(&["--rate=2"]).pace(), Pace::per_second(2.0).unwrap());
        assert_eq!(
            parse(&["--rate", "0.5"]).pace(),
            Pace::per_second(0.5).unwrap()
        );
        assert_eq!(parse(&["--rate=0"]).pace(), Pace::UNLIMITED);
        assert_eq!(
            parse(&["--delay=0.25"]).pace(),
            Pace::per_second(4.0).unwrap()
        );
        assert_eq!(
            parse(&["--rate=3"]).http().unwrap().pace,
            Pace::per_second(3.0).unwrap()
        );
        let mut command_line = vec!["crawlgate"];
        for bad in [
            &["--rate=-1"][..],
            &["--rate=fast"],
            &["--rate=inf"],
            &["--delay=0"],
        ] {
            command_line.truncate(1);
            command_line.extend_from_slice(bad);
            assert!(Cli::try_parse_from(&command_line).is_err(), "{bad:?}");
        }
        assert!(Cli::try_parse_from(["crawlgate", "--rate=1", "--delay=1"]).is_err());
        assert!(parse(&[]).pace().honour_crawl_delay);
        assert!(!parse(&["--ignore-crawl-delay"]).pace().honour_crawl_delay);
    }

    #[test]
    fn every_flag_reaches_the_config() {
        let args = parse(&[
            "--max-pages=5",
            "--max-depth=2",
            "--concurrency=3",
            "--per-host=1",
            "--timeout=1.5",
            "--max-time=60",
            "--max-body-bytes=1000",
            "--profile=bingbot",
            "--profile=MyBot",
            "--obey-robots",
            "--sitemap=https://example.com/s.xml",
            "--include-subdomains",
            "--allow-host=CDN.example.net",
            "--allow-host=127.0.0.1:8081",
            "--user-agent=Test/1.0",
            "--no-assets",
            "--no-sitemap-probe",
            "--resolve=www.example.com=10.0.0.5:8080",
            "--include=https://example.com/*",
            "--exclude=*/cart*",
            "--exclude=*[?]sort=*",
            "--sitemap-only",
            "--max-discovered=500",
        ]);
        let config = args.config(start(), jiff::Timestamp::UNIX_EPOCH).unwrap();
        assert_eq!(config.bounds.max_pages, 5);
        assert_eq!(config.bounds.max_depth, Some(2));
        assert_eq!(config.bounds.max_page_bytes, 1000);
        assert_eq!(config.bounds.max_discovered, 500);
        assert_eq!(config.mode, CrawlMode::SitemapOnly);
        let patterns =
            |list: &[UrlPattern]| -> Vec<String> { list.iter().map(ToString::to_string).collect() };
        assert_eq!(patterns(&config.scope.include), ["https://example.com/*"]);
        assert_eq!(patterns(&config.scope.exclude), ["*/cart*", "*[?]sort=*"]);
        let names: Vec<&str> = config.profiles.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["bingbot", "mybot"]);
        assert!(config.obey_robots && config.scope.include_subdomains);
        assert_eq!(
            config.scope.allow_hosts,
            ["cdn.example.net", "127.0.0.1:8081"]
        );
        let start = Url::parse("http://127.0.0.1:8080/").unwrap();
        let other_port = Url::parse("http://127.0.0.1:8081/a").unwrap();
        assert!(config.scope.contains(&start, &other_port));
        assert_eq!(config.sitemaps.len(), 1);
        assert!(!config.fetch_assets && !config.probe_sitemap);
        let http = args.http().unwrap();
        assert_eq!((http.concurrency, http.per_host), (3, Some(1)));
        assert_eq!(http.request_timeout, Duration::from_millis(1500));
        assert_eq!(http.total_time, Duration::from_secs(60));
        assert_eq!(http.user_agent, "Test/1.0");
        assert_eq!(
            http.resolve,
            [(
                "www.example.com".to_owned(),
                "10.0.0.5:8080".parse().unwrap()
            )]
        );
    }

    #[test]
    fn scope_flags_are_checked_when_parsed() {
        for bad in [
            &["--exclude=/cart*"][..],
            &["--include="],
            &["--include=https://e.com/[a"],
            &["--max-discovered=0"],
            &["--max-discovered=10000001"],
            &["--max-discovered=many"],
            &["--urls-from=urls.txt", "--sitemap-only"],
        ] {
            let mut command_line = vec!["crawlgate"];
            command_line.extend_from_slice(bad);
            assert!(Cli::try_parse_from(&command_line).is_err(), "{bad:?}");
        }
        let error = Cli::try_parse_from(["crawlgate", "--exclude=/cart*"])
            .unwrap_err()
            .to_string();
        assert!(error.contains("write `*/cart*`"), "{error}");
        assert_eq!(
            parse(&["--max-discovered=10000000"]).max_discovered,
            10_000_000
        );
        assert_eq!(checked_max_discovered(0), Err(max_discovered_error("0")));
    }

    #[test]
    fn a_url_list_starts_a_list_mode_crawl_at_its_first_url() {
        let dir = std::env::temp_dir().join(format!("crawlgate-url-list-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = dir.join("urls.txt");
        std::fs::write(
            &list,
            "# audited pages\n\nhttps://example.com/b\n  https://other.example/a  \n",
        )
        .unwrap();
        let args = parse(&["--urls-from", list.to_str().unwrap()]);
        let start = args.start(None, "").unwrap();
        assert_eq!(start.url.as_str(), "https://example.com/b");
        let config = args.config(start, jiff::Timestamp::UNIX_EPOCH).unwrap();
        assert_eq!(config.mode, CrawlMode::List);
        let listed: Vec<&str> = config.listed.iter().map(Url::as_str).collect();
        assert_eq!(listed, ["https://example.com/b", "https://other.example/a"]);

        for (text, says) in [
            (
                "https://example.com/\nexample.com/page\n",
                "line 2: `example.com/page` is not an http or https URL",
            ),
            ("# only comments\n\n", "lists no URL"),
            ("https://\n", "line 1: `https://` is not a valid URL"),
        ] {
            std::fs::write(&list, text).unwrap();
            let error = parse(&["--urls-from", list.to_str().unwrap()])
                .start(None, "")
                .unwrap_err();
            let shown = format!("{error:#}");
            assert!(shown.contains(list.to_str().unwrap()), "{shown}");
            assert!(shown.contains(says), "{shown}");
        }
        std::fs::write(&list, "https://e.com/1\nhttps://e.com/2\nhttps://e.com/3\n").unwrap();
        let error = parse(&["--urls-from", list.to_str().unwrap(), "--max-pages=2"])
            .start(None, "")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("more than 2 URLs, the page bound"),
            "{error}"
        );
        let missing = parse(&["--urls-from", dir.join("none.txt").to_str().unwrap()]);
        assert!(missing.start(None, "").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            parse(&[])
                .start(None, ", or --demo")
                .unwrap_err()
                .to_string()
                .ends_with("or --demo")
        );
    }

    #[test]
    fn seconds_must_be_positive_numbers() {
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("abc").is_err());
        assert!(parse_seconds("NaN").is_err());
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_concurrency("0").is_err());
        assert_eq!(parse_concurrency("64"), Ok(64));
    }
}
