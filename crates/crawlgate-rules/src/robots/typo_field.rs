use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds fields that Google understands only because its parser tolerates mistakes:
    /// misspellings (`Dissallow`, `Disalow`, `Useragent`, `User agent`, `Site-map`), longer words
    /// that start with a field name (`Disallowed:`, `User-agents:`), and a missing colon (`Disallow
    /// /x`).
    ///
    /// ## Why is this bad?
    /// Googlebot applies these rules, so Google's view of the site is as intended. Other crawlers
    /// (Bing, AI crawlers, SEO tools, the RFC 9309 standard) may not: for them the rule does not
    /// exist, and they crawl what you meant to block.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Dissallow: /checkout/
    /// ```
    ///
    /// ## How to fix
    /// Write the field as the standard spells it, with a colon: `User-agent:`, `Allow:`,
    /// `Disallow:`, `Sitemap:`.
    pub struct TypoField {
        code: crawlgate_core::robots::lint::Code::TypoField,
        summary: "A robots.txt field is read only thanks to Google's typo tolerance",
    }
}

impl Rule for TypoField {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
