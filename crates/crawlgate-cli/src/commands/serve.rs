//! `crawlgate serve`: the live robots.txt workbench (`crawlgate-workbench`) on a local port,
//! until Ctrl-C or SIGTERM.

use crate::commands::diff::read_report;
use crate::commands::input::{fetch, read_robots};
use crate::commands::live::Signals;
use crate::commands::net::{self, ConnectArgs};
use crate::exit;
use anyhow::bail;
use crawlgate::site::RobotsEffect;
use crawlgate_workbench::{Draft, MAX_DRAFT_BYTES, Server, Workbench};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Serve the live robots.txt workbench: a page on a local port where you edit a robots.txt and
/// see, as you type, its lint issues inline, a paths × crawlers matrix with each cell's deciding
/// line highlighted in the editor, and with an audit loaded, the audit's URLs whose verdict
/// flips (per audited crawler, the deciding line on both sides) and the findings the draft would
/// resolve or create. Every verdict is crawlgate's engine's: the page sends the draft to the
/// server, which answers from the Rust engine. "Download robots.txt" saves the draft.
///
/// The page and its API are served on 127.0.0.1 (a non-loopback address needs
/// `--allow-remote`), answer only requests addressed to that address, and read no file but
/// those given here. Prints `crawlgate workbench on http://127.0.0.1:PORT/`; serves until
/// Ctrl-C or SIGTERM.
///
/// Exit status: 0 once stopped; 2 when an input cannot be read or the address cannot be
/// listened on.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate audit --demo\n  crawlgate serve --report crawlgate-report/\n  crawlgate serve --robots robots.txt --listen 127.0.0.1:0\n  crawlgate serve --robots https://www.example.com/robots.txt"
)]
pub(crate) struct ServeArgs {
    /// An audit to compare the draft with: its report.json, or the folder holding it. The draft
    /// starts from the report's robots.txt of the audit's start URL unless --robots is given.
    #[arg(long, value_name = "DIR|report.json")]
    report: Option<PathBuf>,

    /// The robots.txt to start from: a file (at most 1,024,000 bytes), or a URL (the robots.txt
    /// of its origin is fetched as `robots test` fetches it).
    #[arg(long, value_name = "FILE|URL")]
    robots: Option<String>,

    /// The address and port to listen on; port 0 takes any free port (the URL printed says
    /// which).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8424")]
    listen: SocketAddr,

    /// Allow a --listen address that is not a loopback one: anyone who can reach it can use the
    /// workbench (said on stderr).
    #[arg(long)]
    allow_remote: bool,

    #[command(flatten)]
    connect: ConnectArgs,
}

pub(crate) fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    if !args.listen.ip().is_loopback() {
        if !args.allow_remote {
            bail!(
                "--listen {}: not a loopback address; the workbench listens on 127.0.0.1 unless \
                 --allow-remote is given",
                args.listen
            );
        }
        crate::terminal::say!(
            "warning: --allow-remote: listening on {}, not a loopback address; anyone who can \
             reach it can use the workbench",
            args.listen
        );
    }
    let report = match &args.report {
        Some(path) if path.is_dir() => Some(read_report(&path.join("report.json"))?),
        Some(path) => Some(read_report(path)?),
        None => None,
    };
    let draft = match &args.robots {
        Some(robots) => Some(load_draft(robots, &args.connect)?),
        None => None,
    };
    let workbench = Workbench::new(draft, report)?;
    let runtime = net::runtime()?;
    runtime.block_on(async {
        let server = Server::bind(workbench, args.listen, args.allow_remote).await?;
        super::print_summary(&format!("crawlgate workbench on {}\n", server.url()));
        let signals = Signals::listen();
        server
            .run(async move {
                match signals {
                    Some(mut signals) => {
                        signals.next().await;
                    }
                    None => std::future::pending().await,
                }
            })
            .await;
        anyhow::Ok(())
    })?;
    crate::terminal::say!("crawlgate workbench stopped");
    Ok(exit::code(exit::OK))
}

/// The draft from a file (at most [`MAX_DRAFT_BYTES`]) or fetched from a URL.
fn load_draft(robots: &str, connect: &ConnectArgs) -> anyhow::Result<Draft> {
    if let Some(url) = net::as_url(robots) {
        let file = fetch(&url?, &connect.http()?)?;
        let name = file.url.to_string();
        return Ok(match file.effect {
            RobotsEffect::Rules => {
                let body = file.body().unwrap_or_default();
                if body.len() > MAX_DRAFT_BYTES {
                    bail!(
                        "{name} is larger than {MAX_DRAFT_BYTES} bytes: too large for the workbench"
                    );
                }
                Draft::new(String::from_utf8_lossy(body), name)
            }
            RobotsEffect::AllowAll | RobotsEffect::DisallowAll => Draft::new(
                "",
                format!(
                    "{name} ({}; starting from an empty file)",
                    file.effect_reason
                ),
            ),
        });
    }
    let (body, complete) = read_robots(robots, MAX_DRAFT_BYTES)?;
    if !complete {
        bail!(
            "the robots.txt file `{robots}` is larger than {MAX_DRAFT_BYTES} bytes: too large for \
             the workbench (Google reads only the first {} bytes)",
            crawlgate::robots::GOOGLE_MAX_ROBOTS_BYTES
        );
    }
    Ok(match String::from_utf8(body) {
        Ok(text) => Draft::new(text, robots),
        Err(error) => Draft::new(
            String::from_utf8_lossy(error.as_bytes()),
            format!("{robots} (bytes that are not UTF-8 shown as U+FFFD)"),
        ),
    })
}
