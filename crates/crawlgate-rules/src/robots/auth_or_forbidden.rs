use crate::robots::fetch_outcome_rule;
use crate::robots::files::audited_files;
use crate::robots::redirects::redirect_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt that answers `401 Unauthorized` or `403 Forbidden`.
    ///
    /// ## Why is this bad?
    /// Google treats every 4xx answer except 429 as "there is no robots.txt": it crawls the whole
    /// site without restrictions, so whatever rules the file was meant to hold are not applied. A
    /// 401 or 403 on robots.txt is rarely intended: usually a firewall or bot protection blocks
    /// crawlers from the file, or a staging password leaks onto production. (Google also asks not
    /// to use 401 or 403 to limit its crawl rate.)
    ///
    /// ## Example
    /// ```text
    /// GET https://example.com/robots.txt   →   403 Forbidden   (a WAF rule matching bots)
    /// ```
    ///
    /// ## How to fix
    /// Let everyone fetch `/robots.txt` without authentication: exempt it from the firewall, bot
    /// protection and HTTP authentication, and make it answer `200` with the file. If the site
    /// really is private, keep the authentication on the pages and serve a robots.txt that says so.
    pub struct AuthOrForbidden {
        id: "robots/auth-or-forbidden",
        severity: Warning,
        summary: "robots.txt answers 401 or 403, so Google crawls as if there were no robots.txt",
    }
}

impl Rule for AuthOrForbidden {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            let Some(status @ (401 | 403)) = file.status() else {
                continue;
            };
            // Past Google's redirect limit the status is never seen: redirect-too-long says so.
            if fetch_outcome_rule(file).id != Self::META.id {
                continue;
            }
            out.report(
                Occurrence::new(
                    file.url.as_str(),
                    format!(
                        "{} answered {status}: Google treats it as if there were no robots.txt and \
                         crawls the whole site without restrictions",
                        file.url
                    ),
                )
                .evidence(file.fetch_evidence())
                .evidence_all(redirect_evidence(file)),
            );
        }
    }
}
