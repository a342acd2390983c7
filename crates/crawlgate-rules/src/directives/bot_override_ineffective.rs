use super::read::{readable_pages, rules_words};
use crate::support::profiles;
use crate::support::{MAX_SOURCES_QUOTED, directives_evidence_up_to};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Directive, RobotsRule};

declare_rule! {
    /// ## What it does
    /// Finds pages where a rule addressed to one crawler tries to lift a generic restriction:
    /// `<meta name="googlebot" content="index">` (or `all`, or `X-Robots-Tag: googlebot: all`)
    /// beside a generic `<meta name="robots" content="noindex">` or `X-Robots-Tag: noindex`; the
    /// same for `follow` against `nofollow`.
    ///
    /// ## Why is this bad?
    /// The author expected an exception ("keep other engines out, let Google in"), but Google
    /// does not read it that way: when several rules apply to a crawler, "the search engine will
    /// use the sum of the negative rules". A generic `noindex` applies to Googlebot too, and a
    /// `googlebot` tag saying `index` cannot cancel it. The page stays out of Google.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="noindex">
    /// <meta name="googlebot" content="index, follow">
    /// ```
    ///
    /// ## How to fix
    /// Invert the logic: leave the generic `robots` tag permissive (or remove it) and address the
    /// restriction to the crawlers that should not index the page, e.g.
    /// `<meta name="bingbot" content="noindex">`. Google has no way to express "everyone but
    /// Googlebot" with a generic rule.
    pub struct BotOverrideIneffective {
        id: "directives/bot-override-ineffective",
        severity: Warning,
        summary: "A crawler-specific index/follow cannot lift a generic noindex/nofollow",
    }
}

fn restricts_indexing(rule: &RobotsRule) -> bool {
    matches!(rule, RobotsRule::NoIndex | RobotsRule::None)
}

fn lifts_indexing(rule: &RobotsRule) -> bool {
    matches!(rule, RobotsRule::Index | RobotsRule::All)
}

fn restricts_following(rule: &RobotsRule) -> bool {
    matches!(rule, RobotsRule::NoFollow | RobotsRule::None)
}

fn lifts_following(rule: &RobotsRule) -> bool {
    matches!(rule, RobotsRule::Follow | RobotsRule::All)
}

/// Whether a generic rule matching `restricts` and a crawler-specific rule matching `lifts` both
/// occur.
fn occurs(
    rules: &[Directive],
    restricts: fn(&RobotsRule) -> bool,
    lifts: fn(&RobotsRule) -> bool,
) -> bool {
    rules.iter().any(|r| r.bot.is_none() && restricts(&r.rule))
        && rules.iter().any(|r| r.bot.is_some() && lifts(&r.rule))
}

impl Rule for BotOverrideIneffective {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            for (resource, page) in readable_pages(site, index) {
                let directives = page.signals.directives(profile, site.audit_time);
                let rules = &directives.rules;
                let indexing = occurs(rules, restricts_indexing, lifts_indexing);
                let following = occurs(rules, restricts_following, lifts_following);
                if !indexing && !following {
                    continue;
                }
                let generic: Vec<&Directive> = rules
                    .iter()
                    .filter(|r| {
                        r.bot.is_none()
                            && ((indexing && restricts_indexing(&r.rule))
                                || (following && restricts_following(&r.rule)))
                    })
                    .collect();
                let specific: Vec<&Directive> = rules
                    .iter()
                    .filter(|r| {
                        r.bot.is_some()
                            && ((indexing && lifts_indexing(&r.rule))
                                || (following && lifts_following(&r.rule)))
                    })
                    .collect();
                // Google documents the sum of the negative rules; of other crawlers, say what
                // crawlgate applies to them.
                let why = if profile.is_google() {
                    "Google sums the negative rules"
                } else {
                    "the most restrictive rule applies"
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "{} cannot lift {}: {why}, so {} still gets the generic restriction",
                            rules_words(&specific),
                            rules_words(&generic),
                            profile.display_name()
                        ),
                    )
                    .profile(&profile.name)
                    .evidence_all(directives_evidence_up_to(
                        &resource.url,
                        &generic,
                        MAX_SOURCES_QUOTED / 2,
                    ))
                    .evidence_all(directives_evidence_up_to(
                        &resource.url,
                        &specific,
                        MAX_SOURCES_QUOTED / 2,
                    )),
                );
            }
        }
    }
}
