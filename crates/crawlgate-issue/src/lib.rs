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

/// A failure threshold (`--fail-on`): a severity, or never. Every command that sets its exit
/// status from findings or issues reads it the same way.
///
/// Serialised as the severity's name, or `null` for never.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FailOn(pub Option<Severity>);

impl FailOn {
    /// Never fail.
    pub const NEVER: FailOn = FailOn(None);

    /// Fail on `severity` or worse.
    pub const fn at(severity: Severity) -> FailOn {
        FailOn(Some(severity))
    }

    /// Whether something of `severity` crosses the threshold.
    pub fn fails(self, severity: Severity) -> bool {
        self.0.is_some_and(|threshold| severity >= threshold)
    }
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(severity) => f.pad(severity.as_str()),
            None => f.pad("never"),
        }
    }
}

impl std::str::FromStr for FailOn {
    type Err = String;

    /// `critical`, `error`, `warning`, `notice` or `never`, in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.eq_ignore_ascii_case("never") {
            return Ok(FailOn::NEVER);
        }
        text.parse::<Severity>()
            .map(FailOn::at)
            .map_err(|_| format!("`{text}` is not one of critical, error, warning, notice, never"))
    }
}

/// A typed issue code: one variant per rule a parser reports, as cargo-deny's `Code`.
///
/// The code is the rule's one home: its id (`family/kebab-name`, the public contract of configs,
/// baselines and SARIF) and its default severity are written once, on the code, and the rule
/// catalogue derives its metadata from it.
pub trait Code: Copy + Eq + Ord + std::hash::Hash + fmt::Debug + Send + Sync + 'static {
    /// The stable rule id, `family/kebab-name` (e.g. `robots/typo-field`).
    fn id(self) -> &'static str;
    /// The severity of an issue of this code unless the parser escalates or softens one case.
    fn default_severity(self) -> Severity;
    /// The code whose id is `id`, if any (reading a serialised issue back).
    fn from_id(id: &str) -> Option<Self>;
}

/// Declares a parser's typed [`Code`] enum: each variant with its rule id and default
/// severity, written once; generates `ALL`, `id()`, `default_severity()`, `from_id()` and the
/// [`Code`] implementation.
///
/// ```
/// crawlgate_issue::issue_codes! {
///     /// The rules of an example parser.
///     pub enum Code {
///         /// A line that is too long.
///         LineTooLong = ("example/line-too-long", Notice),
///         /// A field nobody reads.
///         UnknownField = ("example/unknown-field", Warning),
///     }
/// }
/// assert_eq!(Code::LineTooLong.id(), "example/line-too-long");
/// assert_eq!(Code::from_id("example/unknown-field"), Some(Code::UnknownField));
/// assert_eq!(Code::ALL.len(), 2);
/// ```
#[macro_export]
macro_rules! issue_codes {
    (
        $(#[doc = $enum_doc:literal])*
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $variant:ident = ($id:literal, $severity:ident),
            )*
        }
    ) => {
        $(#[doc = $enum_doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {
            $(
                $(#[doc = $doc])*
                $variant,
            )*
        }

        impl $name {
            /// Every code, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The stable rule id, `family/kebab-name`.
            pub const fn id(self) -> &'static str {
                match self {
                    $($name::$variant => $id,)*
                }
            }

            /// The severity of this rule's issues unless one case is escalated or softened.
            pub const fn default_severity(self) -> $crate::Severity {
                match self {
                    $($name::$variant => $crate::Severity::$severity,)*
                }
            }

            /// The code whose id is `id`, if any.
            pub fn from_id(id: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|code| code.id() == id)
            }
        }

        impl $crate::Code for $name {
            fn id(self) -> &'static str {
                $name::id(self)
            }

            fn default_severity(self) -> $crate::Severity {
                $name::default_severity(self)
            }

            fn from_id(id: &str) -> Option<$name> {
                $name::from_id(id)
            }
        }
    };
}

/// A problem inside one document, located by 1-based line (and column where known), under a
/// typed [`Code`].
///
/// Serialised as `{"rule": id, "severity", "line", "column", "message"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue<C> {
    /// What the problem is: the rule it breaks.
    pub code: C,
    pub severity: Severity,
    /// 1-based line in the document; `None` for whole-document issues.
    pub line: Option<u32>,
    /// 1-based column, where the parser knows it.
    pub column: Option<u32>,
    /// One sentence for a human, quoting the offending text.
    pub message: String,
}

impl<C: Code> Issue<C> {
    /// The stable id of the issue's rule (`robots/typo-field`).
    pub fn rule(&self) -> &'static str {
        self.code.id()
    }
}

impl<'de, C: Code> Deserialize<'de> for Issue<C> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Record {
            rule: String,
            severity: Severity,
            line: Option<u32>,
            column: Option<u32>,
            message: String,
        }
        let record = Record::deserialize(deserializer)?;
        let code = C::from_id(&record.rule).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown rule id `{}`", record.rule))
        })?;
        Ok(Issue {
            code,
            severity: record.severity,
            line: record.line,
            column: record.column,
            message: record.message,
        })
    }
}

impl<C: Code> Serialize for Issue<C> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut record = serializer.serialize_struct("Issue", 5)?;
        record.serialize_field("rule", self.code.id())?;
        record.serialize_field("severity", &self.severity)?;
        record.serialize_field("line", &self.line)?;
        record.serialize_field("column", &self.column)?;
        record.serialize_field("message", &self.message)?;
        record.end()
    }
}

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
