//! SARIF 2.1.0: `tool.driver.rules` from the docs of the rules that fired, one result per finding.
//!
//! A result is located at its subject URL; when the subject is a document the evidence points into
//! (a robots.txt file, a sitemap, the page carrying the tag) the region names the line. Every other
//! located piece of evidence (the robots.txt rule behind a page finding, the sitemap entry) is a
//! related location, so code-scanning tools can show both ends.

use super::evidence::{describe, position};
use super::{RenderError, RenderOptions, Renderer};
use crate::model::{Report, ReportFinding, RuleDoc};
use crawlgate_core::Severity;
use serde::Serialize;
use std::collections::BTreeMap;

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
        _options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        serde_json::to_writer_pretty(&mut *out, &sarif_log(report))?;
        out.write_all(b"\n")?;
        Ok(())
    }
}

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

fn sarif_log(report: &Report) -> Log<'_> {
    let rules = rule_descriptors(report);
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, rule)| (rule.id, i))
        .collect();
    let results = report
        .findings
        .iter()
        .map(|finding| result(finding, index.get(finding.finding.rule.as_str()).copied()))
        .collect();
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
        }],
    }
}

/// The documented rules that fired, then a bare descriptor for any rule a finding names without
/// docs (a library user's rule), so every `ruleIndex` is valid.
fn rule_descriptors(report: &Report) -> Vec<RuleDescriptor<'_>> {
    let mut rules: Vec<RuleDescriptor<'_>> = report.rules.iter().map(documented_rule).collect();
    for finding in &report.findings {
        let id = finding.finding.rule.as_str();
        if !rules.iter().any(|rule| rule.id == id) {
            rules.push(RuleDescriptor {
                id,
                short_description: None,
                full_description: None,
                help: None,
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
        help: Some(Help {
            text: doc.how_to_fix.clone(),
            markdown: help_markdown,
        }),
        default_configuration: Some(Configuration {
            level: level(doc.default_severity),
        }),
        properties: RuleProperties {
            tags: vec![doc.family.as_str()],
            severity: Some(doc.default_severity),
        },
    }
}

fn result(report_finding: &ReportFinding, rule_index: Option<usize>) -> SarifResult<'_> {
    let finding = &report_finding.finding;
    let positions: Vec<_> = finding.evidence.iter().filter_map(position).collect();
    let subject_line = positions
        .iter()
        .find(|p| p.uri == finding.url && p.line.is_some())
        .and_then(|p| p.line);
    let related = finding
        .evidence
        .iter()
        .filter_map(|evidence| Some((position(evidence)?, evidence)))
        .zip(1..)
        .map(|((position, evidence), id)| RelatedLocation {
            id,
            physical_location: PhysicalLocation::new(position.uri, position.line),
            message: Text::plain(describe(evidence)),
        })
        .collect();
    SarifResult {
        rule_id: &finding.rule,
        rule_index,
        level: level(finding.severity),
        message: Text::plain(finding.message.clone()),
        locations: vec![Location {
            physical_location: PhysicalLocation::new(&finding.url, subject_line),
        }],
        related_locations: related,
        partial_fingerprints: PartialFingerprints {
            crawlgate: &report_finding.fingerprint,
        },
        properties: ResultProperties {
            severity: finding.severity,
            profile: finding.profile.as_deref(),
        },
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
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<Help>,
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
    locations: Vec<Location<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation<'a>>,
    partial_fingerprints: PartialFingerprints<'a>,
    properties: ResultProperties<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation<'a> {
    id: u32,
    physical_location: PhysicalLocation<'a>,
    message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    artifact_location: ArtifactLocation<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

impl<'a> PhysicalLocation<'a> {
    fn new(uri: &'a str, line: Option<u32>) -> Self {
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
struct ArtifactLocation<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
}

#[derive(Serialize)]
struct PartialFingerprints<'a> {
    #[serde(rename = "crawlgate/v1")]
    crawlgate: &'a str,
}

#[derive(Serialize)]
struct ResultProperties<'a> {
    severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}
