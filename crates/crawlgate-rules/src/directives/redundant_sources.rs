use super::read::{readable_pages, sources_words};
use crate::support::profiles;
use crate::support::{MAX_SOURCES_QUOTED, directives_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Directive, DirectiveSource, RobotsRule};

declare_rule! {
    /// ## What it does
    /// Finds pages that set the same restriction (`noindex`, `nofollow`, `nosnippet`,
    /// `noimageindex`, `notranslate`) both in a robots meta tag and in an `X-Robots-Tag` header.
    ///
    /// ## Why is this bad?
    /// Nothing is wrong today: Google sums the rules, and they agree. But the restriction now
    /// lives in two places, usually maintained by different people (the CMS template and the
    /// server or CDN configuration). When the page should become indexable again, removing one
    /// and forgetting the other keeps it out of search, and nobody looks in the second place.
    ///
    /// ## Example
    /// ```text
    /// X-Robots-Tag: noindex
    /// <meta name="robots" content="noindex">
    /// ```
    ///
    /// ## How to fix
    /// Keep the restriction in one place. The meta tag is easier to see and review for HTML
    /// pages; the header is the only option for PDFs and images. Remove the other, and note in
    /// your runbook where the rule lives.
    pub struct RedundantSources {
        id: "directives/redundant-sources",
        severity: Notice,
        summary: "The same restriction is set in both a meta tag and an X-Robots-Tag header",
    }
}

/// Whether a rule sets a given restriction.
type Sets = fn(&RobotsRule) -> bool;

/// The restrictions compared, with the rules that set each.
const RESTRICTIONS: [(&str, Sets); 5] = [
    ("noindex", |rule| {
        matches!(rule, RobotsRule::NoIndex | RobotsRule::None)
    }),
    ("nofollow", |rule| {
        matches!(rule, RobotsRule::NoFollow | RobotsRule::None)
    }),
    ("nosnippet", |rule| {
        matches!(rule, RobotsRule::NoSnippet | RobotsRule::MaxSnippet(0))
    }),
    ("noimageindex", |rule| *rule == RobotsRule::NoImageIndex),
    ("notranslate", |rule| *rule == RobotsRule::NoTranslate),
];

fn is_meta(rule: &Directive) -> bool {
    matches!(rule.source, DirectiveSource::MetaTag { .. })
}

impl Rule for RedundantSources {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let mut repeated = Vec::new();
                let mut evidence = Vec::new();
                for (name, sets) in RESTRICTIONS {
                    let (in_meta, in_header): (Vec<&Directive>, Vec<&Directive>) = directives
                        .rules
                        .iter()
                        .filter(|rule| sets(&rule.rule))
                        .partition(|rule| is_meta(rule));
                    if in_meta.is_empty() || in_header.is_empty() {
                        continue;
                    }
                    repeated.push(format!(
                        "`{name}` is set both in {} and in {}",
                        sources_words(&in_meta),
                        sources_words(&in_header)
                    ));
                    for item in directives_evidence(&resource.url, &in_meta)
                        .into_iter()
                        .chain(directives_evidence(&resource.url, &in_header))
                    {
                        if evidence.len() < MAX_SOURCES_QUOTED && !evidence.contains(&item) {
                            evidence.push(item);
                        }
                    }
                }
                if repeated.is_empty() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "for {}: {}; a later edit may remove one and leave the other",
                            profile.display_name(),
                            repeated.join("; ")
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(evidence),
                );
            }
        }
    }
}
