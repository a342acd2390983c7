//! Baselines (`crawlgate audit --baseline OLD.json`): the findings of an earlier audit, so a new
//! one can tell the findings it introduces from the ones already known.
//!
//! A finding is known when an earlier finding has the same fingerprint once its URLs are mapped
//! onto the new audit ([`fingerprint_mapped`]: rule id, URL, profile, evidence without line
//! numbers). A baseline file is a report.json, or the smaller file [`baseline_json`] writes; both
//! hold the findings in full, so a baseline taken on one host can be mapped onto another.

use crate::fingerprint::fingerprint_mapped;
use crate::model::{BaselineCounts, BaselineState, Report, ReportFinding, SCHEMA_VERSION};
use crate::url_map::UrlMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use thiserror::Error;

/// A baseline file that cannot be read.
#[derive(Debug, Error)]
pub enum BaselineError {
    #[error("not a crawlgate report.json or baseline file: {0}")]
    Json(#[from] serde_json::Error),
    #[error("schema version {found}; this crawlgate reads version {SCHEMA_VERSION}")]
    Version { found: u32 },
}

/// What a baseline file holds (a report.json holds this and more).
#[derive(Debug, Serialize, Deserialize)]
struct BaselineFile {
    schema_version: u32,
    /// The audit it was taken from.
    #[serde(default)]
    start_url: Option<String>,
    findings: Vec<ReportFinding>,
}

/// The fingerprints of a baseline's findings, mapped onto the audit they are compared with.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    fingerprints: BTreeSet<String>,
}

impl Baseline {
    /// Reads a report.json or a baseline file, mapping its findings' URLs with `map`.
    pub fn from_json(text: &str, map: &UrlMap) -> Result<Baseline, BaselineError> {
        let file: BaselineFile = serde_json::from_str(text)?;
        if file.schema_version != SCHEMA_VERSION {
            return Err(BaselineError::Version {
                found: file.schema_version,
            });
        }
        Ok(Baseline {
            fingerprints: file
                .findings
                .iter()
                .map(|finding| fingerprint_mapped(&finding.finding, map))
                .collect(),
        })
    }

    /// How many distinct findings it holds.
    pub fn len(&self) -> usize {
        self.fingerprints.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.fingerprints.is_empty()
    }

    /// Marks each finding of `report` new or known, and counts them in its summary.
    pub fn mark(&self, report: &mut Report) {
        let mut counts = BaselineCounts { new: 0, known: 0 };
        for finding in &mut report.findings {
            let state = if self.fingerprints.contains(&finding.fingerprint) {
                counts.known += 1;
                BaselineState::Known
            } else {
                counts.new += 1;
                BaselineState::New
            };
            finding.baseline = Some(state);
        }
        report.summary.baseline = Some(counts);
    }
}

/// The baseline file of `report` (`--write-baseline`): its findings in full, pretty-printed.
pub fn baseline_json(report: &Report) -> String {
    let file = BaselineFile {
        schema_version: SCHEMA_VERSION,
        start_url: Some(report.target.start_url.clone()),
        findings: report
            .findings
            .iter()
            .map(|finding| ReportFinding {
                baseline: None,
                ..finding.clone()
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_report::minimal;
    use crawlgate_core::{Evidence, Finding, Severity};

    fn with_findings(host: &str, paths: &[(&str, u32)]) -> Report {
        let mut report = minimal();
        report.target.start_url = format!("https://{host}/");
        report.findings = paths
            .iter()
            .map(|(path, line)| {
                let finding = Finding {
                    rule: "robots/blocked-noindex".into(),
                    severity: Severity::Error,
                    url: format!("https://{host}{path}"),
                    profile: Some("googlebot".into()),
                    message: "m".into(),
                    evidence: vec![Evidence::RobotsRule {
                        robots_url: format!("https://{host}/robots.txt"),
                        line: *line,
                        group: vec!["*".into()],
                        directive: "Disallow".into(),
                        pattern: (*path).into(),
                    }],
                };
                ReportFinding::new(finding)
            })
            .collect();
        report
    }

    #[test]
    fn a_written_baseline_reads_back_and_marks_known_and_new() {
        let old = with_findings("www.e.test", &[("/a", 3), ("/b", 4)]);
        let text = baseline_json(&old);
        let baseline = Baseline::from_json(&text, &UrlMap::new()).unwrap();
        assert_eq!(baseline.len(), 2);
        // The same findings on shifted lines, one fixed, one new.
        let mut new = with_findings("www.e.test", &[("/a", 9), ("/c", 10)]);
        baseline.mark(&mut new);
        let states: Vec<_> = new.findings.iter().map(|f| f.baseline).collect();
        assert_eq!(
            states,
            [Some(BaselineState::Known), Some(BaselineState::New)]
        );
        assert_eq!(
            new.summary.baseline,
            Some(BaselineCounts { new: 1, known: 1 })
        );
        // A report.json is a baseline too.
        let report_json = serde_json::to_string(&old).unwrap();
        assert_eq!(
            Baseline::from_json(&report_json, &UrlMap::new())
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_baseline_from_another_host_matches_once_mapped() {
        let staging = baseline_json(&with_findings("staging.e.test", &[("/a", 3)]));
        let mut production = with_findings("www.e.test", &[("/a", 3)]);
        let unmapped = Baseline::from_json(&staging, &UrlMap::new()).unwrap();
        unmapped.mark(&mut production);
        assert_eq!(production.findings[0].baseline, Some(BaselineState::New));
        let map = UrlMap::new()
            .with_host("staging.e.test=www.e.test")
            .unwrap();
        Baseline::from_json(&staging, &map)
            .unwrap()
            .mark(&mut production);
        assert_eq!(production.findings[0].baseline, Some(BaselineState::Known));
    }

    #[test]
    fn other_files_are_refused() {
        assert!(Baseline::from_json("{}", &UrlMap::new()).is_err());
        assert!(Baseline::from_json("[1]", &UrlMap::new()).is_err());
        let wrong = r#"{"schema_version": 9, "findings": []}"#;
        assert!(matches!(
            Baseline::from_json(wrong, &UrlMap::new()),
            Err(BaselineError::Version { found: 9 })
        ));
    }
}
