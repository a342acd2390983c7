use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt whose first bytes are a UTF-8 byte order mark (`EF BB BF`, U+FEFF), which
    /// some editors on Windows add when saving.
    ///
    /// ## Why is this bad?
    /// Google skips the mark, so Googlebot is not affected. But several widely used parsers do not:
    /// they read the first line as `\u{FEFF}User-agent`, an unknown field, and so lose the first
    /// group (Scrapy's parser was one, scrapy/scrapy#6195). Those crawlers then ignore the rules
    /// meant for them: the file fails open.
    ///
    /// ## Example
    /// ```text
    /// \u{FEFF}User-agent: *
    /// Disallow: /admin/
    /// ```
    ///
    /// ## How to fix
    /// Save the file as UTF-8 *without* BOM (most editors offer "UTF-8" next to "UTF-8 with BOM"),
    /// or make the first line a comment so no rule depends on it.
    pub struct Bom {
        code: crawlgate_core::robots::lint::Code::Bom,
        summary: "robots.txt starts with a byte order mark, which some parsers misread",
    }
}

impl Rule for Bom {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
