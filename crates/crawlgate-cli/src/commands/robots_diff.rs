//! `crawlgate robots diff OLD NEW`: what a robots.txt change does before it ships.
//!
//! The comparison itself is `crawlgate::robots::diff` (pure, both files compiled once per
//! profile); this module loads the two sides (files, or URLs fetched with Google's status
//! semantics), streams the URLs to compare, and writes the result as text, JSON lines or
//! Markdown. Only URLs whose verdict flips are written, as they are met, so millions of URLs
//! take no memory.

use crate::commands::input::{fetch, for_each_line, read_robots};
use crate::commands::net;
use crate::commands::net::ConnectArgs;
use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::{Context, bail};
use crawlgate::crawl::CrawlConfig;
use crawlgate::output::robots_diff::{Format, Writer};
use crawlgate::robots::diff::{AgentChange, FlipCounts, RulesChange, Side, VerdictDiff};
use crawlgate::robots::{GOOGLE_MAX_ROBOTS_BYTES, RobotsTxt, path_params_query};
use crawlgate::signals::Profile;
use crawlgate::site::RobotsEffect;
use crawlgate::sitemap::{SitemapKind, SitemapOptions, parse_borrowed};
use crawlgate::{HttpOptions, SitemapLimits, SitemapStep, StopHandle, crawl, fetch_sitemaps};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use url::Url;

/// Compare two robots.txt files: the rules that changed, and every URL whose verdict flips.
///
/// Prints the rule-level change (groups added and removed, rules added, removed or moved per
/// group, `Sitemap:` lines), then per profile which groups and rules apply on each side, then one
/// line per URL whose verdict differs, with the deciding line on each side (`allowed (no rule) →
/// disallowed (line 7: Disallow: /shop)`), then counts per profile. Verdicts are those of
/// `crawlgate robots test`.
///
/// Exit status: 1 when a URL allowed by OLD is disallowed by NEW for a profile (unless
/// `--no-fail-on-newly-blocked`), else 0; 2 on a usage or read error.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate robots diff robots.txt robots.new.txt --urls-from urls.txt\n  crawlgate robots diff https://www.example.com/robots.txt deploy/robots.txt --profile googlebot --profile bingbot --format md --urls-from urls.txt",
    group = clap::ArgGroup::new("source").required(true).multiple(false).args(["urls", "urls_from", "sitemap", "crawl"])
)]
pub(crate) struct DiffArgs {
    /// The robots.txt now (a file, or a URL fetched as `robots test` fetches it).
    #[arg(value_name = "OLD")]
    old: String,

    /// The robots.txt to compare it with (a file or a URL).
    #[arg(value_name = "NEW")]
    new: String,

    /// URLs to compare: absolute (`https://example.com/a?b`) or a path (`/a?b`).
    #[arg(value_name = "URL")]
    urls: Vec<String>,

    /// Read the URLs from FILE, one per line (`-` for standard input). Streamed: millions of
    /// URLs are fine.
    #[arg(long, value_name = "FILE")]
    urls_from: Option<PathBuf>,

    /// Compare the URLs a sitemap lists (an index's sitemaps are read too, within the crawl's
    /// default bounds).
    #[arg(long, value_name = "URL")]
    sitemap: Option<Url>,

    /// Compare the URLs a crawl from this URL meets (pages and assets, within the crawl's default
    /// bounds: 10,000 pages).
    #[arg(long, value_name = "URL")]
    crawl: Option<Url>,

    /// A crawler to compare verdicts for: googlebot, googlebot-image, bingbot, gptbot,
    /// claudebot, ccbot, `*`, or any product token. Repeat for several (default: googlebot).
    #[arg(long = "profile", value_name = "NAME")]
    profiles: Vec<String>,

    /// Print JSON lines instead of text (one object per line, `type` = `rules`, `profile`,
    /// `flip` or `summary`); the same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,

    /// The output format: text, json (JSON lines) or md (Markdown).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    format: DiffFormat,

    /// Exit with status 1 when a URL becomes disallowed for a profile, so the change can gate a
    /// deploy (the default).
    #[arg(long, overrides_with = "no_fail_on_newly_blocked")]
    fail_on_newly_blocked: bool,

    /// Exit with status 0 after a complete comparison, whatever flips.
    #[arg(long, overrides_with = "fail_on_newly_blocked")]
    no_fail_on_newly_blocked: bool,

    #[command(flatten)]
    connect: ConnectArgs,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DiffFormat {
    /// Plain text; flips as tab-separated lines.
    Text,
    /// JSON lines.
    Json,
    /// Markdown (for a pull-request comment).
    Md,
}

impl From<DiffFormat> for Format {
    fn from(format: DiffFormat) -> Format {
        match format {
            DiffFormat::Text => Format::Text,
            DiffFormat::Json => Format::Json,
            DiffFormat::Md => Format::Md,
        }
    }
}

/// One side as loaded: its rules, or the fetch outcome that decides everything.
struct Loaded {
    /// The file name or the robots.txt URL, for the output.
    name: String,
    robots: Option<RobotsTxt>,
    /// When `robots` is `None`: whether everything is allowed (4xx) or disallowed (5xx, no
    /// answer).
    allowed: bool,
}

impl Loaded {
    fn side(&self) -> Side<'_> {
        match &self.robots {
            Some(robots) => Side::Rules(robots),
            None => Side::Everything {
                allowed: self.allowed,
            },
        }
    }
}

/// Reads a file (with the semantics of a 200 answer), or fetches a URL.
fn load(argument: &str, http: &HttpOptions) -> anyhow::Result<Loaded> {
    if let Some(url) = net::as_url(argument) {
        let file = fetch(&url?, http)?;
        let name = file.url.to_string();
        return Ok(match file.effect {
            RobotsEffect::Rules => Loaded {
                name,
                robots: Some(RobotsTxt::parse_fetched(file.body().unwrap_or_default())),
                allowed: true,
            },
            RobotsEffect::AllowAll | RobotsEffect::DisallowAll => Loaded {
                name,
                robots: None,
                allowed: file.effect == RobotsEffect::AllowAll,
            },
        });
    }
    // Google parses only the first 500 KiB, so nothing past it is read.
    let (body, _) = read_robots(argument, GOOGLE_MAX_ROBOTS_BYTES)?;
    Ok(Loaded {
        name: argument.to_owned(),
        robots: Some(RobotsTxt::parse_fetched(&body)),
        allowed: true,
    })
}

fn profiles(names: &[String]) -> Vec<Profile> {
    if names.is_empty() {
        return vec![Profile::googlebot()];
    }
    names.iter().map(|name| Profile::named(name)).collect()
}

pub(crate) fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let http = args.connect.http()?;
    let old = load(&args.old, &http)?;
    let new = load(&args.new, &http)?;
    let profiles = profiles(&args.profiles);
    let tokens: Vec<Vec<&str>> = profiles
        .iter()
        .map(|profile| profile.robots_tokens.iter().map(String::as_str).collect())
        .collect();
    let chains: Vec<&[&str]> = tokens.iter().map(Vec::as_slice).collect();
    let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();

    let rules = RulesChange::between(old.side(), new.side());
    let agents: Vec<AgentChange> = chains
        .iter()
        .map(|chain| AgentChange::between(old.side(), new.side(), chain))
        .collect();
    let diff = VerdictDiff::new(old.side(), new.side(), &chains);

    let format = if args.json {
        Format::Json
    } else {
        args.format.into()
    };
    let escapes = Escapes::of_json(matches!(format, Format::Json));
    let mut out = Writer::new(format, terminal::stdout(escapes), &names);
    out.header(&old.name, &new.name, &rules, &agents)?;
    let mut counts = vec![FlipCounts::default(); profiles.len()];
    let mut compare = |url: &str, out: &mut Writer<'_, _>| -> anyhow::Result<()> {
        let path = path_params_query(url);
        let mut result = Ok(());
        for count in &mut counts {
            count.urls += 1;
        }
        diff.compare(&path, |flip| {
            if let Some(count) = counts.get_mut(flip.profile) {
                count.add(&flip);
            }
            if result.is_ok() {
                result = out.flip(url, &flip);
            }
        });
        Ok(result?)
    };
    if let Some(source) = &args.urls_from {
        for_each_line(source, |url| compare(url, &mut out))?;
    } else if let Some(sitemap) = &args.sitemap {
        for url in sitemap_urls(sitemap, &http)? {
            compare(&url, &mut out)?;
        }
    } else if let Some(start) = &args.crawl {
        for url in crawled_urls(start, &http)? {
            compare(&url, &mut out)?;
        }
    } else {
        for url in &args.urls {
            compare(url, &mut out)?;
        }
    }
    out.summary(&counts)?;
    out.into_inner().flush()?;
    if counts.iter().all(|count| count.urls == 0) {
        bail!(
            "no URL to compare: give URLs after the two files, or --urls-from FILE (`-` for stdin)"
        );
    }
    let newly_blocked: u64 = counts.iter().map(|count| count.newly_disallowed).sum();
    let failing = args.fail_on_newly_blocked || !args.no_fail_on_newly_blocked;
    if newly_blocked > 0 && failing {
        crate::terminal::say!(
            "{newly_blocked} URL verdict(s) become disallowed with {}; exit status 1 \
             (--fail-on-newly-blocked)",
            new.name
        );
        return Ok(exit::code(exit::FINDINGS));
    }
    Ok(exit::code(exit::OK))
}

/// The URLs a sitemap lists, following an index to its sitemaps (default bounds), in the order
/// read. Sitemaps that cannot be read are said on stderr and skipped.
fn sitemap_urls(url: &Url, http: &HttpOptions) -> anyhow::Result<Vec<String>> {
    let runtime = net::runtime()?;
    let options = SitemapOptions::new(jiff::Timestamp::now());
    let mut urls = Vec::new();
    let visit = |step: SitemapStep<'_>| -> Vec<Url> {
        let SitemapStep::Fetched(fetch) = step else {
            return Vec::new();
        };
        let received = match &fetch.response.outcome {
            Ok(received) if (200..300).contains(&received.status) => received,
            Ok(received) => {
                crate::terminal::say!("note: {} answered {}; skipped", fetch.url, received.status);
                return Vec::new();
            }
            Err((kind, message)) => {
                crate::terminal::say!(
                    "note: {}: {} ({message}); skipped",
                    fetch.url,
                    kind.as_str()
                );
                return Vec::new();
            }
        };
        let mut locs = Vec::new();
        let summary = parse_borrowed(received.body.as_slice(), &options, |entry| {
            locs.push(entry.loc.clone());
        });
        if summary.kind == SitemapKind::Index {
            return locs
                .iter()
                .filter_map(|loc| Url::parse(loc.trim()).ok())
                .collect();
        }
        urls.extend(locs);
        Vec::new()
    };
    runtime.block_on(fetch_sitemaps(url, http, &SitemapLimits::default(), visit));
    Ok(urls)
}

/// The URLs a crawl from `start` meets (default bounds), sorted.
fn crawled_urls(start: &Url, http: &HttpOptions) -> anyhow::Result<Vec<String>> {
    let runtime = net::runtime()?;
    let config = CrawlConfig::new(start.clone(), jiff::Timestamp::now());
    let site = runtime
        .block_on(crawl(config, http, &StopHandle::new(), &|_| {}))
        .context("the crawl failed")?;
    Ok(site
        .resources()
        .iter()
        .map(|resource| resource.url.to_string())
        .collect())
}
