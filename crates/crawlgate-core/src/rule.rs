//! The rule plugin interface: a [`Rule`] is a pure function of a [`Site`] that reports
//! [`Finding`]s through a [`Findings`] sink.
//!
//! Rules are unit structs declared with [`declare_rule!`](crate::declare_rule), which captures the
//! rule's `///` docs (sections *What it does*, *Why is this bad?*, *Example*, *How to fix*) and its
//! source file into its [`RuleMeta`] and implements [`Declared`], so the docs the CLI prints
//! (`crawlgate explain`) and the reports quote are the code's own. A rule a parser reports takes
//! its id and severity from the parser's typed code (`code: robots::lint::Code::TypoField`): each
//! rule id is written once. The sink stamps the rule id and the configured severity, so a rule
//! only says what it found.

use crate::Severity;
use crate::finding::{Evidence, Finding};
use crate::site::Site;
use std::fmt::Debug;

/// A check over a crawled site. Implementations must be pure: no IO, no clock (the audit time is
/// [`Site::audit_time`]), no randomness, so the same site always gives the same findings.
///
/// Its identity comes from [`Declared`], which [`declare_rule!`](crate::declare_rule) implements.
pub trait Rule: Declared + Send + Sync + Debug {
    /// Report every instance of the problem in `site` into `out`.
    fn check(&self, site: &Site, out: &mut Findings<'_>);

    /// Whether the rule finds what it finds page by page: each finding comes from one
    /// resource its iteration ([`Site::resources`], [`Site::fetched`]) yields, and depends on
    /// that resource and on lookups only (no count, set or "first" kept across resources).
    /// Such a rule gives the same findings run over the site a window at a time
    /// ([`Site::set_window`]), which is how an audit whose pages are in the page store runs it:
    /// each stored page is read once for all such rules. `false` (the default) runs the rule
    /// over the whole site.
    fn page_local(&self) -> bool {
        false
    }
}

/// A rule's identity and docs: implemented by [`declare_rule!`](crate::declare_rule), never by
/// hand in crawlgate's own rules.
pub trait Declared {
    /// The rule's id, severity, docs and source file.
    fn meta(&self) -> &'static RuleMeta;
}

/// A rule's identity and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// Stable id, `family/kebab-name`: the public contract of configs, baselines and SARIF.
    pub id: &'static str,
    /// Severity when configuration does not override it (a rule may escalate single findings).
    pub default_severity: Severity,
    /// One line: what the finding means.
    pub summary: &'static str,
    /// The Markdown docs from the rule's `///` comment.
    pub docs: &'static str,
    /// The file that declares the rule, relative to the workspace root
    /// (`crates/crawlgate-rules/src/robots/blocked_noindex.rs`), for docs that link to it.
    pub source: &'static str,
}

impl RuleMeta {
    /// The family: the part of the id before `/` (`robots`, `canonical`, …).
    pub fn family(&self) -> &'static str {
        match self.id.split_once('/') {
            Some((family, _)) => family,
            None => self.id,
        }
    }

    /// The docs as Markdown: the `///` lines with the space after `///` removed.
    pub fn docs_markdown(&self) -> String {
        let mut text = String::with_capacity(self.docs.len());
        for line in self.docs.lines() {
            text.push_str(line.strip_prefix(' ').unwrap_or(line));
            text.push('\n');
        }
        text
    }

    /// The text under one `## Heading` of the docs, up to the next heading, trimmed; `None`
    /// when the docs have no such heading.
    pub fn doc_section(&self, heading: &str) -> Option<String> {
        let docs = self.docs_markdown();
        let mut lines = docs.lines();
        let found = lines.by_ref().any(|line| {
            line.strip_prefix("## ")
                .is_some_and(|title| title.trim().eq_ignore_ascii_case(heading))
        });
        found.then(|| {
            lines
                .take_while(|line| !line.starts_with("## "))
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_owned()
        })
    }
}

/// Declare a rule: a documented unit struct with its [`RuleMeta`] in `Self::META`, and its
/// [`Declared`] implementation.
///
/// A rule of its own names its id and severity; a rule that reports a parser's issues names the
/// parser's typed code instead, and takes the id and default severity from it (each id has one
/// home).
///
/// ```
/// use crawlgate_core::rule::{Declared, Findings, Rule};
///
/// crawlgate_core::declare_rule! {
///     /// ## What it does
///     /// Flags every page.
///     /// ## Why is this bad?
///     /// It is an example.
///     /// ## Example
///     /// Any page.
///     /// ## How to fix
///     /// Nothing to fix.
///     pub struct EveryPage {
///         id: "example/every-page",
///         severity: Notice,
///         summary: "Every page, as an example",
///     }
/// }
/// impl Rule for EveryPage {
///     fn check(&self, _site: &crawlgate_core::Site, _out: &mut Findings<'_>) {}
/// }
/// assert_eq!(EveryPage.meta().id, "example/every-page");
/// assert_eq!(EveryPage::META.doc_section("What it does").as_deref(), Some("Flags every page."));
/// assert_eq!(EveryPage::META.doc_section("How to fix").as_deref(), Some("Nothing to fix."));
/// assert!(EveryPage::META.source.ends_with(".rs"));
///
/// crawlgate_core::declare_rule! {
///     /// ## What it does
///     /// Reports the BOM the robots.txt linter found.
///     pub struct Bom {
///         code: crawlgate_core::robots::lint::Code::Bom,
///         summary: "The file starts with a byte order mark",
///     }
/// }
/// assert_eq!(Bom::META.id, "robots/bom");
/// assert_eq!(Bom::META.default_severity, crawlgate_core::Severity::Notice);
/// ```
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident {
            id: $id:literal,
            severity: $severity:ident,
            summary: $summary:literal $(,)?
        }
    ) => {
        $crate::declare_rule! {
            @meta $(#[doc = $doc])* $vis $name, $id, $crate::Severity::$severity, $summary
        }
    };
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident {
            code: $code:expr,
            summary: $summary:literal $(,)?
        }
    ) => {
        $crate::declare_rule! {
            @meta $(#[doc = $doc])* $vis $name, $code.id(), $code.default_severity(), $summary
        }
    };
    (
        @meta $(#[doc = $doc:literal])* $vis:vis $name:ident, $id:expr, $severity:expr,
        $summary:literal
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $name;

        impl $name {
            /// This rule's id, default severity and docs, captured from its declaration.
            pub const META: $crate::rule::RuleMeta = $crate::rule::RuleMeta {
                id: $id,
                default_severity: $severity,
                summary: $summary,
                docs: concat!($($doc, "\n"),*),
                source: file!(),
            };
        }

        impl $crate::rule::Declared for $name {
            fn meta(&self) -> &'static $crate::rule::RuleMeta {
                &Self::META
            }
        }
    };
}

/// Findings one rule keeps in one audit: past it the first by report order are kept and the rest
/// counted ([`Findings::finish`]), so a site that breaks a rule on every one of millions of
/// sitemap URLs costs bounded memory and report size.
pub const MAX_FINDINGS_PER_RULE: usize = 10_000;

/// The sink a rule reports into. It stamps the rule id and the configured severity, and keeps
/// at most [`MAX_FINDINGS_PER_RULE`].
#[derive(Debug)]
pub struct Findings<'a> {
    meta: &'static RuleMeta,
    /// Severity set by configuration; overrides the rule's own choice.
    configured: Option<Severity>,
    out: &'a mut Vec<Finding>,
    /// Where this sink's findings start in `out`.
    start: usize,
    /// Findings dropped by the bound so far.
    omitted: u64,
}

impl<'a> Findings<'a> {
    /// A sink for `meta`'s findings, appending to `out`. `configured` is the severity set by the
    /// user's configuration, if any.
    pub fn new(
        meta: &'static RuleMeta,
        configured: Option<Severity>,
        out: &'a mut Vec<Finding>,
    ) -> Self {
        Self {
            meta,
            configured,
            start: out.len(),
            out,
            omitted: 0,
        }
    }

    /// Applies the bound and says how many findings it left out: of all those reported, the
    /// first [`MAX_FINDINGS_PER_RULE`] in report order stay, whatever order they came in.
    pub fn finish(mut self) -> u64 {
        self.keep_first(MAX_FINDINGS_PER_RULE);
        self.omitted
    }

    fn keep_first(&mut self, cap: usize) {
        self.omitted += keep_first_from(self.out, self.start, cap);
    }

    /// Report a finding at the rule's default severity.
    ///
    /// `evidence` must not be empty (primary first); a finding without evidence is a bug in the
    /// rule, caught by the rule meta-tests.
    pub fn report(&mut self, report: Occurrence) {
        let severity = self
            .configured
            .or(report.severity)
            .unwrap_or(self.meta.default_severity);
        self.out.push(Finding {
            rule: self.meta.id.to_owned(),
            severity,
            url: report.url,
            profile: report.profile,
            message: report.message,
            evidence: report.evidence,
        });
        // Sorting once twice the bound has gathered keeps the cost linear in what is reported.
        if self.out.len() - self.start >= 2 * MAX_FINDINGS_PER_RULE {
            self.keep_first(MAX_FINDINGS_PER_RULE);
        }
    }
}

/// Keep the first [`MAX_FINDINGS_PER_RULE`] of one rule's `findings` in report order; how many
/// were left out. For findings gathered over several runs of the rule (a window at a time,
/// [`Rule::page_local`]): the first of all are among the first of each run.
pub fn keep_first_findings(findings: &mut Vec<Finding>) -> u64 {
    keep_first_from(findings, 0, MAX_FINDINGS_PER_RULE)
}

/// Keep the first `cap` of `out[start..]` in report order; how many were left out.
fn keep_first_from(out: &mut Vec<Finding>, start: usize, cap: usize) -> u64 {
    let mine = out.len() - start;
    if mine <= cap {
        return 0;
    }
    out[start..].sort_by(Finding::report_order);
    out.truncate(start + cap);
    (mine - cap) as u64
}

/// One occurrence of the problem a rule checks for; [`Findings::report`] turns it into a
/// [`Finding`].
#[derive(Debug, Clone)]
pub struct Occurrence {
    url: String,
    message: String,
    evidence: Vec<Evidence>,
    profile: Option<String>,
    severity: Option<Severity>,
}

impl Occurrence {
    /// A finding about `url`, explained by `message`.
    pub fn new(url: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            message: message.into(),
            evidence: Vec::new(),
            profile: None,
            severity: None,
        }
    }

    /// Add a piece of evidence (the first added is the primary one).
    #[must_use]
    pub fn evidence(mut self, evidence: Evidence) -> Self {
        self.evidence.push(evidence);
        self
    }

    /// Add several pieces of evidence, in order.
    #[must_use]
    pub fn evidence_all(mut self, evidence: impl IntoIterator<Item = Evidence>) -> Self {
        self.evidence.extend(evidence);
        self
    }

    /// The crawler profile this finding was evaluated for.
    #[must_use]
    pub fn profile(mut self, profile: impl Into<String>) -> Self {
        self.profile = Some(profile.into());
        self
    }

    /// A severity other than the rule's default, where the catalogue escalates or softens single
    /// cases (e.g. `robots/oversize` is an error when rules lie beyond the cut). Configuration
    /// still wins.
    #[must_use]
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = Some(severity);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Evidence;

    static META: RuleMeta = RuleMeta {
        id: "test/many",
        default_severity: Severity::Warning,
        summary: "many findings",
        docs: "",
        source: file!(),
    };

    fn report_all(order: impl Iterator<Item = usize>) -> (Vec<Finding>, u64) {
        let mut out = Vec::new();
        let mut sink = Findings::new(&META, None, &mut out);
        for n in order {
            let occurrence = Occurrence::new(format!("https://e.test/{n:06}"), "found").evidence(
                Evidence::Note {
                    text: n.to_string(),
                },
            );
            // Every seventh is an error: the most severe are kept first.
            sink.report(if n % 7 == 0 {
                occurrence.severity(Severity::Error)
            } else {
                occurrence
            });
        }
        let omitted = sink.finish();
        (out, omitted)
    }

    #[test]
    fn a_rule_keeps_the_first_findings_in_report_order_whatever_order_they_came_in() {
        let total = 2 * MAX_FINDINGS_PER_RULE + MAX_FINDINGS_PER_RULE / 2;
        let (forward, omitted) = report_all(0..total);
        let (backward, _) = report_all((0..total).rev());
        assert_eq!(omitted, (total - MAX_FINDINGS_PER_RULE) as u64);
        assert_eq!(forward.len(), MAX_FINDINGS_PER_RULE);
        let mut sorted = forward.clone();
        sorted.sort_by(Finding::report_order);
        let mut backward_sorted = backward;
        backward_sorted.sort_by(Finding::report_order);
        assert_eq!(sorted, backward_sorted);
        // All the errors (a seventh of them) come first, then the warnings by URL.
        let errors = sorted
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        assert_eq!(errors, total.div_ceil(7));
        assert_eq!(sorted[errors].url, "https://e.test/000001");
    }

    #[test]
    fn a_rule_under_the_bound_keeps_everything() {
        let (all, omitted) = report_all(0..100);
        assert_eq!((all.len(), omitted), (100, 0));
    }
}
