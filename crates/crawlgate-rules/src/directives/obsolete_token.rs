use super::read::{by_token, rules_read_by_any_profile, sources_words};
use crate::support::{directives_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Directive, RobotsRule};

declare_rule! {
    /// ## What it does
    /// Finds robots rules Google no longer uses: `noarchive`, `nocache` and
    /// `nositelinkssearchbox`, and the directory-era `noodp` and `noydir`.
    ///
    /// ## Why is this bad?
    /// They do nothing in Google: the cached-page link and the sitelinks search box they
    /// controlled are gone, and `noodp` / `noydir` referred to the Open Directory Project and the
    /// Yahoo! Directory, both closed for years. They are harmless, but they suggest the
    /// template's robots rules have not been reviewed in a long time, and they make the tag
    /// harder to read. (Other engines may still honour some, e.g. Bing reads `noarchive` and
    /// `nocache`: keep them in a tag addressed to that crawler if you rely on it.)
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="index, follow, noodp, noarchive">
    /// ```
    ///
    /// ## How to fix
    /// Remove the obsolete words from the tag or header quoted in the evidence.
    pub struct ObsoleteToken {
        id: "directives/obsolete-token",
        severity: Notice,
        summary: "A robots rule Google no longer uses",
    }
}

/// Why Google no longer uses `name`.
fn why_unused(name: &str) -> &'static str {
    match name {
        "noodp" => "it referred to the Open Directory Project, closed in 2017",
        "noydir" => "it referred to the Yahoo! Directory, closed in 2014",
        "noarchive" | "nocache" => "Google no longer shows cached pages",
        _ => "Google no longer uses it",
    }
}

impl Rule for ObsoleteToken {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let read = rules_read_by_any_profile(site, &page);
            let obsolete = |rule: &Directive| matches!(rule.rule, RobotsRule::Obsolete(_));
            for places in by_token(&read, obsolete) {
                let Some(first) = places.first() else {
                    continue;
                };
                let RobotsRule::Obsolete(name) = &first.rule else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "`{}` in {} has no effect in Google: {}",
                            first.token,
                            sources_words(&places),
                            why_unused(name)
                        ),
                    )
                    .evidence_all(directives_evidence(&resource.url, &places)),
                );
            }
        }
    }
}
