use crate::robots::files::{audited_files, line_evidence};
use crate::support::profiles;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::robots::{Directive, Rule as RobotsRule};
use crawlgate_core::rule::{Findings, Report, Rule, RuleMeta};
use crawlgate_core::site::{RobotsEffect, path_and_query};
use std::collections::BTreeMap;

declare_rule! {
    /// ## What it does
    /// Lists the Allow and Disallow rules, among those the audited crawlers obey, that match
    /// none of the site's URLs the audit knows: every URL crawled, linked, referenced or listed
    /// in a sitemap, and the sitemaps themselves. It runs only when the crawl saw the whole site
    /// (no page, depth or other bound cut it short), since otherwise a rule may match a URL the
    /// crawl never reached.
    ///
    /// ## Why is this bad?
    /// Usually it is harmless: the rule is stale. But stale rules pile up, especially after a
    /// change of URL structure: the old `Disallow: /catalog/search` no longer protects the new
    /// `/shop/search`, while the file suggests it does. Each unused rule is also one more line
    /// to misread in the next edit. (A rule guarding URLs nothing links to, such as an admin
    /// area, also shows up here: keep those.)
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /catalog/search     (the site moved to /shop/ last year)
    /// ```
    ///
    /// ## How to fix
    /// For each rule listed, check whether its URLs still exist. Delete the rules for URLs that
    /// are gone, and rewrite those meant for URLs that moved so they match the new paths (test
    /// them with `crawlgate robots test`).
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
            for (line, (rule, names)) in obeyed {
                if matches_any(rule, &paths) {
                    continue;
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

/// Path and query of every URL of `origin` the audit knows (resources and sitemaps), sorted
/// and each once, as robots.txt matching sees them.
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

/// Whether `rule` matches one of the sorted `paths`. Only paths starting with the rule's
/// literal prefix can match, so only that range is tried.
fn matches_any(rule: &RobotsRule, paths: &[String]) -> bool {
    let prefix = literal_prefix(rule);
    let start = paths.partition_point(|path| path.as_str() < prefix);
    paths
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(|path| path.starts_with(prefix))
        .any(|path| rule.matches(path))
}

/// The start every path matching `rule` has: the escaped pattern up to its first wildcard or
/// `$`. For an Allow rule naming `…/index.htm…`, Google also matches the directory itself
/// (`…/`), so the prefix stops after that slash.
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
            assert_eq!(matches_any(rule, &paths), expected, "{line}");
            assert_eq!(
                paths.iter().any(|path| rule.matches(path)),
                expected,
                "{line}: the range scan must agree with a full scan"
            );
        }
    }
}
