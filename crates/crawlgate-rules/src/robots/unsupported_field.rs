use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Lists lines with a field other than the four Google reads (`user-agent`, `allow`,
    /// `disallow`, `sitemap`): `crawl-delay`, `host`, `clean-param`, `request-rate`,
    /// `content-signal` and the like, or any unknown word before a colon.
    ///
    /// ## Why is this bad?
    /// It is not an error: Google's documentation says other fields "aren't supported" and Google
    /// ignores them, while other crawlers may use them (Bing and Yandex honour `crawl-delay`). It
    /// is listed so you know Googlebot does not act on the line: `Crawl-delay` does not slow
    /// Googlebot down, and an unknown word may be a misspelt rule.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Crawl-delay: 10
    /// Host: www.example.com
    /// ```
    ///
    /// ## How to fix
    /// Keep the lines if other crawlers need them. To limit Googlebot's crawl rate, answer 503 or
    /// 429 under overload (temporarily) instead. If the field is a misspelling of a rule, correct
    /// it.
    pub struct UnsupportedField {
        code: crawlgate_core::robots::lint::Code::UnsupportedField,
        summary: "A robots.txt field Google does not support (crawl-delay, host, …) is ignored",
    }
}

impl Rule for UnsupportedField {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
