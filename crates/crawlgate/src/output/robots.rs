//! What `crawlgate robots test` and `crawlgate robots lint` print: one line (text, or a JSON
//! object) per tested URL or per issue; for several crawlers, a [`Matrix`] of URLs × crawlers.
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
use crawlgate_core::robots::{
    AgentRules, Directive, GroupSelection, Issue, RobotsTxt, Rule, path_params_query,
};
use crawlgate_core::signals::Profile;
use serde::Serialize;
use std::collections::BTreeMap;
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
    let (allowed, rule) = decide(agent, url);
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

/// The one engine call behind every `robots test` verdict, single or in a matrix: whether `url`
/// is allowed, and the rule that decided it.
fn decide<'r>(agent: &AgentRules<'r>, url: &str) -> (bool, Option<&'r Rule>) {
    let rule = agent.deciding_rule(&path_params_query(url));
    (
        rule.is_none_or(|rule| rule.directive == Directive::Allow),
        rule,
    )
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

/// One crawler (a column) of a `robots test` matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixBot {
    /// The column's name: the `--user-agent` token, or a built-in profile's display name
    /// (`Googlebot-Image`; `*` for the generic crawler).
    pub label: String,
    /// The built-in profile's name (`googlebot-image`); `None` for a bare token.
    pub profile: Option<String>,
    /// The robots.txt tokens tried in order (the `*` group is the implied last fallback).
    pub tokens: Vec<String>,
}

impl MatrixBot {
    /// A column for a bare product token: its own group, else `*`.
    pub fn token(token: &str) -> Self {
        MatrixBot {
            label: token.to_owned(),
            profile: None,
            tokens: vec![token.to_owned()],
        }
    }

    /// A column for a profile, with the profile's robots.txt tokens, as the audit uses them.
    pub fn profile(profile: &Profile) -> Self {
        let label = if profile.name == "*" {
            "*"
        } else {
            profile.display_name()
        };
        MatrixBot {
            label: label.to_owned(),
            profile: Some(profile.name.clone()),
            tokens: profile.robots_tokens.clone(),
        }
    }
}

/// Several crawlers' verdicts on the same URLs, each from its own compiled rules.
#[derive(Debug)]
pub struct Matrix<'a> {
    robots: &'a RobotsTxt,
    columns: Vec<(MatrixBot, AgentRules<'a>)>,
    /// Why every URL is disallowed for every crawler (robots.txt could not be read), if so.
    refused: Option<String>,
}

/// One cell: the verdict and its deciding rule.
struct Cell<'r> {
    allowed: bool,
    rule: Option<&'r Rule>,
}

impl Cell<'_> {
    fn text(&self) -> String {
        let verdict = if self.allowed {
            "allowed"
        } else {
            "disallowed"
        };
        match self.rule {
            Some(rule) => format!("{verdict} (line {})", rule.line),
            None => verdict.to_owned(),
        }
    }
}

/// One `robots test --json` matrix line: a URL × crawler.
#[derive(Debug, Serialize)]
struct MatrixRecord<'a> {
    url: &'a str,
    bot: &'a str,
    profile: Option<&'a str>,
    user_agent: &'a str,
    tokens: &'a [String],
    allowed: bool,
    line: Option<u32>,
    directive: Option<&'static str>,
    pattern: Option<&'a str>,
    group: &'static str,
    group_token: Option<&'a str>,
    group_lines: &'a [u32],
}

/// How the text matrix is laid out: it stays within `width` columns by splitting the crawler
/// columns into blocks (each repeating the URL column) rather than letting lines wrap.
const URL_COLUMN_MAX: usize = 40;
const GAP: &str = "  ";

impl<'a> Matrix<'a> {
    /// The matrix of `bots` over the rules of `robots`; every crawler's rules are compiled
    /// once, with [`RobotsTxt::agent`] as a single `robots test` compiles them.
    pub fn new(robots: &'a RobotsTxt, bots: Vec<MatrixBot>) -> Self {
        let columns = bots
            .into_iter()
            .map(|bot| {
                let tokens: Vec<&str> = bot.tokens.iter().map(String::as_str).collect();
                let agent = robots.agent(&tokens);
                (bot, agent)
            })
            .collect();
        Matrix {
            robots,
            columns,
            refused: None,
        }
    }

    /// The matrix when robots.txt could not be read (`reason`, e.g. `robots.txt disallow-all`):
    /// every URL is disallowed for every crawler, as Google treats an unreachable file.
    pub fn refused(empty: &'a RobotsTxt, bots: Vec<MatrixBot>, reason: &str) -> Self {
        Matrix {
            refused: Some(reason.to_owned()),
            ..Matrix::new(empty, bots)
        }
    }

    /// The crawlers, in column order.
    pub fn bots(&self) -> impl Iterator<Item = &MatrixBot> {
        self.columns.iter().map(|(bot, _)| bot)
    }

    fn cell(&self, agent: &AgentRules<'a>, url: &str) -> Cell<'a> {
        if self.refused.is_some() {
            return Cell {
                allowed: false,
                rule: None,
            };
        }
        let (allowed, rule) = decide(agent, url);
        Cell { allowed, rule }
    }

    /// One JSON object per crawler for `url` (see `crawlgate robots test --help` for the keys).
    pub fn write_json(&self, url: &str, out: &mut impl Write) -> io::Result<()> {
        for (bot, agent) in &self.columns {
            let cell = self.cell(agent, url);
            let selection = agent.selection();
            let record = MatrixRecord {
                url,
                bot: &bot.label,
                profile: bot.profile.as_deref(),
                user_agent: bot.tokens.first().map_or("*", String::as_str),
                tokens: &bot.tokens,
                allowed: cell.allowed,
                line: cell.rule.map(|rule| rule.line),
                directive: cell.rule.map(|rule| rule.directive.as_str()),
                pattern: cell.rule.map(|rule| rule.pattern.as_str()),
                group: if self.refused.is_some() {
                    "unreadable"
                } else {
                    group_kind(selection)
                },
                group_token: selection.token.as_deref(),
                group_lines: &selection.user_agent_lines,
            };
            write_json_line(&record, out)?;
        }
        Ok(())
    }

    /// The matrix as text for people: a header row of crawler names, a row per URL, each cell
    /// `allowed` or `disallowed` and the deciding line (`disallowed (line 4)`); the crawler
    /// columns split into blocks so lines stay within `width` columns; then the deciding lines
    /// and, per crawler, the group that applied. `show` turns text from the input (URLs, names,
    /// robots.txt lines) into what the terminal gets; widths are measured on what it returns.
    pub fn write_text(
        &self,
        urls: &[String],
        width: usize,
        show: &dyn Fn(&str) -> String,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let shown_urls: Vec<String> = urls.iter().map(|url| show(url)).collect();
        let labels: Vec<String> = self.bots().map(|bot| show(&bot.label)).collect();
        let mut deciding: BTreeMap<u32, &Rule> = BTreeMap::new();
        let cells: Vec<Vec<String>> = urls
            .iter()
            .map(|url| {
                self.columns
                    .iter()
                    .map(|(_, agent)| {
                        let cell = self.cell(agent, url);
                        if let Some(rule) = cell.rule {
                            deciding.insert(rule.line, rule);
                        }
                        cell.text()
                    })
                    .collect()
            })
            .collect();
        let url_width = shown_urls
            .iter()
            .map(|url| url.chars().count())
            .filter(|&w| w <= URL_COLUMN_MAX)
            .chain(std::iter::once("URL".len()))
            .max()
            .unwrap_or(0);
        let widths: Vec<usize> = labels
            .iter()
            .enumerate()
            .map(|(column, label)| {
                cells
                    .iter()
                    .map(|row| row[column].len())
                    .chain(std::iter::once(label.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for (number, block) in blocks(&widths, width.saturating_sub(url_width))
            .iter()
            .enumerate()
        {
            if number > 0 {
                writeln!(out)?;
            }
            let header: Vec<&str> = block.clone().map(|c| labels[c].as_str()).collect();
            write_row("URL", url_width, &header, &widths[block.clone()], out)?;
            for (url, row) in shown_urls.iter().zip(&cells) {
                let row: Vec<&str> = block.clone().map(|c| row[c].as_str()).collect();
                if url.chars().count() > url_width {
                    // A long URL gets its own line, so the columns stay aligned.
                    writeln!(out, "{url}")?;
                    write_row("", url_width, &row, &widths[block.clone()], out)?;
                } else {
                    write_row(url, url_width, &row, &widths[block.clone()], out)?;
                }
            }
        }
        if let Some(reason) = &self.refused {
            writeln!(out)?;
            writeln!(
                out,
                "{}: every URL is disallowed for every crawler, whatever the rules",
                show(reason)
            )?;
            return Ok(());
        }
        if !deciding.is_empty() {
            writeln!(out)?;
            writeln!(out, "Deciding lines:")?;
            for rule in deciding.values() {
                writeln!(
                    out,
                    "  line {}: {}: {}",
                    rule.line,
                    rule.directive,
                    show(&rule.pattern)
                )?;
            }
        }
        writeln!(out)?;
        writeln!(out, "Groups:")?;
        for ((bot, agent), label) in self.columns.iter().zip(&labels) {
            let group = self.group_words(bot, agent.selection(), show);
            writeln!(out, "  {label}: {group}")?;
        }
        Ok(())
    }

    /// Which group applied to `bot`, in words: its own group, another token's of its chain, the
    /// `*` group it falls back to, or none.
    fn group_words(
        &self,
        bot: &MatrixBot,
        selection: &GroupSelection,
        show: &dyn Fn(&str) -> String,
    ) -> String {
        let lines = self.user_agent_lines(&selection.user_agent_lines, show);
        match &selection.token {
            Some(token) if bot.tokens.first() == Some(token) => {
                format!("its own group ({lines})")
            }
            Some(token) => format!(
                "no group of its own; falls back to the `{}` group ({lines})",
                show(token)
            ),
            None if selection.global && bot.tokens.is_empty() => {
                format!("the `*` group ({lines})")
            }
            None if selection.global => format!("falls back to the `*` group ({lines})"),
            None => "no group: everything allowed".to_owned(),
        }
    }

    /// `line 21: User-agent: Googlebot`, or `lines 5, 37: User-agent: *` for a merged group.
    fn user_agent_lines(&self, lines: &[u32], show: &dyn Fn(&str) -> String) -> String {
        let numbers: Vec<String> = lines.iter().map(u32::to_string).collect();
        let value = lines.first().and_then(|&line| {
            self.robots
                .groups()
                .iter()
                .flat_map(|group| &group.user_agents)
                .find(|ua| ua.line == line)
                .map(|ua| show(&ua.value))
        });
        let word = if lines.len() == 1 { "line" } else { "lines" };
        match value {
            Some(value) => format!("{word} {}: User-agent: {value}", numbers.join(", ")),
            None => format!("{word} {}", numbers.join(", ")),
        }
    }
}

/// `specific`, `global` or `none`: the kind of group that applied.
fn group_kind(selection: &GroupSelection) -> &'static str {
    if selection.token.is_some() {
        "specific"
    } else if selection.global {
        "global"
    } else {
        "none"
    }
}

/// The crawler columns split into consecutive blocks that fit `room` columns each (with a gap
/// before every column); a column wider than `room` is a block of its own.
fn blocks(widths: &[usize], room: usize) -> Vec<std::ops::Range<usize>> {
    let mut blocks = Vec::new();
    let mut start = 0;
    let mut used = 0;
    for (column, width) in widths.iter().enumerate() {
        let needed = GAP.len() + width;
        if column > start && used + needed > room {
            blocks.push(start..column);
            start = column;
            used = 0;
        }
        used += needed;
    }
    if start < widths.len() {
        blocks.push(start..widths.len());
    }
    blocks
}

/// One row: the first cell padded to `first_width`, then each cell padded to its width, with no
/// trailing spaces.
fn write_row(
    first: &str,
    first_width: usize,
    cells: &[&str],
    widths: &[usize],
    out: &mut impl Write,
) -> io::Result<()> {
    use std::fmt::Write as _;
    let mut line = format!("{first:<first_width$}");
    for (cell, width) in cells.iter().zip(widths) {
        // Writing to a String cannot fail.
        let _ = write!(line, "{GAP}{cell:<width$}");
    }
    writeln!(out, "{}", line.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_split_into_blocks_that_fit() {
        // Each column takes its width plus a two-space gap.
        assert_eq!(blocks(&[20, 20, 20, 20], 66), vec![0..3, 3..4]);
        assert_eq!(blocks(&[20, 20], 44), vec![0..2]);
        // A column wider than the room is a block of its own, never an empty block.
        assert_eq!(blocks(&[90, 5], 40), vec![0..1, 1..2]);
        assert_eq!(blocks(&[], 40), Vec::<std::ops::Range<usize>>::new());
    }

    #[test]
    fn matrix_text_names_cells_deciding_lines_and_groups() {
        let robots =
            RobotsTxt::parse(b"User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n");
        let matrix = Matrix::new(&robots, vec![MatrixBot::token("a"), MatrixBot::token("b")]);
        let mut out = Vec::new();
        let urls = ["/x".to_owned(), "/y".to_owned()];
        matrix
            .write_text(&urls, 100, &|text| text.to_owned(), &mut out)
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "URL  a                    b\n\
             /x   disallowed (line 2)  allowed\n\
             /y   allowed              disallowed (line 5)\n\
             \n\
             Deciding lines:\n\
             \x20 line 2: Disallow: /x\n\
             \x20 line 5: Disallow: /y\n\
             \n\
             Groups:\n\
             \x20 a: its own group (line 1: User-agent: a)\n\
             \x20 b: falls back to the `*` group (line 4: User-agent: *)\n"
        );
    }
}
