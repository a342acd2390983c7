use crate::robots::files::audited_files;
use crate::robots::redirects::{chain_end, redirect_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::FailureKind;
use crawlgate_core::site::robots_file::ROBOTS_MAX_REDIRECTS;

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt behind more than five redirects, or behind a redirect loop, so that
    /// Google never reaches a file.
    ///
    /// ## Why is this bad?
    /// Google follows at least five redirect hops for robots.txt; if it reaches no file by then (or
    /// the chain loops) it treats robots.txt as a 404: the site is crawled without any restriction,
    /// and the rules you wrote are not applied. Long chains usually pile up over migrations (http →
    /// https → www → new domain → …).
    ///
    /// ## Example
    /// ```text
    /// https://example.com/robots.txt   →  301  →   https://example.com/robots.txt/
    /// https://example.com/robots.txt/  →  301  →   https://example.com/robots.txt   (loop)
    /// ```
    ///
    /// ## How to fix
    /// Make each origin's `/robots.txt` answer `200` directly, or redirect it once, straight to the
    /// final file. Remove the loop or the extra hops shown in the evidence.
    pub struct RedirectTooLong {
        id: "robots/redirect-too-long",
        severity: Error,
        summary: "robots.txt is behind more than five redirects or a loop, so Google ignores its rules",
    }
}

impl Rule for RedirectTooLong {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            let problem = match &file.outcome {
                Err((FailureKind::RedirectLoop, _)) => format!(
                    "redirects in a loop ({} hops before it repeats)",
                    file.hops.len()
                ),
                Err((FailureKind::TooManyRedirects, _)) => format!(
                    "redirects {} times without reaching a file (not followed further)",
                    file.hops.len()
                ),
                _ if file.hops.len() > ROBOTS_MAX_REDIRECTS => format!(
                    "reaches a file only after {} redirects ({})",
                    file.hops.len(),
                    chain_end(file)
                ),
                _ => continue,
            };
            out.report(
                Occurrence::new(
                    file.url.as_str(),
                    format!(
                        "{} {problem}; Google follows {ROBOTS_MAX_REDIRECTS} hops, then treats \
                         robots.txt as missing and crawls without restrictions",
                        file.url
                    ),
                )
                .evidence_all(redirect_evidence(file))
                .evidence(file.fetch_evidence()),
            );
        }
    }
}
