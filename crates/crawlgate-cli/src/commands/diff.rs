//! `crawlgate diff BEFORE.json AFTER.json`: two audits compared after mapping URLs (staging to
//! production, http to https, a path scheme that changed), written in every report format.

use crate::commands::audit::{
    parse_sarif_map_entry, report_formats, sarif_map, write_report_files,
};
use crate::commands::input::{MAX_REPORT_BYTES, read_text_at_most};
use crate::exit;
use anyhow::{Context, Result, bail};
use crawlgate::FailOn;
use crawlgate::diff::compare;
use crawlgate::output::report::diff_summary;
use crawlgate::report::{RenderOptions, Renderers, Report, SCHEMA_VERSION, UrlMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Compare two audits (their report.json): what got worse, page by page, after mapping URLs.
///
/// Pages known to both audits are compared per crawler profile: `diff/newly-blocked`,
/// `diff/newly-noindex`, `diff/canonical-changed`, `diff/status-regressed`,
/// `diff/sitemap-dropped`, `diff/snippet-directives-changed`, and for the whole site
/// `diff/sitemap-set-changed`; each finding quotes the fact on both sides. The audit findings that
/// appear or disappear are counted per rule ("What changes"). The reports go to the output
/// folder like `audit`'s.
///
/// Exit status: 0, or 1 when a `diff/` finding is at or above --fail-on; 2 on a usage or read
/// error.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate diff staging/report.json production/report.json --map-host staging.example.com=www.example.com\n  crawlgate diff before.json after.json --map 'https://example.com/shop/=https://example.com/store/' --format md -o diff"
)]
pub(crate) struct DiffArgs {
    /// The earlier audit's report.json.
    #[arg(value_name = "BEFORE.json")]
    before: PathBuf,

    /// The later audit's report.json.
    #[arg(value_name = "AFTER.json")]
    after: PathBuf,

    /// Map the earlier audit's host onto the later one's: `OLD=NEW`, each `host`, `host:port` or
    /// `scheme://host[:port]` (`http://example.com=https://www.example.com`). Repeatable.
    #[arg(long = "map-host", value_name = "OLD=NEW")]
    map_hosts: Vec<String>,

    /// Rewrite the earlier audit's URLs with a regex: `REGEX=REPLACEMENT` (split at the first
    /// `=` not written `\=`; `$1` in the replacement). Applied after --map-host, in order.
    /// Repeatable.
    #[arg(long = "map", value_name = "REGEX=REPLACEMENT")]
    maps: Vec<String>,

    /// A report format: html, md, json, sarif, junit, parquet (six tables: pages.parquet, …).
    /// Repeatable (default: html, md and json).
    #[arg(long = "format", value_name = "FORMAT")]
    formats: Vec<String>,

    /// Where the reports are written.
    #[arg(
        short = 'o',
        long,
        value_name = "DIR",
        default_value = "crawlgate-diff"
    )]
    output_dir: PathBuf,

    /// Exit 1 when a `diff/` finding is at least this severe: critical, error, warning, notice,
    /// or never.
    #[arg(long, value_name = "SEVERITY", default_value = "error")]
    fail_on: FailOn,

    /// Where site URLs live in your repository, for `--format sarif`, as in `crawlgate audit`:
    /// `URL=PATH`, URL exact or a URL pattern. Repeatable.
    #[arg(long = "sarif-map", value_name = "URL=PATH", value_parser = parse_sarif_map_entry)]
    sarif_map: Vec<String>,
}

pub(crate) fn run(args: &DiffArgs) -> Result<ExitCode> {
    let fail_on = args.fail_on;
    let mut map = UrlMap::new();
    for spec in &args.map_hosts {
        map = map.with_host(spec).context("--map-host")?;
    }
    for spec in &args.maps {
        map = map.with_regex(spec).context("--map")?;
    }
    let before = read_report(&args.before)?;
    let after = read_report(&args.after)?;
    let report = compare(&before, &after, &map);

    let renderers = Renderers::builtin();
    let formats = report_formats(&args.formats, &renderers, "")?;
    let written = write_report_files(
        &report,
        &renderers,
        &formats,
        &RenderOptions {
            fail_on,
            sarif_map: sarif_map(&args.sarif_map)?,
        },
        &args.output_dir,
    )?;

    super::print_summary(&diff_summary(&report, &written));
    let failing = report
        .findings
        .iter()
        .any(|f| fail_on.fails(f.finding.severity));
    Ok(exit::code(if failing { exit::FINDINGS } else { exit::OK }))
}

/// Reads a report.json, refusing other files with a reason.
pub(crate) fn read_report(path: &Path) -> Result<Report> {
    let text = read_text_at_most(
        path,
        MAX_REPORT_BYTES,
        "the report",
        Some(
            "compare audits this large through their Parquet tables (`--format parquet`; \
             README, \"Parquet export\")",
        ),
    )?;
    let report: Report = serde_json::from_str(&text).with_context(|| {
        format!(
            "`{}` is not a crawlgate report.json (schema version {SCHEMA_VERSION})",
            path.display()
        )
    })?;
    if report.schema_version != SCHEMA_VERSION {
        bail!(
            "`{}` has schema version {}; this crawlgate reads version {SCHEMA_VERSION}",
            path.display(),
            report.schema_version
        );
    }
    Ok(report)
}
