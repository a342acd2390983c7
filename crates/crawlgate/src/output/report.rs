//! What `crawlgate audit` and `crawlgate diff` print when their reports are written (the
//! reports themselves are [`crate::report`]'s renderers).

use crawlgate_core::{Severity, Site};
use crawlgate_crawl::HttpOptions;
use crawlgate_report::Report;
use crawlgate_rules::http::{start_unreachable, start_url_answer};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Rules listed in the terminal summary.
const TOP_RULES: usize = 8;

/// The terminal summary: what was audited, counts by severity, the top rules, the pace of the
/// crawl, where the reports are.
pub fn audit_summary(report: &Report, http: &HttpOptions, written: &[PathBuf]) -> String {
    let summary = &report.summary;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "crawlgate audited {} for {}: {} pages crawled, {} URLs known",
        report.target.start_url,
        report.target.profiles_described(),
        summary.pages_crawled,
        summary.urls_known
    );
    if summary.pages_failed > 0 {
        let _ = writeln!(
            text,
            "{} page{} could not be fetched (no usable response: a timeout, a refused or reset connection, a redirect loop): the audit \
             says nothing of {}",
            summary.pages_failed,
            if summary.pages_failed == 1 { "" } else { "s" },
            if summary.pages_failed == 1 {
                "it"
            } else {
                "them"
            }
        );
    }
    let counts: Vec<String> = Severity::ALL
        .iter()
        .map(|severity| {
            let n = summary.by_severity.get(severity).copied().unwrap_or(0);
            let plural = if n == 1 || *severity == Severity::Critical {
                ""
            } else {
                "s"
            };
            format!("{n} {severity}{plural}")
        })
        .collect();
    let _ = writeln!(text, "{} findings: {}", summary.findings, counts.join(", "));
    if let Some(baseline) = &summary.baseline {
        let _ = writeln!(
            text,
            "against the baseline: {} new, {} known (only new findings count for --fail-on)",
            baseline.new, baseline.known
        );
    }
    if summary.suppressed > 0 {
        let _ = writeln!(
            text,
            "{} findings suppressed by the config file",
            summary.suppressed
        );
    }
    let mut rules: Vec<(&String, &u64)> = summary.by_rule.iter().collect();
    let severity_of = |id: &str| {
        report
            .findings
            .iter()
            .filter(|f| f.finding.rule == id)
            .map(|f| f.finding.severity)
            .max()
    };
    rules.sort_by(|a, b| {
        severity_of(b.0)
            .cmp(&severity_of(a.0))
            .then(b.1.cmp(a.1))
            .then(a.0.cmp(b.0))
    });
    for (rule, count) in rules.iter().take(TOP_RULES) {
        let severity = severity_of(rule).map_or("", Severity::as_str);
        let _ = writeln!(text, "  {severity:<8} {rule:<44} {count}");
    }
    if rules.len() > TOP_RULES {
        let _ = writeln!(text, "  … and {} more rules", rules.len() - TOP_RULES);
    }
    partial_lines(summary, &mut text);
    let mode = report.target.mode.unwrap_or_default();
    crate::output::crawl::scope_lines(mode, report.crawl.urls_excluded, &mut text);
    crate::output::crawl::politeness_lines(http, &report.crawl, &mut text);
    for robots in &report.robots {
        if let Some(file) = &robots.overridden_by {
            let _ = writeln!(
                text,
                "robots.txt of {}: read from `{file}` (--robots-override), not fetched",
                robots.origin
            );
        }
    }
    let paths: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    let _ = writeln!(text, "reports: {}", paths.join(", "));
    text
}

/// The terminal summary: the comparison, the `diff/` findings per rule, the audit rules with new
/// or fixed findings, where the reports are.
pub fn diff_summary(report: &Report, written: &[PathBuf]) -> String {
    let mut text = String::new();
    if let Some(diff) = &report.diff {
        let _ = writeln!(
            text,
            "crawlgate compared {} (before) with {} (after): {} pages compared, {} only before, {} \
             only after",
            diff.before,
            diff.after,
            diff.pages_compared,
            diff.pages_only_before,
            diff.pages_only_after
        );
        for rule in &diff.url_map {
            let _ = writeln!(text, "  mapped: {rule}");
        }
    }
    let _ = writeln!(text, "{} changes for the worse", report.summary.findings);
    for (rule, count) in &report.summary.by_rule {
        let _ = writeln!(text, "  {rule:<44} {count}");
    }
    if let Some(diff) = &report.diff {
        for change in &diff.rules {
            let _ = writeln!(
                text,
                "  audit rule {:<33} {} new, {} fixed",
                change.rule, change.new, change.fixed
            );
        }
    }
    let paths: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    let _ = writeln!(text, "reports: {}", paths.join(", "));
    text
}

/// When the start URL's host gave no HTTP response at all (the host name does not resolve, the
/// connection is refused, TLS fails, nothing answers in time): the message `crawlgate audit`
/// prints on standard error instead of writing reports (it exits 3), naming the URL and the
/// cause. `None` when the host answered.
pub fn start_unreachable_message(site: &Site) -> Option<String> {
    unreachable_message(site, "nothing was audited, so no report was written")
}

/// When the start URL answered with an error (4xx, 5xx, a redirect loop, …): the line `crawlgate
/// audit` prints on standard error besides writing the reports (it exits 3, inconclusive).
/// `None` when it answered a page, or gave no response at all ([`start_unreachable_message`]).
pub fn start_error_message(site: &Site) -> Option<String> {
    error_message(
        site,
        "the audit is inconclusive (exit status 3); the reports hold what was seen",
    )
}

/// The two messages above, ending with `tail` (what was written, for `audit` or `crawl`).
pub(crate) fn unreachable_message(site: &Site, tail: &str) -> Option<String> {
    let unreachable = start_unreachable(site)?;
    Some(format!(
        "crawlgate: cannot reach the start URL {}: {}; {tail}\n",
        unreachable.url,
        unreachable.cause()
    ))
}

pub(crate) fn error_message(site: &Site, tail: &str) -> Option<String> {
    if start_unreachable(site).is_some() {
        return None;
    }
    let answer = start_url_answer(site)?;
    Some(format!(
        "crawlgate: the start URL {} {answer}; {tail}\n",
        site.start_url
    ))
}

/// What cut the audit short: an interruption, the bounds hit, findings not kept.
fn partial_lines(summary: &crawlgate_report::Summary, text: &mut String) {
    if summary.interrupted {
        let _ = writeln!(
            text,
            "interrupted: the reports hold what was seen until then (partial)"
        );
    }
    for bound in &summary.bounds_hit {
        let _ = writeln!(text, "bound hit: {bound}; the audit is partial");
    }
    for (rule, omitted) in &summary.findings_omitted {
        let _ = writeln!(
            text,
            "{rule}: {omitted} more findings not kept (at most {} per rule, the first in report \
             order)",
            crawlgate_core::rule::MAX_FINDINGS_PER_RULE
        );
    }
}
