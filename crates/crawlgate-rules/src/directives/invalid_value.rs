use super::read::{by_token, rules_read_by_any_profile, sources_words};
use crate::support::{directives_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Directive, RobotsRule};

declare_rule! {
    /// ## What it does
    /// Finds robots rules Google knows but whose value it cannot read: `max-snippet` or
    /// `max-video-preview` without a whole number (−1 or more), `max-image-preview` other than
    /// `none`, `standard` or `large`, an `unavailable_after` date in no format Google reads, or
    /// a value given to a rule that takes none (`noindex: true`).
    ///
    /// ## Why is this bad?
    /// Google ignores a rule it cannot parse, as if it were not there: `max-snippet:ten` sets no
    /// limit, and an `unavailable_after` with an unreadable date never takes the page out of
    /// search. The author believes a restriction is in place when it is not.
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="max-snippet:fifty, max-image-preview:big">
    /// <meta name="robots" content="unavailable_after: next friday">
    /// ```
    ///
    /// ## How to fix
    /// Write the value in the form Google documents: `max-snippet:50` (`0` for no snippet, `-1`
    /// for no limit), `max-video-preview:30`, `max-image-preview:large`, and dates as ISO 8601
    /// (`unavailable_after: 2026-12-31`), RFC 822 or RFC 850.
    pub struct InvalidValue {
        id: "directives/invalid-value",
        severity: Warning,
        summary: "A robots rule with a value Google cannot read, so the rule is ignored",
    }
}

/// What the value of rule `name` should look like.
fn expected_value(name: &str) -> &'static str {
    match name {
        "max-snippet" => "a whole number of characters (0 for no snippet, -1 for no limit)",
        "max-video-preview" => "a whole number of seconds (0 for a still image, -1 for no limit)",
        "max-image-preview" => "`none`, `standard` or `large`",
        "unavailable_after" => "a date in ISO 8601, RFC 822 or RFC 850 form",
        _ => "no value at all",
    }
}

impl Rule for InvalidValue {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let read = rules_read_by_any_profile(site, &page);
            let invalid = |rule: &Directive| matches!(rule.rule, RobotsRule::Invalid(_));
            for places in by_token(&read, invalid) {
                let Some(first) = places.first() else {
                    continue;
                };
                let RobotsRule::Invalid(name) = &first.rule else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "`{}` in {}: `{name}` takes {}, so Google ignores the rule",
                            first.token,
                            sources_words(&places),
                            expected_value(name)
                        ),
                    )
                    .evidence_all(directives_evidence(&resource.url, &places)),
                );
            }
        }
    }
}
