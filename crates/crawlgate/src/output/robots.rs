//! What `crawlgate robots test` and `crawlgate robots lint` print: one line (text, or a JSON
//! object) per tested URL or per issue.
//!
//! ```
//! use crawlgate::output::robots::{write_lint_issue, write_verdict};
//! use crawlgate::robots::RobotsTxt;
//! use crawlgate::robots::lint::{LintOptions, lint};
//!
//! let robots = RobotsTxt::parse(b"User-agent: *\nDissallow: /private/\n");
//! let mut out = Vec::new();
//! write_verdict(&robots.agent(&["googlebot"]), "googlebot", "/private/x", false, &mut out)?;
//! for issue in lint(&robots, b"User-agent: *\nDissallow: /private/\n", &LintOptions::default()) {
//!     write_lint_issue("robots.txt", &issue, false, &mut out)?;
//! }
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("disallowed\t/private/x\tline 2: Disallow: /private/\n"));
//! assert!(text.contains("robots.txt:2: warning[robots/typo-field]: "));
//! # Ok::<(), std::io::Error>(())
//! ```

use crawlgate_core::Severity;
use crawlgate_core::robots::{AgentRules, Directive, Issue, path_params_query};
use serde::Serialize;
use std::io::{self, Write};

/// One `robots test --json` line.
#[derive(Debug, Serialize)]
struct TestRecord<'a> {
    url: &'a str,
    allowed: bool,
    user_agent: &'a str,
    line: Option<u32>,
    directive: Option<&'static str>,
    pattern: Option<&'a str>,
}

/// The verdict of `agent` (the rules for the product token `token`) on `url`: `allowed` or
/// `disallowed`, a tab, the URL, a tab, and the deciding rule (`line 3: Disallow: /private/`) or
/// `no matching rule`; with `json`, one object with `url`, `allowed`, `user_agent`, `line`,
/// `directive` and `pattern`.
pub fn write_verdict(
    agent: &AgentRules<'_>,
    token: &str,
    url: &str,
    json: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let path = path_params_query(url);
    let rule = agent.deciding_rule(&path);
    let allowed = rule.is_none_or(|rule| rule.directive == Directive::Allow);
    if json {
        let record = TestRecord {
            url,
            allowed,
            user_agent: token,
            line: rule.map(|rule| rule.line),
            directive: rule.map(|rule| rule.directive.as_str()),
            pattern: rule.map(|rule| rule.pattern.as_str()),
        };
        write_json_line(&record, out)
    } else {
        let verdict = if allowed { "allowed" } else { "disallowed" };
        match rule {
            Some(rule) => writeln!(
                out,
                "{verdict}\t{url}\tline {}: {}: {}",
                rule.line, rule.directive, rule.pattern
            ),
            None => writeln!(out, "{verdict}\t{url}\tno matching rule"),
        }
    }
}

/// `url` disallowed whatever its path, because robots.txt could not be read (`reason`, e.g.
/// `robots.txt disallow-all`): Googlebot crawls nothing.
pub fn write_disallowed_by_fetch(
    token: &str,
    url: &str,
    reason: &str,
    json: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    if json {
        let record = TestRecord {
            url,
            allowed: false,
            user_agent: token,
            line: None,
            directive: None,
            pattern: None,
        };
        write_json_line(&record, out)
    } else {
        writeln!(out, "disallowed\t{url}\t{reason}")
    }
}

/// One `robots lint --json` line.
#[derive(Debug, Serialize)]
struct LintRecord<'a> {
    file: &'a str,
    line: Option<u32>,
    column: Option<u32>,
    severity: Severity,
    rule: &'a str,
    message: &'a str,
}

/// One lint issue of the file `name`: `NAME:LINE: severity[rule-id]: message` (`NAME:` for a
/// whole-file issue); with `json`, one object with `file`, `line`, `column`, `severity`, `rule`
/// and `message`.
pub fn write_lint_issue(
    name: &str,
    issue: &Issue,
    json: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let record = LintRecord {
        file: name,
        line: issue.line,
        column: issue.column,
        severity: issue.severity,
        rule: issue.rule(),
        message: &issue.message,
    };
    write_lint_record(&record, json, out)
}

/// The one issue of a robots.txt fetch that gave no rules to read, under `rule` (see
/// `crawlgate_rules::robots::fetch_outcome_rule`), in the form of [`write_lint_issue`].
pub fn write_fetch_outcome(
    name: &str,
    severity: Severity,
    rule: &str,
    message: &str,
    json: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let record = LintRecord {
        file: name,
        line: None,
        column: None,
        severity,
        rule,
        message,
    };
    write_lint_record(&record, json, out)
}

fn write_lint_record(record: &LintRecord<'_>, json: bool, out: &mut impl Write) -> io::Result<()> {
    if json {
        return write_json_line(record, out);
    }
    let LintRecord {
        file,
        line,
        severity,
        rule,
        message,
        ..
    } = record;
    let at = line.map_or_else(|| (*file).to_owned(), |line| format!("{file}:{line}"));
    writeln!(out, "{at}: {severity}[{rule}]: {message}")
}

/// `value` as one line of JSON.
fn write_json_line(value: &impl Serialize, out: &mut impl Write) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}
