//! SARIF 2.1.0 that GitHub code scanning accepts: `tool.driver.rules` from the docs of the rules
//! that fired, each with a `helpUri` into RULES.md; one result per finding, the crawler profiles
//! folded in.
//!
//! Locations are repository-relative (see [`SarifMap`]): a URL mapped by `--sarif-map` lands on
//! its file, any other on the fixed fallback place `crawlgate/site/HOST/PATH`; the URL itself is
//! kept in `properties.url`. A result is located at its subject; when the subject is a document
//! the evidence points into (a robots.txt file, a sitemap, the page carrying the tag) the region
//! names the line. Every other located piece of evidence is a related location.
//!
//! Findings that differ only by crawler profile (same rule, URL, severity and evidence, profile
//! names and robots.txt groups aside) are one result: `properties.profiles` lists the profiles
//! (the message is the first one's, `(also for: …)` naming the others when the messages differ),
//! `properties.fingerprints` the report fingerprints, and `partialFingerprints["crawlgate/v2"]`
//! hashes what the folded findings share (rule, URL, severity, evidence without lines), so it is
//! stable across runs and distinct between results. `baselineState` is `new` or `unchanged` when
//! the audit was compared with a baseline (`--baseline`): new when any folded finding is new.
//!
//! GitHub's upload limits are kept: at most [`MAX_RESULTS`] results (the most severe, in report
//! order; `properties.truncated` says how many were left out) and [`MAX_LOCATIONS`] related
//! locations per result; no two results share rule, location, line and message.

use super::evidence::{describe, position};
use super::fold::{Fold, fold};
use super::sarif_map::SarifMap;
use super::{RenderError, RenderOptions, Renderer};
use crate::model::{BaselineState, Report, RuleDoc};
use crawlgate_core::Severity;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The SARIF renderer.
#[derive(Debug, Clone, Copy, Default)]
pub struct SarifRenderer;

impl Renderer for SarifRenderer {
    fn name(&self) -> &'static str {
        "sarif"
    }

    fn extension(&self) -> &'static str {
        "sarif"
    }

    fn media_type(&self) -> &'static str {
        "application/sarif+json"
    }

    fn render(
        &self,
        report: &Report,
        options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        serde_json::to_writer_pretty(&mut *out, &sarif_log(report, &options.sarif_map))?;
        out.write_all(b"\n")?;
        Ok(())
    }
}

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// The published rule catalogue; a rule's `helpUri` is its heading's anchor here.
pub(crate) const RULES_URL: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/main/crates/crawlgate-rules/RULES.md"
);

/// GitHub code scanning's limit on results per run.
pub(crate) const MAX_RESULTS: usize = 25_000;

/// GitHub code scanning's limit on locations per result (related locations kept to it).
pub(crate) const MAX_LOCATIONS: usize = 1_000;

/// The anchor RULES.md gives the `## family/name` heading of `id` (as its generator writes it).
pub(crate) fn rule_anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn sarif_log<'a>(report: &'a Report, map: &SarifMap) -> Log<'a> {
    let rules = rule_descriptors(report);
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, rule)| (rule.id, i))
        .collect();
    let compared =
        report.summary.baseline.is_some() || report.findings.iter().any(|f| f.baseline.is_some());
    let groups = fold(&report.findings);
    let total = groups.len();
    let mut results: Vec<SarifResult<'a>> = groups
        .into_iter()
        .take(MAX_RESULTS)
        .map(|group| {
            let rule = group.members[0].finding.rule.as_str();
            result(&group, index.get(rule).copied(), map, compared)
        })
        .collect();
    make_unique(&mut results);
    let truncated = (total > results.len()).then_some(Truncated {
        results: total,
        kept: results.len(),
    });
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: &report.tool.name,
                    version: &report.tool.version,
                    information_uri: INFORMATION_URI,
                    rules,
                },
            },
            results,
            properties: truncated.map(|truncated| RunProperties { truncated }),
        }],
    }
}

/// The documented rules that fired, then a bare descriptor for any rule a finding names without
/// docs (a library user's rule), so every `ruleIndex` is valid. Every rule has a `helpUri` and
/// help text, as GitHub code scanning asks.
fn rule_descriptors(report: &Report) -> Vec<RuleDescriptor<'_>> {
    let mut rules: Vec<RuleDescriptor<'_>> = report.rules.iter().map(documented_rule).collect();
    for finding in &report.findings {
        let id = finding.finding.rule.as_str();
        if !rules.iter().any(|rule| rule.id == id) {
            let text =
                format!("`{id}` is not in crawlgate's rule catalogue (a library user's rule).");
            rules.push(RuleDescriptor {
                id,
                short_description: None,
                full_description: None,
                help_uri: RULES_URL.to_owned(),
                help: Help {
                    markdown: text.clone(),
                    text,
                },
                default_configuration: None,
                properties: RuleProperties {
                    tags: vec![finding.finding.family()],
                    severity: None,
                },
            });
        }
    }
    rules
}

fn documented_rule(doc: &RuleDoc) -> RuleDescriptor<'_> {
    let help_markdown = format!(
        "{}\n\n## Why is this bad?\n{}\n\n## Example\n{}\n\n## How to fix\n{}",
        doc.what_it_does, doc.why_is_this_bad, doc.example, doc.how_to_fix
    );
    RuleDescriptor {
        id: &doc.id,
        short_description: Some(Text::plain(doc.summary.clone())),
        full_description: Some(Text::plain(doc.what_it_does.clone())),
        help_uri: format!("{RULES_URL}#{}", rule_anchor(&doc.id)),
        help: Help {
            text: doc.how_to_fix.clone(),
            markdown: help_markdown,
        },
        default_configuration: Some(Configuration {
            level: level(doc.default_severity),
        }),
        properties: RuleProperties {
            tags: vec![doc.family.as_str()],
            severity: Some(doc.default_severity),
        },
    }
}

fn result<'a>(
    group: &Fold<'a>,
    rule_index: Option<usize>,
    map: &SarifMap,
    compared: bool,
) -> SarifResult<'a> {
    let first = group.members[0];
    let finding = &first.finding;
    let subject_line = group
        .members
        .iter()
        .flat_map(|member| member.finding.evidence.iter().filter_map(position))
        .find(|p| p.uri == finding.url && p.line.is_some())
        .and_then(|p| p.line);
    let subject = map.place(&finding.url);
    let mut seen = BTreeSet::new();
    let related: Vec<RelatedLocation> = group
        .members
        .iter()
        .flat_map(|member| member.finding.evidence.iter())
        .filter_map(|evidence| {
            let position = position(evidence)?;
            let message = describe(evidence);
            let place = map.place(position.uri);
            let line = position.line.filter(|_| place.keeps_lines);
            seen.insert((place.uri.clone(), line, message.clone()))
                .then_some((place.uri, line, message))
        })
        .take(MAX_LOCATIONS)
        .zip(1..)
        .map(|((uri, line, message), id)| RelatedLocation {
            id,
            physical_location: PhysicalLocation::new(uri, line),
            message: Text::plain(message),
        })
        .collect();
    let profiles = group.profiles();
    let mut message = group.message();
    if subject.by_pattern {
        let _ = write!(message, " ({})", finding.url);
    }
    let baseline_state = compared.then(|| match group.baseline() {
        Some(BaselineState::Known) => "unchanged",
        _ => "new",
    });
    SarifResult {
        rule_id: &finding.rule,
        rule_index,
        level: level(finding.severity),
        message: Text::plain(message),
        locations: vec![Location {
            physical_location: PhysicalLocation::new(
                subject.uri,
                subject_line.filter(|_| subject.keeps_lines),
            ),
        }],
        related_locations: related,
        partial_fingerprints: PartialFingerprints {
            crawlgate: group.fingerprint.clone(),
        },
        baseline_state,
        properties: ResultProperties {
            severity: finding.severity,
            url: &finding.url,
            profiles,
            fingerprints: group
                .members
                .iter()
                .map(|member| member.fingerprint.as_str())
                .collect(),
        },
    }
}

/// GitHub rejects results that share rule, location, line and message: two distinct findings that
/// would (a page template many URLs map to, an unmapped URL twice) get their fingerprint appended.
fn make_unique(results: &mut [SarifResult<'_>]) {
    let key = |result: &SarifResult<'_>| {
        let location = &result.locations[0].physical_location;
        (
            result.rule_id.to_owned(),
            location.artifact_location.uri.clone(),
            location.region.as_ref().map(|region| region.start_line),
            result.message.text.clone(),
        )
    };
    let mut counts: BTreeMap<_, usize> = BTreeMap::new();
    for result in results.iter() {
        *counts.entry(key(result)).or_default() += 1;
    }
    for result in results.iter_mut() {
        if counts[&key(result)] > 1 {
            let suffix = format!(" [{}]", result.partial_fingerprints.crawlgate);
            result.message.text.push_str(&suffix);
        }
    }
}

/// SARIF has three levels: critical and error are `error`, notice is `note`. The crawlgate
/// severity itself is kept in `properties.severity`.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Notice => "note",
    }
}

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
struct Run<'a> {
    tool: Tool<'a>,
    results: Vec<SarifResult<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<RunProperties>,
}

#[derive(Serialize)]
struct RunProperties {
    truncated: Truncated,
}

/// Results past [`MAX_RESULTS`] were left out.
#[derive(Serialize)]
struct Truncated {
    results: usize,
    kept: usize,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'a str,
    version: &'a str,
    information_uri: &'static str,
    rules: Vec<RuleDescriptor<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    short_description: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    full_description: Option<Text>,
    help_uri: String,
    help: Help,
    #[serde(skip_serializing_if = "Option::is_none")]
    default_configuration: Option<Configuration>,
    properties: RuleProperties<'a>,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn plain(text: String) -> Self {
        Self { text }
    }
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties<'a> {
    tags: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<Severity>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation>,
    partial_fingerprints: PartialFingerprints,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
    properties: ResultProperties<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation {
    id: u32,
    physical_location: PhysicalLocation,
    message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

impl PhysicalLocation {
    fn new(uri: String, line: Option<u32>) -> Self {
        Self {
            artifact_location: ArtifactLocation { uri },
            // SARIF lines are 1-based; 0 would be invalid, so it means "no line".
            region: line
                .filter(|&line| line > 0)
                .map(|start_line| Region { start_line }),
        }
    }
}

#[derive(Serialize)]
struct ArtifactLocation {
    /// Relative to the repository root: never a scheme.
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
}

#[derive(Serialize)]
struct PartialFingerprints {
    #[serde(rename = "crawlgate/v2")]
    crawlgate: String,
}

#[derive(Serialize)]
struct ResultProperties<'a> {
    severity: Severity,
    /// The finding's subject URL (the location is its place in the repository).
    url: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    profiles: Vec<&'a str>,
    /// The report fingerprints of the findings folded in (as in report.json and baselines).
    fingerprints: Vec<&'a str>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ReportFinding;
    use crawlgate_core::{Evidence, Finding};

    fn page_finding(url: &str, note: &str) -> ReportFinding {
        let finding = Finding {
            rule: "canonical/outside-head".into(),
            severity: Severity::Error,
            url: url.into(),
            profile: None,
            message: "the canonical is in the body".into(),
            evidence: vec![Evidence::Note { text: note.into() }],
        };
        ReportFinding::new(finding)
    }

    #[test]
    fn results_past_githubs_limit_are_left_out_and_said_so() {
        let mut report = crate::test_report::minimal();
        report.findings = (0..=MAX_RESULTS)
            .map(|i| page_finding(&format!("https://e.com/p/{i}"), "n"))
            .collect();
        let log = serde_json::to_value(sarif_log(&report, &SarifMap::new())).unwrap();
        let run = &log["runs"][0];
        assert_eq!(run["results"].as_array().unwrap().len(), MAX_RESULTS);
        assert_eq!(run["properties"]["truncated"]["results"], MAX_RESULTS + 1);
        assert_eq!(run["properties"]["truncated"]["kept"], MAX_RESULTS);
    }

    #[test]
    fn findings_a_template_maps_together_stay_distinguishable() {
        let mut report = crate::test_report::minimal();
        // Two findings on one URL that differ in evidence only, and a page on the same template.
        report.findings = vec![
            page_finding("https://e.com/p/1", "first"),
            page_finding("https://e.com/p/1", "second"),
            page_finding("https://e.com/p/2", "first"),
        ];
        let map = SarifMap::new()
            .with_entry("https://e.com/p/*=templates/p.html")
            .unwrap();
        let log = serde_json::to_value(sarif_log(&report, &map)).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        let keys: BTreeSet<String> = results
            .iter()
            .map(|r| {
                assert_eq!(
                    r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                    "templates/p.html"
                );
                r["message"]["text"].as_str().unwrap().to_owned()
            })
            .collect();
        assert_eq!(keys.len(), 3, "{keys:?}");
        // The documented rule anchor form: `## robots/blocked-noindex` is `#robotsblocked-noindex`.
        assert_eq!(
            rule_anchor("robots/blocked-noindex"),
            "robotsblocked-noindex"
        );
    }
}
