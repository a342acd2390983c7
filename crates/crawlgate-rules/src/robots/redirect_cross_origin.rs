use crate::robots::files::audited_files;
use crate::robots::redirects::redirect_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::robots_file::ROBOTS_MAX_REDIRECTS;

declare_rule! {
    /// ## What it does
    /// Notes a robots.txt that redirects to another origin: another scheme, host or port (`http://`
    /// → `https://`, `example.com` → `www.example.com`, an old domain → a new one).
    ///
    /// ## Why is this bad?
    /// It is often fine, and common after a migration. But Google applies the file it finds at the
    /// end of the redirects to the origin it asked for: the rules written for the new site also
    /// decide what is crawled on the old one, and a change made for one origin silently changes the
    /// other. Each scheme, host and port is its own site for robots.txt.
    ///
    /// ## Example
    /// ```text
    /// http://example.com/robots.txt   →  301  →   https://www.example.com/robots.txt
    /// ```
    ///
    /// ## How to fix
    /// Nothing, if the rules of the final file suit both origins (typically when the old origin
    /// redirects everything to the new one). Otherwise serve the old origin its own robots.txt.
    pub struct RedirectCrossOrigin {
        id: "robots/redirect-cross-origin",
        severity: Notice,
        summary: "robots.txt redirects to another scheme, host or port",
    }
}

impl Rule for RedirectCrossOrigin {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            let Ok(received) = &file.outcome else {
                continue; // no file at the end: unreachable or redirect-too-long says why
            };
            let final_origin = received.final_url.origin();
            if file.hops.is_empty()
                || file.hops.len() > ROBOTS_MAX_REDIRECTS
                || final_origin == file.url.origin()
            {
                continue;
            }
            out.report(
                Occurrence::new(
                    file.url.as_str(),
                    format!(
                        "{} redirects to {} (answered {}); Google applies what it finds there to {}",
                        file.url,
                        received.final_url,
                        received.status,
                        file.origin
                    ),
                )
                .evidence_all(redirect_evidence(file))
                .evidence(file.fetch_evidence()),
            );
        }
    }
}
