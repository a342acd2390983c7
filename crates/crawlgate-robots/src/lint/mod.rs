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

/// The rules this module reports (RULES.md §2.1): one code per rule, its id and default severity
/// written here and nowhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// A field Google ignores (`Crawl-delay`, `Host`, `Clean-param`, …).
    UnsupportedField,
    /// A `Noindex:` line, which Google has not read since 2019.
    NoindexField,
    /// A field read only thanks to Google's typo tolerance.
    TypoField,
    /// An `Allow`/`Disallow` before any `User-agent`.
    RuleOutsideGroup,
    /// A `User-agent:` with no token.
    EmptyUserAgent,
    /// A line that is no field at all.
    LineUnparseable,
    /// A line past Google's line-length limit.
    LineTooLong,
    /// A path pattern that starts with neither `/` nor `*`.
    PatternNotRooted,
    /// A `$` that is not the pattern's last character.
    DollarNotLast,
    /// An `Allow:` or `Disallow:` with no pattern.
    EmptyRule,
    /// A `Sitemap:` value that is no absolute URL.
    SitemapUrlInvalid,
    /// No `Sitemap:` line.
    NoSitemapField,
    /// A UTF-8 byte order mark.
    Bom,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// A file past Google's 500 KiB read limit.
    Oversize,
    /// An HTML page served as robots.txt.
    ServedAsHtml,
    /// `Disallow: /` for an audited crawler or `*`.
    DisallowAll,
    /// A crawler's own group that silently drops the `*` rules.
    GroupShadowsGlobal,
    /// Several groups for one crawler (Google merges them).
    DuplicateGroups,
    /// A path that advertises an admin, backup or private area.
    SensitivePathDisclosed,
}

impl Code {
    /// Every code, in RULES.md order.
    pub const ALL: [Code; 20] = [
        Code::UnsupportedField,
        Code::NoindexField,
        Code::TypoField,
        Code::RuleOutsideGroup,
        Code::EmptyUserAgent,
        Code::LineUnparseable,
        Code::LineTooLong,
        Code::PatternNotRooted,
        Code::DollarNotLast,
        Code::EmptyRule,
        Code::SitemapUrlInvalid,
        Code::NoSitemapField,
        Code::Bom,
        Code::NotUtf8,
        Code::Oversize,
        Code::ServedAsHtml,
        Code::DisallowAll,
        Code::GroupShadowsGlobal,
        Code::DuplicateGroups,
        Code::SensitivePathDisclosed,
    ];

    /// The stable rule id, `robots/kebab-name`.
    pub const fn id(self) -> &'static str {
        match self {
            Code::UnsupportedField => "robots/unsupported-field",
            Code::NoindexField => "robots/noindex-field",
            Code::TypoField => "robots/typo-field",
            Code::RuleOutsideGroup => "robots/rule-outside-group",
            Code::EmptyUserAgent => "robots/empty-user-agent",
            Code::LineUnparseable => "robots/line-unparseable",
            Code::LineTooLong => "robots/line-too-long",
            Code::PatternNotRooted => "robots/pattern-not-rooted",
            Code::DollarNotLast => "robots/dollar-not-last",
            Code::EmptyRule => "robots/empty-rule",
            Code::SitemapUrlInvalid => "robots/sitemap-url-invalid",
            Code::NoSitemapField => "robots/no-sitemap-field",
            Code::Bom => "robots/bom",
            Code::NotUtf8 => "robots/not-utf8",
            Code::Oversize => "robots/oversize",
            Code::ServedAsHtml => "robots/served-as-html",
            Code::DisallowAll => "robots/disallow-all",
            Code::GroupShadowsGlobal => "robots/group-shadows-global",
            Code::DuplicateGroups => "robots/duplicate-groups",
            Code::SensitivePathDisclosed => "robots/sensitive-path-disclosed",
        }
    }

    /// The severity of this rule's issues unless one case is escalated or softened.
    // One arm per code: the table reads as the catalogue does.
    #[allow(clippy::match_same_arms)]
    pub const fn default_severity(self) -> Severity {
        match self {
            Code::UnsupportedField => Severity::Notice,
            Code::NoindexField => Severity::Warning,
            Code::TypoField => Severity::Warning,
            Code::RuleOutsideGroup => Severity::Warning,
            Code::EmptyUserAgent => Severity::Warning,
            Code::LineUnparseable => Severity::Warning,
            Code::LineTooLong => Severity::Notice,
            Code::PatternNotRooted => Severity::Warning,
            Code::DollarNotLast => Severity::Warning,
            Code::EmptyRule => Severity::Notice,
            Code::SitemapUrlInvalid => Severity::Error,
            Code::NoSitemapField => Severity::Notice,
            Code::Bom => Severity::Notice,
            Code::NotUtf8 => Severity::Warning,
            Code::Oversize => Severity::Warning,
            Code::ServedAsHtml => Severity::Warning,
            Code::DisallowAll => Severity::Critical,
            Code::GroupShadowsGlobal => Severity::Warning,
            Code::DuplicateGroups => Severity::Notice,
            Code::SensitivePathDisclosed => Severity::Warning,
        }
    }

    /// The code whose id is `id`, if any.
    pub fn from_id(id: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|code| code.id() == id)
    }
}

impl crawlgate_issue::Code for Code {
    fn id(self) -> &'static str {
        Code::id(self)
    }

    fn default_severity(self) -> Severity {
        Code::default_severity(self)
    }

    fn from_id(id: &str) -> Option<Code> {
        Code::from_id(id)
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
    pub const ALL: [&str; 20] = {
        let mut ids = [""; 20];
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
