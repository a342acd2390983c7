use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Allow` and `Disallow` patterns with a `$` anywhere but at the very end.
    ///
    /// ## Why is this bad?
    /// `$` anchors the end of the URL only as the last character of a pattern. Anywhere else,
    /// Google matches it as a literal dollar sign, so `Disallow: /*.php$?` blocks only URLs
    /// containing `.php$?`, which was hardly the intent.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /*.php$*
    /// ```
    ///
    /// ## How to fix
    /// Put `$` only at the end (`Disallow: /*.php$`), or use one rule per intent (`/*.php$` and
    /// `/*.php?`).
    pub struct DollarNotLast {
        code: crawlgate_core::robots::lint::Code::DollarNotLast,
        summary: "A `$` in the middle of a robots.txt pattern is matched literally",
    }
}

impl Rule for DollarNotLast {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
