use crate::robots::files::{audited_files, lint_issues, lint_report};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt larger than 500 KiB (512,000 bytes), the most Google reads. It is an
    /// error when Allow or Disallow rules lie beyond that point; the finding lists them.
    ///
    /// ## Why is this bad?
    /// Google reads the first 500 KiB of a robots.txt and ignores the rest. Rules past the cut are
    /// never applied: URLs you disallowed there are crawled, and a rule cut in half may block more
    /// or less than written. Files this large are usually generated (one rule per URL) and grow
    /// unnoticed.
    ///
    /// ## Example
    /// ```text
    /// robots.txt, 740,112 bytes: line 21,344 `Disallow: /checkout/` starts after byte 512,000
    /// ```
    ///
    /// ## How to fix
    /// Shrink the file below 500 KiB: replace lists of URLs by a few patterns (`Disallow: /search`
    /// instead of one line per search URL, `*` and `$` wildcards), drop comments and rules for
    /// pages that no longer exist, and move the important rules to the top.
    pub struct Oversize {
        code: crawlgate_core::robots::lint::Code::Oversize,
        summary: "robots.txt is larger than the 500 KiB Google reads",
    }
}

impl Rule for Oversize {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            let cut_short = file.outcome.as_ref().ok().filter(|r| r.body_truncated);
            for issue in lint_issues(site, file, Self::META.id) {
                let mut report = lint_report(file, issue);
                if let Some(received) = cut_short {
                    report = report.evidence(Evidence::Note {
                        text: format!(
                            "the crawler read the first {} bytes of a longer body; rules past \
                             that point are not listed",
                            received.body.len()
                        ),
                    });
                }
                out.report(report);
            }
        }
    }
}
