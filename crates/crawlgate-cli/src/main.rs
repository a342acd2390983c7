//! `crawlgate`: the command line. The only crate that prints (ARCHITECTURE.md, "Invariants").

// This crate is the one place allowed to print.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod allocator;
mod commands;
mod demo;
mod terminal;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// Cross-check a site's robots.txt, sitemaps, meta robots, X-Robots-Tag and canonicals the way
/// Googlebot reads them.
#[derive(Debug, Parser)]
#[command(name = "crawlgate", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Crawl a site, cross-check it, write the reports.
    Audit(Box<commands::audit::AuditArgs>),
    /// Test URLs against a robots.txt, or lint one.
    Robots(commands::robots::RobotsArgs),
    /// Check a sitemap file.
    Sitemap(commands::sitemap::SitemapArgs),
    /// List the rules: id, default severity, summary.
    Rules(commands::rules::RulesArgs),
    /// Explain a rule: what it checks, why it matters, how to fix it.
    Explain(commands::rules::ExplainArgs),
    /// Crawl a site and write what it saw, one JSON line per URL.
    Crawl(commands::crawl::CrawlCommandArgs),
    /// Compare two audits (report.json): what gets worse, page by page, after mapping URLs.
    Diff(commands::diff::DiffArgs),
    /// Serve the live robots.txt workbench: edit a robots.txt in the browser and see lint
    /// issues, verdicts and the audit's URLs that flip as you type.
    Serve(commands::serve::ServeArgs),
}

/// Exit codes (README.md, "Exit codes"); clap itself exits 2 on usage errors.
pub(crate) mod exit {
    use std::process::ExitCode;

    /// No finding at or above the failure threshold.
    pub(crate) const OK: u8 = 0;
    /// Findings at or above the failure threshold.
    pub(crate) const FINDINGS: u8 = 1;
    /// Usage or runtime error.
    pub(crate) const ERROR: u8 = 2;
    /// Inconclusive: the start URL gave no response.
    pub(crate) const INCONCLUSIVE: u8 = 3;

    pub(crate) fn code(code: u8) -> ExitCode {
        ExitCode::from(code)
    }
}

fn main() -> ExitCode {
    allocator::configure();
    // The matches are kept besides the parsed arguments: `audit` asks them which options the
    // command line gave, so that its config file fills in exactly the others.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    let result = match cli.command {
        Command::Audit(args) => commands::audit::run(*args, matches.subcommand_matches("audit")),
        Command::Robots(args) => commands::robots::run(args),
        Command::Sitemap(args) => commands::sitemap::run(args),
        Command::Rules(args) => commands::rules::list(&args),
        Command::Explain(args) => commands::rules::explain(&args),
        Command::Crawl(args) => commands::crawl::run(&args),
        Command::Diff(args) => commands::diff::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            // A closed pipe (`crawlgate robots test … | head`) is not an error.
            if err.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return exit::code(exit::OK);
            }
            terminal::say!("error: {}", commands::error_text(&err));
            exit::code(exit::ERROR)
        }
    }
}
