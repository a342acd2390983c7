use crate::robots::files::{line_evidence, line_text};
use crate::support::{count, profiles, response_evidence, verdict_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::robots::GroupSelection;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::site::{Resource, ResourceKind, RobotsEffect, RobotsFile, UrlVerdict};
use crawlgate_core::{Evidence, Site};
use std::collections::BTreeMap;

/// Pages named in a finding's message; the evidence quotes up to [`EVIDENCE_SAMPLES`].
const MESSAGE_SAMPLES: usize = 3;
/// Pages quoted as evidence of one finding.
const EVIDENCE_SAMPLES: usize = 10;

declare_rule! {
    /// ## What it does
    /// For each crawler declared expected-blocked (`--expect-blocked gptbot`, or
    /// `expect_blocked = ["gptbot", "ccbot"]` in crawlgate.toml), finds the crawled, indexable
    /// pages that robots.txt still allows it to fetch. There is one finding per robots.txt and
    /// per reason the pages are allowed: the `Allow:` line that lets them through, no rule of the
    /// group that applies matching them (that group is named), or a robots.txt that gives no
    /// rules at all (a 404). Each gives the number of pages and the first of them, in URL order.
    ///
    /// ## Why is this bad?
    /// Keeping an AI or dataset crawler out (GPTBot, ClaudeBot, CCBot) is a decision, and
    /// robots.txt is what those crawlers say they obey. A page it allows is a page the crawler
    /// may fetch and reuse, whatever was decided. The usual causes: the crawler's group was
    /// never added or its `User-agent:` line is misspelt (`GPT-Bot`), so it obeys the `*`
    /// group; its group lists a few folders instead of `Disallow: /`; an `Allow:` written for
    /// search engines sits in its group; robots.txt is missing (a 404 allows everything).
    ///
    /// ## Example
    /// ```text
    /// robots.txt   User-agent: GPTBot
    ///              Disallow: /blog/
    /// crawlgate audit https://example.com/ --expect-blocked gptbot
    /// ```
    /// `/` and `/shop/` are allowed for GPTBot: no rule of its group matches them.
    ///
    /// ## How to fix
    /// Give the crawler a group of its own that disallows everything, and check that the
    /// user-agent line names it exactly as it announces itself:
    /// ```text
    /// User-agent: GPTBot
    /// Disallow: /
    /// ```
    /// If some pages are open to it on purpose, suppress the finding with a reason
    /// (`[[suppress]]` with `rule = "robots/expected-blocked-allowed"` and
    /// `profile = "gptbot"`), or stop declaring the crawler expected-blocked.
    pub struct ExpectedBlockedAllowed {
        id: "robots/expected-blocked-allowed",
        severity: Warning,
        summary: "A crawler declared expected-blocked may still crawl indexable pages",
    }
}

impl Rule for ExpectedBlockedAllowed {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (index, profile) in profiles(site) {
            if !site.expects_blocked(index) {
                continue;
            }
            // Resources are sorted by URL, so each group's samples are its first pages.
            let mut groups: BTreeMap<(String, Decision), Allowed<'_>> = BTreeMap::new();
            for resource in site.resources() {
                let Some(verdict) = resource.verdict(index).filter(|v| v.allowed) else {
                    continue;
                };
                if resource.kind != ResourceKind::Page
                    || !site.indexability(resource, index).is_indexable()
                {
                    continue;
                }
                let decision = match (&verdict.decided_by, verdict.effect) {
                    (Some(rule), _) => Decision::Rule(rule.line),
                    (None, Some(RobotsEffect::Rules)) => Decision::NoRule,
                    (None, Some(_)) => Decision::Fetch,
                    // No robots.txt read for the origin: not the audited site's pages.
                    (None, None) => continue,
                };
                groups
                    .entry((verdict.robots_url.clone(), decision))
                    .or_insert_with(|| Allowed {
                        verdict,
                        pages: Vec::new(),
                    })
                    .pages
                    .push(resource);
            }
            for ((_, decision), allowed) in &groups {
                if let Some(report) = allowed.report(site, index, profile, *decision) {
                    out.report(report);
                }
            }
        }
    }
}

/// Why robots.txt allows a group of pages: the deciding line, no rule of the applicable group,
/// or the fetch outcome (no rules at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Decision {
    Rule(u32),
    NoRule,
    Fetch,
}

/// The pages one reason allows, with the verdict of the first (the same reason for all).
struct Allowed<'a> {
    verdict: &'a UrlVerdict,
    pages: Vec<&'a Resource>,
}

impl Allowed<'_> {
    fn report(
        &self,
        site: &Site,
        index: usize,
        profile: &Profile,
        decision: Decision,
    ) -> Option<Occurrence> {
        let crawler = profile.display_name();
        let robots = self.verdict.robots_url.as_str();
        let file = site
            .robots
            .values()
            .find(|file| file.url.as_str() == robots);
        let first = self.pages.first()?;
        let pages = count(
            self.pages.len(),
            "crawled indexable page",
            "crawled indexable pages",
        );
        let head = match (decision, &self.verdict.decided_by) {
            (Decision::Rule(_), Some(rule)) => format!(
                "line {} `{}: {}`{} allows it {pages}",
                rule.line,
                rule.directive,
                rule.pattern,
                self.verdict
                    .group
                    .as_ref()
                    .map(|group| format!(" in {}", group_words(group, crawler, file)))
                    .unwrap_or_default()
            ),
            (Decision::NoRule, _) => match &self.verdict.group {
                Some(group) if !group.user_agent_lines.is_empty() => format!(
                    "robots.txt allows it {pages}, as no rule of {} matches them",
                    group_words(group, crawler, file)
                ),
                _ => format!(
                    "robots.txt allows it {pages}, as it has no group for {crawler} and no `*` \
                     group"
                ),
            },
            _ => match file.and_then(RobotsFile::status) {
                Some(status) => format!(
                    "robots.txt answered {status}, which leaves no rule to keep it from {pages}"
                ),
                None => format!("robots.txt gave no rule to keep it from {pages}"),
            },
        };
        let named: Vec<&str> = self
            .pages
            .iter()
            .take(MESSAGE_SAMPLES)
            .map(|page| page.url.as_str())
            .collect();
        let more = match self.pages.len().saturating_sub(named.len()) {
            0 => String::new(),
            n => format!(" and {}", count(n, "other", "others")),
        };
        let message = format!(
            "{crawler} is declared expected-blocked, but {head}: {}{more}",
            named.join(", ")
        );
        let mut occurrence = Occurrence::new(robots, message)
            .profile(&profile.name)
            .evidence(verdict_evidence(site, index, &first.url));
        // With no rule deciding, the group that applied is quoted by its user-agent line.
        if let (Decision::NoRule, Some(file), Some(&line)) = (
            decision,
            file,
            self.verdict
                .group
                .as_ref()
                .and_then(|group| group.user_agent_lines.first()),
        ) {
            occurrence = occurrence.evidence(line_evidence(file, line));
        }
        Some(
            occurrence.evidence_all(
                self.pages
                    .iter()
                    .take(EVIDENCE_SAMPLES)
                    .map(|page| response_evidence(page))
                    .chain(
                        (self.pages.len() > EVIDENCE_SAMPLES).then(|| Evidence::Note {
                            text: format!(
                                "{} more allowed for {crawler}",
                                count(
                                    self.pages.len() - EVIDENCE_SAMPLES,
                                    "indexable page",
                                    "indexable pages"
                                )
                            ),
                        }),
                    ),
            ),
        )
    }
}

/// The group that applied, in words, by its first user-agent line as written: "its own group
/// (line 4: `User-agent: GPTBot`)", "the `*` group (line 1: `User-agent: *`; robots.txt has no
/// group for GPTBot)".
fn group_words(group: &GroupSelection, crawler: &str, file: Option<&RobotsFile>) -> String {
    let quoted = group.user_agent_lines.first().map(|&line| {
        match file.and_then(|file| line_text(file, line)) {
            Some(text) => format!("line {line}: `{}`", text.trim()),
            None => format!("line {line}"),
        }
    });
    match (group.token.is_some(), quoted) {
        (true, Some(quoted)) => format!("its own group ({quoted})"),
        (true, None) => "its own group".to_owned(),
        (false, Some(quoted)) => {
            format!("the `*` group ({quoted}; robots.txt has no group for {crawler})")
        }
        (false, None) => format!("the `*` group (robots.txt has no group for {crawler})"),
    }
}
