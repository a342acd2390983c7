//! Severities and document-level issues.
//!
//! An [`Issue`] is a problem found inside one document (a robots.txt line, a sitemap position) by a
//! parser or validator that needs nothing but that document. The audit turns issues into findings
//! with evidence; the `robots lint` and `sitemap check` commands print them directly.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How bad a finding is. Ordered: `Notice < Warning < Error < Critical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational or best practice.
    Notice,
    /// Likely mistake, conflicting signals, portability risk.
    Warning,
    /// URL-level failure, or a signal the search engine will ignore.
    Error,
    /// Site-wide loss of crawling or indexing is likely.
    Critical,
}

impl Severity {
    /// All severities, most severe first.
    pub const ALL: [Severity; 4] = [
        Severity::Critical,
        Severity::Error,
        Severity::Warning,
        Severity::Notice,
    ];

    /// The lowercase name used in output and config (`critical`, `error`, `warning`, `notice`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Notice => "notice",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Critical => "critical",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl std::str::FromStr for Severity {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "notice" => Ok(Severity::Notice),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            "critical" => Ok(Severity::Critical),
            other => Err(format!(
                "unknown severity `{other}` (expected critical, error, warning or notice)"
            )),
        }
    }
}

/// A problem inside one document, located by 1-based line (and column where known).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// Stable rule id, `family/kebab-name` (e.g. `robots/typo-field`).
    pub rule: &'static str,
    pub severity: Severity,
    /// 1-based line in the document; `None` for whole-document issues.
    pub line: Option<u32>,
    /// 1-based column, where the parser knows it.
    pub column: Option<u32>,
    /// One sentence for a human, quoting the offending text.
    pub message: String,
}

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
