use crate::robots::fetch_outcome_rule;
use crate::robots::files::audited_files;
use crate::robots::redirects::redirect_evidence;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Notes that the site has no robots.txt: `/robots.txt` answers `404`, `410` or another 4xx
    /// status (other than 401, 403 and 429, which have rules of their own).
    ///
    /// ## Why is this bad?
    /// It usually is not: Google crawls everything, exactly as with an empty robots.txt, and Search
    /// Console says "Not having a robots.txt file is fine". It is listed so you know no URL of the
    /// site is held back from crawling, and that crawlers learn about your sitemaps only if they
    /// are submitted elsewhere.
    ///
    /// ## Example
    /// ```text
    /// GET https://example.com/robots.txt   →   404 Not Found
    /// ```
    ///
    /// ## How to fix
    /// Nothing is required. To point crawlers at your sitemaps, or to keep them out of areas such
    /// as internal search results, publish a robots.txt with a `Sitemap:` line and the rules you
    /// need.
    pub struct Missing {
        id: "robots/missing",
        severity: Notice,
        summary: "No robots.txt (4xx): Google crawls everything, which is fine",
    }
}

impl Rule for Missing {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            let Some(status) = file.status() else {
                continue;
            };
            // The other 4xx answers (401, 403, 429, past the redirect limit) are other rules'.
            if !(400..=499).contains(&status) || fetch_outcome_rule(file).id != Self::META.id {
                continue;
            }
            out.report(
                Occurrence::new(
                    file.url.as_str(),
                    format!(
                        "{} answered {status}: there is no robots.txt, so Google may crawl every \
                         URL of the site",
                        file.url
                    ),
                )
                .evidence(file.fetch_evidence())
                .evidence_all(redirect_evidence(file)),
            );
        }
    }
}
