//! The URLs of one origin the audit knows, as robots.txt matching sees them (path and query),
//! indexed to answer "does this rule match any of them?" without testing every rule against every
//! URL (`robots/rule-matches-nothing`).

use crawlgate_core::Site;
use crawlgate_core::robots::{Directive, Rule};
use crawlgate_core::site::{origin_of, path_and_query};
use memchr::memmem;

/// Sorted, distinct paths, joined into one text: a rule's literal prefix is found by binary
/// search, a literal piece in all of them with one substring search. One text, not a `String`
/// per path: an origin's paths are every URL the audit knows.
pub(crate) struct KnownPaths {
    /// The paths joined with `\n` (which no path contains), sorted.
    joined: String,
    /// Where each path starts in `joined`.
    starts: Vec<usize>,
}

impl KnownPaths {
    /// Every URL of `origin` the audit knows: its resources and its sitemaps.
    pub(crate) fn of_origin(site: &Site, origin: &str) -> Self {
        let resources = site.resources().iter().map(|resource| &*resource.url);
        let sitemaps = site.sitemaps.iter().map(|sitemap| &sitemap.url);
        Self::new(
            resources
                .chain(sitemaps)
                .filter(|url| origin_of(url) == origin)
                .map(path_and_query)
                .collect(),
        )
    }

    pub(crate) fn new(mut sorted: Vec<&str>) -> Self {
        sorted.sort_unstable();
        sorted.dedup();
        let mut joined = String::with_capacity(sorted.iter().map(|p| p.len() + 1).sum());
        let mut starts = Vec::with_capacity(sorted.len());
        for path in sorted {
            starts.push(joined.len());
            joined.push_str(path);
            joined.push('\n');
        }
        Self { joined, starts }
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The path at `index` in sorted order.
    fn path(&self, index: usize) -> Option<&str> {
        self.starts.get(index).map(|&at| self.path_at(at))
    }

    /// The paths in sorted order, from `index` on.
    fn paths_from(&self, index: usize) -> impl Iterator<Item = &str> {
        (index..self.len()).map_while(|at| self.path(at))
    }

    /// Whether `rule` matches one of the paths; `None` when `budget` (pattern tests left) runs
    /// out first. Only candidates are tested: the paths starting with the rule's literal prefix,
    /// or, when the rule has a longer literal piece after a `*`, the paths containing it.
    pub(crate) fn any_match(&self, rule: &Rule, budget: &mut usize) -> Option<bool> {
        let prefix = literal_prefix(rule);
        let piece = longest_piece(rule);
        if piece.len() > prefix.len() {
            return self.any_match_containing(rule, piece, budget);
        }
        let start = self.starts.partition_point(|&at| self.path_at(at) < prefix);
        let candidates = self
            .paths_from(start)
            .take_while(|path| path.starts_with(prefix));
        for path in candidates {
            *budget = budget.checked_sub(1)?;
            if rule.matches(path) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The path starting at byte `at` of `joined`.
    fn path_at(&self, at: usize) -> &str {
        let rest = self.joined.get(at..).unwrap_or_default();
        rest.split_once('\n').map_or(rest, |(path, _)| path)
    }

    fn any_match_containing(&self, rule: &Rule, piece: &str, budget: &mut usize) -> Option<bool> {
        let finder = memmem::Finder::new(piece.as_bytes());
        let haystack = self.joined.as_bytes();
        let mut from = 0;
        while let Some(found) = haystack.get(from..).and_then(|rest| finder.find(rest)) {
            let at = from + found;
            // The path holding the hit; test it once, then go on after it.
            let index = self
                .starts
                .partition_point(|&start| start <= at)
                .checked_sub(1)?;
            let path = self.path(index)?;
            *budget = budget.checked_sub(1)?;
            if rule.matches(path) {
                return Some(true);
            }
            from = self
                .starts
                .get(index + 1)
                .copied()
                .unwrap_or(haystack.len());
        }
        Some(false)
    }
}

/// The start every path matching `rule` has: the escaped pattern up to its first wildcard or `$`.
/// For an Allow rule naming `…/index.htm…`, Google also matches the directory itself (`…/`), so
/// the prefix stops after that slash.
pub(crate) fn literal_prefix(rule: &Rule) -> &str {
    let escaped = rule.escaped.as_str();
    let mut end = escaped.find(['*', '$']).unwrap_or(escaped.len());
    if let Some(slash) = index_retry_slash(rule) {
        end = end.min(slash + 1);
    }
    escaped.get(..end).unwrap_or_default()
}

/// The longest run of literal text in the pattern, which every matching path contains (the
/// final `$` is an anchor, not text). Empty for Allow rules with Google's `index.htm` retry,
/// whose retry pattern has other pieces.
fn longest_piece(rule: &Rule) -> &str {
    if index_retry_slash(rule).is_some() {
        return "";
    }
    let escaped = rule.escaped.as_str();
    let text = escaped.strip_suffix('$').unwrap_or(escaped);
    text.split('*')
        .max_by_key(|piece| piece.len())
        .unwrap_or("")
}

/// For an Allow rule whose last segment starts with `index.htm`: the position of that slash.
fn index_retry_slash(rule: &Rule) -> Option<usize> {
    let escaped = rule.escaped.as_str();
    let slash = escaped.rfind('/')?;
    (rule.directive == Directive::Allow
        && escaped
            .get(slash..)
            .is_some_and(|tail| tail.starts_with("/index.htm")))
    .then_some(slash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::robots::RobotsTxt;

    fn with_rule<T>(line: &str, test: impl FnOnce(&Rule) -> T) -> T {
        let robots = RobotsTxt::parse(format!("User-agent: *\n{line}\n").as_bytes());
        test(&robots.groups()[0].rules[0])
    }

    #[test]
    fn the_prefix_stops_at_wildcards_and_at_the_index_htm_directory() {
        let cases = [
            ("Disallow: /a/b*c", "/a/b", "/a/b"),
            ("Disallow: /a$", "/a", "/a"),
            ("Disallow: *.pdf", "", ".pdf"),
            ("Disallow: /*/about*", "/", "/about"),
            ("Allow: /dir/index.html", "/dir/", ""),
            (
                "Disallow: /dir/index.html",
                "/dir/index.html",
                "/dir/index.html",
            ),
            ("Disallow: /caf\u{e9}", "/caf%C3%A9", "/caf%C3%A9"),
        ];
        for (line, prefix, piece) in cases {
            with_rule(line, |rule| {
                assert_eq!(literal_prefix(rule), prefix, "{line}");
                assert_eq!(longest_piece(rule), piece, "{line}");
            });
        }
    }

    #[test]
    fn candidates_agree_with_testing_every_path() {
        let known = KnownPaths::new(
            [
                "/",
                "/a/index.html",
                "/b/x.pdf",
                "/c?q=1",
                "/dir/",
                "/t/1/about",
                "/t/2/aboutus",
            ]
            .to_vec(),
        );
        let lines = [
            "Disallow: /b/",
            "Disallow: /*.pdf$",
            "Disallow: /*.pdf$x",
            "Disallow: /c?q=2",
            "Disallow: /e",
            "Allow: /dir/index.html",
            "Disallow: /dir/index.html",
            "Disallow: a/",
            "Disallow: /*/about$",
            "Disallow: /*/about*us",
            "Disallow: /*/contact",
            "Disallow: *",
        ];
        for line in lines {
            with_rule(line, |rule| {
                let expected = known.paths_from(0).any(|path| rule.matches(path));
                let mut budget = usize::MAX;
                assert_eq!(known.any_match(rule, &mut budget), Some(expected), "{line}");
            });
        }
    }

    #[test]
    fn matching_stops_when_the_budget_of_pattern_tests_runs_out() {
        let paths: Vec<String> = (0..10).map(|i| format!("/p{i}")).collect();
        let known = KnownPaths::new(paths.iter().map(String::as_str).collect());
        with_rule("Disallow: /p*.pdf", |rule| {
            let mut budget = 10;
            assert_eq!(known.any_match(rule, &mut budget), Some(false));
            let mut budget = 9;
            assert_eq!(known.any_match(rule, &mut budget), Some(false));
        });
        with_rule("Disallow: /p", |rule| {
            let mut budget = 0;
            assert_eq!(known.any_match(rule, &mut budget), None);
        });
        with_rule("Disallow: /*p1x", |rule| {
            // No path contains `p1x`: no test is spent at all.
            let mut budget = 1;
            assert_eq!(known.any_match(rule, &mut budget), Some(false));
            assert_eq!(budget, 1);
        });
        with_rule("Disallow: /*p1", |rule| {
            // Only /p1 contains `p1`: one test, and it matches.
            let mut budget = 1;
            assert_eq!(known.any_match(rule, &mut budget), Some(true));
            assert_eq!(budget, 0);
        });
    }
}
