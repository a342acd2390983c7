//! `crawlgate serve`: the live robots.txt workbench. A local HTTP server (hyper, HTTP/1.1) that
//! serves one self-contained page and a small JSON API over the engine: edit a robots.txt in
//! the page, and every lint issue, verdict and flip is computed here, by `crawlgate-robots`, on
//! the draft as typed (the page has no matcher of its own).
//!
//! ```no_run
//! # async fn run() -> Result<(), crawlgate_workbench::WorkbenchError> {
//! use crawlgate_workbench::{Draft, Server, Workbench};
//!
//! let draft = Draft::new("User-agent: *\nDisallow: /private/\n", "robots.txt");
//! let workbench = Workbench::new(Some(draft), None)?;
//! let server = Server::bind(workbench, "127.0.0.1:0".parse().unwrap(), false).await?;
//! println!("crawlgate workbench on {}", server.url());
//! server.run(std::future::pending()).await;
//! # Ok(()) }
//! ```
//!
//! # The API
//!
//! - `GET /`, `GET /app.js`, `GET /app.css`: the page (embedded; nothing is fetched from
//!   elsewhere).
//! - `GET /api/state`: the robots.txt to start from and where it came from; with a report, the
//!   origins it has a robots.txt for (each with its body when the report lists it whole, and
//!   sample paths: its crawled URLs' paths, at most [`MAX_SAMPLE_PATHS`]); the built-in
//!   crawler profiles; the limits.
//! - `POST /api/check` (`Content-Type: application/json`): [`CheckRequest`] → [`CheckResponse`]:
//!   the draft's lint issues (line, rule id, severity, message, as an audit of the report's
//!   profiles lints it), the paths × crawlers matrix (verdict, deciding line and its text, the
//!   group each crawler gets), and with a report and an origin, [`ReportCheck`]: every crawled
//!   URL of that origin whose verdict flips between the report's robots.txt and the draft, for
//!   each audited profile ([`crawlgate_robots::diff::VerdictDiff`]; counts, and the first
//!   [`MAX_FLIPS_LISTED`] with the deciding line on both sides), and the findings the draft
//!   would resolve or create.
//!
//! What "resolve" and "create" approximate (no page is fetched again, no rule runs again):
//!
//! - resolved: a finding of a rule a robots.txt edit can fix
//!   ([`crawlgate_report::FIXABLE_RULES`], `robots/disallow-all` aside) whose evidence is a
//!   `Disallow` line of this robots.txt, when the URL that line refuses (the finding's own, or
//!   the canonical target, redirect end, asset or sitemap entry it names) is allowed by the draft
//!   for the crawler the finding is about. The finding may still hold for another reason.
//! - created: a crawled URL that the report's robots.txt allows and the draft disallows, for an
//!   audited profile, with the rules its record suggests it would fire: `robots/blocked-css`,
//!   `robots/blocked-js` or `robots/blocked-image` for an asset, `sitemap/url-blocked` for a page
//!   a sitemap lists, `robots/blocked-noindex` for a noindex page, else `diff/newly-blocked`.
//! - the file's own checks (`robots/typo-field`, `robots/disallow-all`, …): per rule the audit
//!   ran, its findings on this robots.txt against the draft's lint issues, counted.
//!
//! # Bounds and safety
//!
//! The server listens on a loopback address unless told otherwise ([`Server::bind`]); it answers
//! only requests whose `Host` names the address it listens on (or `localhost`), so a web page
//! elsewhere cannot reach it through a DNS name of its own (DNS rebinding). A POST needs
//! `Content-Type: application/json` (a form on another site cannot send one without a CORS
//! preflight, which is never granted) and, when the browser sends one, an `Origin` that is the
//! server's own. Bodies are at most [`MAX_BODY_BYTES`], drafts at most [`MAX_DRAFT_BYTES`]
//! (Google reads only the first [`GOOGLE_MAX_ROBOTS_BYTES`]: the page shows the cut), at most
//! [`MAX_PATHS`] paths and [`MAX_BOTS`] crawlers per check. Every response carries a strict
//! Content-Security-Policy (`default-src 'none'`; scripts and styles from the server only) and
//! `X-Content-Type-Options: nosniff`; the page builds its DOM with `textContent` only. The
//! server reads no file: what it shows was given to [`Workbench::new`].

mod check;
mod report;
mod server;

pub use check::{
    BotColumn, CellVerdict, CheckError, CheckRequest, CheckResponse, Decided, LintIssue, MatrixRow,
};
pub use crawlgate_robots::GOOGLE_MAX_ROBOTS_BYTES;
pub use report::{
    CreatedFinding, FlipLine, FlipSide, LintChange, ProfileCount, ReportCheck, ResolvedFinding,
};
pub use server::Server;

use crawlgate_report::Report;
use serde::Serialize;
use std::net::SocketAddr;
use thiserror::Error;

/// A robots.txt larger than this is refused, from a file as from the page: twice what Google
/// reads, so the cut shows, and no more.
pub const MAX_DRAFT_BYTES: usize = 2 * GOOGLE_MAX_ROBOTS_BYTES;
/// A request body larger than this is refused (a draft of [`MAX_DRAFT_BYTES`] escaped as JSON,
/// and the paths).
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;
/// Paths in one check.
pub const MAX_PATHS: usize = 200;
/// Bytes of one path.
pub const MAX_PATH_BYTES: usize = 4096;
/// Crawlers (profiles or tokens) in one check.
pub const MAX_BOTS: usize = 20;
/// Bytes of one crawler token.
pub const MAX_TOKEN_BYTES: usize = 64;
/// Flips, resolved and created findings listed in one check (all are counted).
pub const MAX_FLIPS_LISTED: usize = 200;
/// Sample paths per origin offered by `/api/state`.
pub const MAX_SAMPLE_PATHS: usize = 40;

/// Why the workbench cannot start.
#[derive(Debug, Error)]
pub enum WorkbenchError {
    /// The listen address is not a loopback one and remote access was not asked for.
    #[error(
        "{0} is not a loopback address: the workbench listens on 127.0.0.1 (or ::1) unless \
         remote access is asked for explicitly"
    )]
    NotLoopback(SocketAddr),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The robots.txt to start from is larger than [`MAX_DRAFT_BYTES`].
    #[error(
        "the robots.txt `{source_name}` is {bytes} bytes; the workbench takes at most {MAX_DRAFT_BYTES}"
    )]
    TooLarge {
        /// Where it came from.
        source_name: String,
        /// Its size.
        bytes: usize,
    },
}

/// The robots.txt the page starts from, and where it came from (shown in the page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Draft {
    /// The text (a file that is not UTF-8 is decoded lossily by the caller).
    pub body: String,
    /// Where it came from, in words: a file name, a URL, `the report's robots.txt of …`.
    pub source: String,
}

impl Draft {
    /// A draft of `body` from `source`.
    pub fn new(body: impl Into<String>, source: impl Into<String>) -> Draft {
        Draft {
            body: body.into(),
            source: source.into(),
        }
    }
}

/// What the page starts from when given neither a robots.txt nor a report with one.
const EXAMPLE: &str = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\n\
                       User-agent: GPTBot\nDisallow: /\n\nSitemap: https://www.example.com/sitemap.xml\n";

/// Paths the matrix starts with when no report gives any.
const DEFAULT_PATHS: [&str; 5] = [
    "/",
    "/private/report.pdf",
    "/private/press/kit.zip",
    "/search?q=boots",
    "/assets/site.css",
];

/// The workbench: the draft to start from and, when given, the audit to compare with.
#[derive(Debug)]
pub struct Workbench {
    initial: Draft,
    report: Option<report::ReportView>,
}

impl Workbench {
    /// A workbench starting from `initial` (else the report's robots.txt of its start URL's
    /// origin, else an example), comparing with `report` when given.
    pub fn new(
        initial: Option<Draft>,
        report: Option<Report>,
    ) -> Result<Workbench, WorkbenchError> {
        if let Some(draft) = &initial
            && draft.body.len() > MAX_DRAFT_BYTES
        {
            return Err(WorkbenchError::TooLarge {
                source_name: draft.source.clone(),
                bytes: draft.body.len(),
            });
        }
        let report = report.map(report::ReportView::new);
        let initial = initial
            .or_else(|| report.as_ref().and_then(report::ReportView::default_draft))
            .unwrap_or_else(|| Draft::new(EXAMPLE, "an example (no robots.txt given)"));
        Ok(Workbench { initial, report })
    }

    /// What `GET /api/state` answers.
    pub fn state(&self) -> serde_json::Value {
        let profiles: Vec<serde_json::Value> = crawlgate_signals::Profile::builtins()
            .iter()
            .map(|profile| {
                serde_json::json!({
                    "name": profile.name,
                    "label": check::label_of(profile),
                    "tokens": profile.robots_tokens,
                })
            })
            .collect();
        let report = self.report.as_ref().map(report::ReportView::state);
        let paths: Vec<String> = match report.as_ref().and_then(|r| r.sample_paths.clone()) {
            Some(paths) if !paths.is_empty() => paths,
            _ => DEFAULT_PATHS.iter().map(|p| (*p).to_owned()).collect(),
        };
        serde_json::json!({
            "robots": self.initial.body,
            "source": self.initial.source,
            "paths": paths,
            "profiles": profiles,
            "report": report,
            "limits": {
                "google_max_bytes": GOOGLE_MAX_ROBOTS_BYTES,
                "max_draft_bytes": MAX_DRAFT_BYTES,
                "max_body_bytes": MAX_BODY_BYTES,
                "max_paths": MAX_PATHS,
                "max_path_bytes": MAX_PATH_BYTES,
                "max_bots": MAX_BOTS,
                "max_token_bytes": MAX_TOKEN_BYTES,
                "max_flips_listed": MAX_FLIPS_LISTED,
            },
        })
    }

    /// What `POST /api/check` answers for `request`.
    pub fn check(&self, request: &CheckRequest) -> Result<CheckResponse, CheckError> {
        check::check(request, self.report.as_ref())
    }
}
