//! Rules about groups and what they mean for crawlers: empty rules, disallow-all, a specific group
//! shadowing `*`, duplicate groups, sensitive paths.

use super::{Code, LintOptions, issue, listing, quote};
use crate::sensitive::{self, SensitiveMatch};
use crate::{AgentRules, Directive, GroupAgent, LineKind, RobotsTxt, Rule};
use crate::{Issue, Severity};
use std::collections::{BTreeMap, HashSet};

pub(super) fn check(robots: &RobotsTxt, options: &LintOptions, issues: &mut Vec<Issue>) {
    // Each crawler's rules compiled once: compiling sorts and indexes every rule of its groups,
    // and the rules below all read the same views.
    let global = robots.agent(&[]);
    let agents: Vec<(&str, AgentRules<'_>)> = options
        .user_agents
        .iter()
        .map(|token| (token.as_str(), robots.agent(&[token])))
        .collect();
    empty_rules(robots, issues);
    disallow_all(robots, &global, &agents, issues);
    shadowed_global(&global, &agents, options, issues);
    duplicate_groups(robots, options, issues);
    sensitive_paths(robots, options, issues);
}

fn rule_text(rule: &Rule) -> String {
    format!("line {}: {}: {}", rule.line, rule.directive, rule.pattern)
}

/// An empty `Allow:`/`Disallow:` is harmless alone ("allow all"), but in a group with real rules
/// it is dead text, often a rule whose path was lost.
fn empty_rules(robots: &RobotsTxt, issues: &mut Vec<Issue>) {
    for group in robots.groups() {
        if group.rules.iter().all(|rule| rule.pattern.is_empty()) {
            continue;
        }
        for rule in group.rules.iter().filter(|rule| rule.pattern.is_empty()) {
            issues.push(issue(
                Code::EmptyRule,
                Severity::Notice,
                Some(rule.line),
                format!(
                    "`{}:` has no path and is ignored; the group's other rules still apply",
                    rule.directive
                ),
            ));
        }
    }
}

fn disallow_all(
    robots: &RobotsTxt,
    global: &AgentRules<'_>,
    agents: &[(&str, AgentRules<'_>)],
    issues: &mut Vec<Issue>,
) {
    let falls_back: Vec<&str> = agents
        .iter()
        .filter(|(_, agent)| agent.selection().token.is_none())
        .map(|(token, _)| *token)
        .collect();
    if let Some(rule) = global
        .deciding_rule("/")
        .filter(|rule| rule.directive == Directive::Disallow)
    {
        let also = if falls_back.is_empty() {
            String::new()
        } else {
            format!(" ({} among them)", falls_back.join(", "))
        };
        issues.push(issue(
            Code::DisallowAll,
            Severity::Critical,
            Some(rule.line),
            format!(
                "`/` is disallowed for every crawler without a group of its own (`*`){also} by \
                 {}{}",
                rule_text(rule),
                merged_group_note(robots, rule)
            ),
        ));
    }
    for (token, agent) in agents {
        if agent.selection().token.is_none() {
            continue;
        }
        if let Some(rule) = agent
            .deciding_rule("/")
            .filter(|rule| rule.directive == Directive::Disallow)
        {
            issues.push(issue(
                Code::DisallowAll,
                Severity::Critical,
                Some(rule.line),
                format!(
                    "`/` is disallowed for {token} by {}: it will not crawl the site{}",
                    rule_text(rule),
                    merged_group_note(robots, rule)
                ),
            ));
        }
    }
}

/// Google issue #51: lines such as `Crawl-delay:` or `Sitemap:` between two user-agent lines do
/// not end a group, so `User-agent: *` / `Crawl-delay: 5` / `User-agent: BadBot` /
/// `Disallow: /` blocks everyone. Say so when the deciding rule's group was built that way.
fn merged_group_note(robots: &RobotsTxt, rule: &Rule) -> String {
    let Some(group) = robots
        .groups()
        .iter()
        .find(|group| group.rules.iter().any(|other| other.line == rule.line))
    else {
        return String::new();
    };
    let (Some(first), Some(last)) = (group.user_agents.first(), group.user_agents.last()) else {
        return String::new();
    };
    let interrupted = robots.lines().iter().any(|line| {
        line.line > first.line
            && line.line < last.line
            && matches!(
                line.kind,
                LineKind::Sitemap | LineKind::Unsupported | LineKind::Unknown
            )
    });
    if !interrupted {
        return String::new();
    }
    let agents: Vec<String> = group
        .user_agents
        .iter()
        .map(|ua| format!("`{}` (line {})", quote(&ua.value), ua.line))
        .collect();
    format!(
        "; note that {} form one group: only Allow/Disallow lines end a group, not the other \
         lines between them",
        agents.join(", ")
    )
}

fn shadowed_global(
    global: &AgentRules<'_>,
    agents: &[(&str, AgentRules<'_>)],
    options: &LintOptions,
    issues: &mut Vec<Issue>,
) {
    let global_rules = global.rules();
    let global_disallows: Vec<&Rule> = global_rules
        .iter()
        .copied()
        .filter(|rule| rule.directive == Directive::Disallow)
        .collect();
    if global_disallows.is_empty() {
        return;
    }
    for (token, agent) in agents {
        let Some(first_line) = agent
            .selection()
            .token
            .as_ref()
            .and(agent.selection().user_agent_lines.first())
        else {
            continue;
        };
        // A set, not a scan of the crawler's rules per `*` rule: a file with thousands of rules
        // in both groups would otherwise cost their product.
        let own: HashSet<&str> = agent
            .rules()
            .into_iter()
            .filter(|rule| rule.directive == Directive::Disallow)
            .map(|rule| rule.escaped.as_str())
            .collect();
        let lost: Vec<String> = global_disallows
            .iter()
            .filter(|global| !own.contains(global.escaped.as_str()))
            .map(|rule| rule_text(rule))
            .collect();
        if lost.is_empty() {
            continue;
        }
        issues.push(issue(
            Code::GroupShadowsGlobal,
            Severity::Warning,
            Some(*first_line),
            format!(
                "{token} has its own group, so it ignores the `*` group entirely; these `*` rules \
                 do not apply to it: {}",
                listing(&lost, options.list_limit)
            ),
        ));
    }
}

fn duplicate_groups(robots: &RobotsTxt, options: &LintOptions, issues: &mut Vec<Issue>) {
    // Agent name (lower-case) → (group index, user-agent line, value as written) of each group
    // naming it.
    let mut named: BTreeMap<String, Vec<(usize, u32, &str)>> = BTreeMap::new();
    for (index, group) in robots.groups().iter().enumerate() {
        for ua in &group.user_agents {
            let name = match &ua.agent {
                GroupAgent::Global => "*".to_owned(),
                GroupAgent::Token(token) if !token.is_empty() => token.to_ascii_lowercase(),
                GroupAgent::Token(_) => continue,
            };
            let groups = named.entry(name).or_default();
            if groups.last().is_none_or(|(last, _, _)| *last != index) {
                groups.push((index, ua.line, ua.value.as_str()));
            }
        }
    }
    for (name, groups) in named {
        let Some(&(_, second, _)) = groups.get(1) else {
            continue;
        };
        // Say how a value was read when it is not the name itself (`bot1` is read as `bot`).
        let lines: Vec<String> = groups
            .iter()
            .map(|(_, line, value)| {
                if value.eq_ignore_ascii_case(&name) {
                    line.to_string()
                } else {
                    format!("{line} (`{}`)", quote(value))
                }
            })
            .collect();
        issues.push(issue(
            Code::DuplicateGroups,
            Severity::Notice,
            Some(second),
            format!(
                "`{name}` is named by {} groups (user-agent lines {}); Google merges them, some \
                 other parsers use only the first",
                groups.len(),
                listing(&lines, options.list_limit)
            ),
        ));
    }
}

fn sensitive_paths(robots: &RobotsTxt, options: &LintOptions, issues: &mut Vec<Issue>) {
    // Each distinct pattern once, at its first line, with the other lines listed.
    let mut found: Vec<(u32, &str, SensitiveMatch, Vec<String>)> = Vec::new();
    let mut index_of: BTreeMap<String, usize> = BTreeMap::new();
    for facts in robots.lines() {
        if facts.kind != LineKind::Disallow {
            continue;
        }
        let pattern = facts.value.as_deref().unwrap_or_default();
        let Some(sensitive) = sensitive::classify(pattern) else {
            continue;
        };
        let key = pattern.to_ascii_lowercase();
        if let Some(other_lines) = index_of
            .get(&key)
            .and_then(|&index| found.get_mut(index))
            .map(|entry| &mut entry.3)
        {
            other_lines.push(facts.line.to_string());
            continue;
        }
        index_of.insert(key, found.len());
        found.push((facts.line, pattern, sensitive, Vec::new()));
    }
    for (line, pattern, sensitive, other_lines) in found {
        let mut issue = sensitive_issue(line, pattern, sensitive);
        if !other_lines.is_empty() {
            let also = listing(&other_lines, options.list_limit);
            issue.message = format!("{} (also on line {also})", issue.message);
        }
        issues.push(issue);
    }
}

fn sensitive_issue(line: u32, pattern: &str, found: SensitiveMatch) -> Issue {
    let what = found.category.describe();
    let pattern = quote(pattern);
    match found.cms_default {
        Some(cms) => issue(
            Code::SensitivePathDisclosed,
            Severity::Notice,
            Some(line),
            format!(
                "`Disallow: {pattern}` is {cms}'s default rule for {what}; it discloses nothing \
                 new, but robots.txt is no protection: keep the area behind authentication"
            ),
        ),
        None => issue(
            Code::SensitivePathDisclosed,
            Severity::Warning,
            Some(line),
            format!(
                "`Disallow: {pattern}` publishes the path of {what} (`{}`); robots.txt is public \
                 and is not access control: protect the path with authentication instead",
                found.keyword
            ),
        ),
    }
}
