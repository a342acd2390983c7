//! `crawlgate sitemap check FILE|URL`: read one sitemap, print what it holds and every issue. Given
//! a URL, it is fetched and, for an index, so are its children (bounded: index depth 3, 1,000
//! sitemaps; cycles skipped).
//!
//! The work is done by [`check`], which takes any reader: a file, or a fetched body with the URL
//! it came from.

use crate::commands::net;
use crate::commands::sitemap_fetch;
use crate::exit;
use anyhow::Context;
use crawlgate_core::Severity;
use crawlgate_core::sitemap::Issue;
use crawlgate_core::sitemap::{self, Entry, SitemapKind, SitemapOptions, SitemapSummary};
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Child sitemaps of an index listed in text output; more are counted (`--urls` lists all).
const MAX_LISTED_CHILDREN: usize = 1_000;
/// Child sitemaps listed in JSON output: all an index may have.
const MAX_JSON_CHILDREN: usize = 50_000;

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
    /// Exit 1 when an issue is at least this severe.
    #[arg(long, value_name = "SEVERITY", default_value = "error")]
    fail_on: FailOn,
    /// The time to check `lastmod` and news dates against (RFC 3339), instead of now.
    #[arg(long, value_name = "TIMESTAMP")]
    check_time: Option<jiff::Timestamp>,

    #[command(flatten)]
    connect: net::ConnectArgs,
}

/// The exit threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FailOn {
    Critical,
    Error,
    Warning,
    Notice,
    Never,
}

impl FailOn {
    pub(crate) fn fails(self, issues: &[Issue]) -> bool {
        let threshold = match self {
            FailOn::Critical => Severity::Critical,
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
            FailOn::Notice => Severity::Notice,
            FailOn::Never => return false,
        };
        issues.iter().any(|issue| issue.severity >= threshold)
    }
}

/// How [`check`] prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    Text,
    Json,
    Urls,
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
    if let Some(url) = net::as_url(&args.file) {
        let http = args.connect.http()?;
        return sitemap_fetch::check_url(&url?, &http, &options, output, args.fail_on);
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let checked = if args.file == "-" {
        // `Stdin`, not its lock: the parser may read on a second thread, and a lock is not `Send`.
        check(io::stdin(), "-", &options, output, &mut out)?
    } else {
        let path = PathBuf::from(&args.file);
        let file = File::open(&path).with_context(|| format!("cannot open `{}`", args.file))?;
        check(file, &args.file, &options, output, &mut out)?
    };
    out.flush()?;
    Ok(exit::code(if args.fail_on.fails(&checked.summary.issues) {
        exit::FINDINGS
    } else {
        exit::OK
    }))
}

/// What [`check`] read: the summary, and an index's child sitemaps (all an index may have).
pub(crate) struct Checked {
    pub(crate) summary: SitemapSummary,
    pub(crate) children: Vec<String>,
}

/// Reads one sitemap from `input` and prints the result to `out`; `name` stands for the
/// document in issue locations (a path, or a URL for fetched bodies).
pub(crate) fn check(
    input: impl Read + Send,
    name: &str,
    options: &SitemapOptions,
    output: Output,
    out: &mut impl Write,
) -> anyhow::Result<Checked> {
    // The kind is known only at the end: keep the locations in case it is an index.
    let mut children = Vec::new();
    let mut more_children = 0u64;
    let mut write_error = None;
    // Entries are only looked at: borrowing them lets the parser reuse their memory.
    let summary = sitemap::parse_borrowed(input, options, |entry: &Entry| {
        if output == Output::Urls
            && write_error.is_none()
            && let Err(error) = writeln!(out, "{}", entry.loc)
        {
            write_error = Some(error);
        }
        if children.len() < MAX_JSON_CHILDREN {
            children.push(entry.loc.clone());
        } else {
            more_children += 1;
        }
    });
    if let Some(error) = write_error {
        return Err(error.into());
    }
    if summary.kind != SitemapKind::Index {
        children.clear();
        more_children = 0;
    }
    match output {
        Output::Json => {
            let report = JsonReport {
                file: name,
                url: options.url.as_ref().map(url::Url::as_str),
                summary: &summary,
                children: &children,
            };
            serde_json::to_writer_pretty(&mut *out, &report)?;
            writeln!(out)?;
        }
        Output::Text => {
            let listed = children.len().min(MAX_LISTED_CHILDREN);
            let unlisted = (children.len() - listed) as u64 + more_children;
            print_text(name, &summary, &children[..listed], unlisted, out)?;
        }
        Output::Urls => {
            let stderr = io::stderr();
            let mut err = stderr.lock();
            for issue in &summary.issues {
                writeln!(err, "{}", issue_line(name, issue))?;
            }
        }
    }
    Ok(Checked { summary, children })
}

#[derive(Serialize)]
struct JsonReport<'a> {
    file: &'a str,
    url: Option<&'a str>,
    #[serde(flatten)]
    summary: &'a SitemapSummary,
    /// The index's child sitemaps (empty for other kinds).
    children: &'a [String],
}

fn print_text(
    name: &str,
    summary: &SitemapSummary,
    children: &[String],
    more_children: u64,
    out: &mut impl Write,
) -> io::Result<()> {
    let noun = match (summary.kind, summary.entry_count) {
        (SitemapKind::Index, 1) => "child sitemap",
        (SitemapKind::Index, _) => "child sitemaps",
        (_, 1) => "entry",
        _ => "entries",
    };
    let bytes = if summary.gzip {
        format!(
            "{} bytes uncompressed, {} gzip",
            summary.bytes_uncompressed, summary.bytes_read
        )
    } else {
        format!("{} bytes", summary.bytes_uncompressed)
    };
    let truncated = if summary.truncated {
        ", read partially"
    } else {
        ""
    };
    writeln!(
        out,
        "{name}: {}, {} {noun}, {bytes}{truncated}",
        summary.kind.as_str(),
        summary.entry_count
    )?;
    if !children.is_empty() {
        writeln!(out, "child sitemaps:")?;
        for child in children {
            writeln!(out, "  {child}")?;
        }
        if more_children > 0 {
            writeln!(out, "  … and {more_children} more (--urls lists them all)")?;
        }
    }
    for issue in &summary.issues {
        writeln!(out, "{}", issue_line(name, issue))?;
    }
    writeln!(out, "{}", tally(&summary.issues))
}

/// `FILE:LINE:COL: severity[rule-id]: message` (`FILE:LINE:` or `FILE:` when not known).
pub(crate) fn issue_line(name: &str, issue: &Issue) -> String {
    let location = match (issue.line, issue.column) {
        (Some(line), Some(column)) => format!("{name}:{line}:{column}"),
        (Some(line), None) => format!("{name}:{line}"),
        _ => name.to_owned(),
    };
    format!(
        "{location}: {}[{}]: {}",
        issue.severity,
        issue.rule(),
        issue.message
    )
}

/// `no issues`, or `3 issues: 1 error, 2 warnings`.
fn tally(issues: &[Issue]) -> String {
    if issues.is_empty() {
        return "no issues".to_owned();
    }
    let counts: Vec<String> = Severity::ALL
        .iter()
        .filter_map(|&severity| {
            let count = issues.iter().filter(|i| i.severity == severity).count();
            (count > 0).then(|| {
                let plural = if count == 1 { "" } else { "s" };
                format!("{count} {severity}{plural}")
            })
        })
        .collect();
    let plural = if issues.len() == 1 { "" } else { "s" };
    format!("{} issue{plural}: {}", issues.len(), counts.join(", "))
}
