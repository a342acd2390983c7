//! `robots lint`: the robots.txt file rules of RULES.md §2.1 that need nothing but the file.
//!
//! Google-tolerated lines (typos, a missing colon, unknown fields) are warnings or notices, never
//! errors: Google applies or ignores them silently, and only other crawlers may read them
//! differently.

mod document;
mod groups;
mod lines;

use super::RobotsTxt;
use crate::{Issue, Severity};

crawlgate_issue::issue_codes! {
    /// The rules this module reports (RULES.md §2.1): one code per rule, its id and default severity
    /// written here and nowhere else.
    pub enum Code {
        /// A field Google ignores (`Crawl-delay`, `Host`, `Clean-param`, …).
        UnsupportedField = ("robots/unsupported-field", Notice),
        /// A `Noindex:` line, which Google has not read since 2019.
        NoindexField = ("robots/noindex-field", Warning),
        /// A field read only thanks to Google's typo tolerance.
        TypoField = ("robots/typo-field", Warning),
        /// An `Allow`/`Disallow` before any `User-agent`.
        RuleOutsideGroup = ("robots/rule-outside-group", Warning),
        /// A `User-agent:` with no token.
        EmptyUserAgent = ("robots/empty-user-agent", Warning),
        /// A line that is no field at all.
        LineUnparseable = ("robots/line-unparseable", Warning),
        /// A line past Google's line-length limit.
        LineTooLong = ("robots/line-too-long", Notice),
        /// A path pattern that starts with neither `/` nor `*`.
        PatternNotRooted = ("robots/pattern-not-rooted", Warning),
        /// A `$` that is not the pattern's last character.
        DollarNotLast = ("robots/dollar-not-last", Warning),
        /// An `Allow:` or `Disallow:` with no pattern.
        EmptyRule = ("robots/empty-rule", Notice),
        /// A `Sitemap:` value that is no absolute URL.
        SitemapUrlInvalid = ("robots/sitemap-url-invalid", Error),
        /// No `Sitemap:` line.
        NoSitemapField = ("robots/no-sitemap-field", Notice),
        /// A UTF-8 byte order mark.
        Bom = ("robots/bom", Notice),
        /// Bytes that are not UTF-8.
        NotUtf8 = ("robots/not-utf8", Warning),
        /// A file past Google's 500 KiB read limit.
        Oversize = ("robots/oversize", Warning),
        /// An HTML page served as robots.txt.
        ServedAsHtml = ("robots/served-as-html", Warning),
        /// `Disallow: /` for an audited crawler or `*`.
        DisallowAll = ("robots/disallow-all", Critical),
        /// A crawler's own group that silently drops the `*` rules.
        GroupShadowsGlobal = ("robots/group-shadows-global", Warning),
        /// Several groups for one crawler (Google merges them).
        DuplicateGroups = ("robots/duplicate-groups", Notice),
        /// A path that advertises an admin, backup or private area.
        SensitivePathDisclosed = ("robots/sensitive-path-disclosed", Warning),
    }
}

/// The rule ids as strings, derived from [`Code`] (kept for callers that match on ids).
pub mod rule_ids {
    use super::Code;

    pub const UNSUPPORTED_FIELD: &str = Code::UnsupportedField.id();
    pub const NOINDEX_FIELD: &str = Code::NoindexField.id();
    pub const TYPO_FIELD: &str = Code::TypoField.id();
    pub const RULE_OUTSIDE_GROUP: &str = Code::RuleOutsideGroup.id();
    pub const EMPTY_USER_AGENT: &str = Code::EmptyUserAgent.id();
    pub const LINE_UNPARSEABLE: &str = Code::LineUnparseable.id();
    pub const LINE_TOO_LONG: &str = Code::LineTooLong.id();
    pub const PATTERN_NOT_ROOTED: &str = Code::PatternNotRooted.id();
    pub const DOLLAR_NOT_LAST: &str = Code::DollarNotLast.id();
    pub const EMPTY_RULE: &str = Code::EmptyRule.id();
    pub const SITEMAP_URL_INVALID: &str = Code::SitemapUrlInvalid.id();
    pub const NO_SITEMAP_FIELD: &str = Code::NoSitemapField.id();
    pub const BOM: &str = Code::Bom.id();
    pub const NOT_UTF8: &str = Code::NotUtf8.id();
    pub const OVERSIZE: &str = Code::Oversize.id();
    pub const SERVED_AS_HTML: &str = Code::ServedAsHtml.id();
    pub const DISALLOW_ALL: &str = Code::DisallowAll.id();
    pub const GROUP_SHADOWS_GLOBAL: &str = Code::GroupShadowsGlobal.id();
    pub const DUPLICATE_GROUPS: &str = Code::DuplicateGroups.id();
    pub const SENSITIVE_PATH_DISCLOSED: &str = Code::SensitivePathDisclosed.id();

    /// Every id, in RULES.md order.
    pub const ALL: [&str; Code::ALL.len()] = {
        let mut ids = [""; Code::ALL.len()];
        let mut index = 0;
        while index < ids.len() {
            ids[index] = Code::ALL[index].id();
            index += 1;
        }
        ids
    };
}

/// What to lint for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintOptions {
    /// Crawler product tokens (profiles) whose view of the file is checked by the rules that
    /// depend on a crawler (`disallow-all`, `group-shadows-global`). Default `["googlebot"]`.
    /// The `*` group is always checked as well.
    pub user_agents: Vec<String>,
    /// At most this many items (rules, lines) are listed in one message; the rest are counted.
    pub list_limit: usize,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            user_agents: vec!["googlebot".to_owned()],
            list_limit: 10,
        }
    }
}

/// Lints a robots.txt. `robots` is the parse of `body` (with [`RobotsTxt::parse`] or, for a
/// fetched file, [`RobotsTxt::parse_fetched`]); `body` is the whole body as received, for the
/// rules about the bytes themselves (BOM, UTF-8, size, HTML).
///
/// Issues come sorted by line (whole-file issues first), then rule id.
pub fn lint(robots: &RobotsTxt, body: &[u8], options: &LintOptions) -> Vec<Issue> {
    let html = document::looks_like_html(body);
    let mut issues = Vec::new();
    document::check(robots, body, html, options, &mut issues);
    lines::check(robots, body, html, &mut issues);
    groups::check(robots, options, &mut issues);
    issues.sort_by(|a, b| (a.line, a.code.id()).cmp(&(b.line, b.code.id())));
    issues
}

fn issue(code: Code, severity: Severity, line: Option<u32>, message: String) -> Issue {
    Issue {
        code,
        severity,
        line,
        column: None,
        message,
    }
}

/// A short, printable quote of some text (at most 80 characters, control characters escaped so
/// a message stays on one line and shows what is there).
fn quote(text: &str) -> String {
    const MAX: usize = 80;
    let mut quoted = String::new();
    for character in text.chars().take(MAX) {
        if character.is_control() || character == '\u{FEFF}' {
            quoted.extend(character.escape_default());
        } else {
            quoted.push(character);
        }
    }
    if text.chars().nth(MAX).is_some() {
        quoted.push('…');
    }
    quoted
}

/// `a, b, c and 4 more`
fn listing(items: &[String], limit: usize) -> String {
    let shown = items.get(..limit.min(items.len())).unwrap_or_default();
    let text = shown.join(", ");
    match items.len() - shown.len() {
        0 => text,
        rest => format!("{text} and {rest} more"),
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod quote_tests {
    use super::quote;

    #[test]
    fn quotes_are_short_single_line_and_show_control_characters() {
        assert_eq!(quote("Disallow /a /b"), "Disallow /a /b");
        assert_eq!(quote("\u{11}\u{FEFF}x\ty"), "\\u{11}\\u{feff}x\\ty");
        let long = "x".repeat(100);
        assert_eq!(quote(&long).chars().count(), 81);
        assert!(quote(&long).ends_with('…'));
    }
}
