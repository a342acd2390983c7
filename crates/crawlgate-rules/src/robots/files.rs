//! What the robots.txt file rules share: which robots.txt files the audit is about, their lines
//! quoted as evidence, and the `robots lint` issues each lint rule reports.

use crawlgate_core::Evidence;
use crawlgate_core::robots::Issue;
use crawlgate_core::rule::{Findings, Occurrence};
use crawlgate_core::site::{RobotsFile, Site, origin_of};
use std::collections::BTreeSet;

/// A quoted line is cut after this many characters (an over-long line or a minified HTML page would
/// otherwise fill the report); the cut is marked with `…`.
const MAX_QUOTED_CHARS: usize = 300;

/// The robots.txt files of the audited site, by origin: the start URL's origin and every origin
/// that crawled pages link to or a sitemap lists (the crawl records links and sitemap URLs only
/// within its scope). Files met only through an asset or an out-of-scope reference (a CDN, a
/// partner's canonical) are left out: they are not the audited site's to fix, and the verdicts they
/// give still show up in the cross-checks (`robots/blocked-css`, …).
pub(crate) fn audited_files(site: &Site) -> Vec<&RobotsFile> {
    let start = &site.start_url;
    let mut origins = BTreeSet::new();
    origins.insert(origin_of(start));
    // Most URLs are the start URL's origin: a prefix test settles them (every robots.txt file
    // rule asks this).
    let start_prefix = &start[..url::Position::BeforePath];
    let shares_start_prefix = |url: &url::Url| {
        url.as_str()
            .strip_prefix(start_prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    for resource in site.resources() {
        let links = &resource.inbound_links;
        let pointed_at = links.followed > 0 || links.qualified > 0 || resource.is_listed();
        if pointed_at && !shares_start_prefix(&resource.url) && !same_origin(&resource.url, start) {
            origins.insert(origin_of(&resource.url));
        }
    }
    origins
        .iter()
        .filter_map(|origin| site.robots.get(origin.as_ref()))
        .collect()
}

/// Whether two URLs share scheme, host and port (without building their origins).
fn same_origin(a: &url::Url, b: &url::Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
}

/// The text of a 1-based line of `file` as written (lossily decoded, cut at [`MAX_QUOTED_CHARS`]),
/// or `None` when the body has no such line.
pub(crate) fn line_text(file: &RobotsFile, line: u32) -> Option<String> {
    let body = file.body()?;
    // The parser recorded where each line starts; use it rather than re-splitting the body.
    let start = usize::try_from(line)
        .ok()
        .and_then(|line| line.checked_sub(1))
        .and_then(|index| file.parsed.lines().get(index))
        .filter(|facts| facts.line == line)
        .map(|facts| facts.offset);
    let text = match start {
        Some(offset) => {
            let rest = body.get(offset..).unwrap_or_default();
            let end = rest
                .iter()
                .position(|&byte| byte == b'\n' || byte == b'\r')
                .unwrap_or(rest.len());
            String::from_utf8_lossy(rest.get(..end).unwrap_or_default()).into_owned()
        }
        None => file.line_text(line)?,
    };
    Some(cut(text))
}

fn cut(text: String) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// A line of `file` as written, as evidence; the fetch outcome when the line is not in the body.
pub(crate) fn line_evidence(file: &RobotsFile, line: u32) -> Evidence {
    match line_text(file, line) {
        Some(text) => Evidence::RobotsLine {
            robots_url: file.url.to_string(),
            line,
            text,
        },
        None => file.fetch_evidence(),
    }
}

/// The lint issues of `file` with the id `rule_id`, in line order.
pub(crate) fn lint_issues<'a>(
    site: &'a Site,
    file: &RobotsFile,
    rule_id: &'a str,
) -> impl Iterator<Item = &'a Issue> {
    site.robots_lint(&file.origin)
        .iter()
        .filter(move |issue| issue.rule() == rule_id)
}

/// The finding for one lint issue: about the robots.txt URL, at the issue's severity, with the line
/// as written as evidence (the fetch outcome for whole-file issues).
pub(crate) fn lint_report(file: &RobotsFile, issue: &Issue) -> Occurrence {
    let evidence = match issue.line {
        Some(line) => line_evidence(file, line),
        None => file.fetch_evidence(),
    };
    lint_report_with(file, issue, evidence)
}

/// [`lint_report`] with other evidence for the line (e.g. the verdict, which quotes the line and
/// names its group), so the line is not quoted twice.
pub(crate) fn lint_report_with(file: &RobotsFile, issue: &Issue, evidence: Evidence) -> Occurrence {
    let message = match issue.line {
        // Lead with the line, unless the message already names it.
        Some(line) if !issue.message.contains(&format!("line {line}:")) => {
            format!("line {line}: {}", issue.message)
        }
        _ => issue.message.clone(),
    };
    Occurrence::new(file.url.as_str(), message)
        .severity(issue.severity)
        .evidence(evidence)
}

/// Report every lint issue with the id `rule_id` in the audited robots.txt files.
pub(crate) fn report_lint(site: &Site, rule_id: &str, out: &mut Findings<'_>) {
    for file in audited_files(site) {
        for issue in lint_issues(site, file, rule_id) {
            out.report(lint_report(file, issue));
        }
    }
}
