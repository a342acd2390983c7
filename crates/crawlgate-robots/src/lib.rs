//! robots.txt, read exactly as Google's open-source library (google/robotstxt) reads it.
//!
//! [`RobotsTxt::parse`] turns bytes into lines (each with its lint facts), groups and sitemap
//! references; it never fails. [`RobotsTxt::agent`] compiles the rules that apply to one crawler
//! once, and [`AgentRules::verdict`] then answers each path in time linear in the path and the
//! patterns (no regex, no backtracking), naming the deciding line as evidence.
//!
//! ```
//! use crawlgate_robots::{RobotsTxt, path_params_query};
//!
//! let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\nAllow: /private/ok\n");
//! let googlebot = robots.agent(&["googlebot"]);
//! let verdict = googlebot.verdict(&path_params_query("https://example.com/private/x?y=1"));
//! assert!(!verdict.allowed);
//! assert_eq!(verdict.decided_by.map(|rule| rule.line), Some(2));
//! assert!(googlebot.verdict("/private/ok").allowed);
//! ```
//!
//! Where Google's crawler does more than the library (the 500 KiB cut), [`RobotsTxt::parse_fetched`]
//! applies it. Everything else the crawler does around the file (HTTP status semantics, caching)
//! belongs to the crawler crate.

mod agent;
pub mod diff;
pub mod generate;
mod lines;
pub mod lint;
mod parse;
mod pattern;
mod prefix_index;
pub mod sensitive;
pub mod suggest;
mod url;

pub use agent::AgentRules;
pub use crawlgate_issue::Severity;
pub use lines::{split_lines, split_lines_with_ends};

/// A problem found by [`lint::lint`] at a 1-based line of the file, under its [`lint::Code`].
pub type Issue = crawlgate_issue::Issue<lint::Code>;
pub use url::{path_params_query, product_token_of_header};

use serde::{Deserialize, Serialize};
use std::fmt;

/// Google's fetcher parses only this many bytes of a robots.txt (500 KiB); the rest is ignored.
pub const GOOGLE_MAX_ROBOTS_BYTES: usize = 512_000;

/// Google's parser keeps at most this many bytes of one line (robots.cc `kMaxLineLen`, 2083 × 8,
/// minus the terminating NUL); the rest of the line is dropped and the kept part still applies.
pub const GOOGLE_MAX_LINE_BYTES: usize = 16_663;

/// A parsed robots.txt: its lines with their lint facts, its groups and its sitemap references.
///
/// Cheap to share between threads; compile an [`AgentRules`] per crawler to test many paths.
#[derive(Debug, Clone)]
pub struct RobotsTxt {
    lines: Vec<LineFacts>,
    groups: Vec<Group>,
    sitemaps: Vec<SitemapRef>,
    byte_order_mark: ByteOrderMark,
    fetch_cut: Option<FetchCut>,
}

impl RobotsTxt {
    /// Parses bytes as Google's library does. Never fails: lines it cannot read are kept, with
    /// facts that say why, and otherwise ignored.
    pub fn parse(body: &[u8]) -> RobotsTxt {
        parse::parse(body)
    }

    /// Parses a body as Googlebot's fetcher hands it to the library: only the first
    /// [`GOOGLE_MAX_ROBOTS_BYTES`] bytes. The cut is remembered ([`RobotsTxt::fetch_cut`]).
    pub fn parse_fetched(body: &[u8]) -> RobotsTxt {
        let Some(kept) = body.get(..GOOGLE_MAX_ROBOTS_BYTES) else {
            return parse::parse(body);
        };
        let mut robots = parse::parse(kept);
        robots.fetch_cut = Some(FetchCut {
            parsed_bytes: GOOGLE_MAX_ROBOTS_BYTES,
            total_bytes: body.len(),
        });
        robots
    }

    /// One entry per line, in order, numbered from 1 as Google numbers them (a CR, an LF or a
    /// CRLF each end one line; the text after the last line end is one more line, even if empty).
    pub fn lines(&self) -> &[LineFacts] {
        &self.lines
    }

    /// The groups: each run of user-agent lines with the rules that follow it, in file order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every `Sitemap:` line (and its accepted typos), in file order, wherever it appears.
    pub fn sitemaps(&self) -> &[SitemapRef] {
        &self.sitemaps
    }

    /// Which UTF-8 byte order mark prefix was skipped at the start of the body.
    pub fn byte_order_mark(&self) -> ByteOrderMark {
        self.byte_order_mark
    }

    /// Where [`RobotsTxt::parse_fetched`] cut the body, if it did.
    pub fn fetch_cut(&self) -> Option<FetchCut> {
        self.fetch_cut
    }

    /// The verdict for one product token, compared as Google's library compares it: the token
    /// given, verbatim, case-insensitively, against each group's `[A-Za-z_-]+` token.
    ///
    /// Compiles the selection on every call; use [`RobotsTxt::agent`] to test many paths.
    pub fn verdict(&self, product_token: &str, path_and_query: &str) -> Verdict {
        self.agent(&[product_token]).verdict(path_and_query)
    }

    /// The `Crawl-delay` of the groups that apply to a crawler (`tokens`, chosen as for its
    /// rules: the groups naming the first token any group names, else `*`): the first value in
    /// file order that is a number of seconds (finite, not negative), with its line. Google ignores
    /// the field; a crawler that honours it waits that long between two requests.
    pub fn crawl_delay(&self, tokens: &[&str]) -> Option<CrawlDelay> {
        let groups = self.groups();
        let (_, chosen) = agent::select(groups, tokens);
        // A group's lines run from its first user-agent line to the next group's.
        let starts: Vec<u32> = groups
            .iter()
            .filter_map(|group| group.user_agents.first().map(|ua| ua.line))
            .collect();
        let ranges: Vec<(u32, u32)> = chosen
            .iter()
            .filter_map(|group| group.user_agents.first().map(|ua| ua.line))
            .map(|start| {
                let end = starts
                    .iter()
                    .copied()
                    .find(|s| *s > start)
                    .unwrap_or(u32::MAX);
                (start, end)
            })
            .collect();
        self.lines
            .iter()
            .filter(|facts| {
                ranges
                    .iter()
                    .any(|(start, end)| (*start..*end).contains(&facts.line))
            })
            .filter(|facts| {
                facts
                    .key
                    .as_deref()
                    .is_some_and(|key| key.trim().eq_ignore_ascii_case("crawl-delay"))
            })
            .find_map(|facts| {
                let seconds: f64 = facts.value.as_deref()?.trim().parse().ok()?;
                (seconds.is_finite() && seconds >= 0.0).then_some(CrawlDelay {
                    seconds,
                    line: facts.line,
                })
            })
    }

    /// Compiles the rules that apply to a crawler. `tokens` is a fallback chain (for example
    /// `["googlebot-image", "googlebot"]`): the first token that has a group of its own wins, and
    /// all the groups naming it are merged; if none has, the `*` groups apply. An empty chain
    /// selects the `*` groups.
    pub fn agent(&self, tokens: &[&str]) -> AgentRules<'_> {
        AgentRules::compile(self, tokens)
    }
}

/// Where [`RobotsTxt::parse_fetched`] cut an oversized body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchCut {
    /// Bytes handed to the parser ([`GOOGLE_MAX_ROBOTS_BYTES`]).
    pub parsed_bytes: usize,
    /// Bytes in the body as received.
    pub total_bytes: usize,
}

/// The UTF-8 byte order mark prefix (`EF BB BF`) Google skips at the very start of a body; a
/// partial prefix (`EF` or `EF BB`) is skipped too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ByteOrderMark {
    /// No BOM byte at the start.
    None,
    /// `EF` or `EF BB` only.
    Partial,
    /// The full `EF BB BF`.
    Full,
}

/// What one physical line is, and the facts lint rules need about it.
// The flags are independent facts, as in Google's `LineMetadata`; an enum would not fit.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineFacts {
    /// 1-based line number, as Google counts lines.
    pub line: u32,
    /// Offset of the line's first byte in the body.
    pub offset: usize,
    /// How the parser read the line.
    pub kind: LineKind,
    /// The key as written (comment cut, trimmed), for lines split into key and value.
    pub key: Option<String>,
    /// The value as written (comment cut, trimmed), for lines split into key and value. Bytes
    /// that are not UTF-8 are shown as U+FFFD.
    pub value: Option<String>,
    /// How the key was recognised, for user-agent, allow, disallow and sitemap lines.
    pub key_match: Option<KeyMatch>,
    /// The key and value were separated by whitespace, not a colon (Google accepts this when the
    /// line has exactly two tokens).
    pub missing_colon: bool,
    /// The line was longer than [`GOOGLE_MAX_LINE_BYTES`]; only its start was read.
    pub too_long: bool,
    /// The line has a `#` comment (possibly after a directive).
    pub has_comment: bool,
    /// The line holds a NUL byte, which ends what Google reads of it.
    pub has_nul: bool,
    /// An allow or disallow line before the first user-agent line: it belongs to no group and
    /// Google ignores it.
    pub outside_group: bool,
}

/// How Google's parser classifies a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    /// Nothing but whitespace.
    Blank,
    /// Only a comment.
    Comment,
    /// `User-agent:` (or an accepted typo or prefix form).
    UserAgent,
    /// `Allow:`.
    Allow,
    /// `Disallow:` (or an accepted typo or prefix form).
    Disallow,
    /// `Sitemap:` (or `Site-map:`).
    Sitemap,
    /// A field Google knows of but does not support (crawl-delay, noindex, host, …; the
    /// "Unused" keys of Google's reporting parser).
    Unsupported,
    /// Any other `key: value` line.
    Unknown,
    /// Text with no key/value separator (and not Google's two-token whitespace fallback).
    Unparseable,
}

/// How a key was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyMatch {
    /// The field name itself, in any case (`User-agent`, `DISALLOW`).
    Exact,
    /// The field name followed by more text, accepted by Google's prefix match (`Disallowed`,
    /// `User-agents`).
    Prefix,
    /// One of Google's accepted typos (`useragent`, `user agent`, `dissallow`, `dissalow`,
    /// `disalow`, `diasllow`, `disallaw`, `site-map`), possibly followed by more text.
    Typo,
}

/// A group: a run of user-agent lines and the rules that follow, up to the next user-agent line
/// that comes after a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The user-agent lines that open the group.
    pub user_agents: Vec<UserAgentLine>,
    /// The allow and disallow lines of the group, in file order.
    pub rules: Vec<Rule>,
}

impl Group {
    /// Whether one of the group's user-agent lines is `*`.
    pub fn is_global(&self) -> bool {
        self.user_agents
            .iter()
            .any(|ua| matches!(ua.agent, GroupAgent::Global))
    }

    /// Whether one of the group's user-agent lines names `product_token` (compared as Google
    /// compares: verbatim, ASCII case-insensitively, against the line's extracted token).
    pub fn names(&self, product_token: &str) -> bool {
        self.user_agents.iter().any(|ua| ua.names(product_token))
    }
}

/// One `User-agent:` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UserAgentLine {
    pub line: u32,
    /// The value as written (comment cut, trimmed).
    pub value: String,
    /// What Google reads from the value.
    pub agent: GroupAgent,
}

impl UserAgentLine {
    /// Whether this line names `product_token` (verbatim, ASCII case-insensitive comparison with
    /// the extracted token; `*` names no token).
    pub fn names(&self, product_token: &str) -> bool {
        match &self.agent {
            GroupAgent::Global => false,
            GroupAgent::Token(token) => token.eq_ignore_ascii_case(product_token),
        }
    }
}

/// What Google reads from a user-agent value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GroupAgent {
    /// `*` alone or followed by whitespace (`* foo` still counts as global).
    Global,
    /// The value's leading `[A-Za-z_-]*` run: `Googlebot/2.1` → `Googlebot`, `MJ12bot` → `MJ`,
    /// `360Spider` → empty.
    Token(String),
}

/// One allow or disallow rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub line: u32,
    pub directive: Directive,
    /// The value as written (comment cut, trimmed).
    pub pattern: String,
    /// The pattern as Google matches it: bytes ≥ 0x80 as `%XX`, existing `%xx` upper-cased. Its
    /// length in bytes is the rule's priority.
    pub escaped: String,
    #[serde(skip)]
    pub(crate) compiled: pattern::CompiledRule,
}

impl Rule {
    /// The rule's priority when its pattern matches: the escaped pattern's length in bytes.
    /// Empty rules have priority 0 and never decide a verdict.
    pub fn priority(&self) -> usize {
        self.escaped.len()
    }

    /// Whether the rule matches `path_and_query`, as Google's matcher decides (including, for
    /// `Allow`, the `…/index.htm*` → `…/$` retry).
    pub fn matches(&self, path_and_query: &str) -> bool {
        self.compiled
            .matched_priority(path_and_query.as_bytes())
            .is_some()
    }
}

/// A `Sitemap:` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SitemapRef {
    pub line: u32,
    /// The value as written (comment cut, trimmed).
    pub url: String,
}

/// Allow or disallow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Directive {
    Allow,
    Disallow,
}

impl Directive {
    /// `"Allow"` or `"Disallow"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Directive::Allow => "Allow",
            Directive::Disallow => "Disallow",
        }
    }
}

impl fmt::Display for Directive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The answer for one path: allowed or not, the rule that decided it and the group that applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub allowed: bool,
    /// The deciding rule: the longest matching pattern (Allow on a tie, the earliest line among
    /// equals). `None` when no non-empty rule of the applicable group matched.
    pub decided_by: Option<MatchedRule>,
    /// Which user-agent lines applied.
    pub group: GroupSelection,
}

/// The rule that decided a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchedRule {
    pub line: u32,
    pub directive: Directive,
    /// The value as written in the file (comment cut, trimmed).
    pub pattern: String,
}

impl fmt::Display for MatchedRule {
    /// `line 3: Disallow: /private/`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}: {}",
            self.line, self.directive, self.pattern
        )
    }
}

/// A `Crawl-delay` line that applies to a crawler ([`RobotsTxt::crawl_delay`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrawlDelay {
    /// Seconds to wait between two requests.
    pub seconds: f64,
    /// 1-based line of the field.
    pub line: u32,
}

/// Which groups apply to a crawler.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct GroupSelection {
    /// The caller's token that matched a specific group; `None` when the `*` groups or no group
    /// applied.
    pub token: Option<String>,
    /// The `*` groups applied (no group names the crawler).
    pub global: bool,
    /// The user-agent lines that selected the groups (the lines naming the token, or the `*`
    /// lines); empty when no group applies.
    pub user_agent_lines: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawl_delay_is_read_from_the_groups_that_apply() {
        let robots = RobotsTxt::parse(
            b"User-agent: googlebot\nCrawl-delay: 9\nDisallow: /g\n\n\
              User-agent: *\nDisallow: /x\ncrawl-delay: 2.5\nCrawl-delay: 7\n\n\
              User-agent: slowbot\nCrawl-delay: soon\nCrawl-delay: -1\n",
        );
        let delay = |token| robots.crawl_delay(&[token]).map(|d| (d.seconds, d.line));
        assert_eq!(delay("googlebot"), Some((9.0, 2)));
        // Anything else falls back to `*`: the first valid value, in file order.
        assert_eq!(delay("crawlgate"), Some((2.5, 7)));
        // A group of its own without a usable value: none (the `*` group does not apply).
        assert_eq!(delay("slowbot"), None);
        assert_eq!(
            RobotsTxt::parse(b"User-agent: *\nDisallow: /\n").crawl_delay(&["a"]),
            None
        );
        // Consecutive user-agent lines with no rule between them are one group, as Google reads
        // them: the delay under `googlebot` is the `*` crawlers' too.
        let merged = RobotsTxt::parse(b"User-agent: googlebot\nCrawl-delay: 4\n\nUser-agent: *\n");
        assert_eq!(
            merged.crawl_delay(&["crawlgate"]).map(|d| d.seconds),
            Some(4.0)
        );
        // Before any group: applies to no crawler.
        assert_eq!(
            RobotsTxt::parse(b"Crawl-delay: 3\n").crawl_delay(&["a"]),
            None
        );
    }

    #[test]
    fn parsed_files_and_compiled_agents_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync + Clone + fmt::Debug>() {}
        shareable::<RobotsTxt>();
        shareable::<AgentRules<'static>>();
    }

    #[test]
    fn parse_fetched_reads_only_the_first_500_kib_and_remembers_the_cut() {
        let mut body = b"User-agent: *\n".to_vec();
        body.resize(GOOGLE_MAX_ROBOTS_BYTES, b'\n');
        body.extend_from_slice(b"Disallow: /late\n");
        let fetched = RobotsTxt::parse_fetched(&body);
        assert!(fetched.verdict("a", "/late").allowed);
        assert_eq!(
            fetched.fetch_cut(),
            Some(FetchCut {
                parsed_bytes: GOOGLE_MAX_ROBOTS_BYTES,
                total_bytes: body.len()
            })
        );
        let library = RobotsTxt::parse(&body);
        assert!(!library.verdict("a", "/late").allowed);
        assert_eq!(library.fetch_cut(), None);
        let small = RobotsTxt::parse_fetched(b"User-agent: *\nDisallow: /");
        assert_eq!(small.fetch_cut(), None);
    }
}

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
