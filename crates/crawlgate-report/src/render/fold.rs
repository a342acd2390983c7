//! Findings that differ only by crawler profile, folded into one: SARIF writes one result per
//! fold and the templates one row (`view.rules[].rows`), with the profiles listed.
//!
//! Findings fold when they share rule, URL, severity and evidence, positions, profile names and
//! robots.txt groups left out: Googlebot and Bingbot blocked by the same rule on different lines
//! of their own groups are one problem on the page.

use crate::fingerprint::Fnv64;
use crate::model::{BaselineState, ReportFinding};
use crawlgate_core::Evidence;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Findings that differ only by profile, in report order of their first member.
pub(crate) struct Fold<'a> {
    /// The folded findings, in report order; never empty.
    pub(crate) members: Vec<&'a ReportFinding>,
    /// A digest of what the members share, stable across runs (SARIF's partial fingerprint).
    pub(crate) fingerprint: String,
}

/// Fold `findings` (in report order); the folds keep that order.
pub(crate) fn fold(findings: &[ReportFinding]) -> Vec<Fold<'_>> {
    let mut folds: Vec<Fold<'_>> = Vec::new();
    let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
    for report_finding in findings {
        let key = fold_key(report_finding);
        if let Some(&at) = by_key.get(&key) {
            folds[at].members.push(report_finding);
        } else {
            let mut hash = Fnv64::new();
            hash.write(key.as_bytes());
            by_key.insert(key, folds.len());
            folds.push(Fold {
                members: vec![report_finding],
                fingerprint: format!("{:016x}", hash.finish()),
            });
        }
    }
    folds
}

/// What folded findings share: rule, URL, severity and the evidence with its positions, profile
/// names and robots.txt groups left out.
fn fold_key(report_finding: &ReportFinding) -> String {
    let finding = &report_finding.finding;
    let mut key = serde_json::json!([finding.rule, finding.url, finding.severity]);
    if let Some(parts) = key.as_array_mut() {
        for evidence in &finding.evidence {
            let mut value = serde_json::to_value(evidence).unwrap_or_default();
            if let Some(object) = value.as_object_mut() {
                for field in ["line", "column", "profile", "group"] {
                    object.remove(field);
                }
            }
            parts.push(value);
        }
    }
    key.to_string()
}

impl<'a> Fold<'a> {
    /// The first member: its rule, URL and severity are every member's.
    pub(crate) fn first(&self) -> &'a ReportFinding {
        self.members[0]
    }

    /// The profiles of the members, sorted, each once (empty when no member has one).
    pub(crate) fn profiles(&self) -> Vec<&'a str> {
        self.members
            .iter()
            .filter_map(|member| member.finding.profile.as_deref())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    /// The first member's message; when the members' messages differ (each names its
    /// crawler), followed by `(also for: …)` with the other profiles.
    pub(crate) fn message(&self) -> String {
        let finding = &self.first().finding;
        let mut message = finding.message.clone();
        if self
            .members
            .iter()
            .any(|member| member.finding.message != finding.message)
        {
            let others: Vec<&str> = self
                .profiles()
                .into_iter()
                .filter(|&profile| Some(profile) != finding.profile.as_deref())
                .collect();
            let _ = write!(message, " (also for: {})", others.join(", "));
        }
        message
    }

    /// Every member's evidence in order, each distinct piece once.
    pub(crate) fn evidence(&self) -> Vec<&'a Evidence> {
        let mut shown: Vec<&'a Evidence> = Vec::new();
        for evidence in self.members.iter().flat_map(|m| m.finding.evidence.iter()) {
            if !shown.contains(&evidence) {
                shown.push(evidence);
            }
        }
        shown
    }

    /// Evidence the members left out past the report's cap (the most any member left out).
    pub(crate) fn evidence_omitted(&self) -> u64 {
        self.members
            .iter()
            .map(|member| member.evidence_omitted)
            .max()
            .unwrap_or(0)
    }

    /// Against a baseline: known when every member is known, new when any is new; `None` when
    /// the audit was not compared.
    pub(crate) fn baseline(&self) -> Option<BaselineState> {
        let states: Vec<Option<BaselineState>> =
            self.members.iter().map(|member| member.baseline).collect();
        if states.iter().all(Option::is_none) {
            None
        } else if states.iter().all(|s| *s == Some(BaselineState::Known)) {
            Some(BaselineState::Known)
        } else {
            Some(BaselineState::New)
        }
    }
}
