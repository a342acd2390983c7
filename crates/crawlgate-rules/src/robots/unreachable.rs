use crate::robots::fetch_outcome_rule;
use crate::robots::files::audited_files;
use crate::robots::redirects::redirect_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{FailureKind, origin_of};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt that Google cannot read because of the server: it answers with a server
    /// error (5xx) or `429 Too Many Requests`, or gives no usable response at all (the host name
    /// does not resolve, the connection is refused or reset, the request times out, the body breaks
    /// off), after following up to five redirects. When the start URL's host gives no
    /// response at all either, that is `http/start-url-error`, not a robots.txt problem.
    ///
    /// ## Why is this bad?
    /// Google cannot tell what the site allows, so it assumes the worst: for the first 12 hours it
    /// stops crawling the whole site while it keeps retrying robots.txt. After that, for up to 30
    /// days, it crawls by the last copy of robots.txt it read successfully (with no copy, without
    /// restrictions). If robots.txt is still failing after 30 days, Google treats the site as
    /// having no robots.txt only when the rest of the site is available; otherwise it keeps the
    /// site uncrawled, and its pages can drop out of search results. A robots.txt that fails only
    /// now and then is enough to stall the crawling of new and updated pages.
    ///
    /// ## Example
    /// ```text
    /// GET https://example.com/robots.txt   →   503 Service Unavailable
    /// ```
    ///
    /// ## How to fix
    /// Make `/robots.txt` answer `200` with the file (or `404` if you want no rules at all), every
    /// time. Serve it as a static file from the web server or CDN edge rather than from the
    /// application; exempt it from rate limiting, bot protection and maintenance pages; and check
    /// the robots.txt report in Search Console once it answers again.
    pub struct Unreachable {
        id: "robots/unreachable",
        severity: Critical,
        summary: "robots.txt answers 5xx or 429, or not at all, so Google stops crawling the site",
    }
}

impl Rule for Unreachable {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        // A start URL whose host gave no response at all is `http/start-url-error`, and its
        // robots.txt failing the same way is no news about robots.txt.
        let start_unreachable = crate::http::start_unreachable(site).is_some();
        for file in audited_files(site) {
            if fetch_outcome_rule(file).id != Self::META.id {
                continue;
            }
            if start_unreachable
                && file.outcome.is_err()
                && file.origin == origin_of(&site.start_url).as_ref()
            {
                continue;
            }
            let what = match &file.outcome {
                Ok(received) => format!("answered {}", received.status),
                // The crawl was stopped while robots.txt was in flight: nothing about the site.
                Err((FailureKind::Interrupted, _)) => continue,
                Err((kind, message)) => {
                    format!("gave no usable response ({}: {message})", kind.as_str())
                }
            };
            out.report(
                Occurrence::new(
                    file.url.as_str(),
                    format!(
                        "{} {what}: Google treats this as a server error and stops crawling the \
                         whole site for 12 hours while it retries, then crawls by its last good \
                         copy of robots.txt for up to 30 days (with none, without restrictions)",
                        file.url
                    ),
                )
                .evidence(file.fetch_evidence())
                .evidence_all(redirect_evidence(file)),
            );
        }
    }
}
