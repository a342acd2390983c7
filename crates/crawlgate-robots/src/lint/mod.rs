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

/// The rule ids this module emits (RULES.md §2.1).
pub mod rule_ids {
    pub const TYPO_FIELD: &str = "robots/typo-field";
    pub const UNSUPPORTED_FIELD: &str = "robots/unsupported-field";
    pub const NOINDEX_FIELD: &str = "robots/noindex-field";
    pub const RULE_OUTSIDE_GROUP: &str = "robots/rule-outside-group";
    pub const EMPTY_USER_AGENT: &str = "robots/empty-user-agent";
    pub const LINE_UNPARSEABLE: &str = "robots/line-unparseable";
    pub const LINE_TOO_LONG: &str = "robots/line-too-long";
    pub const PATTERN_NOT_ROOTED: &str = "robots/pattern-not-rooted";
    pub const DOLLAR_NOT_LAST: &str = "robots/dollar-not-last";
    pub const EMPTY_RULE: &str = "robots/empty-rule";
    pub const SITEMAP_URL_INVALID: &str = "robots/sitemap-url-invalid";
    pub const NO_SITEMAP_FIELD: &str = "robots/no-sitemap-field";
    pub const BOM: &str = "robots/bom";
    pub const NOT_UTF8: &str = "robots/not-utf8";
    pub const OVERSIZE: &str = "robots/oversize";
    pub const SERVED_AS_HTML: &str = "robots/served-as-html";
    pub const DISALLOW_ALL: &str = "robots/disallow-all";
    pub const GROUP_SHADOWS_GLOBAL: &str = "robots/group-shadows-global";
    pub const DUPLICATE_GROUPS: &str = "robots/duplicate-groups";
    pub const SENSITIVE_PATH_DISCLOSED: &str = "robots/sensitive-path-disclosed";

    /// Every id above, in RULES.md order.
    pub const ALL: [&str; 20] = [
        UNSUPPORTED_FIELD,
        NOINDEX_FIELD,
        TYPO_FIELD,
        RULE_OUTSIDE_GROUP,
        EMPTY_USER_AGENT,
        LINE_UNPARSEABLE,
        LINE_TOO_LONG,
        PATTERN_NOT_ROOTED,
        DOLLAR_NOT_LAST,
        EMPTY_RULE,
        SITEMAP_URL_INVALID,
        NO_SITEMAP_FIELD,
        BOM,
        NOT_UTF8,
        OVERSIZE,
        SERVED_AS_HTML,
        DISALLOW_ALL,
        GROUP_SHADOWS_GLOBAL,
        DUPLICATE_GROUPS,
        SENSITIVE_PATH_DISCLOSED,
    ];
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
    issues.sort_by(|a, b| (a.line, a.rule).cmp(&(b.line, b.rule)));
    issues
}

fn issue(rule: &'static str, severity: Severity, line: Option<u32>, message: String) -> Issue {
    Issue {
        rule,
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
