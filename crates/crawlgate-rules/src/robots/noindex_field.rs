use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Noindex:` lines in robots.txt.
    ///
    /// ## Why is this bad?
    /// Google stopped supporting them on 1 September 2019: "Specifying the noindex rule in the
    /// robots.txt file is not supported by Google." The URLs listed there are not removed from the
    /// index, although the file suggests they are.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Noindex: /thank-you/
    /// ```
    ///
    /// ## How to fix
    /// Remove the line and put a `<meta name="robots" content="noindex">` tag on the pages (or send
    /// an `X-Robots-Tag: noindex` header for PDFs and other files). Make sure those URLs are *not*
    /// disallowed, or Google will never see the noindex.
    pub struct NoindexField {
        code: crawlgate_core::robots::lint::Code::NoindexField,
        summary: "A `Noindex:` line in robots.txt, which Google no longer supports",
    }
}

impl Rule for NoindexField {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
