//! The sitemap rules (ids and default severities of RULES.md §2.6 and §2.8) and a collector that
//! keeps the issue list bounded on hostile or badly broken documents.

use crate::{Issue, Severity};

/// A rule this module reports: its stable id and default severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) id: &'static str,
    pub(crate) severity: Severity,
}

const fn rule(id: &'static str, severity: Severity) -> Rule {
    Rule { id, severity }
}

pub(crate) const NOT_XML: Rule = rule(rule_ids::NOT_XML, Severity::Error);
pub(crate) const BAD_ROOT_OR_NAMESPACE: Rule =
    rule(rule_ids::BAD_ROOT_OR_NAMESPACE, Severity::Warning);
pub(crate) const GZIP_INVALID: Rule = rule(rule_ids::GZIP_INVALID, Severity::Error);
pub(crate) const TOO_MANY_URLS: Rule = rule(rule_ids::TOO_MANY_URLS, Severity::Error);
pub(crate) const TOO_LARGE: Rule = rule(rule_ids::TOO_LARGE, Severity::Error);
pub(crate) const EMPTY: Rule = rule(rule_ids::EMPTY, Severity::Warning);
pub(crate) const EMPTY_NEWS: Rule = rule(rule_ids::EMPTY, Severity::Notice);
pub(crate) const FETCH_ERROR: Rule = rule(rule_ids::FETCH_ERROR, Severity::Error);
pub(crate) const LIMITS_EXCEEDED: Rule = rule(rule_ids::LIMITS_EXCEEDED, Severity::Warning);
pub(crate) const UNSAFE_XML: Rule = rule(rule_ids::UNSAFE_XML, Severity::Error);
pub(crate) const LOC_INVALID: Rule = rule(rule_ids::LOC_INVALID, Severity::Error);
pub(crate) const CROSS_HOST_URL: Rule = rule(rule_ids::CROSS_HOST_URL, Severity::Error);
pub(crate) const OUT_OF_PATH_SCOPE: Rule = rule(rule_ids::OUT_OF_PATH_SCOPE, Severity::Warning);
pub(crate) const INDEX_CHILD_OUT_OF_SCOPE: Rule =
    rule(rule_ids::INDEX_CHILD_OUT_OF_SCOPE, Severity::Warning);
pub(crate) const LASTMOD_INVALID: Rule = rule(rule_ids::LASTMOD_INVALID, Severity::Warning);
pub(crate) const LASTMOD_FUTURE: Rule = rule(rule_ids::LASTMOD_FUTURE, Severity::Warning);
pub(crate) const LASTMOD_UNIFORM: Rule = rule(rule_ids::LASTMOD_UNIFORM, Severity::Notice);
pub(crate) const CHANGEFREQ_PRIORITY: Rule = rule(rule_ids::CHANGEFREQ_PRIORITY, Severity::Notice);
pub(crate) const CHANGEFREQ_PRIORITY_INVALID: Rule =
    rule(rule_ids::CHANGEFREQ_PRIORITY, Severity::Warning);
pub(crate) const DUPLICATE_URL: Rule = rule(rule_ids::DUPLICATE_URL, Severity::Notice);
pub(crate) const HREFLANG_INVALID: Rule = rule(rule_ids::HREFLANG_INVALID, Severity::Error);
pub(crate) const IMAGE_LIMIT: Rule = rule(rule_ids::IMAGE_LIMIT, Severity::Error);
pub(crate) const VIDEO_INVALID: Rule = rule(rule_ids::VIDEO_INVALID, Severity::Error);
pub(crate) const NEWS_INVALID: Rule = rule(rule_ids::NEWS_INVALID, Severity::Error);
pub(crate) const NEWS_STALE: Rule = rule(rule_ids::NEWS_STALE, Severity::Warning);

/// The rule ids this module reports (RULES.md §2.6 and §2.8), for matching on [`Issue::rule`].
pub mod rule_ids {
    /// Not well-formed XML, nor a text sitemap; HTML served instead of a sitemap.
    pub const NOT_XML: &str = "sitemap/not-xml";
    /// Root not `urlset`/`sitemapindex`/`rss`/Atom `feed`, or the sitemaps.org namespace wrong.
    pub const BAD_ROOT_OR_NAMESPACE: &str = "sitemap/bad-root-or-namespace";
    /// The body starts with gzip's magic bytes but is not valid, complete gzip.
    pub const GZIP_INVALID: &str = "sitemap/gzip-invalid";
    /// More than 50,000 entries.
    pub const TOO_MANY_URLS: &str = "sitemap/too-many-urls";
    /// More than 52,428,800 bytes uncompressed.
    pub const TOO_LARGE: &str = "sitemap/too-large";
    /// No entries.
    pub const EMPTY: &str = "sitemap/empty";
    /// Reading the body failed (an error of the reader handed to the parser).
    pub const FETCH_ERROR: &str = "sitemap/fetch-error";
    /// A safety cap of this tool was hit; the result is partial.
    pub const LIMITS_EXCEEDED: &str = "sitemap/limits-exceeded";
    /// DOCTYPE/ENTITY declarations, or decompression past the safety cap: not parsed further.
    pub const UNSAFE_XML: &str = "sitemap/unsafe-xml";
    /// `<loc>` missing, empty, not absolute http(s), longer than 2,048 characters or unescaped.
    pub const LOC_INVALID: &str = "sitemap/loc-invalid";
    /// A URL on another scheme, host or port than the sitemap.
    pub const CROSS_HOST_URL: &str = "sitemap/cross-host-url";
    /// A URL outside the directory of a sitemap that is not at the root.
    pub const OUT_OF_PATH_SCOPE: &str = "sitemap/out-of-path-scope";
    /// An index child on another site or outside the index's directory.
    pub const INDEX_CHILD_OUT_OF_SCOPE: &str = "sitemap/index-child-out-of-scope";
    /// `<lastmod>` not in a W3C Datetime form.
    pub const LASTMOD_INVALID: &str = "sitemap/lastmod-invalid";
    /// `<lastmod>` later than the check time plus one day.
    pub const LASTMOD_FUTURE: &str = "sitemap/lastmod-future";
    /// At least 90 % of at least 100 entries share one `<lastmod>`.
    pub const LASTMOD_UNIFORM: &str = "sitemap/lastmod-uniform";
    /// `<changefreq>`/`<priority>` present (ignored by Google), or with invalid values.
    pub const CHANGEFREQ_PRIORITY: &str = "sitemap/changefreq-priority";
    /// The same URL listed twice.
    pub const DUPLICATE_URL: &str = "sitemap/duplicate-url";
    /// An `xhtml:link` hreflang alternate that is invalid or not reciprocated.
    pub const HREFLANG_INVALID: &str = "sitemap/hreflang-invalid";
    /// More than 1,000 `image:image` in one `<url>`.
    pub const IMAGE_LIMIT: &str = "sitemap/image-limit";
    /// A `video:video` missing required fields, or its `content_loc` equal to the page.
    pub const VIDEO_INVALID: &str = "sitemap/video-invalid";
    /// A `news:news` missing required fields.
    pub const NEWS_INVALID: &str = "sitemap/news-invalid";
    /// A `news:publication_date` older than two days.
    pub const NEWS_STALE: &str = "sitemap/news-stale";
}

/// Where an issue is: 1-based line and column (columns count bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) struct Position {
    pub(crate) line: u32,
    pub(crate) column: u32,
}

/// How many issues of one rule are kept before the rest are only counted.
pub const MAX_ISSUES_PER_RULE: u32 = 1_000;

#[derive(Debug)]
struct RuleCount {
    id: &'static str,
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
        let index = if let Some(index) = self.counts.iter().position(|count| count.id == rule.id) {
            index
        } else {
            self.counts.push(RuleCount {
                id: rule.id,
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
            rule: rule.id,
            severity: rule.severity,
            line: position.map(|at| at.line),
            column: position.map(|at| at.column),
            message: message(),
        });
    }

    /// Whether an issue of this rule id was recorded.
    pub(crate) fn has(&self, id: &str) -> bool {
        self.counts.iter().any(|count| count.id == id)
    }

    /// The issues sorted by (line, column, rule), whole-document issues first, with one summary
    /// issue per rule that had more than [`MAX_ISSUES_PER_RULE`].
    pub(crate) fn finish(mut self) -> Vec<Issue> {
        for count in &self.counts {
            if count.dropped > 0 {
                self.kept.push(Issue {
                    rule: count.id,
                    severity: count.worst_dropped,
                    line: None,
                    column: None,
                    message: format!(
                        "{} more `{}` issues not listed (only the first {MAX_ISSUES_PER_RULE} are \
                         kept)",
                        count.dropped, count.id
                    ),
                });
            }
        }
        self.kept
            .sort_by(|a, b| (a.line, a.column, a.rule).cmp(&(b.line, b.column, b.rule)));
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
            .map(|issue| (issue.line, issue.rule))
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
