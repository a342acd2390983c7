//! The rules that apply to one crawler, compiled once and ordered so the first match decides.
//!
//! Google keeps, per directive, the longest matching pattern and then lets Disallow win only if
//! it is strictly longer. Sorting the rules by priority (longest first), Allow before Disallow at
//! equal priority and file order among equals, makes the first matching rule the one Google's
//! `matching_line()` reports, so a check stops at its first match. Empty rules (priority 0)
//! never decide anything and are left out. A trie over the rules' literal prefixes
//! (`prefix_index.rs`) skips the rules that cannot match the path at all.

use super::pattern::Pattern;
use super::prefix_index::PrefixIndex;
use super::{Directive, Group, GroupAgent, GroupSelection, MatchedRule, RobotsTxt, Rule, Verdict};

/// The rules of the groups that apply to one crawler, compiled for many checks.
#[derive(Debug, Clone)]
pub struct AgentRules<'a> {
    selection: GroupSelection,
    /// In decision order.
    entries: Vec<Entry<'a>>,
    /// The entries by literal prefix, numbered as in `entries`.
    index: PrefixIndex,
}

/// One way a rule can match: its pattern, or (for `…/index.htm*` Allow rules) the `…/$` retry.
#[derive(Debug, Clone)]
struct Entry<'a> {
    priority: usize,
    pattern: &'a Pattern,
    rule: &'a Rule,
}

impl Entry<'_> {
    /// Sort key: longest first, Allow before Disallow, then file order.
    fn order(&self) -> (std::cmp::Reverse<usize>, Directive, u32) {
        (
            std::cmp::Reverse(self.priority),
            self.rule.directive,
            self.rule.line,
        )
    }
}

/// Google's group selection: the groups naming the first token of the chain that any group
/// names, else the `*` groups, else none.
pub(crate) fn select<'a>(groups: &'a [Group], tokens: &[&str]) -> (GroupSelection, Vec<&'a Group>) {
    for token in tokens {
        let user_agent_lines: Vec<u32> = groups
            .iter()
            .flat_map(|group| &group.user_agents)
            .filter(|ua| ua.names(token))
            .map(|ua| ua.line)
            .collect();
        if !user_agent_lines.is_empty() {
            let selection = GroupSelection {
                token: Some((*token).to_owned()),
                global: false,
                user_agent_lines,
            };
            return (
                selection,
                groups.iter().filter(|group| group.names(token)).collect(),
            );
        }
    }
    let chosen: Vec<&Group> = groups.iter().filter(|group| group.is_global()).collect();
    let user_agent_lines = chosen
        .iter()
        .flat_map(|group| &group.user_agents)
        .filter(|ua| ua.agent == GroupAgent::Global)
        .map(|ua| ua.line)
        .collect();
    let selection = GroupSelection {
        token: None,
        global: !chosen.is_empty(),
        user_agent_lines,
    };
    (selection, chosen)
}

impl<'a> AgentRules<'a> {
    pub(super) fn compile(robots: &'a RobotsTxt, tokens: &[&str]) -> AgentRules<'a> {
        let (selection, chosen) = select(robots.groups(), tokens);
        Self::of_rules(selection, chosen.into_iter().flat_map(|group| &group.rules))
    }

    /// Compiles `rules` as given, under `selection` (`robots::diff` compiles the rules that
    /// changed between two files this way, to skip URLs none of them matches).
    pub(super) fn of_rules(
        selection: GroupSelection,
        rules: impl IntoIterator<Item = &'a Rule>,
    ) -> AgentRules<'a> {
        let mut entries: Vec<Entry<'a>> = rules
            .into_iter()
            .filter(|rule| rule.compiled.priority > 0)
            .flat_map(|rule| {
                let primary = Entry {
                    priority: rule.compiled.priority,
                    pattern: &rule.compiled.pattern,
                    rule,
                };
                let retry = rule
                    .compiled
                    .index_retry
                    .as_ref()
                    .map(|(pattern, priority)| Entry {
                        priority: *priority,
                        pattern,
                        rule,
                    });
                std::iter::once(primary).chain(retry)
            })
            .collect();
        entries.sort_by_key(Entry::order);
        let index = PrefixIndex::build(entries.iter().map(|entry| entry.pattern.literal_prefix()));
        AgentRules {
            selection,
            entries,
            index,
        }
    }

    /// The verdict for `path_and_query` (already reduced with
    /// [`path_params_query`](super::path_params_query) or taken from a parsed URL).
    pub fn verdict(&self, path_and_query: &str) -> Verdict {
        let decided_by = self.deciding_rule(path_and_query);
        Verdict {
            allowed: decided_by.is_none_or(|rule| rule.directive == Directive::Allow),
            decided_by: decided_by.map(|rule| MatchedRule {
                line: rule.line,
                directive: rule.directive,
                pattern: rule.pattern.clone(),
            }),
            group: self.selection.clone(),
        }
    }

    /// Whether `path_and_query` is allowed; the same answer as [`AgentRules::verdict`] without
    /// building the evidence.
    pub fn is_allowed(&self, path_and_query: &str) -> bool {
        self.deciding_rule(path_and_query)
            .is_none_or(|rule| rule.directive == Directive::Allow)
    }

    /// The rule that decides `path_and_query`, if any non-empty rule matches.
    pub fn deciding_rule(&self, path_and_query: &str) -> Option<&'a Rule> {
        let path = path_and_query.as_bytes();
        let entry = |number: u32| self.entries.get(number as usize);
        let first = self.index.first_match(path, |number| {
            entry(number).is_some_and(|entry| entry.pattern.matches(path))
        })?;
        entry(first).map(|entry| entry.rule)
    }

    /// Which groups apply.
    pub fn selection(&self) -> &GroupSelection {
        &self.selection
    }

    /// The non-empty rules that apply, each once, in file order.
    pub fn rules(&self) -> Vec<&'a Rule> {
        let mut rules: Vec<&'a Rule> = self.entries.iter().map(|entry| entry.rule).collect();
        rules.sort_by_key(|rule| rule.line);
        rules.dedup_by_key(|rule| rule.line);
        rules
    }
}

#[cfg(test)]
mod tests {
    use super::super::RobotsTxt;

    fn allowed(body: &str, agent: &str, path: &str) -> bool {
        RobotsTxt::parse(body.as_bytes())
            .verdict(agent, path)
            .allowed
    }

    #[test]
    fn an_empty_file_or_no_matching_group_allows_everything() {
        assert!(allowed("", "FooBot", "/"));
        assert!(allowed("User-agent: BarBot\nDisallow: /", "FooBot", "/x"));
    }

    #[test]
    fn a_specific_group_replaces_the_global_one_even_when_empty() {
        let body = "User-agent: *\nDisallow: /\nUser-agent: FooBot\nAllow: /x";
        assert!(!allowed(body, "BarBot", "/y"));
        assert!(allowed(body, "FooBot", "/y"));
        let body = "User-agent: *\nDisallow: /\nUser-agent: FooBot";
        assert!(allowed(body, "foobot", "/y"));
        let body = "User-agent: *\nDisallow: /\nUser-agent: FooBot\nDisallow:";
        assert!(allowed(body, "FooBot", "/y"));
    }

    #[test]
    fn groups_naming_the_same_agent_are_merged() {
        let body = "User-agent: FooBot\nDisallow: /x/\nUser-agent: BarBot\nDisallow: /y/\nUser-agent: FooBot\nDisallow: /z/";
        assert!(!allowed(body, "FooBot", "/x/a"));
        assert!(!allowed(body, "FooBot", "/z/a"));
        assert!(allowed(body, "FooBot", "/y/a"));
    }

    #[test]
    fn caller_tokens_are_compared_verbatim_and_case_insensitively() {
        let body = "User-agent: AB42bot\nDisallow: /\nUser-agent: Foo Bar\nDisallow: /foo\nUser-agent: *\nDisallow: /star";
        assert!(!allowed(body, "AB", "/x"));
        assert!(!allowed(body, "ab", "/x"));
        assert!(allowed(body, "AB42bot", "/x"));
        assert!(!allowed(body, "AB42bot", "/star"));
        assert!(!allowed(body, "FOO", "/foo"));
        assert!(!allowed(body, "Foo Bar", "/star"));
        assert!(allowed(body, "Foo Bar", "/foo"));
    }

    #[test]
    fn the_longest_match_wins_and_allow_wins_a_tie() {
        let body = "User-agent: *\nDisallow: /x/\nAllow: /x/page\nDisallow: /x/page.html\nAllow: /same\nDisallow: /same";
        assert!(!allowed(body, "a", "/x/a"));
        assert!(allowed(body, "a", "/x/page"));
        assert!(!allowed(body, "a", "/x/page.html"));
        assert!(allowed(body, "a", "/same"));
        let wildcard = "User-agent: *\nAllow: /page\nDisallow: /*.html";
        assert!(!allowed(wildcard, "a", "/page.html"));
        assert!(allowed(wildcard, "a", "/page"));
    }

    #[test]
    fn priority_is_counted_on_the_escaped_pattern() {
        // `/ü` escapes to `/%C3%BC` (7 bytes), longer than `/%C3%B` (6).
        let body = "User-agent: *\nDisallow: /%C3%B\nAllow: /ü";
        assert!(allowed(body, "a", "/%C3%BC"));
    }

    #[test]
    fn empty_rules_never_decide() {
        let body = "User-agent: *\nDisallow:\nDisallow: /";
        assert!(!allowed(body, "a", "/x"));
        let body = "User-agent: *\nAllow:\nDisallow: /";
        assert!(!allowed(body, "a", "/x"));
        let verdict = RobotsTxt::parse(b"User-agent: *\nDisallow:").verdict("a", "/");
        assert!(verdict.allowed);
        assert_eq!(verdict.decided_by, None);
    }

    #[test]
    fn escapes_are_compared_as_text_never_decoded() {
        // `%2A` is not a wildcard and `%24` not an anchor (RFC 9309 examples, Google issue #57).
        let body = "User-agent: *\nDisallow: /a%2Ab\nDisallow: /c%24";
        assert!(!allowed(body, "x", "/a%2Ab"));
        assert!(allowed(body, "x", "/axb"));
        assert!(!allowed(body, "x", "/c%24/more"));
        // `%62%61%7A` is not `baz`, but lower-case escapes in rules are upper-cased.
        let body = "User-agent: *\nDisallow: /%62%61%7A\nDisallow: /q%aa";
        assert!(allowed(body, "x", "/baz"));
        assert!(!allowed(body, "x", "/%62%61%7A"));
        assert!(!allowed(body, "x", "/q%AA"));
        assert!(allowed(body, "x", "/q%aa"));
        // A raw non-ASCII URL does not match the escaped rule; the encoded one does.
        let body = "User-agent: *\nDisallow: /foo/bar/ツ";
        assert!(allowed(body, "x", "/foo/bar/ツ"));
        assert!(!allowed(body, "x", "/foo/bar/%E3%83%84"));
        // Spaces stay spaces.
        assert!(!allowed("User-agent: *\nDisallow: /a b", "x", "/a b/c"));
    }

    #[test]
    fn rule_values_are_case_sensitive() {
        let body = "user-agent: FooBot\ndisallow: /x/";
        assert!(!allowed(body, "FooBot", "/x/y"));
        assert!(allowed(
            "user-agent: FooBot\ndisallow: /X/",
            "FooBot",
            "/x/y"
        ));
    }

    #[test]
    fn there_is_no_implicit_allow_for_robots_txt() {
        assert!(!allowed("User-agent: *\nDisallow: /", "a", "/robots.txt"));
    }

    #[test]
    fn the_verdict_names_the_deciding_line_and_the_group() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nDisallow: /\nUser-agent: a\nUser-agent: b\nDisallow: /p\nDisallow: /p",
        );
        let verdict = robots.verdict("B", "/p/q");
        assert!(!verdict.allowed);
        let rule = verdict.decided_by.expect("a rule decides");
        assert_eq!((rule.line, rule.pattern.as_str()), (5, "/p"));
        assert_eq!(rule.to_string(), "line 5: Disallow: /p");
        assert_eq!(verdict.group.token.as_deref(), Some("B"));
        assert_eq!(verdict.group.user_agent_lines, vec![4]);
        let global = robots.verdict("z", "/p");
        assert!(global.group.global);
        assert_eq!(global.group.user_agent_lines, vec![1]);
    }

    #[test]
    fn a_fallback_chain_takes_the_first_token_with_its_own_group() {
        let robots =
            RobotsTxt::parse(b"User-agent: googlebot\nDisallow: /g\nUser-agent: *\nDisallow: /all");
        let image = robots.agent(&["googlebot-image", "googlebot"]);
        assert_eq!(image.selection().token.as_deref(), Some("googlebot"));
        assert!(!image.verdict("/g").allowed);
        assert!(image.verdict("/all").allowed);
        let global = robots.agent(&[]);
        assert!(global.selection().global);
        assert!(!global.verdict("/all").allowed);
    }

    #[test]
    fn index_html_allow_also_allows_its_directory() {
        let body = "User-agent: *\nAllow: /allowed-slash/index.html\nDisallow: /";
        assert!(allowed(body, "a", "/allowed-slash/"));
        assert!(!allowed(body, "a", "/allowed-slash/index.htm"));
        assert!(allowed(body, "a", "/allowed-slash/index.html"));
        assert!(!allowed(body, "a", "/anyother-url"));
    }
}
