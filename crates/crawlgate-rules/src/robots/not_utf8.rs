use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt that is not valid UTF-8: saved in Latin-1 / Windows-1252, or in UTF-16
    /// (which starts with an `FF FE` or `FE FF` byte order mark).
    ///
    /// ## Why is this bad?
    /// Google reads robots.txt as UTF-8. A path written with `é` in Windows-1252 is the byte `E9`,
    /// which Google matches as `%E9`, while the site's URL carries the UTF-8 form `%C3%A9`: the
    /// rule never matches, and the URL it was meant to block is crawled. A UTF-16 file is
    /// unreadable as a whole: Google understands none of its lines, so the site has, in effect, no
    /// rules.
    ///
    /// ## Example
    /// ```text
    /// Disallow: /caf\xE9/      (Windows-1252; the site's URL is /caf%C3%A9/)
    /// ```
    ///
    /// ## How to fix
    /// Save robots.txt as UTF-8 (without a byte order mark), or write non-ASCII paths
    /// percent-encoded as they appear in your URLs (`Disallow: /caf%C3%A9/`).
    pub struct NotUtf8 {
        code: crawlgate_core::robots::lint::Code::NotUtf8,
        summary: "robots.txt is not valid UTF-8, so rules with other bytes may never match",
    }
}

impl Rule for NotUtf8 {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
