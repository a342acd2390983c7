use crate::robots::files::{audited_files, line_evidence};
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::robots::{Directive, Rule as RobotsRule};
use crawlgate_core::rule::{Findings, Report, Rule, RuleMeta};
use crawlgate_core::site::{RobotsEffect, path_and_query};
use std::collections::BTreeMap;

/// Pattern tests allowed per robots.txt (rules × URLs can reach billions on a huge file and a
/// huge site; this is about a quarter of a second).
const MAX_PATTERN_TESTS: usize = 20_000_000;

declare_rule! {
    /// ## What it does
    /// Lists the Allow and Disallow rules, among those the audited crawlers obey, that match none
    /// of the site's URLs the audit knows: every URL crawled, linked, referenced or listed in a
    /// sitemap, and the sitemaps themselves. It runs only when the crawl saw the whole site (no
    /// page, depth or other bound cut it short), since otherwise a rule may match a URL the crawl
    /// never reached. For a huge robots.txt on a huge site it stops after 20 million pattern
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
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        // A partial crawl proves nothing about what a rule matches.
        if site.stats.is_partial() {
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
                        .push(&profile.name);
                }
            }
            if obeyed.is_empty() {
                continue;
            }
            let paths = known_paths(site, &file.origin);
            let mut budget = MAX_PATTERN_TESTS;
            for (line, (rule, names)) in obeyed {
                match matches_any(rule, &paths, &mut budget) {
                    Some(true) => continue,
                    Some(false) => {}
                    // Out of budget: the rules left are not proved unused, so not listed.
                    None => break,
                }
                out.report(
                    Report::new(
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

/// Path and query of every URL of `origin` the audit knows (resources and sitemaps), sorted and
/// each once, as robots.txt matching sees them.
fn known_paths(site: &Site, origin: &str) -> Vec<String> {
    let resources = site.resources().iter().map(|resource| &resource.url);
    let sitemaps = site.sitemaps.iter().map(|sitemap| &sitemap.url);
    let mut paths: Vec<String> = resources
        .chain(sitemaps)
        .filter(|url| url.origin().ascii_serialization() == origin)
        .map(path_and_query)
        .collect();
    paths.sort_unstable();
    paths.dedup();
    paths
}

/// Whether `rule` matches one of the sorted `paths`; `None` when `budget` (pattern tests left)
/// runs out first. Only paths starting with the rule's literal prefix can match, so only that
/// range is tried.
fn matches_any(rule: &RobotsRule, paths: &[String], budget: &mut usize) -> Option<bool> {
    let prefix = literal_prefix(rule);
    let start = paths.partition_point(|path| path.as_str() < prefix);
    let candidates = paths
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(|path| path.starts_with(prefix));
    for path in candidates {
        *budget = budget.checked_sub(1)?;
        if rule.matches(path) {
            return Some(true);
        }
    }
    Some(false)
}

/// The start every path matching `rule` has: the escaped pattern up to its first wildcard or `$`.
/// For an Allow rule naming `…/index.htm…`, Google also matches the directory itself (`…/`), so the
/// prefix stops after that slash.
fn literal_prefix(rule: &RobotsRule) -> &str {
    let escaped = rule.escaped.as_str();
    let mut end = escaped.find(['*', '$']).unwrap_or(escaped.len());
    if rule.directive == Directive::Allow
        && let Some(slash) = escaped.rfind('/')
        && escaped
            .get(slash..)
            .is_some_and(|tail| tail.starts_with("/index.htm"))
    {
        end = end.min(slash + 1);
    }
    escaped.get(..end).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::robots::RobotsTxt;

    fn first_rule(robots: &RobotsTxt) -> &RobotsRule {
        &robots.groups()[0].rules[0]
    }

    #[test]
    fn the_prefix_stops_at_wildcards_and_at_the_index_htm_directory() {
        let cases = [
            ("Disallow: /a/b*c", "/a/b"),
            ("Disallow: /a$", "/a"),
            ("Disallow: *.pdf", ""),
            ("Allow: /dir/index.html", "/dir/"),
            ("Disallow: /dir/index.html", "/dir/index.html"),
            ("Disallow: /caf\u{e9}", "/caf%C3%A9"),
        ];
        for (line, prefix) in cases {
            let robots = RobotsTxt::parse(format!("User-agent: *\n{line}\n").as_bytes());
            assert_eq!(literal_prefix(first_rule(&robots)), prefix, "{line}");
        }
    }

    #[test]
    fn matching_tries_the_prefix_range_and_agrees_with_the_matcher() {
        let paths: Vec<String> = ["/", "/a/index.html", "/b/x.pdf", "/c?q=1", "/dir/"]
            .iter()
            .map(|p| (*p).to_owned())
            .collect();
        let cases = [
            ("Disallow: /b/", true),
            ("Disallow: /*.pdf$", true),
            ("Disallow: /c?q=2", false),
            ("Disallow: /e", false),
            ("Allow: /dir/index.html", true),
            ("Disallow: /dir/index.html", false),
            ("Disallow: a/", false),
        ];
        for (line, expected) in cases {
            let robots = RobotsTxt::parse(format!("User-agent: *\n{line}\n").as_bytes());
            let rule = first_rule(&robots);
            let mut budget = usize::MAX;
            assert_eq!(
                matches_any(rule, &paths, &mut budget),
                Some(expected),
                "{line}"
            );
            assert_eq!(
                paths.iter().any(|path| rule.matches(path)),
                expected,
                "{line}: the range scan must agree with a full scan"
            );
        }
    }

    #[test]
    fn matching_stops_when_the_budget_of_pattern_tests_runs_out() {
        let paths: Vec<String> = (0..10).map(|i| format!("/p{i}")).collect();
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /*.pdf\n");
        let rule = first_rule(&robots);
        let mut budget = 10;
        assert_eq!(matches_any(rule, &paths, &mut budget), Some(false));
        assert_eq!(budget, 0);
        let mut budget = 9;
        assert_eq!(matches_any(rule, &paths, &mut budget), None);
    }
}
