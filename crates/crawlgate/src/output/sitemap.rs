//! What `crawlgate sitemap check` prints: for each sitemap its kind, entry count, sizes, an
//! index's child sitemaps, and every issue as `FILE:LINE:COL: severity[rule-id]: message`; or
//! one JSON object per sitemap; or only the entry URLs.
//!
//! [`check`] reads one sitemap from any reader; [`check_tree`] fetches one and, for an index, its
//! children (bounded, cycles skipped), checking each the same way.
//!
//! ```
//! use crawlgate::output::sitemap::{Output, check};
//! use crawlgate::sitemap::SitemapOptions;
//!
//! let xml = br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//!   <url><loc>https://example.com/</loc><priority>0.5</priority></url>
//! </urlset>"#;
//! let options = SitemapOptions::new("2026-01-01T00:00:00Z".parse().unwrap());
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let checked = check(&xml[..], "sitemap.xml", &options, Output::Text, &mut out, &mut err)?;
//! assert_eq!(checked.summary.entry_count, 1);
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("sitemap.xml: urlset, 1 entry, "));
//! assert!(text.contains("notice[sitemap/changefreq-priority]"));
//! # Ok::<(), std::io::Error>(())
//! ```

use crawlgate_core::Severity;
use crawlgate_core::sitemap::{
    self, Code, Entry, Issue, SitemapKind, SitemapOptions, SitemapSummary,
};
use crawlgate_crawl::{
    HttpOptions, SitemapFetch, SitemapLimits, SitemapSkip, SitemapStep, fetch_sitemaps,
};
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use url::Url;

/// Child sitemaps of an index listed in text output; more are counted (`--urls` lists them all).
const MAX_LISTED_CHILDREN: usize = 1_000;
/// Child sitemaps listed in JSON output: all an index may have.
const MAX_JSON_CHILDREN: usize = 50_000;

/// How [`check`] prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// The summary line, an index's children, each issue, then the issue counts.
    Text,
    /// One JSON object per sitemap: `file`, `url`, the summary's fields, `children`.
    Json,
    /// Only the entry URLs, one per line (issues go to the error writer).
    Urls,
}

/// What [`check`] read: the summary, and an index's child sitemaps (all an index may have).
#[derive(Debug)]
pub struct Checked {
    pub summary: SitemapSummary,
    pub children: Vec<String>,
    /// The line of each of `children` in the index.
    pub child_lines: Vec<u32>,
}

/// Reads one sitemap from `input` and prints the result to `out` (issues to `err` with
/// [`Output::Urls`]); `name` stands for the document in issue locations (a path, or a URL for
/// fetched bodies).
pub fn check(
    input: impl Read + Send,
    name: &str,
    options: &SitemapOptions,
    output: Output,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Checked> {
    // The kind is known only at the end: keep the locations in case it is an index.
    let mut children = Vec::new();
    let mut child_lines = Vec::new();
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
            child_lines.push(entry.line);
        } else {
            more_children += 1;
        }
    });
    if let Some(error) = write_error {
        return Err(error);
    }
    if summary.kind != SitemapKind::Index {
        children.clear();
        child_lines.clear();
        more_children = 0;
    }
    match output {
        Output::Json => {
            let report = JsonReport {
                file: name,
                url: options.url.as_ref().map(Url::as_str),
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
            for issue in &summary.issues {
                writeln!(err, "{}", issue_line(name, issue))?;
            }
        }
    }
    Ok(Checked {
        summary,
        children,
        child_lines,
    })
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
pub fn issue_line(name: &str, issue: &Issue) -> String {
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

/// A sitemap that could not be read, in `--json` output.
#[derive(Serialize)]
struct JsonProblem<'a> {
    file: &'a str,
    url: &'a str,
    issues: [&'a Issue; 1],
}

/// Fetches the sitemap at `url` with `http` and, for an index, its children (within
/// [`SitemapLimits::default`]; cycles and bounds are issues), checking each as [`check`] does;
/// what the fetches say (redirects, truncated bodies, repeats) goes to `notes`. Returns every
/// issue met, fetch failures and cycles included, for the exit status.
pub async fn check_tree(
    url: &Url,
    http: &HttpOptions,
    options: &SitemapOptions,
    output: Output,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> io::Result<Vec<Issue>> {
    let mut issues = Vec::new();
    let mut error: Option<io::Error> = None;
    let mut printed = 0u64;
    // Where each child sitemap is named in its index, for `sitemap/nested-index`.
    let mut named_at: HashMap<Url, u32> = HashMap::new();
    let visit = |step: SitemapStep<'_>| -> Vec<Url> {
        if error.is_some() {
            return Vec::new();
        }
        let result = match step {
            SitemapStep::Fetched(fetch) => {
                let line = named_at.get(&fetch.url).copied();
                visit_fetched(fetch, line, options, output, out, notes, printed)
            }
            SitemapStep::Skipped {
                url,
                parent,
                reason,
            } => visit_skipped(url, parent, &reason, output, out, notes).map(|issue| Visited {
                issues: issue.into_iter().collect(),
                children: Vec::new(),
            }),
        };
        match result {
            Ok(visited) => {
                printed += 1;
                issues.extend(visited.issues);
                for (child, line) in &visited.children {
                    named_at.entry(child.clone()).or_insert(*line);
                }
                visited
                    .children
                    .into_iter()
                    .map(|(child, _)| child)
                    .collect()
            }
            Err(problem) => {
                error = Some(problem);
                Vec::new()
            }
        }
    };
    fetch_sitemaps(url, http, &SitemapLimits::default(), visit).await;
    match error {
        Some(error) => Err(error),
        None => Ok(issues),
    }
}

/// What one step printed: its issues (for the exit status) and the children to follow, with
/// their lines in the index.
struct Visited {
    issues: Vec<Issue>,
    children: Vec<(Url, u32)>,
}

/// `line`: where the parent index names this sitemap.
fn visit_fetched(
    fetch: &SitemapFetch,
    line: Option<u32>,
    options: &SitemapOptions,
    output: Output,
    out: &mut impl Write,
    notes: &mut impl Write,
    printed: u64,
) -> io::Result<Visited> {
    let name = fetch.url.as_str();
    for hop in &fetch.response.hops {
        writeln!(
            notes,
            "note: {} answered {}, redirecting to {}",
            hop.url,
            hop.status,
            hop.location.as_deref().unwrap_or("?")
        )?;
    }
    let received = match &fetch.response.outcome {
        Ok(received) if (200..300).contains(&received.status) => received,
        Ok(received) => {
            let issue = fetch_error(format!(
                "answered {}: Google cannot read this sitemap",
                received.status
            ));
            write_problem(name, &issue, output, out, notes)?;
            return Ok(Visited {
                issues: vec![issue],
                children: Vec::new(),
            });
        }
        Err((kind, message)) => {
            let issue = fetch_error(format!("no usable response ({}: {message})", kind.as_str()));
            write_problem(name, &issue, output, out, notes)?;
            return Ok(Visited {
                issues: vec![issue],
                children: Vec::new(),
            });
        }
    };
    if received.body_truncated {
        writeln!(
            notes,
            "note: {name} is longer than {} bytes; only that much was read",
            received.body.len()
        )?;
    }
    let mut options = options.clone();
    options.url = Some(received.final_url.clone());
    if output == Output::Text && printed > 0 {
        writeln!(out)?;
    }
    let checked = check(received.body.as_slice(), name, &options, output, out, notes)?;
    let mut issues = checked.summary.issues;
    let children = if checked.summary.kind == SitemapKind::Index {
        if let Some(parent) = &fetch.parent {
            // The audit's sitemap/nested-index, at the index that names this one.
            let entries = checked.summary.entry_count;
            let at = line.map_or_else(String::new, |line| format!(" (line {line})"));
            let issue = document_issue(
                Code::NestedIndex,
                format!(
                    "{parent}{at} lists {name}, which is itself a sitemap index ({entries} \
                     sitemap{}); Google does not follow nested indexes",
                    if entries == 1 { "" } else { "s" }
                ),
            );
            write_problem(name, &issue, output, out, notes)?;
            issues.push(issue);
        }
        checked
            .children
            .iter()
            .zip(&checked.child_lines)
            .filter_map(|(loc, &line)| Url::parse(loc.trim()).ok().map(|url| (url, line)))
            .collect()
    } else {
        Vec::new()
    };
    Ok(Visited { issues, children })
}

/// Print why a sitemap named by an index was not read; cycles and bounds are issues.
fn visit_skipped(
    url: &Url,
    parent: Option<&Url>,
    reason: &SitemapSkip,
    output: Output,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> io::Result<Option<Issue>> {
    let named_in = parent.map_or_else(String::new, |p| format!(" (named in {p})"));
    let (code, message) = match reason {
        SitemapSkip::Duplicate => {
            writeln!(notes, "note: {url}{named_in} was already read")?;
            return Ok(None);
        }
        SitemapSkip::Cycle { repeats } => (
            Code::Cycle,
            format!("{url}{named_in} leads back to {repeats}; not read again"),
        ),
        SitemapSkip::DepthBound(depth) => (
            Code::LimitsExceeded,
            format!("not read: nested deeper than {depth} index levels{named_in}"),
        ),
        SitemapSkip::CountBound(count) => (
            Code::LimitsExceeded,
            format!("not read: {count} sitemaps were read already{named_in}"),
        ),
    };
    let issue = document_issue(code, message);
    write_problem(url.as_str(), &issue, output, out, notes)?;
    Ok(Some(issue))
}

fn fetch_error(message: String) -> Issue {
    document_issue(Code::FetchError, message)
}

/// A whole-document issue at its code's default severity.
fn document_issue(code: Code, message: String) -> Issue {
    Issue {
        code,
        severity: code.default_severity(),
        line: None,
        column: None,
        message,
    }
}

fn write_problem(
    name: &str,
    issue: &Issue,
    output: Output,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> io::Result<()> {
    match output {
        Output::Json => {
            let problem = JsonProblem {
                file: name,
                url: name,
                issues: [issue],
            };
            serde_json::to_writer_pretty(&mut *out, &problem)?;
            writeln!(out)
        }
        Output::Text => writeln!(out, "{}", issue_line(name, issue)),
        Output::Urls => writeln!(notes, "{}", issue_line(name, issue)),
    }
}
