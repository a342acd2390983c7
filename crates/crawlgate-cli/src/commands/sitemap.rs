//! `crawlgate sitemap check FILE|URL`: read one sitemap, print what it holds and every issue. Given
//! a URL, it is fetched and, for an index, so are its children (bounded: index depth 3, 1,000
//! sitemaps; cycles skipped).
//!
//! The work and the output are the library's (`crawlgate::output::sitemap`): `check` takes any
//! reader, `check_tree` fetches a sitemap and its children.

use crate::commands::net;
use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::{Context, bail};
use crawlgate::FailOn;
use crawlgate::output::sitemap::{Output, check, check_tree};
use crawlgate::sitemap::SitemapOptions;
use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub(crate) struct SitemapArgs {
    #[command(subcommand)]
    command: SitemapCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SitemapCommand {
    /// Check a sitemap (XML, sitemap index, text, RSS or Atom; gzip or not): print its kind, entry
    /// count, sizes, child sitemaps, and every issue as `FILE:LINE:COL: severity[rule-id]: message`.
    ///
    /// Given a URL, the sitemap is fetched (redirects followed, at most 51 MiB read) and, when it
    /// is an index, its children too, depth first (at most 3 levels and 1,000 sitemaps; a child
    /// leading back to an ancestor is reported as `sitemap/cycle` and not read again). A sitemap
    /// that answers non-2xx or not at all is reported as `sitemap/fetch-error`. With --json, one
    /// JSON object per sitemap.
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// The sitemap file (`-` reads standard input), or its URL.
    #[arg(value_name = "FILE|URL")]
    file: String,
    /// The URL the sitemap is served at, for the cross-host and directory-scope checks (for a
    /// fetched sitemap: the URL it was fetched from, after redirects).
    #[arg(long, value_name = "URL")]
    url: Option<url::Url>,
    /// Print one JSON object instead of text.
    #[arg(long, conflicts_with = "urls")]
    json: bool,
    /// Print only the entry URLs, one per line (issues go to standard error).
    #[arg(long)]
    urls: bool,
    /// Exit 1 when an issue is at least this severe: critical, error, warning, notice, or never.
    #[arg(long, value_name = "SEVERITY", default_value = "error")]
    fail_on: FailOn,
    /// The time to check `lastmod` and news dates against (RFC 3339), instead of now.
    #[arg(long, value_name = "TIMESTAMP")]
    check_time: Option<jiff::Timestamp>,

    #[command(flatten)]
    connect: net::ConnectArgs,
}

pub(crate) fn run(args: SitemapArgs) -> anyhow::Result<ExitCode> {
    let SitemapCommand::Check(args) = args.command;
    let mut options = SitemapOptions::new(args.check_time.unwrap_or_else(jiff::Timestamp::now));
    options.url.clone_from(&args.url);
    let output = if args.json {
        Output::Json
    } else if args.urls {
        Output::Urls
    } else {
        Output::Text
    };
    let mut out = terminal::stdout(Escapes::of_json(matches!(output, Output::Json)));
    let mut err = io::stderr();
    let issues = if let Some(url) = net::as_url(&args.file) {
        let http = args.connect.http()?;
        let runtime = net::runtime()?;
        runtime.block_on(check_tree(
            &url?, &http, &options, output, &mut out, &mut err,
        ))?
    } else if args.file == "-" {
        // `Stdin`, not its lock: the parser may read on a second thread, and a lock is not `Send`.
        check(io::stdin(), "-", &options, output, &mut out, &mut err)?
            .summary
            .issues
    } else {
        let path = PathBuf::from(&args.file);
        if path.is_dir() {
            bail!(
                "`{}` is a folder; give a sitemap file, a URL or `-`",
                args.file
            );
        }
        let file = File::open(&path).with_context(|| format!("cannot open `{}`", args.file))?;
        check(file, &args.file, &options, output, &mut out, &mut err)?
            .summary
            .issues
    };
    out.flush()?;
    let failed = issues
        .iter()
        .any(|issue| args.fail_on.fails(issue.severity));
    Ok(exit::code(if failed { exit::FINDINGS } else { exit::OK }))
}
