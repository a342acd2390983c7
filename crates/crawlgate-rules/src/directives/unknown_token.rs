use super::read::{by_token, rules_read_by_any_profile, sources_words};
use crate::support::{directives_evidence, ok_pages};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::RobotsRule;
use crawlgate_core::{Severity, Site};

declare_rule! {
    /// ## What it does
    /// Finds words in a robots meta tag or `X-Robots-Tag` header that are not robots rules Google
    /// knows, current or historical. A warning when the word looks like a misspelt `noindex` or
    /// `nofollow` (`no-index`, `no index`, `noindx`, `noindex;`, `noindex nofollow` without a
    /// comma), a notice otherwise.
    ///
    /// ## Why is this bad?
    /// Google ignores what it does not recognise, silently: a page meant to be kept out of search
    /// with `no-index` is indexed as if the tag were not there. Rules are separated by commas
    /// (`noindex, nofollow`); anything else between two rules makes them one unknown word. Google
    /// lists the rules it supports in its robots meta tag documentation (`all`, `noindex`,
    /// `nofollow`, `none`, `nosnippet`, `indexifembedded`, `max-snippet`, `max-image-preview`,
    /// `max-video-preview`, `notranslate`, `noimageindex`, `unavailable_after`).
    ///
    /// ## Example
    /// ```html
    /// <meta name="robots" content="no-index">
    /// <meta name="robots" content="noindex nofollow">
    /// ```
    ///
    /// ## How to fix
    /// Replace the word with the rule meant (the message suggests one when the word resembles
    /// `noindex` or `nofollow`), separating rules with commas. Remove words that are not rules
    /// at all; other search engines' own rules belong in a tag addressed to them
    /// (`<meta name="bingbot" …>`).
    pub struct UnknownToken {
        id: "directives/unknown-token",
        severity: Notice,
        summary: "A robots meta or header word Google does not know, silently ignored",
    }
}

/// The rules a misspelling most likely meant, if the token resembles `noindex` or `nofollow`.
/// Separators are dropped first (`no-index`, `no index`, `noindex;`), then a token within two
/// edits of a rule name counts as a misspelling (`noindx`, `nofolow`).
fn meant_rule(token: &str) -> Option<&'static str> {
    let letters: String = token
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let noindex = letters.contains("noindex");
    let nofollow = letters.contains("nofollow");
    match (noindex, nofollow) {
        (true, true) => return Some("noindex, nofollow"),
        (true, false) => return Some("noindex"),
        (false, true) => return Some("nofollow"),
        (false, false) => {}
    }
    ["noindex", "nofollow"]
        .into_iter()
        .find(|rule| strsim::levenshtein(&letters, rule) <= 2)
}

impl Rule for UnknownToken {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let read = rules_read_by_any_profile(site, &page);
            for places in by_token(&read, |rule| rule.rule == RobotsRule::Unknown) {
                let Some(first) = places.first() else {
                    continue;
                };
                let token = &first.token;
                let sources = sources_words(&places);
                let report = match meant_rule(token) {
                    Some(meant) => Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "`{token}` in {sources} is not a robots rule and is ignored; did you mean `{meant}`?"
                        ),
                    )
                    .severity(Severity::Warning),
                    None => Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "`{token}` in {sources} is not a robots rule Google documents, so it is ignored"
                        ),
                    ),
                };
                out.report(report.evidence_all(directives_evidence(&resource.url, &places)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::meant_rule;

    #[test]
    fn misspellings_of_noindex_and_nofollow_are_recognised() {
        for (token, meant) in [
            ("no-index", Some("noindex")),
            ("no index", Some("noindex")),
            ("NoIndex;", Some("noindex")),
            ("noindx", Some("noindex")),
            ("noidnex", Some("noindex")),
            ("no_follow", Some("nofollow")),
            ("nofolow", Some("nofollow")),
            ("noindex nofollow", Some("noindex, nofollow")),
            ("noindex;nofollow", Some("noindex, nofollow")),
            ("max-snippet=50", None),
            ("noodp-please", None),
            ("nositelinks", None),
            ("", None),
        ] {
            assert_eq!(meant_rule(token), meant, "{token:?}");
        }
    }
}
