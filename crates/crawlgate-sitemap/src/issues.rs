//! The sitemap rules (ids and default severities of RULES.md §2.6 and §2.8) and a collector that
//! keeps the issue list bounded on hostile or badly broken documents.

use crate::{Issue, Severity};

/// A rule this module reports, with the severity of the issues pushed under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) code: Code,
    pub(crate) severity: Severity,
}

/// A rule at its code's default severity.
const fn rule(code: Code) -> Rule {
    Rule {
        code,
        severity: code.default_severity(),
    }
}

/// A rule whose issues of one kind differ from its default severity.
const fn rule_at(code: Code, severity: Severity) -> Rule {
    Rule { code, severity }
}

pub(crate) const NOT_XML: Rule = rule(Code::NotXml);
pub(crate) const BAD_ROOT_OR_NAMESPACE: Rule = rule(Code::BadRootOrNamespace);
pub(crate) const GZIP_INVALID: Rule = rule(Code::GzipInvalid);
pub(crate) const TOO_MANY_URLS: Rule = rule(Code::TooManyUrls);
pub(crate) const TOO_LARGE: Rule = rule(Code::TooLarge);
pub(crate) const EMPTY: Rule = rule(Code::Empty);
pub(crate) const EMPTY_NEWS: Rule = rule_at(Code::Empty, Severity::Notice);
pub(crate) const FETCH_ERROR: Rule = rule(Code::FetchError);
pub(crate) const LIMITS_EXCEEDED: Rule = rule(Code::LimitsExceeded);
pub(crate) const UNSAFE_XML: Rule = rule(Code::UnsafeXml);
pub(crate) const LOC_INVALID: Rule = rule(Code::LocInvalid);
pub(crate) const CROSS_HOST_URL: Rule = rule(Code::CrossHostUrl);
pub(crate) const OUT_OF_PATH_SCOPE: Rule = rule(Code::OutOfPathScope);
pub(crate) const INDEX_CHILD_OUT_OF_SCOPE: Rule = rule(Code::IndexChildOutOfScope);
pub(crate) const LASTMOD_INVALID: Rule = rule(Code::LastmodInvalid);
pub(crate) const LASTMOD_FUTURE: Rule = rule(Code::LastmodFuture);
pub(crate) const LASTMOD_UNIFORM: Rule = rule(Code::LastmodUniform);
pub(crate) const CHANGEFREQ_PRIORITY: Rule = rule(Code::ChangefreqPriority);
pub(crate) const CHANGEFREQ_PRIORITY_INVALID: Rule =
    rule_at(Code::ChangefreqPriority, Severity::Warning);
pub(crate) const DUPLICATE_URL: Rule = rule(Code::DuplicateUrl);
pub(crate) const HREFLANG_INVALID: Rule = rule(Code::HreflangInvalid);
pub(crate) const IMAGE_LIMIT: Rule = rule(Code::ImageLimit);
pub(crate) const IMAGE_INVALID: Rule = rule(Code::ImageInvalid);
pub(crate) const VIDEO_INVALID: Rule = rule(Code::VideoInvalid);
pub(crate) const NEWS_INVALID: Rule = rule(Code::NewsInvalid);
pub(crate) const NEWS_STALE: Rule = rule(Code::NewsStale);

crawlgate_issue::issue_codes! {
    /// The rules this module reports (RULES.md §2.6 and §2.8): one code per rule, its id and default
    /// severity written here and nowhere else.
    pub enum Code {
        /// Not well-formed XML, nor a text sitemap; HTML served instead of a sitemap.
        NotXml = ("sitemap/not-xml", Error),
        /// Root not `urlset`/`sitemapindex`/`rss`/Atom `feed`, the sitemaps.org namespace wrong, or
        /// an element unknown in it or taken out of it.
        BadRootOrNamespace = ("sitemap/bad-root-or-namespace", Warning),
        /// The body starts with gzip's magic bytes but is not valid, complete gzip.
        GzipInvalid = ("sitemap/gzip-invalid", Error),
        /// More than 50,000 entries.
        TooManyUrls = ("sitemap/too-many-urls", Error),
        /// More than 52,428,800 bytes uncompressed.
        TooLarge = ("sitemap/too-large", Error),
        /// No entries.
        Empty = ("sitemap/empty", Warning),
        /// Reading the body failed (an error of the reader handed to the parser).
        FetchError = ("sitemap/fetch-error", Error),
        /// A safety cap of this tool was hit; the result is partial.
        LimitsExceeded = ("sitemap/limits-exceeded", Warning),
        /// DOCTYPE/ENTITY declarations, or decompression past the safety cap: not parsed further.
        UnsafeXml = ("sitemap/unsafe-xml", Error),
        /// `<loc>` missing, empty, not absolute http(s), longer than 2,048 characters or unescaped.
        LocInvalid = ("sitemap/loc-invalid", Error),
        /// A URL on another scheme, host or port than the sitemap.
        CrossHostUrl = ("sitemap/cross-host-url", Error),
        /// A URL outside the directory of a sitemap that is not at the root.
        OutOfPathScope = ("sitemap/out-of-path-scope", Warning),
        /// An index child on another site or outside the index's directory.
        IndexChildOutOfScope = ("sitemap/index-child-out-of-scope", Warning),
        /// `<lastmod>` not in a W3C Datetime form.
        LastmodInvalid = ("sitemap/lastmod-invalid", Warning),
        /// `<lastmod>` later than the check time plus one day.
        LastmodFuture = ("sitemap/lastmod-future", Warning),
        /// At least 90 % of at least 100 entries share one `<lastmod>`.
        LastmodUniform = ("sitemap/lastmod-uniform", Notice),
        /// `<changefreq>`/`<priority>` present (ignored by Google), or with invalid values.
        ChangefreqPriority = ("sitemap/changefreq-priority", Notice),
        /// The same URL listed twice.
        DuplicateUrl = ("sitemap/duplicate-url", Notice),
        /// An `xhtml:link` hreflang alternate that is invalid or not reciprocated.
        HreflangInvalid = ("sitemap/hreflang-invalid", Error),
        /// More than 1,000 `image:image` in one `<url>`.
        ImageLimit = ("sitemap/image-limit", Error),
        /// An `image:image` without `image:loc`, or whose `image:loc` is no http(s) URL.
        ImageInvalid = ("sitemap/image-invalid", Error),
        /// A `video:video` missing required fields, with values outside Google's limits, or its
        /// `content_loc` equal to the page.
        VideoInvalid = ("sitemap/video-invalid", Error),
        /// A `news:news` missing required fields, or with a malformed language or date.
        NewsInvalid = ("sitemap/news-invalid", Error),
        /// A `news:publication_date` older than two days.
        NewsStale = ("sitemap/news-stale", Warning),
        /// An index whose children lead back to it (reported by whoever follows the index: the
        /// crawler, `sitemap check`).
        Cycle = ("sitemap/cycle", Error),
        /// An index that lists another index (reported by whoever follows the index: the crawler,
        /// `sitemap check`).
        NestedIndex = ("sitemap/nested-index", Error),
    }
}

/// The rule ids as strings, derived from [`Code`], for matching on [`Issue::rule`].
pub mod rule_ids {
    use super::Code;

    /// Not well-formed XML, nor a text sitemap; HTML served instead of a sitemap.
    pub const NOT_XML: &str = Code::NotXml.id();
    /// Root not `urlset`/`sitemapindex`/`rss`/Atom `feed`, the sitemaps.org namespace wrong, or
    /// an element unknown in it or taken out of it.
    pub const BAD_ROOT_OR_NAMESPACE: &str = Code::BadRootOrNamespace.id();
    /// The body starts with gzip's magic bytes but is not valid, complete gzip.
    pub const GZIP_INVALID: &str = Code::GzipInvalid.id();
    /// More than 50,000 entries.
    pub const TOO_MANY_URLS: &str = Code::TooManyUrls.id();
    /// More than 52,428,800 bytes uncompressed.
    pub const TOO_LARGE: &str = Code::TooLarge.id();
    /// No entries.
    pub const EMPTY: &str = Code::Empty.id();
    /// Reading the body failed (an error of the reader handed to the parser).
    pub const FETCH_ERROR: &str = Code::FetchError.id();
    /// A safety cap of this tool was hit; the result is partial.
    pub const LIMITS_EXCEEDED: &str = Code::LimitsExceeded.id();
    /// DOCTYPE/ENTITY declarations, or decompression past the safety cap: not parsed further.
    pub const UNSAFE_XML: &str = Code::UnsafeXml.id();
    /// `<loc>` missing, empty, not absolute http(s), longer than 2,048 characters or unescaped.
    pub const LOC_INVALID: &str = Code::LocInvalid.id();
    /// A URL on another scheme, host or port than the sitemap.
    pub const CROSS_HOST_URL: &str = Code::CrossHostUrl.id();
    /// A URL outside the directory of a sitemap that is not at the root.
    pub const OUT_OF_PATH_SCOPE: &str = Code::OutOfPathScope.id();
    /// An index child on another site or outside the index's directory.
    pub const INDEX_CHILD_OUT_OF_SCOPE: &str = Code::IndexChildOutOfScope.id();
    /// `<lastmod>` not in a W3C Datetime form.
    pub const LASTMOD_INVALID: &str = Code::LastmodInvalid.id();
    /// `<lastmod>` later than the check time plus one day.
    pub const LASTMOD_FUTURE: &str = Code::LastmodFuture.id();
    /// At least 90 % of at least 100 entries share one `<lastmod>`.
    pub const LASTMOD_UNIFORM: &str = Code::LastmodUniform.id();
    /// `<changefreq>`/`<priority>` present (ignored by Google), or with invalid values.
    pub const CHANGEFREQ_PRIORITY: &str = Code::ChangefreqPriority.id();
    /// The same URL listed twice.
    pub const DUPLICATE_URL: &str = Code::DuplicateUrl.id();
    /// An `xhtml:link` hreflang alternate that is invalid or not reciprocated.
    pub const HREFLANG_INVALID: &str = Code::HreflangInvalid.id();
    /// More than 1,000 `image:image` in one `<url>`.
    pub const IMAGE_LIMIT: &str = Code::ImageLimit.id();
    /// An `image:image` without `image:loc`, or whose `image:loc` is no http(s) URL.
    pub const IMAGE_INVALID: &str = Code::ImageInvalid.id();
    /// A `video:video` missing required fields, with values outside Google's limits, or its
    /// `content_loc` equal to the page.
    pub const VIDEO_INVALID: &str = Code::VideoInvalid.id();
    /// A `news:news` missing required fields, or with a malformed language or date.
    pub const NEWS_INVALID: &str = Code::NewsInvalid.id();
    /// A `news:publication_date` older than two days.
    pub const NEWS_STALE: &str = Code::NewsStale.id();
    /// An index whose children lead back to it (reported by whoever follows the index: the
    /// crawler, `sitemap check`).
    pub const CYCLE: &str = Code::Cycle.id();
    /// An index that lists another index (reported by whoever follows the index: the crawler,
    /// `sitemap check`).
    pub const NESTED_INDEX: &str = Code::NestedIndex.id();
}

/// Where an issue is: 1-based line and column (columns count bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) struct Position {
    pub(crate) line: u32,
    pub(crate) column: u32,
}

/// How many issues of one rule are kept before the rest are only counted.
pub const MAX_ISSUES_PER_RULE: u32 = 1_000;

/// The longest message kept, in bytes: quoted values are already shortened to 200 characters,
/// but a message quoting two of them in a non-Latin script could reach 2 KB.
const MAX_MESSAGE_BYTES: usize = 600;

/// A message cut to [`MAX_MESSAGE_BYTES`] on a character boundary, holding no spare capacity:
/// `format!` grows its buffer by doubling, and thousands of kept issues would carry the slack.
fn bounded(mut message: String) -> String {
    if message.len() > MAX_MESSAGE_BYTES {
        let mut cut = MAX_MESSAGE_BYTES - '…'.len_utf8();
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push('…');
    }
    message.shrink_to_fit();
    message
}

#[derive(Debug)]
struct RuleCount {
    code: Code,
    kept: u32,
    dropped: u64,
    worst_dropped: Severity,
}

/// Collects issues, keeping at most [`MAX_ISSUES_PER_RULE`] per rule and counting the rest, so a
/// broken 50,000-URL file cannot blow memory.
#[derive(Debug, Default)]
pub(crate) struct Issues {
    kept: Vec<Issue>,
    counts: Vec<RuleCount>,
}

impl Issues {
    /// Records an issue; `message` is only built when the issue is kept.
    pub(crate) fn push(
        &mut self,
        rule: Rule,
        position: Option<Position>,
        message: impl FnOnce() -> String,
    ) {
        let index =
            if let Some(index) = self.counts.iter().position(|count| count.code == rule.code) {
                index
            } else {
                self.counts.push(RuleCount {
                    code: rule.code,
                    kept: 0,
                    dropped: 0,
                    worst_dropped: Severity::Notice,
                });
                self.counts.len() - 1
            };
        let Some(count) = self.counts.get_mut(index) else {
            return;
        };
        if count.kept >= MAX_ISSUES_PER_RULE {
            count.dropped += 1;
            count.worst_dropped = count.worst_dropped.max(rule.severity);
            return;
        }
        count.kept += 1;
        self.kept.push(Issue {
            code: rule.code,
            severity: rule.severity,
            line: position.map(|at| at.line),
            column: position.map(|at| at.column),
            message: bounded(message()),
        });
    }

    /// Whether an issue of this rule was recorded.
    pub(crate) fn has(&self, code: Code) -> bool {
        self.counts.iter().any(|count| count.code == code)
    }

    /// The issues sorted by (line, column, rule), whole-document issues first, with one summary
    /// issue per rule that had more than [`MAX_ISSUES_PER_RULE`].
    pub(crate) fn finish(mut self) -> Vec<Issue> {
        for count in &self.counts {
            if count.dropped > 0 {
                self.kept.push(Issue {
                    code: count.code,
                    severity: count.worst_dropped,
                    line: None,
                    column: None,
                    message: format!(
                        "{} more `{}` issues not listed (only the first {MAX_ISSUES_PER_RULE} are \
                         kept)",
                        count.dropped,
                        count.code.id()
                    ),
                });
            }
        }
        self.kept
            .sort_by(|a, b| (a.line, a.column, a.code.id()).cmp(&(b.line, b.column, b.code.id())));
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_bounded_number_per_rule_then_summarises() {
        let mut issues = Issues::default();
        let mut built = 0;
        for line in 1..=1_005 {
            issues.push(LOC_INVALID, Some(Position { line, column: 1 }), || {
                built += 1;
                "bad".to_owned()
            });
        }
        issues.push(EMPTY, None, || "empty".to_owned());
        let list = issues.finish();
        assert_eq!(built, 1_000, "messages of dropped issues are never built");
        assert_eq!(list.len(), 1_002);
        let summary: Vec<_> = list.iter().filter(|issue| issue.line.is_none()).collect();
        assert_eq!(summary.len(), 2);
        assert!(
            summary
                .iter()
                .any(|issue| issue.message.starts_with("5 more `sitemap/loc-invalid`"))
        );
    }

    #[test]
    fn long_messages_are_cut_on_a_character_boundary() {
        let mut issues = Issues::default();
        issues.push(LOC_INVALID, None, || "é".repeat(1_000));
        issues.push(LOC_INVALID, None, || "short".to_owned());
        let list = issues.finish();
        assert_eq!(list[0].message.len(), MAX_MESSAGE_BYTES - 1);
        assert!(list[0].message.ends_with('…'));
        assert_eq!(list[0].message.capacity(), list[0].message.len());
        assert_eq!(list[1].message, "short");
    }

    #[test]
    fn sorted_by_line_column_rule() {
        let mut issues = Issues::default();
        let at = |line, column| Some(Position { line, column });
        issues.push(LASTMOD_INVALID, at(3, 5), String::new);
        issues.push(LOC_INVALID, at(3, 5), String::new);
        issues.push(NOT_XML, at(1, 9), String::new);
        issues.push(TOO_LARGE, None, String::new);
        let order: Vec<_> = issues
            .finish()
            .iter()
            .map(|issue| (issue.line, issue.rule()))
            .collect();
        assert_eq!(
            order,
            vec![
                (None, rule_ids::TOO_LARGE),
                (Some(1), rule_ids::NOT_XML),
                (Some(3), rule_ids::LASTMOD_INVALID),
                (Some(3), rule_ids::LOC_INVALID),
            ]
        );
    }
}
