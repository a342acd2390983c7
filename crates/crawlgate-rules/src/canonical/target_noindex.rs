use super::targets::targets;
use crate::support::{
    canonical_evidence, directives_evidence, final_response, ok_pages, profiles, response_evidence,
};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds pages whose canonical URL carries an effective `noindex` for the audited crawler
    /// (robots meta tag or `X-Robots-Tag`), directly or at the end of its redirects.
    ///
    /// ## Why is this bad?
    /// The two signals contradict each other: the page says "index that URL instead of me", and
    /// that URL says "don't index me". Google may drop both, or ignore the canonical; either way
    /// the content risks disappearing from search. It usually means the canonical points at a
    /// wrong or retired version (a print view, a staging copy, an old category) or that a
    /// noindex was set on the main version by mistake.
    ///
    /// ## Example
    /// ```text
    /// /shoes?sort=price   <link rel="canonical" href="https://example.com/shoes">
    /// /shoes              <meta name="robots" content="noindex">
    /// ```
    ///
    /// ## How to fix
    /// Decide which URL should be indexed. Point the canonical at an indexable URL, or remove the
    /// noindex from the canonical URL if it is the main version.
    pub struct TargetNoindex {
        id: "canonical/target-noindex",
        severity: Error,
        summary: "The canonical URL carries noindex",
    }
}

impl Rule for TargetNoindex {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in ok_pages(site) {
                if resource.verdict(index).is_some_and(|v| !v.allowed) {
                    continue; // the crawler never reads this page's canonical
                }
                for (canonical, target_url) in targets(&resource.url, &page.signals) {
                    let Some(target) = site.resource(target_url) else {
                        continue;
                    };
                    let Some((end, end_page)) = final_response(site, target) else {
                        continue;
                    };
                    if !(200..300).contains(&end_page.status)
                        || end.verdict(index).is_some_and(|v| !v.allowed)
                    {
                        continue; // target-error or target-blocked says it
                    }
                    let directives = end_page.signals.directives(profile, site.audit_time);
                    let sources = directives.noindex_sources();
                    if sources.is_empty() {
                        continue;
                    }
                    let redirected = !std::ptr::eq(end, target);
                    let what = if redirected {
                        format!(" redirects to `{}`, which", end.url)
                    } else {
                        String::new()
                    };
                    let mut report = Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the canonical `{target_url}`{what} is noindex for {}: the page points at a URL that asks not to be indexed",
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence(canonical_evidence(&resource.url, canonical));
                    if redirected {
                        report = report.evidence(response_evidence(target));
                    }
                    out.report(report.evidence_all(directives_evidence(&end.url, &sources)));
                }
            }
        }
    }
}
