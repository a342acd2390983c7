//! `crawlgate sitemap check FILE|URL`: read one sitemap, print what it holds and every issue. Given
//! a URL, it is fetched and, for an index, so are its children (bounded: index depth 3, 1,000
//! sitemaps; cycles skipped).
//!
//! The work and the output are the library's (`crawlgate::output::sitemap`): `check` takes any
//! reader, `check_tree` fetches a sitemap and its children.
//!
//! `crawlgate sitemap generate --from REPORT -o DIR`: XML sitemaps of the URLs an audit found
//! indexable (`crawlgate::report::generate_sitemaps`, shared with `audit --write-sitemaps`).

use crate::commands::{atomic, net};
use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::{Context, bail};
use crawlgate::FailOn;
use crawlgate::output::sitemap::{Output, check, check_tree};
use crawlgate::report::{Report, SitemapGenOptions, generate_sitemaps};
use crawlgate::sitemap::SitemapOptions;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
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
    /// Generate XML sitemaps from an audit's report.json: the pages fetched with 200 and HTML,
    /// indexable for the profile (not disallowed, not noindex, canonical to themselves), on the
    /// start URL's scheme, host and port, sorted by URL. Split at 50,000 URLs or 50 MiB per
    /// file (`sitemap-1.xml`, … with `sitemap-index.xml`; one file is `sitemap.xml`).
    /// `<lastmod>` only from a page's `Last-Modified` header. Prints the files written and the
    /// `Sitemap:` line to add to robots.txt.
    #[command(
        after_help = "Example:\n  crawlgate audit https://www.example.com/ -o audit\n  crawlgate sitemap generate --from audit -o sitemaps"
    )]
    Generate(GenerateArgs),
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// The audit's report.json, or the folder holding it.
    #[arg(long, value_name = "REPORT|DIR")]
    from: PathBuf,
    /// The folder the sitemaps are written to (created when missing).
    #[arg(short = 'o', long = "output-dir", value_name = "DIR")]
    output_dir: PathBuf,
    #[command(flatten)]
    options: GenerateOptions,
}

/// The choices of `sitemap generate` (`audit --write-sitemaps` takes the defaults).
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct GenerateOptions {
    /// The profile whose indexability decides (default: the audit's first profile).
    #[arg(long, value_name = "NAME")]
    pub(crate) profile: Option<String>,
    /// Write gzipped files (`.xml.gz`).
    #[arg(long)]
    pub(crate) gzip: bool,
    /// List each URL's hreflang alternates as `<xhtml:link rel="alternate" hreflang=…>`, when
    /// the page's set is one Google uses (it names the page, the alternates listed name it
    /// back); alternates with an invalid code are left out, and both are counted.
    #[arg(long)]
    pub(crate) hreflang: bool,
    /// Where the sitemaps will be served, for the index's child URLs and the `Sitemap:` line
    /// (default: the audited start URL's origin).
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<url::Url>,
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
    let args = match args.command {
        SitemapCommand::Check(args) => args,
        SitemapCommand::Generate(args) => return generate(&args),
    };
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

/// `sitemap generate`: read the report, generate, write, print.
fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let path = if args.from.is_dir() {
        args.from.join("report.json")
    } else {
        args.from.clone()
    };
    let report = crate::commands::diff::read_report(&path)?;
    atomic::check_output_dir(&args.output_dir)?;
    write_sitemaps(&report, &args.options, &args.output_dir)?;
    Ok(exit::code(exit::OK))
}

/// Generate `report`'s sitemaps into `dir` and print what was written: shared by `sitemap
/// generate` and `audit --write-sitemaps`.
pub(crate) fn write_sitemaps(
    report: &Report,
    options: &GenerateOptions,
    dir: &Path,
) -> anyhow::Result<()> {
    let generated = generate_sitemaps(
        report,
        &SitemapGenOptions {
            profile: options.profile.clone(),
            base_url: options.base_url.clone(),
            gzip: options.gzip,
            hreflang: options.hreflang,
        },
    )?;
    let written = generated
        .write_to(dir)
        .with_context(|| format!("cannot write the sitemaps into `{}`", dir.display()))?;
    let mut text = format!(
        "sitemaps for {}: {} URLs indexable by {}\n",
        report.target.start_url,
        generated.urls(),
        generated.profile
    );
    for (path, file) in written
        .iter()
        .zip(generated.files.iter().chain(&generated.index))
    {
        let what = if generated
            .index
            .as_ref()
            .is_some_and(|index| index.name == file.name)
        {
            format!("index of {} sitemaps", file.entries)
        } else {
            format!("{} URLs", file.entries)
        };
        let _ = writeln!(text, "  {}: {what}", path.display());
    }
    if generated.too_long > 0 {
        let _ = writeln!(
            text,
            "left out: {} URLs longer than {} characters",
            generated.too_long,
            crawlgate::report::SITEMAP_MAX_LOC_CHARS
        );
    }
    if generated.alternates_dropped > 0 {
        let _ = writeln!(
            text,
            "left out: {} hreflang alternates with an invalid language code or URL (the \
             audit's hreflang findings name them)",
            generated.alternates_dropped
        );
    }
    if generated.sets_unconfirmed > 0 {
        let _ = writeln!(
            text,
            "listed without alternates: {} URLs whose hreflang set Google would not use (no \
             self-reference, no return link, or an alternate not in the sitemap; see the \
             audit's hreflang findings)",
            generated.sets_unconfirmed
        );
    }
    let _ = writeln!(
        text,
        "add to robots.txt (with the files served there):\n{}",
        generated.robots_line()
    );
    super::print_summary(&text);
    Ok(())
}
