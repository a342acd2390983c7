use crate::support::{directive_evidence, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds URLs that robots.txt disallows for the audited crawler and that carry a `noindex`
    /// (a robots meta tag or an `X-Robots-Tag` header). crawlgate fetches disallowed URLs for
    /// diagnosis, so it sees what Google cannot.
    ///
    /// ## Why is this bad?
    /// Google never fetches a disallowed URL, so it never reads the noindex: "If a page is
    /// disallowed from crawling through the robots.txt file, then any information about indexing
    /// or serving rules will not be found and will therefore be ignored." The URL can still be
    /// indexed from links pointing at it, shown without a snippet ("Indexed, though blocked by
    /// robots.txt" in Search Console). The two signals cancel each other out.
    ///
    /// ## Example
    /// ```text
    /// robots.txt          Disallow: /private/
    /// /private/report     <meta name="robots" content="noindex">
    /// ```
    ///
    /// ## How to fix
    /// Decide what you want. To keep the URL out of search results, remove the Disallow rule so
    /// Google can crawl the page and read its noindex (once it has dropped out, you may block it
    /// again). If the goal is only to save crawling, keep the Disallow and drop the noindex.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): they are
    /// meant never to read the page, noindex or not.
    pub struct BlockedNoindex {
        id: "robots/blocked-noindex",
        severity: Error,
        summary: "Disallowed by robots.txt, so Google can never read the page's noindex",
    }
}

impl Rule for BlockedNoindex {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles_meant_to_crawl(site) {
            for (resource, page) in site.fetched() {
                if resource.verdict(index).is_none_or(|v| v.allowed) {
                    continue;
                }
                let directives = page.signals.directives(profile, site.audit_time);
                if !directives.is_noindex() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "robots.txt disallows this URL for {}, so the noindex it carries is never read; the URL can still be indexed from links, without content",
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(verdict_evidence(site, index, &resource.url))
                    .evidence_all(
                        directives
                            .noindex_sources()
                            .into_iter()
                            .map(|d| directive_evidence(&resource.url, &d.source)),
                    ),
                );
            }
        }
    }
}
