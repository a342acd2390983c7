use super::read::{readable_pages, source_words};
use crate::support::{directive_evidence, profiles};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages whose `unavailable_after` date (robots meta tag or `X-Robots-Tag`) is already
    /// past at the time of the audit.
    ///
    /// ## Why is this bad?
    /// `unavailable_after` tells Google not to show the page in search results after that date.
    /// Once the date has passed the page is treated like a `noindex` page and drops out of
    /// search. That is right for an event page that has ended; it is a silent loss when the date
    /// was a placeholder, a template default, or the page has been reused.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="unavailable_after: 2024-06-30">
    /// ```
    ///
    /// ## How to fix
    /// If the page should still be found, remove the `unavailable_after` rule (or move the date
    /// into the future) and ask Google to recrawl the page. If it has really expired, consider
    /// redirecting it to its successor or answering 410.
    pub struct UnavailableAfterPast {
        id: "directives/unavailable-after-past",
        severity: Error,
        summary: "The unavailable_after date has passed: the page is treated as noindex",
    }
}

impl Rule for UnavailableAfterPast {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let Some(expiry) = directives.unavailable_after().filter(|e| e.is_past) else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "`{}` in {} expired at {}, before the audit ({}): {} treats the page as noindex",
                            expiry.raw,
                            source_words(&expiry.source),
                            expiry.instant,
                            site.audit_time,
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(directive_evidence(&resource.url, &expiry.source)),
                );
            }
        }
    }
}
