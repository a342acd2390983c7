//! The output of `crawlgate robots diff`: text, JSON lines or Markdown, written as the
//! comparison streams (header first, then each flip as it is met, then the counts).
//!
//! ```
//! use crawlgate::output::robots_diff::{Format, Writer};
//! use crawlgate::robots::RobotsTxt;
//! use crawlgate::robots::diff::{AgentChange, FlipCounts, RulesChange, Side, VerdictDiff};
//!
//! let old = RobotsTxt::parse(b"User-agent: *\nDisallow: /cart\n");
//! let new = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
//! let (old, new) = (Side::Rules(&old), Side::Rules(&new));
//! let chain: &[&str] = &["googlebot"];
//! let diff = VerdictDiff::new(old, new, &[chain]);
//! let mut out = Writer::new(Format::Text, Vec::new(), &["googlebot"]);
//! out.header("old.txt", "new.txt", &RulesChange::between(old, new), &[AgentChange::between(old, new, chain)])?;
//! let mut counts = vec![FlipCounts::default()];
//! counts[0].urls += 1;
//! diff.compare("/shop", |flip| {
//!     counts[0].add(&flip);
//!     out.flip("/shop", &flip).unwrap();
//! });
//! out.summary(&counts)?;
//! let text = String::from_utf8(out.into_inner()).unwrap();
//! assert!(text.contains("/shop"));
//! # Ok::<(), std::io::Error>(())
//! ```

use crawlgate_core::robots::diff::{
    AgentChange, Decider, Decision, Flip, FlipCounts, GroupRef, RuleRef, RulesChange,
};
use serde::Serialize;
use std::io::Write;

/// The output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Plain text; flips as tab-separated lines.
    Text,
    /// JSON lines.
    Json,
    /// Markdown (for a pull-request comment).
    Md,
}

/// Writes one comparison.
#[derive(Debug)]
pub struct Writer<'p, W: Write> {
    format: Format,
    out: W,
    /// Profile names, by position.
    profiles: &'p [&'p str],
    /// Whether the flips heading (text, Markdown) was written.
    flips_started: bool,
}

impl<'p, W: Write> Writer<'p, W> {
    /// A writer of `format` to `out`; `profiles` names the profiles by the position flips carry.
    pub fn new(format: Format, out: W, profiles: &'p [&'p str]) -> Self {
        Writer {
            format,
            out,
            profiles,
            flips_started: false,
        }
    }

    /// The output, to flush.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The rule-level change and what applies to each profile on each side.
    pub fn header(
        &mut self,
        old: &str,
        new: &str,
        rules: &RulesChange,
        agents: &[AgentChange],
    ) -> std::io::Result<()> {
        match self.format {
            Format::Json => {
                json_line(
                    &mut self.out,
                    &JsonRules {
                        kind: "rules",
                        old,
                        new,
                        change: rules,
                    },
                )?;
                for (profile, agent) in self.profiles.iter().zip(agents) {
                    json_line(
                        &mut self.out,
                        &JsonProfile {
                            kind: "profile",
                            profile,
                            change: agent,
                        },
                    )?;
                }
                Ok(())
            }
            Format::Text => {
                writeln!(self.out, "--- {old}\n+++ {new}\n\nRule changes:")?;
                for (depth, line) in rule_lines(rules, &|text| text.to_owned()) {
                    writeln!(self.out, "  {}{line}", "  ".repeat(depth))?;
                }
                for (profile, agent) in self.profiles.iter().zip(agents) {
                    writeln!(self.out, "\n{profile}: {} → {}", agent.old, agent.new)?;
                    for line in agent_lines(agent, &|text| text.to_owned()) {
                        writeln!(self.out, "  {line}")?;
                    }
                }
                Ok(())
            }
            Format::Md => {
                writeln!(
                    self.out,
                    "# robots.txt diff\n\n{} → {}\n\n## Rule changes\n",
                    md_code(old),
                    md_code(new)
                )?;
                for (depth, line) in rule_lines(rules, &md_code) {
                    writeln!(self.out, "{}- {line}", "  ".repeat(depth))?;
                }
                for (profile, agent) in self.profiles.iter().zip(agents) {
                    writeln!(
                        self.out,
                        "\n## {}\n\n{} → {}\n",
                        md_text(profile),
                        md_text(&agent.old.to_string()),
                        md_text(&agent.new.to_string())
                    )?;
                    for line in agent_lines(agent, &md_code) {
                        writeln!(self.out, "- {line}")?;
                    }
                }
                Ok(())
            }
        }
    }

    /// One URL whose verdict flips for one profile.
    pub fn flip(&mut self, url: &str, flip: &Flip<'_>) -> std::io::Result<()> {
        let profile = self.profiles.get(flip.profile).copied().unwrap_or("?");
        let change = if flip.newly_disallowed() {
            "newly disallowed"
        } else {
            "newly allowed"
        };
        let first = !self.flips_started;
        self.flips_started = true;
        match self.format {
            Format::Json => json_line(
                &mut self.out,
                &JsonFlip {
                    kind: "flip",
                    profile,
                    url,
                    change: if flip.newly_disallowed() {
                        "newly-disallowed"
                    } else {
                        "newly-allowed"
                    },
                    old: JsonDecision::of(&flip.old),
                    new: JsonDecision::of(&flip.new),
                    text: flip.to_string(),
                },
            ),
            Format::Text => {
                if first {
                    writeln!(self.out, "\nVerdict flips:")?;
                }
                writeln!(self.out, "{profile}\t{change}\t{url}\t{flip}")
            }
            Format::Md => {
                if first {
                    writeln!(
                        self.out,
                        "\n## Verdict flips\n\n| Profile | Change | URL | Before | After |\n|---|---|---|---|---|"
                    )?;
                }
                writeln!(
                    self.out,
                    "| {} | {change} | {} | {} | {} |",
                    md_text(profile),
                    md_code(url),
                    md_decision(&flip.old),
                    md_decision(&flip.new)
                )
            }
        }
    }

    /// The counts per profile.
    pub fn summary(&mut self, counts: &[FlipCounts]) -> std::io::Result<()> {
        match self.format {
            Format::Json => {
                for (profile, count) in self.profiles.iter().zip(counts) {
                    json_line(
                        &mut self.out,
                        &JsonSummary {
                            kind: "summary",
                            profile,
                            urls: count.urls,
                            newly_disallowed: count.newly_disallowed,
                            newly_allowed: count.newly_allowed,
                            unchanged: count.unchanged(),
                        },
                    )?;
                }
                Ok(())
            }
            Format::Text => {
                if !self.flips_started {
                    writeln!(self.out, "\nVerdict flips: none")?;
                }
                writeln!(self.out, "\nSummary:")?;
                for (profile, count) in self.profiles.iter().zip(counts) {
                    writeln!(
                        self.out,
                        "  {profile}: {} URLs, {} newly disallowed, {} newly allowed, {} unchanged",
                        count.urls,
                        count.newly_disallowed,
                        count.newly_allowed,
                        count.unchanged()
                    )?;
                }
                Ok(())
            }
            Format::Md => {
                if !self.flips_started {
                    writeln!(self.out, "\n## Verdict flips\n\nNone.")?;
                }
                writeln!(
                    self.out,
                    "\n## Summary\n\n| Profile | URLs | Newly disallowed | Newly allowed | Unchanged |\n|---|---:|---:|---:|---:|"
                )?;
                for (profile, count) in self.profiles.iter().zip(counts) {
                    writeln!(
                        self.out,
                        "| {} | {} | {} | {} | {} |",
                        md_text(profile),
                        count.urls,
                        count.newly_disallowed,
                        count.newly_allowed,
                        count.unchanged()
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// The rule-level change in lines, each with its nesting depth (a group's rules under the
/// group); `quote` formats a rule (`Disallow: /shop`) for the format.
fn rule_lines(change: &RulesChange, quote: &dyn Fn(&str) -> String) -> Vec<(usize, String)> {
    let rule = |rule: &RuleRef| {
        format!(
            "line {}: {}",
            rule.line,
            quote(&format!("{}: {}", rule.directive, rule.pattern))
        )
    };
    let agents = |agents: &[String]| quote(&agents.join(", "));
    let mut lines = Vec::new();
    let group_rules = |group: &GroupRef, what: &str, lines: &mut Vec<(usize, String)>| {
        lines.extend(
            group
                .rules
                .iter()
                .map(|r| (1, format!("{what}: {}", rule(r)))),
        );
    };
    for group in &change.groups_added {
        lines.push((
            0,
            format!(
                "group {} added ({})",
                agents(&group.agents),
                line_list("line", &group.lines)
            ),
        ));
        group_rules(group, "added", &mut lines);
    }
    for group in &change.groups_removed {
        lines.push((
            0,
            format!(
                "group {} removed (was {})",
                agents(&group.agents),
                line_list("line", &group.lines)
            ),
        ));
        group_rules(group, "removed (old)", &mut lines);
    }
    for group in &change.groups_changed {
        lines.push((
            0,
            format!(
                "group {} changed (old {}, new {})",
                agents(&group.agents),
                line_list("line", &group.old_lines),
                line_list("line", &group.new_lines)
            ),
        ));
        lines.extend(
            group
                .added
                .iter()
                .map(|r| (1, format!("added: {}", rule(r)))),
        );
        lines.extend(
            group
                .removed
                .iter()
                .map(|r| (1, format!("removed (old): {}", rule(r)))),
        );
    }
    for moved in &change.moved {
        lines.push((
            0,
            format!(
                "moved: old {} from group {} to group {} (new line {})",
                rule(&moved.from),
                agents(&moved.from_agents),
                agents(&moved.to_agents),
                moved.to.line
            ),
        ));
    }
    sitemap_lines(change, quote, &mut lines);
    if lines.is_empty() {
        lines.push((
            0,
            "none (comments, blank lines, order or line numbers only)".to_owned(),
        ));
    }
    lines
}

/// The `Sitemap:` lines added and removed.
fn sitemap_lines(
    change: &RulesChange,
    quote: &dyn Fn(&str) -> String,
    lines: &mut Vec<(usize, String)>,
) {
    for sitemap in &change.sitemaps_added {
        lines.push((
            0,
            format!(
                "sitemap added: line {}: {}",
                sitemap.line,
                quote(&sitemap.url)
            ),
        ));
    }
    for sitemap in &change.sitemaps_removed {
        lines.push((
            0,
            format!(
                "sitemap removed: old line {}: {}",
                sitemap.line,
                quote(&sitemap.url)
            ),
        ));
    }
}

/// What changes for one profile, in lines.
fn agent_lines(change: &AgentChange, quote: &dyn Fn(&str) -> String) -> Vec<String> {
    let rule = |rule: &RuleRef| {
        format!(
            "line {}: {}",
            rule.line,
            quote(&format!("{}: {}", rule.directive, rule.pattern))
        )
    };
    let mut lines: Vec<String> = change
        .now_applying
        .iter()
        .map(|r| format!("now applies: new {}", rule(r)))
        .collect();
    lines.extend(
        change
            .no_longer_applying
            .iter()
            .map(|r| format!("no longer applies: old {}", rule(r))),
    );
    if change.is_empty() {
        lines.push("same rules".to_owned());
    }
    lines
}

/// `line 5`, `lines 1, 7`, `no line`.
fn line_list(word: &str, lines: &[u32]) -> String {
    let list: Vec<String> = lines.iter().map(ToString::to_string).collect();
    match lines.len() {
        0 => "no line".to_owned(),
        1 => format!("{word} {}", list.join("")),
        _ => format!("{word}s {}", list.join(", ")),
    }
}

/// A decision for a Markdown table cell: the rule quoted as code.
fn md_decision(decision: &Decision<'_>) -> String {
    let verdict = if decision.allowed {
        "allowed"
    } else {
        "disallowed"
    };
    match decision.decided_by {
        Decider::Rule(rule) => format!(
            "{verdict} (line {}: {})",
            rule.line,
            md_code(&format!("{}: {}", rule.directive, rule.pattern))
        ),
        _ => md_text(&decision.to_string()),
    }
}

/// `text` as a Markdown code span that is safe in a table cell: a fence longer than any run of
/// backticks inside, `|` escaped (GitHub splits cells on it even in code spans).
fn md_code(text: &str) -> String {
    let longest = text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{}{pad}{fence}", text.replace('|', "\\|"))
}

/// Plain text for Markdown: characters with a meaning escaped.
fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn json_line(out: &mut impl Write, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

#[derive(Serialize)]
struct JsonRules<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    old: &'a str,
    new: &'a str,
    #[serde(flatten)]
    change: &'a RulesChange,
}

#[derive(Serialize)]
struct JsonProfile<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    profile: &'a str,
    #[serde(flatten)]
    change: &'a AgentChange,
}

#[derive(Serialize)]
struct JsonFlip<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    profile: &'a str,
    url: &'a str,
    /// `newly-disallowed` or `newly-allowed`.
    change: &'static str,
    old: JsonDecision<'a>,
    new: JsonDecision<'a>,
    /// The flip in words, as the text output prints it.
    text: String,
}

/// One side's verdict: the deciding rule, or what decided instead (`no rule`, `no robots.txt`,
/// `robots.txt unreachable`).
#[derive(Serialize)]
struct JsonDecision<'a> {
    allowed: bool,
    line: Option<u32>,
    directive: Option<&'static str>,
    pattern: Option<&'a str>,
    decided_by: &'static str,
}

impl<'a> JsonDecision<'a> {
    fn of(decision: &Decision<'a>) -> Self {
        let rule = match decision.decided_by {
            Decider::Rule(rule) => Some(rule),
            _ => None,
        };
        JsonDecision {
            allowed: decision.allowed,
            line: rule.map(|rule| rule.line),
            directive: rule.map(|rule| rule.directive.as_str()),
            pattern: rule.map(|rule| rule.pattern.as_str()),
            decided_by: match decision.decided_by {
                Decider::Rule(_) => "rule",
                Decider::NoRule => "no rule",
                Decider::FetchOutcome if decision.allowed => "no robots.txt",
                Decider::FetchOutcome => "robots.txt unreachable",
            },
        }
    }
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    profile: &'a str,
    urls: u64,
    newly_disallowed: u64,
    newly_allowed: u64,
    unchanged: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_code_spans_survive_backticks_and_pipes() {
        assert_eq!(md_code("/a"), "`/a`");
        assert_eq!(md_code("/a|b"), "`/a\\|b`");
        assert_eq!(md_code("/a`b"), "``/a`b``");
        assert_eq!(md_code("`x"), "`` `x ``");
        assert_eq!(md_text("a_b|c"), "a\\_b\\|c");
    }

    #[test]
    fn line_lists_read_naturally() {
        assert_eq!(line_list("line", &[]), "no line");
        assert_eq!(line_list("line", &[4]), "line 4");
        assert_eq!(line_list("line", &[1, 7]), "lines 1, 7");
    }
}
