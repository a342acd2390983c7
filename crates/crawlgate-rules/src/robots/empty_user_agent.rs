use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `User-agent:` lines with nothing after the colon.
    ///
    /// ## Why is this bad?
    /// The group such a line opens names no crawler, so its rules apply to nobody (unless other
    /// `User-agent` lines of the group name some). It is usually a crawler name that was deleted or
    /// never filled in by a template.
    ///
    /// ## Example
    /// ```text
    /// User-agent:
    /// Disallow: /
    /// ```
    ///
    /// ## How to fix
    /// Name the crawler the rules are for (`User-agent: *` for every crawler), or remove the group.
    pub struct EmptyUserAgent {
        code: crawlgate_core::robots::lint::Code::EmptyUserAgent,
        summary: "A `User-agent:` line has no value",
    }
}

impl Rule for EmptyUserAgent {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
