//! `crawlgate sitemap check URL`: fetch a sitemap and, for an index, its children (bounded, cycles
//! skipped), checking each as `sitemap check FILE` does.

use crate::commands::net;
use crate::commands::sitemap::{FailOn, Output, check, issue_line};
use crate::exit;
use crawlgate_core::sitemap::{Code, Issue};
use crawlgate_core::sitemap::{SitemapKind, SitemapOptions};
use crawlgate_crawl::{
    HttpOptions, SitemapFetch, SitemapLimits, SitemapSkip, SitemapStep, fetch_sitemaps,
};
use serde::Serialize;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use url::Url;

/// A sitemap that could not be read, in `--json` output.
#[derive(Serialize)]
struct JsonProblem<'a> {
    file: &'a str,
    url: &'a str,
    issues: [&'a Issue; 1],
}

/// Walk the sitemaps from `url` (fetched with `http`), printing each; the exit status follows
/// `fail_on` over every issue met, fetch failures and cycles included.
pub(crate) fn check_url(
    url: &Url,
    http: &HttpOptions,
    options: &SitemapOptions,
    output: Output,
    fail_on: FailOn,
) -> anyhow::Result<ExitCode> {
    let runtime = net::runtime()?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut error: Option<anyhow::Error> = None;
    let mut printed = 0u64;
    let visit = |step: SitemapStep<'_>| -> Vec<Url> {
        if error.is_some() {
            return Vec::new();
        }
        let result = match step {
            SitemapStep::Fetched(fetch) => visit_fetched(fetch, options, output, &mut out, printed),
            SitemapStep::Skipped {
                url,
                parent,
                reason,
            } => visit_skipped(url, parent, &reason, output, &mut out).map(|issue| Visited {
                issues: issue.into_iter().collect(),
                children: Vec::new(),
            }),
        };
        match result {
            Ok(visited) => {
                printed += 1;
                failed |= fail_on.fails(&visited.issues);
                visited.children
            }
            Err(problem) => {
                error = Some(problem);
                Vec::new()
            }
        }
    };
    runtime.block_on(fetch_sitemaps(url, http, &SitemapLimits::default(), visit));
    if let Some(error) = error {
        return Err(error);
    }
    out.flush()?;
    Ok(exit::code(if failed { exit::FINDINGS } else { exit::OK }))
}

/// What one step printed: its issues (for the exit status) and the children to follow.
struct Visited {
    issues: Vec<Issue>,
    children: Vec<Url>,
}

fn visit_fetched(
    fetch: &SitemapFetch,
    options: &SitemapOptions,
    output: Output,
    out: &mut impl Write,
    printed: u64,
) -> anyhow::Result<Visited> {
    let name = fetch.url.as_str();
    for hop in &fetch.response.hops {
        eprintln!(
            "note: {} answered {}, redirecting to {}",
            hop.url,
            hop.status,
            hop.location.as_deref().unwrap_or("?")
        );
    }
    let received = match &fetch.response.outcome {
        Ok(received) if (200..300).contains(&received.status) => received,
        Ok(received) => {
            let issue = fetch_error(format!(
                "answered {}: Google cannot read this sitemap",
                received.status
            ));
            print_problem(name, &issue, output, out)?;
            return Ok(Visited {
                issues: vec![issue],
                children: Vec::new(),
            });
        }
        Err((kind, message)) => {
            let issue = fetch_error(format!("no usable response ({}: {message})", kind.as_str()));
            print_problem(name, &issue, output, out)?;
            return Ok(Visited {
                issues: vec![issue],
                children: Vec::new(),
            });
        }
    };
    if received.body_truncated {
        eprintln!(
            "note: {name} is longer than {} bytes; only that much was read",
            received.body.len()
        );
    }
    let mut options = options.clone();
    options.url = Some(received.final_url.clone());
    if output == Output::Text && printed > 0 {
        writeln!(out)?;
    }
    let checked = check(received.body.as_slice(), name, &options, output, out)?;
    let children = if checked.summary.kind == SitemapKind::Index {
        checked
            .children
            .iter()
            .filter_map(|loc| Url::parse(loc.trim()).ok())
            .collect()
    } else {
        Vec::new()
    };
    Ok(Visited {
        issues: checked.summary.issues,
        children,
    })
}

/// Print why a sitemap named by an index was not read; cycles and bounds are issues.
fn visit_skipped(
    url: &Url,
    parent: Option<&Url>,
    reason: &SitemapSkip,
    output: Output,
    out: &mut impl Write,
) -> anyhow::Result<Option<Issue>> {
    let named_in = parent.map_or_else(String::new, |p| format!(" (named in {p})"));
    let issue = match reason {
        SitemapSkip::Duplicate => {
            eprintln!("note: {url}{named_in} was already read");
            return Ok(None);
        }
        SitemapSkip::Cycle { repeats } => Issue {
            code: Code::Cycle,
            severity: Code::Cycle.default_severity(),
            line: None,
            column: None,
            message: format!("{url}{named_in} leads back to {repeats}; not read again"),
        },
        SitemapSkip::DepthBound(depth) => Issue {
            code: Code::LimitsExceeded,
            severity: Code::LimitsExceeded.default_severity(),
            line: None,
            column: None,
            message: format!("not read: nested deeper than {depth} index levels{named_in}"),
        },
        SitemapSkip::CountBound(count) => Issue {
            code: Code::LimitsExceeded,
            severity: Code::LimitsExceeded.default_severity(),
            line: None,
            column: None,
            message: format!("not read: {count} sitemaps were read already{named_in}"),
        },
    };
    print_problem(url.as_str(), &issue, output, out)?;
    Ok(Some(issue))
}

fn fetch_error(message: String) -> Issue {
    Issue {
        code: Code::FetchError,
        severity: Code::FetchError.default_severity(),
        line: None,
        column: None,
        message,
    }
}

fn print_problem(
    name: &str,
    issue: &Issue,
    output: Output,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match output {
        Output::Json => {
            let problem = JsonProblem {
                file: name,
                url: name,
                issues: [issue],
            };
            serde_json::to_writer_pretty(&mut *out, &problem)?;
            writeln!(out)?;
        }
        Output::Text => writeln!(out, "{}", issue_line(name, issue))?,
        Output::Urls => eprintln!("{}", issue_line(name, issue)),
    }
    Ok(())
}
