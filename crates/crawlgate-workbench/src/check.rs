//! `POST /api/check`: a draft's lint issues and its paths × crawlers matrix, each verdict the
//! engine's ([`crawlgate_robots::AgentRules::verdict`]); the report part is in `report.rs`.

use crate::report::{ReportCheck, ReportView};
use crate::{MAX_BOTS, MAX_DRAFT_BYTES, MAX_PATH_BYTES, MAX_PATHS, MAX_TOKEN_BYTES};
use crawlgate_robots::lint::{LintOptions, lint};
use crawlgate_robots::{GOOGLE_MAX_ROBOTS_BYTES, RobotsTxt, Verdict, path_params_query};
use crawlgate_signals::Profile;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The body of `POST /api/check`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct CheckRequest {
    /// The draft robots.txt.
    pub robots: String,
    /// Paths (or URLs: only their path and query are matched) for the matrix.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Built-in profile names (`googlebot`, `*`, …; `all` for every one) or product tokens, one
    /// matrix column each. Empty: every built-in profile.
    #[serde(default)]
    pub bots: Vec<String>,
    /// The report's origin to compare with (`http://www.example.com`), when a report is loaded.
    #[serde(default)]
    pub origin: Option<String>,
}

/// Why a check is refused (HTTP 400, or 413 for [`CheckError::DraftTooLarge`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// The draft is larger than [`MAX_DRAFT_BYTES`].
    #[error(
        "the draft is {0} bytes; the workbench takes at most {MAX_DRAFT_BYTES} (Google reads {GOOGLE_MAX_ROBOTS_BYTES})"
    )]
    DraftTooLarge(usize),
    /// More than [`MAX_PATHS`] paths.
    #[error("{0} paths given; at most {MAX_PATHS} per check")]
    TooManyPaths(usize),
    /// A path longer than [`MAX_PATH_BYTES`].
    #[error("a path is longer than {MAX_PATH_BYTES} bytes")]
    PathTooLong,
    /// More than [`MAX_BOTS`] crawlers.
    #[error("{0} crawlers given; at most {MAX_BOTS} per check")]
    TooManyBots(usize),
    /// A crawler token that is empty, too long or holds a control character.
    #[error("`{0}` is not a crawler token (at most {MAX_TOKEN_BYTES} bytes, no control character)")]
    BadToken(String),
    /// An origin the report has no robots.txt for.
    #[error("the report has no robots.txt for `{0}`")]
    UnknownOrigin(String),
}

/// The answer of `POST /api/check`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckResponse {
    /// The draft's size in bytes (UTF-8).
    pub bytes: usize,
    /// Whether Google would cut it ([`GOOGLE_MAX_ROBOTS_BYTES`]): only the first part is parsed.
    pub cut: bool,
    /// Its lines, as Google counts them.
    pub lines: usize,
    /// Lint issues, by line (whole-file issues first).
    pub lint: Vec<LintIssue>,
    /// The matrix columns.
    pub bots: Vec<BotColumn>,
    /// The matrix rows, one per path, in the order given.
    pub rows: Vec<MatrixRow>,
    /// The comparison with the report's robots.txt of the origin asked for.
    pub report: Option<ReportCheck>,
}

/// One lint issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LintIssue {
    /// 1-based line; `None` for an issue about the whole file.
    pub line: Option<u32>,
    /// The rule id (`robots/typo-field`).
    pub rule: &'static str,
    /// `critical`, `error`, `warning` or `notice`.
    pub severity: &'static str,
    pub message: String,
}

/// One crawler of the matrix and the group it gets from the draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BotColumn {
    /// The column's name: a profile's display name (`Googlebot-Image`, `*`), or the token.
    pub label: String,
    /// The built-in profile's name, `None` for a bare token.
    pub profile: Option<String>,
    /// The robots.txt tokens tried in order (the `*` group is the implied last fallback).
    pub tokens: Vec<String>,
    /// `own` (a group names its first token), `fallback` (a group names a later token of its
    /// chain), `global` (it falls back to the `*` group; for the `*` profile, its group) or
    /// `none` (no group applies: everything allowed).
    pub group: &'static str,
    /// The token whose group applied, for `own` and `fallback`.
    pub group_token: Option<String>,
    /// The user-agent lines of the group that applied.
    pub group_lines: Vec<u32>,
}

/// One path of the matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatrixRow {
    /// The path as given.
    pub path: String,
    /// What the matcher reads of it (path and query; scheme, host, fragment dropped).
    pub matched: String,
    /// One per crawler, in column order.
    pub cells: Vec<CellVerdict>,
}

/// One verdict of the matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellVerdict {
    pub allowed: bool,
    /// The deciding rule, `None` when no rule matched (allowed).
    pub decided_by: Option<Decided>,
}

/// A deciding rule and the line it sits on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decided {
    /// 1-based line.
    pub line: u32,
    /// `Disallow: /shop` (directive and pattern as read).
    pub rule: String,
    /// The line as written.
    pub text: String,
}

impl Decided {
    pub(crate) fn new(line: u32, rule: String, lines: &[String]) -> Decided {
        let text = usize::try_from(line)
            .ok()
            .and_then(|line| lines.get(line.wrapping_sub(1)))
            .cloned()
            .unwrap_or_default();
        Decided { line, rule, text }
    }
}

/// A profile's column name: its display name, `*` for the generic crawler.
pub(crate) fn label_of(profile: &Profile) -> String {
    if profile.name == "*" {
        "*".to_owned()
    } else {
        profile.display_name().to_owned()
    }
}

/// The lines of `body` as Google splits them (CR, LF, CRLF), decoded lossily.
pub(crate) fn lines_of(body: &[u8]) -> Vec<String> {
    crawlgate_robots::split_lines(body)
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
}

/// The columns asked for: profiles by name, tokens otherwise, each once.
fn columns(bots: &[String]) -> Result<Vec<(BotColumn, Vec<String>)>, CheckError> {
    let mut profiles: Vec<(String, Option<String>, Vec<String>)> = Vec::new();
    let names: Vec<String> = if bots.is_empty() {
        vec!["all".to_owned()]
    } else {
        bots.to_vec()
    };
    for name in &names {
        let name = name.trim();
        if name.is_empty() || name.len() > MAX_TOKEN_BYTES || name.chars().any(char::is_control) {
            return Err(CheckError::BadToken(
                name.chars().take(MAX_TOKEN_BYTES).collect(),
            ));
        }
        if name.eq_ignore_ascii_case("all") {
            for profile in Profile::builtins() {
                profiles.push((
                    label_of(&profile),
                    Some(profile.name),
                    profile.robots_tokens,
                ));
            }
        } else if let Some(profile) = Profile::builtin(name) {
            profiles.push((
                label_of(&profile),
                Some(profile.name),
                profile.robots_tokens,
            ));
        } else {
            profiles.push((name.to_owned(), None, vec![name.to_owned()]));
        }
    }
    let mut seen = std::collections::HashSet::new();
    profiles.retain(|(label, _, _)| seen.insert(label.to_ascii_lowercase()));
    if profiles.len() > MAX_BOTS {
        return Err(CheckError::TooManyBots(profiles.len()));
    }
    Ok(profiles
        .into_iter()
        .map(|(label, profile, tokens)| {
            let column = BotColumn {
                label,
                profile,
                tokens: tokens.clone(),
                group: "none",
                group_token: None,
                group_lines: Vec::new(),
            };
            (column, tokens)
        })
        .collect())
}

/// The group a column gets, from its first verdict's selection (the same for every path).
fn fill_group(column: &mut BotColumn, verdict: &Verdict) {
    let selection = &verdict.group;
    column.group = match &selection.token {
        Some(token) if column.tokens.first() == Some(token) => "own",
        Some(_) => "fallback",
        None if selection.global => "global",
        None => "none",
    };
    column.group_token.clone_from(&selection.token);
    column.group_lines.clone_from(&selection.user_agent_lines);
}

pub(crate) fn check(
    request: &CheckRequest,
    report: Option<&ReportView>,
) -> Result<CheckResponse, CheckError> {
    let body = request.robots.as_bytes();
    if body.len() > MAX_DRAFT_BYTES {
        return Err(CheckError::DraftTooLarge(body.len()));
    }
    if request.paths.len() > MAX_PATHS {
        return Err(CheckError::TooManyPaths(request.paths.len()));
    }
    if request.paths.iter().any(|path| path.len() > MAX_PATH_BYTES) {
        return Err(CheckError::PathTooLong);
    }
    let mut columns = columns(&request.bots)?;
    let origin = match (&request.origin, report) {
        (Some(origin), Some(report)) => Some(
            report
                .origin(origin)
                .ok_or_else(|| CheckError::UnknownOrigin(origin.clone()))?,
        ),
        _ => None,
    };
    let draft = RobotsTxt::parse_fetched(body);
    let lines = lines_of(body);
    let options = report.map_or_else(LintOptions::default, ReportView::lint_options);
    let issues = lint(&draft, body, &options);

    let agents: Vec<_> = columns
        .iter()
        .map(|(_, tokens)| {
            let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
            draft.agent(&tokens)
        })
        .collect();
    for ((column, _), agent) in columns.iter_mut().zip(&agents) {
        fill_group(column, &agent.verdict("/"));
    }
    let rows = request
        .paths
        .iter()
        .map(|path| {
            let matched = path_params_query(path);
            let cells = agents
                .iter()
                .map(|agent| {
                    let verdict = agent.verdict(&matched);
                    CellVerdict {
                        allowed: verdict.allowed,
                        decided_by: verdict.decided_by.map(|rule| {
                            let shown = format!("{}: {}", rule.directive, rule.pattern);
                            Decided::new(rule.line, shown, &lines)
                        }),
                    }
                })
                .collect();
            MatrixRow {
                path: path.clone(),
                matched,
                cells,
            }
        })
        .collect();
    let report = match (report, origin) {
        (Some(report), Some(origin)) => Some(report.check(origin, &draft, &lines, &issues)),
        _ => None,
    };
    Ok(CheckResponse {
        bytes: body.len(),
        cut: draft.fetch_cut().is_some(),
        lines: lines.len(),
        lint: issues
            .iter()
            .map(|issue| LintIssue {
                line: issue.line,
                rule: issue.code.id(),
                severity: issue.severity.as_str(),
                message: issue.message.clone(),
            })
            .collect(),
        bots: columns.into_iter().map(|(column, _)| column).collect(),
        rows,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(robots: &str, paths: &[&str], bots: &[&str]) -> CheckRequest {
        CheckRequest {
            robots: robots.to_owned(),
            paths: paths.iter().map(|p| (*p).to_owned()).collect(),
            bots: bots.iter().map(|b| (*b).to_owned()).collect(),
            origin: None,
        }
    }

    #[test]
    fn cells_are_the_engines_verdicts_with_the_deciding_line() {
        let robots = "User-agent: *\nDisallow: /private/\n\nUser-agent: googlebot\nDisallow: /g\n";
        let response = check(
            &request(
                robots,
                &["/private/x", "https://a.test/g?q"],
                &["googlebot", "bingbot", "MyBot"],
            ),
            None,
        )
        .unwrap();
        let labels: Vec<&str> = response.bots.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["Googlebot", "Bingbot", "MyBot"]);
        assert_eq!(response.bots[0].group, "own");
        assert_eq!(response.bots[0].group_lines, [4]);
        assert_eq!(response.bots[1].group, "global");
        let first = &response.rows[0];
        assert!(
            first.cells[0].allowed,
            "googlebot's own group drops the * rules"
        );
        assert!(!first.cells[1].allowed);
        let decided = first.cells[1].decided_by.as_ref().unwrap();
        assert_eq!(
            (decided.line, decided.rule.as_str()),
            (2, "Disallow: /private/")
        );
        assert_eq!(decided.text, "Disallow: /private/");
        assert_eq!(response.rows[1].matched, "/g?q");
        assert!(!response.rows[1].cells[0].allowed);
        for (row, path) in response.rows.iter().zip(["/private/x", "/g?q"]) {
            for (cell, bot) in row.cells.iter().zip(["googlebot", "bingbot", "MyBot"]) {
                let tokens: &[&str] = if bot == "bingbot" {
                    &["bingbot", "msnbot"]
                } else {
                    &[bot]
                };
                let engine = RobotsTxt::parse(robots.as_bytes())
                    .agent(tokens)
                    .verdict(path);
                assert_eq!(cell.allowed, engine.allowed, "{bot} {path}");
            }
        }
    }

    #[test]
    fn bounds_are_refused_with_a_reason() {
        let many: Vec<String> = (0..=MAX_PATHS).map(|i| format!("/{i}")).collect();
        let too_many = CheckRequest {
            paths: many,
            ..CheckRequest::default()
        };
        assert_eq!(
            check(&too_many, None),
            Err(CheckError::TooManyPaths(MAX_PATHS + 1))
        );
        let big = "#".repeat(MAX_DRAFT_BYTES + 1);
        assert!(matches!(
            check(&request(&big, &[], &[]), None),
            Err(CheckError::DraftTooLarge(_))
        ));
        let bots: Vec<String> = (0..=MAX_BOTS).map(|i| format!("bot{i}")).collect();
        let bots: Vec<&str> = bots.iter().map(String::as_str).collect();
        assert!(matches!(
            check(&request("", &[], &bots), None),
            Err(CheckError::TooManyBots(_))
        ));
        assert!(matches!(
            check(&request("", &[], &["a\u{7}"]), None),
            Err(CheckError::BadToken(_))
        ));
    }

    #[test]
    fn lint_issues_carry_their_line_and_an_oversized_draft_is_cut() {
        let response = check(&request("User-agent: *\nDissallow: /x\n", &[], &[]), None).unwrap();
        let typo = response
            .lint
            .iter()
            .find(|i| i.rule == "robots/typo-field")
            .unwrap();
        assert_eq!(typo.line, Some(2));
        assert_eq!(response.bots.len(), Profile::builtins().len());
        let mut big = "User-agent: *\n".to_owned();
        while big.len() <= GOOGLE_MAX_ROBOTS_BYTES {
            big.push_str("Disallow: /a-long-enough-rule-to-fill-the-file\n");
        }
        let response = check(&request(&big, &[], &[]), None).unwrap();
        assert!(response.cut);
        assert!(response.lint.iter().any(|i| i.rule == "robots/oversize"));
    }
}
