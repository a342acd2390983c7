//! `view`: the report arranged for reading, beside `report` in every template's context. It is
//! derived from the report alone (nothing a template could not compute, but tera would compute
//! it slowly and in many places), and bounded: a rule's rows and the pages stop at
//! [`MAX_ROWS`] and [`MAX_PAGES`] (the counts stay whole; `report` has everything).
//!
//! - `view.problems`: one per rule that fired, most urgent first (severity, then URLs affected,
//!   then rule id): `rule`, `summary`, `severity`, `findings` (rows), `urls`, `profiles`.
//! - `view.rules`: the rules that fired in report order (most severe first): `id`, `severity`,
//!   `rank` (its place in `view.problems`, from 1), `doc` (the rule's docs, or null), `findings`
//!   (rows, all of them), `urls`, and `rows` (the first [`MAX_ROWS`]): one per finding with
//!   the findings that differ only by crawler profile folded in (`url`, `severity`, `profiles`,
//!   `message`, `baseline`, `evidence`: every member's, each piece once, `evidence_omitted`).
//! - `view.pages`: the pages (not assets) by URL, the first [`MAX_PAGES`]: `url`, `state`, `status`, `final_url`,
//!   `verdicts` (per profile in the report's order: `profile`, `allowed`, `indexable`, `why_not`)
//!   and `rules` (the ids of the rules that fired on it, in report order).
//! - `view.pages_total`: every page, counted.
//! - `view.pages_not_indexable`: pages at least one profile would not index.
//! - `view.max_evidence`: the most evidence a finding keeps ([`MAX_EVIDENCE`]).

use super::super::fold::{Fold, fold};
use crate::model::{BaselineState, MAX_EVIDENCE, PageRecord, Report, RuleDoc};
use crawlgate_core::{Evidence, Severity};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Rows kept per rule.
pub(crate) const MAX_ROWS: usize = 500;

/// Pages kept.
pub(crate) const MAX_PAGES: usize = 2_000;

#[derive(Debug, Serialize)]
pub(crate) struct View<'a> {
    problems: Vec<Problem<'a>>,
    rules: Vec<RuleView<'a>>,
    pages: Vec<PageView<'a>>,
    pages_total: usize,
    pages_not_indexable: usize,
    max_evidence: usize,
}

#[derive(Debug, Serialize)]
struct Problem<'a> {
    rule: &'a str,
    summary: Option<&'a str>,
    severity: Severity,
    findings: usize,
    urls: usize,
    profiles: Vec<&'a str>,
}

#[derive(Debug, Serialize)]
struct RuleView<'a> {
    id: &'a str,
    rank: usize,
    severity: Severity,
    doc: Option<&'a RuleDoc>,
    findings: usize,
    urls: usize,
    rows: Vec<Row<'a>>,
}

#[derive(Debug, Serialize)]
struct Row<'a> {
    url: &'a str,
    severity: Severity,
    profiles: Vec<&'a str>,
    message: String,
    baseline: Option<BaselineState>,
    evidence: Vec<&'a Evidence>,
    evidence_omitted: u64,
}

#[derive(Debug, Serialize)]
struct PageView<'a> {
    url: &'a str,
    state: &'a str,
    status: Option<u16>,
    final_url: Option<&'a str>,
    verdicts: Vec<Verdict<'a>>,
    rules: Vec<&'a str>,
}

#[derive(Debug, Serialize)]
struct Verdict<'a> {
    profile: &'a str,
    allowed: bool,
    indexable: bool,
    why_not: Option<&'a str>,
}

impl<'a> View<'a> {
    /// `pages`: the first [`MAX_PAGES`] pages (not assets) of `report.pages`.
    pub(crate) fn of(report: &'a Report, pages: &[&'a PageRecord]) -> View<'a> {
        let rules = rule_views(report);
        let mut problems: Vec<Problem<'a>> = rules
            .iter()
            .map(|rule| Problem {
                rule: rule.id,
                summary: rule.doc.map(|doc| doc.summary.as_str()),
                severity: rule.severity,
                findings: rule.findings,
                urls: rule.urls,
                profiles: rule
                    .rows
                    .iter()
                    .flat_map(|row| row.profiles.iter().copied())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
            })
            .collect();
        problems.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then(b.urls.cmp(&a.urls))
                .then(a.rule.cmp(b.rule))
        });
        let mut rules = rules;
        for (rank, problem) in problems.iter().enumerate() {
            if let Some(rule) = rules.iter_mut().find(|rule| rule.id == problem.rule) {
                rule.rank = rank + 1;
            }
        }
        let (mut pages_total, mut pages_not_indexable) = (0, 0);
        for page in report.pages.iter().filter(|page| page.kind == "page") {
            pages_total += 1;
            if page.profiles.values().any(|view| !view.indexable) {
                pages_not_indexable += 1;
            }
        }
        let pages = page_views(report, pages);
        View {
            problems,
            rules,
            pages,
            pages_total,
            pages_not_indexable,
            max_evidence: MAX_EVIDENCE,
        }
    }
}

fn rule_views(report: &Report) -> Vec<RuleView<'_>> {
    let mut rules: Vec<RuleView<'_>> = Vec::new();
    let mut at: BTreeMap<&str, usize> = BTreeMap::new();
    let mut urls: Vec<BTreeSet<&str>> = Vec::new();
    for folded in fold(&report.findings) {
        let first = &folded.first().finding;
        let index = *at.entry(first.rule.as_str()).or_insert_with(|| {
            rules.push(RuleView {
                id: &first.rule,
                severity: first.severity,
                doc: report.rules.iter().find(|doc| doc.id == first.rule),
                rank: 0,
                findings: 0,
                urls: 0,
                rows: Vec::new(),
            });
            urls.push(BTreeSet::new());
            rules.len() - 1
        });
        urls[index].insert(&first.url);
        let rule = &mut rules[index];
        rule.severity = rule.severity.max(first.severity);
        rule.findings += 1;
        rule.urls = urls[index].len();
        if rule.rows.len() < MAX_ROWS {
            rule.rows.push(row(&folded));
        }
    }
    rules
}

fn row<'a>(folded: &Fold<'a>) -> Row<'a> {
    let first = &folded.first().finding;
    Row {
        url: &first.url,
        severity: first.severity,
        profiles: folded.profiles(),
        message: folded.message(),
        baseline: folded.baseline(),
        evidence: folded.evidence(),
        evidence_omitted: folded.evidence_omitted(),
    }
}

fn page_views<'a>(report: &'a Report, pages: &[&'a PageRecord]) -> Vec<PageView<'a>> {
    let mut rules_by_url: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for finding in &report.findings {
        let rules = rules_by_url.entry(&finding.finding.url).or_default();
        if !rules.contains(&finding.finding.rule.as_str()) {
            rules.push(&finding.finding.rule);
        }
    }
    pages
        .iter()
        .map(|page| PageView {
            url: &page.url,
            state: &page.state,
            status: page.status,
            final_url: page.final_url.as_deref(),
            verdicts: report
                .target
                .profiles
                .iter()
                .filter_map(|name| {
                    let view = page.profiles.get(name)?;
                    Some(Verdict {
                        profile: name,
                        allowed: view.allowed,
                        indexable: view.indexable,
                        why_not: view.why_not.as_deref(),
                    })
                })
                .collect(),
            rules: rules_by_url.remove(page.url.as_str()).unwrap_or_default(),
        })
        .collect()
}
