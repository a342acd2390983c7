use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds lines that are neither blank, a `#` comment, nor a `field: value` pair, and that
    /// Google's fallback for a missing colon (exactly two words, such as `Disallow /x`) does not
    /// rescue either.
    ///
    /// ## Why is this bad?
    /// Google ignores lines it cannot read, silently. Such a line is usually a rule whose colon was
    /// lost or that ran together with its neighbour (`Disallow /a /b`, `Disallow=/x`), so something
    /// you meant to block or allow is not.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow /private /tmp
    /// ```
    ///
    /// ## How to fix
    /// Write one rule per line, as `Field: value` with a colon: `Disallow: /private` and `Disallow:
    /// /tmp`. Start explanations with `#`.
    pub struct LineUnparseable {
        code: crawlgate_core::robots::lint::Code::LineUnparseable,
        summary: "A robots.txt line is not `field: value`, so Google ignores it",
    }
}

impl Rule for LineUnparseable {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
