use super::document::{Anchor, issues};
use super::evidence::{error_status_words, sitemap_fetch_evidence, sources_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{SitemapFile, SitemapSource, SitemapState};
use crawlgate_core::{Severity, Site};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps named in robots.txt, in a sitemap index or in the audit's configuration
    /// that answer with an error status (404, 403, 500…), give no response at all (timeout,
    /// DNS, connection reset), or break off while their body is read. A sitemap that redirects
    /// and then loads is a notice that names the final URL.
    ///
    /// ## Why is this bad?
    /// A sitemap search engines cannot fetch announces nothing: Search Console reports it as
    /// "Couldn't fetch", and the URLs only it lists are found later, if at all. Redirects are
    /// followed, but every reference to the old URL is one more hop to maintain and a common
    /// source of loops and dead ends after migrations.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Sitemap: https://example.com/sitemap_index.xml
    /// https://example.com/sitemap_index.xml   404 Not Found
    /// ```
    ///
    /// ## How to fix
    /// Serve the sitemap at the URL that names it with a 200, or correct the `Sitemap:` line or
    /// index entry (quoted in the evidence) to the sitemap's real URL. For a redirect, replace
    /// the old URL with the final one. For 403 or 5xx answers, check that the firewall, CDN or
    /// bot protection lets search engine crawlers fetch sitemaps.
    pub struct FetchError {
        code: crawlgate_core::sitemap::Code::FetchError,
        summary: "A sitemap could not be fetched",
    }
}

impl Rule for FetchError {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for sitemap in &site.sitemaps {
            // A probe is a guess, not a reference: it is kept only when it found a sitemap.
            if sitemap.sources == [SitemapSource::Probe] {
                continue;
            }
            let Some((severity, message)) = problem(sitemap) else {
                continue;
            };
            out.report(
                Occurrence::new(sitemap.url.as_str(), message)
                    .severity(severity)
                    .evidence_all(sitemap_fetch_evidence(sitemap))
                    .evidence_all(sources_evidence(site, sitemap)),
            );
        }
        // The body broke off while being read.
        for found in issues(site, Self::META.id, Anchor::Document) {
            out.report(
                found
                    .report()
                    .evidence_all(sources_evidence(site, found.sitemap)),
            );
        }
    }
}

/// What went wrong fetching a sitemap, if anything, and how bad it is.
fn problem(sitemap: &SitemapFile) -> Option<(Severity, String)> {
    match &sitemap.state {
        SitemapState::HttpError {
            hops,
            final_url,
            status,
        } => {
            let answer = error_status_words(*status);
            Some((
                Severity::Error,
                if hops.is_empty() {
                    format!("the sitemap {answer}")
                } else {
                    format!("the sitemap redirects to {final_url}, which {answer}")
                },
            ))
        }
        SitemapState::Failed { kind, message, .. } => Some((
            Severity::Error,
            format!(
                "the sitemap gave no response ({}): {message}",
                kind.as_str()
            ),
        )),
        SitemapState::Parsed {
            hops, final_url, ..
        } if !hops.is_empty() => Some((
            Severity::Notice,
            format!(
                "the sitemap redirects to {final_url} ({} hop{}); reference the final URL directly",
                hops.len(),
                if hops.len() == 1 { "" } else { "s" }
            ),
        )),
        _ => None,
    }
}
