use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Disallow:` or `Allow:` lines without a path in a group that also has rules with a
    /// path.
    ///
    /// ## Why is this bad?
    /// Google: crawlers ignore rules without a path. Alone, `Disallow:` is a common way of writing
    /// "allow everything" and is fine; next to other rules it does nothing, and is usually a rule
    /// whose path was lost.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow:
    /// Disallow: /cart/
    /// ```
    ///
    /// ## How to fix
    /// Delete the empty line, or give it the path it was meant to have.
    pub struct EmptyRule {
        code: crawlgate_core::robots::lint::Code::EmptyRule,
        summary: "An Allow/Disallow without a path sits in a group with real rules",
    }
}

impl Rule for EmptyRule {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
