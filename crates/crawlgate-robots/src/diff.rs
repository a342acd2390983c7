//! Two robots.txt files compared, before a deploy: which rules changed, and which URLs change
//! verdict for which crawler.
//!
//! [`RulesChange::between`] is the file-level change: groups (keyed by the user agents they
//! name) added and removed, rules added and removed per group, rules that moved from one group
//! to another, and `Sitemap:` lines added and removed. [`AgentChange::between`] is what changes
//! for one crawler: which groups apply on each side, and which rules apply now that did not
//! (and the reverse) — this is where a new `User-agent: Googlebot` group that silently drops the
//! `*` rules shows up.
//!
//! [`VerdictDiff`] compiles both files once per crawler and then answers each URL in time linear
//! in the URL and the patterns, reporting only the URLs whose verdict flips, with the deciding
//! line on each side. It streams: nothing is kept per URL.
//!
//! ```
//! use crawlgate_robots::RobotsTxt;
//! use crawlgate_robots::diff::{Side, VerdictDiff};
//!
//! let old = RobotsTxt::parse(b"User-agent: *\nDisallow: /cart\n");
//! let new = RobotsTxt::parse(b"User-agent: *\nDisallow: /cart\nDisallow: /shop\n");
//! let diff = VerdictDiff::new(Side::Rules(&old), Side::Rules(&new), &[&["googlebot"]]);
//! let mut flips = Vec::new();
//! diff.compare("/shop/shoes", |flip| flips.push(flip.to_string()));
//! assert_eq!(flips, ["allowed (no rule) → disallowed (line 3: Disallow: /shop)"]);
//! diff.compare("/cart", |flip| flips.push(flip.to_string()));
//! assert_eq!(flips.len(), 1);
//! ```

use super::{AgentRules, Directive, Group, GroupAgent, GroupSelection, RobotsTxt, Rule};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One side of a comparison: a robots.txt whose rules decide, or a fetch outcome that decides
/// every verdict (Google's status semantics: a 4xx but 429 allows everything; a 5xx, a 429 or no
/// response disallows everything).
#[derive(Debug, Clone, Copy)]
pub enum Side<'a> {
    /// The file's rules decide.
    Rules(&'a RobotsTxt),
    /// Every URL gets the same verdict, whatever the rules.
    Everything {
        /// `true` for allow-all (no robots.txt), `false` for disallow-all (unreachable).
        allowed: bool,
    },
}

impl<'a> Side<'a> {
    fn robots(self) -> Option<&'a RobotsTxt> {
        match self {
            Side::Rules(robots) => Some(robots),
            Side::Everything { .. } => None,
        }
    }
}

/// A rule as written, with where it sits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleRef {
    pub line: u32,
    pub directive: Directive,
    /// The value as written (comment cut, trimmed).
    pub pattern: String,
}

impl RuleRef {
    fn of(rule: &Rule) -> RuleRef {
        RuleRef {
            line: rule.line,
            directive: rule.directive,
            pattern: rule.pattern.clone(),
        }
    }
}

impl fmt::Display for RuleRef {
    /// `line 7: Disallow: /shop`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}: {}",
            self.line, self.directive, self.pattern
        )
    }
}

/// A group, named by the user agents it applies to, with its user-agent lines on one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupRef {
    /// The tokens the group names, lower-cased and sorted (`*` for the global group); groups
    /// naming the same set are one group (Google merges them).
    pub agents: Vec<String>,
    /// Its user-agent lines on this side.
    pub lines: Vec<u32>,
    /// Its rules on this side, in file order.
    pub rules: Vec<RuleRef>,
}

/// The rules added to and removed from a group present on both sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupChange {
    /// The tokens the group names (as in [`GroupRef::agents`]).
    pub agents: Vec<String>,
    /// Its user-agent lines in the old file.
    pub old_lines: Vec<u32>,
    /// Its user-agent lines in the new file.
    pub new_lines: Vec<u32>,
    /// Rules only in the new file's group (lines of the new file).
    pub added: Vec<RuleRef>,
    /// Rules only in the old file's group (lines of the old file).
    pub removed: Vec<RuleRef>,
}

/// A rule that left one group and appears in another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleMove {
    /// Where it was (old file).
    pub from: RuleRef,
    /// The group it was in.
    pub from_agents: Vec<String>,
    /// Where it is (new file).
    pub to: RuleRef,
    /// The group it is in now.
    pub to_agents: Vec<String>,
}

/// What changed between two robots.txt files, rule by rule. Empty when only comments, blank
/// lines, order or line numbers changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RulesChange {
    /// Groups only in the new file (with their rules).
    pub groups_added: Vec<GroupRef>,
    /// Groups only in the old file (with their rules).
    pub groups_removed: Vec<GroupRef>,
    /// Groups in both files whose rules changed.
    pub groups_changed: Vec<GroupChange>,
    /// Rules that left a group and appear in another (not counted as added or removed).
    pub moved: Vec<RuleMove>,
    /// `Sitemap:` lines only in the new file.
    pub sitemaps_added: Vec<SitemapLine>,
    /// `Sitemap:` lines only in the old file.
    pub sitemaps_removed: Vec<SitemapLine>,
}

/// A `Sitemap:` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SitemapLine {
    pub line: u32,
    pub url: String,
}

impl RulesChange {
    /// Compares two sides. A fetch outcome has no groups or sitemaps, so against a file every
    /// group of that file is added or removed.
    pub fn between(old: Side<'_>, new: Side<'_>) -> RulesChange {
        let old_groups = keyed_groups(old.robots());
        let new_groups = keyed_groups(new.robots());
        let mut change = RulesChange::default();
        // Rules leaving and entering groups, before moves are paired: (group key, rule).
        let mut leaving: Vec<(Vec<String>, RuleRef, &Rule)> = Vec::new();
        let mut entering: Vec<(Vec<String>, RuleRef, &Rule)> = Vec::new();
        for (key, old_group) in &old_groups {
            let Some(new_group) = new_groups.get(key) else {
                leaving.extend(
                    old_group
                        .rules
                        .iter()
                        .map(|r| (key.clone(), RuleRef::of(r), *r)),
                );
                change.groups_removed.push(old_group.reference(key));
                continue;
            };
            let (added, removed) = rule_difference(&new_group.rules, &old_group.rules);
            leaving.extend(removed.iter().map(|r| (key.clone(), RuleRef::of(r), *r)));
            entering.extend(added.iter().map(|r| (key.clone(), RuleRef::of(r), *r)));
            if !added.is_empty() || !removed.is_empty() {
                change.groups_changed.push(GroupChange {
                    agents: key.clone(),
                    old_lines: old_group.lines.clone(),
                    new_lines: new_group.lines.clone(),
                    added: added.into_iter().map(RuleRef::of).collect(),
                    removed: removed.into_iter().map(RuleRef::of).collect(),
                });
            }
        }
        for (key, new_group) in &new_groups {
            if !old_groups.contains_key(key) {
                entering.extend(
                    new_group
                        .rules
                        .iter()
                        .map(|r| (key.clone(), RuleRef::of(r), *r)),
                );
                change.groups_added.push(new_group.reference(key));
            }
        }
        change.moved = pair_moves(&mut leaving, &mut entering);
        // What was paired as a move is no longer an addition or a removal of a changed group.
        for group in &mut change.groups_changed {
            let moved_from = |rule: &RuleRef| {
                change
                    .moved
                    .iter()
                    .any(|m| m.from_agents == group.agents && m.from == *rule)
            };
            group.removed.retain(|rule| !moved_from(rule));
            let moved_to = |rule: &RuleRef| {
                change
                    .moved
                    .iter()
                    .any(|m| m.to_agents == group.agents && m.to == *rule)
            };
            group.added.retain(|rule| !moved_to(rule));
        }
        change
            .groups_changed
            .retain(|group| !group.added.is_empty() || !group.removed.is_empty());
        let (added, removed) = sitemap_difference(old.robots(), new.robots());
        change.sitemaps_added = added;
        change.sitemaps_removed = removed;
        change
    }

    /// Whether nothing rule-level changed.
    pub fn is_empty(&self) -> bool {
        self.groups_added.is_empty()
            && self.groups_removed.is_empty()
            && self.groups_changed.is_empty()
            && self.moved.is_empty()
            && self.sitemaps_added.is_empty()
            && self.sitemaps_removed.is_empty()
    }
}

/// A file's groups, merged by the set of agents they name.
struct KeyedGroup<'a> {
    lines: Vec<u32>,
    rules: Vec<&'a Rule>,
}

impl KeyedGroup<'_> {
    fn reference(&self, key: &[String]) -> GroupRef {
        GroupRef {
            agents: key.to_vec(),
            lines: self.lines.clone(),
            rules: self.rules.iter().map(|rule| RuleRef::of(rule)).collect(),
        }
    }
}

/// The tokens a group names, lower-cased, sorted, each once; `*` for the global group.
pub fn group_key(group: &Group) -> Vec<String> {
    let names: BTreeSet<String> = group
        .user_agents
        .iter()
        .map(|ua| match &ua.agent {
            GroupAgent::Global => "*".to_owned(),
            GroupAgent::Token(token) => token.to_ascii_lowercase(),
        })
        .collect();
    names.into_iter().collect()
}

fn keyed_groups(robots: Option<&RobotsTxt>) -> BTreeMap<Vec<String>, KeyedGroup<'_>> {
    let mut groups: BTreeMap<Vec<String>, KeyedGroup<'_>> = BTreeMap::new();
    for group in robots.map(RobotsTxt::groups).unwrap_or_default() {
        let entry = groups
            .entry(group_key(group))
            .or_insert_with(|| KeyedGroup {
                lines: Vec::new(),
                rules: Vec::new(),
            });
        entry
            .lines
            .extend(group.user_agents.iter().map(|ua| ua.line));
        entry.rules.extend(&group.rules);
    }
    groups
}

/// What a rule means, whatever its line: directive and pattern as Google matches it.
fn rule_identity(rule: &Rule) -> (Directive, &str) {
    (rule.directive, rule.escaped.as_str())
}

/// Rules of `new` not in `old`, and of `old` not in `new`, each once, in file order.
fn rule_difference<'a>(new: &[&'a Rule], old: &[&'a Rule]) -> (Vec<&'a Rule>, Vec<&'a Rule>) {
    let identities = |rules: &[&'a Rule]| -> BTreeSet<(Directive, &'a str)> {
        rules.iter().map(|rule| rule_identity(rule)).collect()
    };
    let (new_ids, old_ids) = (identities(new), identities(old));
    let only = |rules: &[&'a Rule], other: &BTreeSet<(Directive, &'a str)>| {
        let mut seen = BTreeSet::new();
        rules
            .iter()
            .copied()
            .filter(|rule| {
                let id = rule_identity(rule);
                !other.contains(&id) && seen.insert(id)
            })
            .collect::<Vec<_>>()
    };
    (only(new, &old_ids), only(old, &new_ids))
}

/// Pairs each leaving rule with an entering rule of the same meaning in another group: a move.
/// Paired rules are taken out of both lists.
fn pair_moves(
    leaving: &mut Vec<(Vec<String>, RuleRef, &Rule)>,
    entering: &mut Vec<(Vec<String>, RuleRef, &Rule)>,
) -> Vec<RuleMove> {
    let mut moves = Vec::new();
    let mut taken = vec![false; entering.len()];
    leaving.retain(|(from_key, from, from_rule)| {
        let found = entering
            .iter()
            .zip(taken.iter_mut())
            .find(|((to_key, _, to_rule), taken)| {
                !**taken && to_key != from_key && rule_identity(to_rule) == rule_identity(from_rule)
            });
        let Some(((to_key, to, _), taken)) = found else {
            return true;
        };
        *taken = true;
        moves.push(RuleMove {
            from: from.clone(),
            from_agents: from_key.clone(),
            to: to.clone(),
            to_agents: to_key.clone(),
        });
        false
    });
    let mut taken = taken.into_iter();
    entering.retain(|_| !taken.next().unwrap_or(false));
    moves
}

fn sitemap_difference(
    old: Option<&RobotsTxt>,
    new: Option<&RobotsTxt>,
) -> (Vec<SitemapLine>, Vec<SitemapLine>) {
    let lines = |robots: Option<&RobotsTxt>| -> Vec<SitemapLine> {
        robots
            .map(RobotsTxt::sitemaps)
            .unwrap_or_default()
            .iter()
            .map(|s| SitemapLine {
                line: s.line,
                url: s.url.clone(),
            })
            .collect()
    };
    let (old, new) = (lines(old), lines(new));
    let urls = |lines: &[SitemapLine]| -> BTreeSet<String> {
        lines.iter().map(|s| s.url.clone()).collect()
    };
    let (old_urls, new_urls) = (urls(&old), urls(&new));
    let added = new
        .into_iter()
        .filter(|s| !old_urls.contains(&s.url))
        .collect();
    let removed = old
        .into_iter()
        .filter(|s| !new_urls.contains(&s.url))
        .collect();
    (added, removed)
}

/// Which groups apply to a crawler on one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Applies {
    /// The groups naming the crawler's token (its user-agent lines).
    Named { token: String, lines: Vec<u32> },
    /// The `*` groups (their user-agent lines).
    Global { lines: Vec<u32> },
    /// No group applies: every URL is allowed.
    NoGroup,
    /// The fetch outcome decides every URL.
    Everything { allowed: bool },
}

impl Applies {
    fn of(selection: &GroupSelection) -> Applies {
        match (&selection.token, selection.global) {
            (Some(token), _) => Applies::Named {
                token: token.clone(),
                lines: selection.user_agent_lines.clone(),
            },
            (None, true) => Applies::Global {
                lines: selection.user_agent_lines.clone(),
            },
            (None, false) => Applies::NoGroup,
        }
    }
}

impl fmt::Display for Applies {
    /// `group googlebot (line 8)`, `group * (lines 1, 5)`, `no group`, `everything disallowed`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = |f: &mut fmt::Formatter<'_>, lines: &[u32]| -> fmt::Result {
            let list: Vec<String> = lines.iter().map(ToString::to_string).collect();
            match lines.len() {
                0 => Ok(()),
                1 => write!(f, " (line {})", list.join("")),
                _ => write!(f, " (lines {})", list.join(", ")),
            }
        };
        match self {
            Applies::Named { token, lines: at } => {
                write!(f, "group {token}")?;
                lines(f, at)
            }
            Applies::Global { lines: at } => {
                write!(f, "group *")?;
                lines(f, at)
            }
            Applies::NoGroup => f.write_str("no group"),
            Applies::Everything { allowed: true } => f.write_str("everything allowed"),
            Applies::Everything { allowed: false } => f.write_str("everything disallowed"),
        }
    }
}

/// What changes for one crawler: the groups that apply on each side, and the rules that apply
/// now but did not (and the reverse), compared by meaning (directive and pattern).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentChange {
    pub old: Applies,
    pub new: Applies,
    /// Rules that apply to the crawler in the new file and did not in the old one.
    pub now_applying: Vec<RuleRef>,
    /// Rules that applied in the old file and no longer do.
    pub no_longer_applying: Vec<RuleRef>,
}

impl AgentChange {
    /// Compares what applies to the crawler named by the fallback chain `tokens` (as for
    /// [`RobotsTxt::agent`]).
    pub fn between<'a>(old: Side<'a>, new: Side<'a>, tokens: &[&str]) -> AgentChange {
        let old_agent = old.robots().map(|robots| robots.agent(tokens));
        let new_agent = new.robots().map(|robots| robots.agent(tokens));
        let applies = |side: Side<'_>, agent: Option<&AgentRules<'_>>| match (side, agent) {
            (Side::Everything { allowed }, _) => Applies::Everything { allowed },
            (Side::Rules(_), Some(agent)) => Applies::of(agent.selection()),
            (Side::Rules(_), None) => Applies::NoGroup,
        };
        let rules = |agent: Option<&AgentRules<'a>>| -> Vec<&'a Rule> {
            agent.map(AgentRules::rules).unwrap_or_default()
        };
        let (old_rules, new_rules) = (rules(old_agent.as_ref()), rules(new_agent.as_ref()));
        let (added, removed) = rule_difference(&new_rules, &old_rules);
        AgentChange {
            old: applies(old, old_agent.as_ref()),
            new: applies(new, new_agent.as_ref()),
            now_applying: added.into_iter().map(RuleRef::of).collect(),
            no_longer_applying: removed.into_iter().map(RuleRef::of).collect(),
        }
    }

    /// Whether the crawler sees the same groups and rules on both sides (line numbers aside).
    pub fn is_empty(&self) -> bool {
        self.now_applying.is_empty()
            && self.no_longer_applying.is_empty()
            && same_kind(&self.old, &self.new)
    }
}

/// Whether two selections are the same choice (the same token, or both `*`, …), lines aside.
fn same_kind(a: &Applies, b: &Applies) -> bool {
    match (a, b) {
        (Applies::Named { token: x, .. }, Applies::Named { token: y, .. }) => {
            x.eq_ignore_ascii_case(y)
        }
        (Applies::Global { .. }, Applies::Global { .. }) | (Applies::NoGroup, Applies::NoGroup) => {
            true
        }
        (Applies::Everything { allowed: x }, Applies::Everything { allowed: y }) => x == y,
        _ => false,
    }
}

/// What decided a verdict on one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider<'a> {
    /// This rule.
    Rule(&'a Rule),
    /// No rule of the applicable group matched (or no group applies): allowed.
    NoRule,
    /// The fetch outcome decided ([`Side::Everything`]).
    FetchOutcome,
}

/// A verdict on one side, with what decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision<'a> {
    pub allowed: bool,
    pub decided_by: Decider<'a>,
}

impl<'a> Decision<'a> {
    /// The verdict of compiled rules for `path`: the deciding rule's, or allowed by no rule.
    pub fn of(agent: &AgentRules<'a>, path: &str) -> Decision<'a> {
        match agent.deciding_rule(path) {
            Some(rule) => Decision {
                allowed: rule.directive == Directive::Allow,
                decided_by: Decider::Rule(rule),
            },
            None => Decision {
                allowed: true,
                decided_by: Decider::NoRule,
            },
        }
    }
}

impl fmt::Display for Decision<'_> {
    /// `allowed (no rule)`, `disallowed (line 7: Disallow: /shop)`, `disallowed (robots.txt
    /// unreachable)`, `allowed (no robots.txt)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.allowed {
            "allowed"
        } else {
            "disallowed"
        };
        match self.decided_by {
            Decider::Rule(rule) => write!(
                f,
                "{verdict} (line {}: {}: {})",
                rule.line, rule.directive, rule.pattern
            ),
            Decider::NoRule => write!(f, "{verdict} (no rule)"),
            Decider::FetchOutcome if self.allowed => write!(f, "{verdict} (no robots.txt)"),
            Decider::FetchOutcome => write!(f, "{verdict} (robots.txt unreachable)"),
        }
    }
}

/// A URL whose verdict differs between the two sides, for one crawler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flip<'a> {
    /// The crawler's position in the list given to [`VerdictDiff::new`].
    pub profile: usize,
    pub old: Decision<'a>,
    pub new: Decision<'a>,
}

impl Flip<'_> {
    /// Allowed before, disallowed now: the change that loses crawling.
    pub fn newly_disallowed(&self) -> bool {
        self.old.allowed && !self.new.allowed
    }
}

impl fmt::Display for Flip<'_> {
    /// `allowed (no rule) → disallowed (line 7: Disallow: /shop)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} → {}", self.old, self.new)
    }
}

/// One crawler's compiled rules on one side.
#[derive(Debug, Clone)]
enum Matcher<'a> {
    Rules(AgentRules<'a>),
    Everything { allowed: bool },
}

impl<'a> Matcher<'a> {
    fn compile(side: Side<'a>, tokens: &[&str]) -> Matcher<'a> {
        match side {
            Side::Rules(robots) => Matcher::Rules(robots.agent(tokens)),
            Side::Everything { allowed } => Matcher::Everything { allowed },
        }
    }

    fn decide(&self, path: &str) -> Decision<'a> {
        match self {
            Matcher::Rules(agent) => Decision::of(agent, path),
            Matcher::Everything { allowed } => Decision {
                allowed: *allowed,
                decided_by: Decider::FetchOutcome,
            },
        }
    }
}

/// Which URLs can flip for one crawler.
///
/// A verdict is decided by the set of rules (directive and pattern) that match the URL. When
/// both sides apply rules, a URL that matches none of the rules only one side has matches the
/// same rules on both sides, so its verdict cannot flip: only URLs some changed rule matches
/// need deciding twice. This is what makes a small edit to a large file cheap to check.
#[derive(Debug, Clone)]
enum Candidates<'a> {
    /// No rule changed: nothing flips.
    None,
    /// URLs one of these rules (those only one side has) matches.
    Matching(AgentRules<'a>),
    /// Every URL (a fetch outcome decides a side).
    All,
}

impl<'a> Candidates<'a> {
    fn of(old: &Matcher<'a>, new: &Matcher<'a>) -> Candidates<'a> {
        let (Matcher::Rules(old), Matcher::Rules(new)) = (old, new) else {
            return Candidates::All;
        };
        let (new_rules, old_rules) = (new.rules(), old.rules());
        let (added, removed) = rule_difference(&new_rules, &old_rules);
        if added.is_empty() && removed.is_empty() {
            return Candidates::None;
        }
        // When most rules changed, filtering costs about what deciding does: decide every URL.
        if 2 * (added.len() + removed.len()) > new_rules.len() + old_rules.len() {
            return Candidates::All;
        }
        Candidates::Matching(AgentRules::of_rules(
            GroupSelection::default(),
            added.into_iter().chain(removed),
        ))
    }

    fn may_flip(&self, path_and_query: &str) -> bool {
        match self {
            Candidates::None => false,
            Candidates::Matching(changed) => changed.deciding_rule(path_and_query).is_some(),
            Candidates::All => true,
        }
    }
}

/// Both sides compiled for a list of crawlers, to compare verdicts URL by URL.
#[derive(Debug, Clone)]
pub struct VerdictDiff<'a> {
    /// Per crawler: old, new, and which URLs can flip.
    matchers: Vec<(Matcher<'a>, Matcher<'a>, Candidates<'a>)>,
}

impl<'a> VerdictDiff<'a> {
    /// Compiles both sides once per crawler. Each entry of `crawlers` is a token fallback chain,
    /// as for [`RobotsTxt::agent`] (`&["googlebot-image", "googlebot"]`).
    pub fn new(old: Side<'a>, new: Side<'a>, crawlers: &[&[&str]]) -> VerdictDiff<'a> {
        VerdictDiff {
            matchers: crawlers
                .iter()
                .map(|tokens| {
                    let (old, new) = (Matcher::compile(old, tokens), Matcher::compile(new, tokens));
                    let candidates = Candidates::of(&old, &new);
                    (old, new, candidates)
                })
                .collect(),
        }
    }

    /// The number of crawlers compared.
    pub fn crawlers(&self) -> usize {
        self.matchers.len()
    }

    /// Calls `flipped` for each crawler whose verdict on `path_and_query` differs between the
    /// sides (in crawler order). `path_and_query` is what the matcher reads: see
    /// [`path_params_query`](super::path_params_query).
    pub fn compare(&self, path_and_query: &str, mut flipped: impl FnMut(Flip<'a>)) {
        for (profile, (old, new, candidates)) in self.matchers.iter().enumerate() {
            if !candidates.may_flip(path_and_query) {
                continue;
            }
            let old = old.decide(path_and_query);
            let new = new.decide(path_and_query);
            if old.allowed != new.allowed {
                flipped(Flip { profile, old, new });
            }
        }
    }

    /// Both decisions for one crawler (`None` when `profile` is out of range), flipped or not.
    pub fn decisions(
        &self,
        profile: usize,
        path_and_query: &str,
    ) -> Option<(Decision<'a>, Decision<'a>)> {
        self.matchers
            .get(profile)
            .map(|(old, new, _)| (old.decide(path_and_query), new.decide(path_and_query)))
    }
}

/// Counts for one crawler over the URLs compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FlipCounts {
    /// URLs compared.
    pub urls: u64,
    /// Allowed before, disallowed now.
    pub newly_disallowed: u64,
    /// Disallowed before, allowed now.
    pub newly_allowed: u64,
}

impl FlipCounts {
    /// Count one flip.
    pub fn add(&mut self, flip: &Flip<'_>) {
        if flip.newly_disallowed() {
            self.newly_disallowed += 1;
        } else {
            self.newly_allowed += 1;
        }
    }

    /// URLs whose verdict did not change.
    pub fn unchanged(&self) -> u64 {
        self.urls
            .saturating_sub(self.newly_disallowed)
            .saturating_sub(self.newly_allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> RobotsTxt {
        RobotsTxt::parse(text.as_bytes())
    }

    fn flips(old: &RobotsTxt, new: &RobotsTxt, tokens: &[&str], paths: &[&str]) -> Vec<String> {
        let diff = VerdictDiff::new(Side::Rules(old), Side::Rules(new), &[tokens]);
        let mut out = Vec::new();
        for path in paths {
            diff.compare(path, |flip| out.push(format!("{path}: {flip}")));
        }
        out
    }

    #[test]
    fn disallow_all_shipped_to_production_flips_every_allowed_url() {
        let old = parse("User-agent: *\nDisallow: /admin/\n");
        let new = parse("User-agent: *\nDisallow: /\n");
        assert_eq!(
            flips(&old, &new, &["googlebot"], &["/", "/shop", "/admin/x"]),
            [
                "/: allowed (no rule) → disallowed (line 2: Disallow: /)",
                "/shop: allowed (no rule) → disallowed (line 2: Disallow: /)",
            ]
        );
        let change = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        assert_eq!(change.groups_changed.len(), 1);
        assert_eq!(change.groups_changed[0].agents, ["*"]);
        assert_eq!(
            change.groups_changed[0].added[0].to_string(),
            "line 2: Disallow: /"
        );
        assert_eq!(
            change.groups_changed[0].removed[0].to_string(),
            "line 2: Disallow: /admin/"
        );
    }

    #[test]
    fn a_googlebot_group_added_drops_the_global_rules_for_googlebot_only() {
        let old = parse("User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n");
        let new = parse(
            "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /beta/\n",
        );
        let paths = ["/private/a", "/beta/b", "/x"];
        assert_eq!(
            flips(&old, &new, &["googlebot"], &paths),
            [
                "/private/a: disallowed (line 2: Disallow: /private/) → allowed (no rule)",
                "/beta/b: allowed (no rule) → disallowed (line 6: Disallow: /beta/)",
            ]
        );
        assert!(flips(&old, &new, &["bingbot"], &paths).is_empty());
        let change = AgentChange::between(Side::Rules(&old), Side::Rules(&new), &["googlebot"]);
        assert_eq!(change.old.to_string(), "group * (line 1)");
        assert_eq!(change.new.to_string(), "group googlebot (line 5)");
        assert_eq!(
            change.now_applying[0].to_string(),
            "line 6: Disallow: /beta/"
        );
        let lost: Vec<String> = change
            .no_longer_applying
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            lost,
            ["line 2: Disallow: /private/", "line 3: Disallow: /tmp/"]
        );
        let bing = AgentChange::between(Side::Rules(&old), Side::Rules(&new), &["bingbot"]);
        assert!(bing.is_empty());
        let file = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        assert_eq!(file.groups_added.len(), 1);
        assert_eq!(file.groups_added[0].agents, ["googlebot"]);
        assert_eq!(file.groups_added[0].lines, [5]);
        assert!(file.groups_removed.is_empty() && file.moved.is_empty());
    }

    #[test]
    fn a_newly_blocked_folder_names_the_new_line_and_leaves_the_rest() {
        let old = parse("User-agent: *\nDisallow: /cart\n");
        let new = parse("# shop closed\nUser-agent: *\nDisallow: /cart\nDisallow: /shop\n");
        assert_eq!(
            flips(
                &old,
                &new,
                &["googlebot"],
                &["/shop/a", "/shop", "/shopping", "/cart", "/"]
            ),
            [
                "/shop/a: allowed (no rule) → disallowed (line 4: Disallow: /shop)",
                "/shop: allowed (no rule) → disallowed (line 4: Disallow: /shop)",
                "/shopping: allowed (no rule) → disallowed (line 4: Disallow: /shop)",
            ]
        );
        let change = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        assert_eq!(change.groups_changed[0].added.len(), 1);
        assert!(change.groups_changed[0].removed.is_empty());
    }

    #[test]
    fn moved_lines_comments_and_order_are_no_change() {
        let old = parse("User-agent: *\nDisallow: /a\nAllow: /a/b\n");
        let new = parse("# reordered\n\nUser-agent: *\nAllow: /a/b # keep\nDisallow: /a\n");
        let change = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        assert!(change.is_empty(), "{change:?}");
        assert!(AgentChange::between(Side::Rules(&old), Side::Rules(&new), &["x"]).is_empty());
        // Escaping makes `/ü` and `/%C3%BC` the same rule.
        let old = parse("User-agent: *\nDisallow: /ü\n");
        let new = parse("User-agent: *\nDisallow: /%c3%bc\n");
        assert!(RulesChange::between(Side::Rules(&old), Side::Rules(&new)).is_empty());
    }

    #[test]
    fn a_rule_that_changes_group_is_a_move() {
        let old = parse("User-agent: *\nDisallow: /x\nUser-agent: bingbot\nDisallow: /y\n");
        let new = parse("User-agent: *\nDisallow: /y\nUser-agent: bingbot\nDisallow: /x\n");
        let change = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        assert!(change.groups_changed.is_empty(), "{change:?}");
        let moves: Vec<String> = change
            .moved
            .iter()
            .map(|m| {
                format!(
                    "{} [{}] → {} [{}]",
                    m.from,
                    m.from_agents.join(","),
                    m.to,
                    m.to_agents.join(",")
                )
            })
            .collect();
        assert_eq!(
            moves,
            [
                "line 2: Disallow: /x [*] → line 4: Disallow: /x [bingbot]",
                "line 4: Disallow: /y [bingbot] → line 2: Disallow: /y [*]",
            ]
        );
    }

    #[test]
    fn groups_naming_the_same_agents_are_one_group_whatever_the_case() {
        let old = parse("User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /a\n");
        let new = parse(
            "User-agent: bingbot\nDisallow: /a\nUser-agent: googlebot\nUser-agent: BINGBOT\n",
        );
        let change = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        // `{bingbot, googlebot}` lost its rule; `{bingbot}` is new: the rule moved.
        assert_eq!(change.groups_added[0].agents, ["bingbot"]);
        assert_eq!(change.moved.len(), 1);
        assert!(change.groups_changed.is_empty());
    }

    #[test]
    fn sitemap_lines_added_and_removed() {
        let old = parse("Sitemap: https://e.com/a.xml\nSitemap: https://e.com/b.xml\n");
        let new = parse("Sitemap: https://e.com/b.xml\nSitemap: https://e.com/c.xml\n");
        let change = RulesChange::between(Side::Rules(&old), Side::Rules(&new));
        assert_eq!(
            change.sitemaps_added,
            [SitemapLine {
                line: 2,
                url: "https://e.com/c.xml".into()
            }]
        );
        assert_eq!(
            change.sitemaps_removed,
            [SitemapLine {
                line: 1,
                url: "https://e.com/a.xml".into()
            }]
        );
    }

    #[test]
    fn fetch_outcomes_decide_every_url() {
        let old = parse("User-agent: *\nDisallow: /a\n");
        let diff = VerdictDiff::new(
            Side::Rules(&old),
            Side::Everything { allowed: false },
            &[&["googlebot"], &["bingbot"]],
        );
        let mut out = Vec::new();
        diff.compare("/b", |flip| out.push((flip.profile, flip.to_string())));
        assert_eq!(
            out,
            [
                (
                    0,
                    "allowed (no rule) → disallowed (robots.txt unreachable)".to_owned()
                ),
                (
                    1,
                    "allowed (no rule) → disallowed (robots.txt unreachable)".to_owned()
                ),
            ]
        );
        let allow_all = VerdictDiff::new(
            Side::Rules(&old),
            Side::Everything { allowed: true },
            &[&["googlebot"]],
        );
        let mut out = Vec::new();
        allow_all.compare("/a", |flip| out.push(flip.to_string()));
        assert_eq!(
            out,
            ["disallowed (line 2: Disallow: /a) → allowed (no robots.txt)"]
        );
        let change = RulesChange::between(Side::Rules(&old), Side::Everything { allowed: true });
        assert_eq!(change.groups_removed.len(), 1);
        let agent = AgentChange::between(
            Side::Rules(&old),
            Side::Everything { allowed: false },
            &["g"],
        );
        assert_eq!(agent.new.to_string(), "everything disallowed");
    }

    #[test]
    fn skipping_urls_no_changed_rule_matches_loses_no_flip() {
        // Changes of every kind: a longer Allow shadowing a Disallow, a removed rule, a
        // wildcard, an `index.html` Allow (matched through its `/$` retry), a group added.
        let old = parse(
            "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nDisallow: /d/\n\
             User-agent: bingbot\nDisallow: /x\n",
        );
        let new = parse(
            "User-agent: *\nDisallow: /a\nAllow: /a/b/c\nDisallow: /*.pdf\nAllow: /d/index.html\n\
             Disallow: /d/\nUser-agent: googlebot\nDisallow: /g\n",
        );
        let paths = [
            "/",
            "/a",
            "/a/b",
            "/a/b/c",
            "/a/b/cd",
            "/f.pdf",
            "/f.pdf?x",
            "/d/",
            "/d/index.html",
            "/d/x",
            "/g",
            "/x",
            "/y",
        ];
        let crawlers: [&[&str]; 3] = [&["googlebot"], &["bingbot"], &["other"]];
        let diff = VerdictDiff::new(Side::Rules(&old), Side::Rules(&new), &crawlers);
        for (profile, tokens) in crawlers.iter().enumerate() {
            let (old_agent, new_agent) = (old.agent(tokens), new.agent(tokens));
            for path in paths {
                let expected = old_agent.is_allowed(path) != new_agent.is_allowed(path);
                let mut flipped = false;
                diff.compare(path, |flip| flipped |= flip.profile == profile);
                assert_eq!(flipped, expected, "{tokens:?} {path}");
            }
        }
        let same = VerdictDiff::new(Side::Rules(&old), Side::Rules(&old), &crawlers);
        assert!(
            same.matchers
                .iter()
                .all(|(_, _, c)| matches!(c, Candidates::None))
        );
    }

    #[test]
    fn a_small_edit_to_a_large_file_is_filtered_and_loses_no_flip() {
        use std::fmt::Write as _;
        let mut rules = String::new();
        for n in 0..40 {
            let _ = write!(rules, "Disallow: /s{n}/\nAllow: /s{n}/open\n");
        }
        let old = parse(&format!("User-agent: *\n{rules}Disallow: /*.pdf$\n"));
        let new = parse(&format!(
            "User-agent: *\n{rules}Disallow: /*.pdf\nAllow: /s3/open/x/index.html\n"
        ));
        let diff = VerdictDiff::new(Side::Rules(&old), Side::Rules(&new), &[&["googlebot"]]);
        assert!(matches!(diff.matchers[0].2, Candidates::Matching(_)));
        let (old_agent, new_agent) = (old.agent(&["googlebot"]), new.agent(&["googlebot"]));
        let mut flips = 0;
        for path in [
            "/",
            "/s1/",
            "/s1/open",
            "/f.pdf",
            "/f.pdf?x",
            "/s3/open/x/",
            "/s3/open/x/index.html",
            "/s3/x/",
            "/s39/open/y.pdf?z",
        ] {
            let expected = old_agent.is_allowed(path) != new_agent.is_allowed(path);
            let mut flipped = false;
            diff.compare(path, |_| flipped = true);
            assert_eq!(flipped, expected, "{path}");
            flips += usize::from(flipped);
        }
        // `/f.pdf?x` becomes disallowed; `/s39/open/y.pdf?z` stays allowed (the longer Allow).
        assert_eq!(flips, 1);
    }

    #[test]
    fn counts_split_flips_by_direction() {
        let old = parse("User-agent: *\nDisallow: /a\n");
        let new = parse("User-agent: *\nDisallow: /b\n");
        let diff = VerdictDiff::new(Side::Rules(&old), Side::Rules(&new), &[&["googlebot"]]);
        let mut counts = FlipCounts::default();
        for path in ["/a", "/b", "/c", "/b/2"] {
            counts.urls += 1;
            diff.compare(path, |flip| counts.add(&flip));
        }
        assert_eq!(
            (
                counts.newly_disallowed,
                counts.newly_allowed,
                counts.unchanged()
            ),
            (2, 1, 1)
        );
        let (old, new) = diff.decisions(0, "/c").unwrap();
        assert!(old.allowed && new.allowed);
        assert!(diff.decisions(1, "/c").is_none());
    }
}
