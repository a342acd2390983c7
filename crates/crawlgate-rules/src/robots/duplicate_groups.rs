use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds crawlers named by more than one group, such as two `User-agent: *` blocks.
    ///
    /// ## Why is this bad?
    /// Google merges the groups and applies all their rules together, so Googlebot behaves as
    /// written. Other parsers use only the first group they find, so the rules of the later one are
    /// lost for them. Duplicate groups also make the file hard to review: an edit to one block may
    /// be undone by the other.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /cart/
    ///
    /// User-agent: *
    /// Disallow: /search
    /// ```
    ///
    /// ## How to fix
    /// Merge the groups into one block per crawler.
    pub struct DuplicateGroups {
        code: crawlgate_core::robots::lint::Code::DuplicateGroups,
        summary: "Several robots.txt groups name the same crawler",
    }
}

impl Rule for DuplicateGroups {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
