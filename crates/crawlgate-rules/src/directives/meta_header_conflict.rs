use super::read::{readable_pages, rules_words};
use crate::support::profiles;
use crate::support::{MAX_SOURCES_QUOTED, directives_evidence_up_to};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Directive, Directives, RobotsRule};

declare_rule! {
    /// ## What it does
    /// Finds pages where one source restricts and another source explicitly allows the same
    /// thing, for the same crawler: a `noindex` (or `none`) in the `X-Robots-Tag` header and an
    /// `index` (or `all`) in the robots meta tag, two robots meta tags that disagree, `nofollow`
    /// against `follow`, or `nosnippet` against `max-snippet:N`.
    ///
    /// ## Why is this bad?
    /// Google resolves the contradiction quietly: "the more restrictive rule applies". So the
    /// page is noindex (or nofollow, or snippet-less) although one of its own sources says
    /// otherwise. Either the restriction is a leftover, and the page is missing from search by
    /// accident, or the allowing source is a leftover that will mislead the next person who reads
    /// it. (A crawler-specific `index` against a generic `noindex` is reported by
    /// `directives/bot-override-ineffective` instead.)
    ///
    /// ## Example
    /// ```text
    /// X-Robots-Tag: noindex
    /// <meta name="robots" content="index, follow">
    /// ```
    ///
    /// ## How to fix
    /// Decide what the page should do and say it in one place. Usually: remove the rule from the
    /// server or CDN configuration that adds the header, or from the CMS template, whichever is
    /// the leftover. The evidence quotes both sources.
    pub struct MetaHeaderConflict {
        id: "directives/meta-header-conflict",
        severity: Warning,
        summary: "One source restricts what another explicitly allows; the most restrictive wins",
    }
}

/// A restriction, its explicit opposite, and what Google ends up applying.
struct Opposites {
    restricts: fn(&RobotsRule) -> bool,
    allows: fn(&RobotsRule) -> bool,
    outcome: &'static str,
}

const OPPOSITES: [Opposites; 3] = [
    Opposites {
        restricts: |rule| matches!(rule, RobotsRule::NoIndex | RobotsRule::None),
        allows: |rule| matches!(rule, RobotsRule::Index | RobotsRule::All),
        outcome: "the page is noindex",
    },
    Opposites {
        restricts: |rule| matches!(rule, RobotsRule::NoFollow | RobotsRule::None),
        allows: |rule| matches!(rule, RobotsRule::Follow | RobotsRule::All),
        outcome: "the page's links are not followed",
    },
    Opposites {
        restricts: |rule| matches!(rule, RobotsRule::NoSnippet | RobotsRule::MaxSnippet(0)),
        allows: |rule| matches!(rule, RobotsRule::MaxSnippet(length) if *length != 0),
        outcome: "no snippet is shown",
    },
];

/// Rules of each side compared; a hostile page can repeat a token a hundred thousand times, and
/// real pages have a handful.
const MAX_COMPARED: usize = 256;

/// The restricting and allowing rules that contradict each other: from different sources, and
/// addressed to the same crawler (a generic `index` beside a `googlebot: noindex` is a deliberate
/// exception, and a `googlebot: index` beside a generic `noindex` is another rule's case).
fn contradictions<'a>(
    directives: &'a Directives,
    opposites: &Opposites,
) -> (Vec<&'a Directive>, Vec<&'a Directive>) {
    let contradicts = |a: &Directive, b: &Directive| a.source != b.source && a.bot == b.bot;
    let restricting: Vec<&Directive> = directives
        .rules
        .iter()
        .filter(|rule| (opposites.restricts)(&rule.rule))
        .take(MAX_COMPARED)
        .collect();
    let allowing: Vec<&Directive> = directives
        .rules
        .iter()
        .filter(|rule| (opposites.allows)(&rule.rule))
        .take(MAX_COMPARED)
        .collect();
    let restricting_in_conflict = restricting
        .iter()
        .copied()
        .filter(|r| allowing.iter().any(|a| contradicts(r, a)))
        .collect();
    let allowing_in_conflict = allowing
        .iter()
        .copied()
        .filter(|a| restricting.iter().any(|r| contradicts(r, a)))
        .collect();
    (restricting_in_conflict, allowing_in_conflict)
}

impl Rule for MetaHeaderConflict {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                for opposites in &OPPOSITES {
                    let (restricting, allowing) = contradictions(&directives, opposites);
                    if restricting.is_empty() {
                        continue;
                    }
                    out.report(
                        Occurrence::new(
                            resource.url.as_str(),
                            format!(
                                "conflicting rules for {}: {} against {}; the most restrictive applies, so {}",
                                profile.display_name(),
                                rules_words(&restricting),
                                rules_words(&allowing),
                                opposites.outcome
                            ),
                        )
                        .profile(&profile.name)
                        .evidence_all(directives_evidence_up_to(&resource.url, &restricting, MAX_SOURCES_QUOTED / 2))
                        .evidence_all(directives_evidence_up_to(&resource.url, &allowing, MAX_SOURCES_QUOTED / 2)),
                    );
                }
            }
        }
    }
}
