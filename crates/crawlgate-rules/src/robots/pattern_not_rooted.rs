use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Allow` and `Disallow` values that start with something other than `/` or `*`, such as
    /// `Disallow: private/` or `Disallow: .pdf`.
    ///
    /// ## Why is this bad?
    /// Google's documentation says a rule's path must start with `/`. Google's parser keeps such a
    /// pattern and matches it from the start of the path, where every URL path has a `/`, so
    /// `Disallow: private/` matches nothing. (A pattern that starts with `*`, like `*.gif$`, is
    /// fine.) Other crawlers may drop the rule or read it differently.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: private/
    /// ```
    ///
    /// ## How to fix
    /// Start the pattern with `/` (`Disallow: /private/`), or with `*` if it should match anywhere
    /// in the path (`Disallow: /*.pdf$`).
    pub struct PatternNotRooted {
        code: crawlgate_core::robots::lint::Code::PatternNotRooted,
        summary: "An Allow/Disallow pattern does not start with `/` or `*`",
    }
}

impl Rule for PatternNotRooted {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
