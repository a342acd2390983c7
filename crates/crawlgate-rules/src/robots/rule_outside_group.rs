use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Allow` and `Disallow` lines that come before the first `User-agent` line.
    ///
    /// ## Why is this bad?
    /// A rule belongs to the group of the `User-agent` lines above it (RFC 9309 §2.1). With none
    /// above, it belongs to no group, and Google ignores it: whatever it was meant to block is
    /// crawled.
    ///
    /// ## Example
    /// ```text
    /// Disallow: /admin/
    /// User-agent: *
    /// Disallow: /tmp/
    /// ```
    ///
    /// ## How to fix
    /// Move the rule below the `User-agent` line of the crawlers it is for (usually `User-agent:
    /// *`).
    pub struct RuleOutsideGroup {
        code: crawlgate_core::robots::lint::Code::RuleOutsideGroup,
        summary: "An Allow/Disallow line comes before any User-agent line, so it is ignored",
    }
}

impl Rule for RuleOutsideGroup {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
