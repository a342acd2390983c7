use crate::robots::files::{audited_files, line_evidence};
use crate::robots::known_paths::KnownPaths;
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::robots::Rule as RobotsRule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::RobotsEffect;
use std::collections::BTreeMap;

/// Pattern tests allowed per robots.txt: rules × URLs can reach billions on a huge file and a
/// huge site (candidates are narrowed first; this many tests take about a quarter of a second).
const MAX_PATTERN_TESTS: usize = 20_000_000;

declare_rule! {
    /// ## What it does
    /// Lists the Allow and Disallow rules, among those the audited crawlers obey, that match none
    /// of the site's URLs the audit knows: every URL crawled, linked, referenced or listed in a
    /// sitemap, and the sitemaps themselves. It runs only when the crawl saw the whole site (no
    /// page, depth or other bound cut it short, links followed, no page left out by include or
    /// exclude patterns), since otherwise a rule may match a URL the crawl never reached. For a huge robots.txt on a huge site it stops after 20 million pattern
    /// tests per file and lists only the rules checked by then.
    ///
    /// ## Why is this bad?
    /// Usually it is harmless: the rule is stale. But stale rules pile up, especially after a
    /// change of URL structure: the old `Disallow: /catalog/search` no longer protects the new
    /// `/shop/search`, while the file suggests it does. Each unused rule is also one more line to
    /// misread in the next edit. (A rule guarding URLs nothing links to, such as an admin area,
    /// also shows up here: keep those.)
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /catalog/search     (the site moved to /shop/ last year)
    /// ```
    ///
    /// ## How to fix
    /// For each rule listed, check whether its URLs still exist. Delete the rules for URLs that are
    /// gone, and rewrite those meant for URLs that moved so they match the new paths (test them
    /// with `crawlgate robots test`).
    pub struct RuleMatchesNothing {
        id: "robots/rule-matches-nothing",
        severity: Notice,
        summary: "An Allow/Disallow rule matches none of the URLs the audit found",
    }
}

impl Rule for RuleMatchesNothing {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        // A partial or narrowed crawl proves nothing about what a rule matches.
        if site.stats.is_partial() || !site.mode.follows_links() || site.stats.urls_excluded > 0 {
            return;
        }
        for file in audited_files(site) {
            if file.effect != RobotsEffect::Rules {
                continue;
            }
            // The rules the audited profiles obey, each once by line, with who obeys them.
            let mut obeyed: BTreeMap<u32, (&RobotsRule, Vec<&str>)> = BTreeMap::new();
            for (_, profile) in profiles(site) {
                let tokens: Vec<&str> = profile.robots_tokens.iter().map(String::as_str).collect();
                for rule in file.parsed.agent(&tokens).rules() {
                    obeyed
                        .entry(rule.line)
                        .or_insert_with(|| (rule, Vec::new()))
                        .1
                        .push(profile.display_name());
                }
            }
            if obeyed.is_empty() {
                continue;
            }
            let paths = KnownPaths::of_origin(site, &file.origin);
            let mut budget = MAX_PATTERN_TESTS;
            for (line, (rule, names)) in obeyed {
                match paths.any_match(rule, &mut budget) {
                    Some(true) => continue,
                    Some(false) => {}
                    // Out of budget: the rules left are not proved unused, so not listed.
                    None => break,
                }
                out.report(
                    Occurrence::new(
                        file.url.as_str(),
                        format!(
                            "line {line}: `{}: {}` (obeyed by {}) matches none of the {} URLs of \
                             {} this audit found; it may be stale",
                            rule.directive,
                            rule.pattern,
                            names.join(", "),
                            paths.len(),
                            file.origin
                        ),
                    )
                    .evidence(line_evidence(file, line)),
                );
            }
        }
    }
}
