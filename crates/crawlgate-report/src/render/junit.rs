//! JUnit XML through the `quick-junit` crate, in the shape strict consumers (Jenkins' JUnit and
//! xUnit plugins, the `junit-10.xsd` schema in `fixtures/junit/`) accept:
//!
//! - a `<testsuite>` per rule family (`canonical`, `robots`, …), so a CI page groups a handful of
//!   suites rather than one per rule, with `hostname` = the audited host, `time="0.000"` (the
//!   report has no durations: reports are deterministic) and `timestamp` only when the report
//!   carries the audit time (`--timestamp`);
//! - a `<testcase>` per rule × URL with findings (`classname` = rule id, `name` = URL): a
//!   `<failure>` when a finding not known to the baseline is at or above
//!   [`RenderOptions::fail_on`] (message = its message, type = the worst such severity, body = the
//!   findings with their evidence); `<skipped>` when the only such findings are known to the
//!   baseline (Jenkins counts skipped cases apart, never as failures, and shows their message, so
//!   accepted debt stays visible without failing the build); otherwise passing, the findings in
//!   `<system-out>`;
//! - a passing `<testcase>` (`name` = the start URL) for every rule that ran and found nothing, so
//!   a clean site still has test cases (Jenkins aborts on a report without any).
//!
//! Suppressed findings are not in the report at all, so they never fail.

use super::evidence::describe;
use super::{RenderError, RenderOptions, Renderer};
use crate::model::{BaselineState, Report, ReportFinding};
use crawlgate_core::FailOn;
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::time::Duration;

/// The JUnit renderer.
#[derive(Debug, Clone, Copy, Default)]
pub struct JunitRenderer;

impl Renderer for JunitRenderer {
    fn name(&self) -> &'static str {
        "junit"
    }

    fn extension(&self) -> &'static str {
        "junit.xml"
    }

    fn media_type(&self) -> &'static str {
        "application/xml"
    }

    fn render(
        &self,
        report: &Report,
        options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        let xml = junit_report(report, options.fail_on).to_string()?;
        out.write_all(strict_root(&xml).as_bytes())?;
        out.write_all(b"\n")?;
        Ok(())
    }
}

/// What a test case holds: one rule on one URL, or a rule that found nothing.
type Cases<'a> = BTreeMap<(&'a str, &'a str), Vec<&'a ReportFinding>>;

fn junit_report(report: &Report, fail_on: FailOn) -> quick_junit::Report {
    let start_url = report.target.start_url.as_str();
    // family → (rule, url) → findings; BTreeMaps give the documented, stable order.
    let mut suites: BTreeMap<&str, Cases<'_>> = BTreeMap::new();
    for finding in &report.findings {
        suites
            .entry(finding.finding.family())
            .or_default()
            .entry((&finding.finding.rule, &finding.finding.url))
            .or_default()
            .push(finding);
    }
    let fired: BTreeSet<&str> = report
        .findings
        .iter()
        .map(|f| f.finding.rule.as_str())
        .collect();
    for rule in &report.rules_checked {
        if !fired.contains(rule.as_str()) {
            suites
                .entry(family(rule))
                .or_default()
                .insert((rule, start_url), Vec::new());
        }
    }
    if suites.is_empty() {
        // A report from before `rules_checked` with no findings: still one passing case.
        suites
            .entry("crawlgate")
            .or_default()
            .insert(("crawlgate/audit", start_url), Vec::new());
    }

    let hostname = url::Url::parse(start_url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_owned))
        .unwrap_or_default();
    let timestamp = report.generated_at.as_deref().and_then(junit_timestamp);
    let mut junit = quick_junit::Report::new(xml_text(&format!("crawlgate audit of {start_url}")));
    junit.set_time(Duration::ZERO);
    for (family, cases) in suites {
        let mut suite = TestSuite::new(xml_text(family));
        suite.set_time(Duration::ZERO);
        if let Some(timestamp) = &timestamp {
            suite.extra.insert("timestamp".into(), timestamp.into());
        }
        suite
            .extra
            .insert("hostname".into(), xml_text(&hostname).into());
        for ((rule, url), findings) in cases {
            suite.add_test_case(test_case(rule, url, &findings, fail_on));
        }
        junit.add_test_suite(suite);
    }
    junit
}

fn test_case(rule: &str, url: &str, findings: &[&ReportFinding], fail_on: FailOn) -> TestCase {
    let fails = |f: &&&ReportFinding| fail_on.fails(f.finding.severity);
    let known = |f: &&&ReportFinding| f.baseline == Some(BaselineState::Known);
    let failing: Vec<&&ReportFinding> = findings.iter().filter(|f| fails(f) && !known(f)).collect();
    let known_failing: Vec<&&ReportFinding> =
        findings.iter().filter(|f| fails(f) && known(f)).collect();
    let body = findings
        .iter()
        .map(|f| finding_text(f))
        .collect::<Vec<_>>()
        .join("\n");
    let status = if let Some(worst) = failing.iter().max_by_key(|f| f.finding.severity) {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_message(xml_text(&failing[0].finding.message))
            .set_type(worst.finding.severity.to_string())
            .set_description(xml_text(&body));
        status
    } else if let Some(worst) = known_failing.iter().max_by_key(|f| f.finding.severity) {
        let mut status = TestCaseStatus::skipped();
        status
            .set_message(xml_text(&format!(
                "known in the baseline: {}",
                known_failing[0].finding.message
            )))
            .set_type(worst.finding.severity.to_string())
            .set_description(xml_text(&body));
        status
    } else {
        TestCaseStatus::success()
    };
    let passing = matches!(status, TestCaseStatus::Success { .. });
    let mut case = TestCase::new(xml_text(url), status);
    case.set_classname(xml_text(rule)).set_time(Duration::ZERO);
    if passing {
        if findings.is_empty() {
            case.set_system_out("no findings");
        } else {
            case.set_system_out(xml_text(&body));
        }
    }
    case
}

/// The family of a rule id: what comes before its first `/`.
fn family(rule: &str) -> &str {
    rule.split('/').next().unwrap_or(rule)
}

/// A finding as text: severity, profile, message, baseline state, then its evidence one per line.
fn finding_text(report_finding: &ReportFinding) -> String {
    let finding = &report_finding.finding;
    let mut text = finding.severity.to_string();
    if let Some(profile) = &finding.profile {
        let _ = write!(text, " [{profile}]");
    }
    let _ = write!(text, ": {}", finding.message);
    if report_finding.baseline == Some(BaselineState::Known) {
        text.push_str(" (known in the baseline)");
    }
    for evidence in &finding.evidence {
        let _ = write!(text, "\n  - {}", describe(evidence));
    }
    text
}

/// The audit time as JUnit writers put it (`2026-03-01T12:00:00.000+00:00`, as quick-junit
/// formats timestamps), when it reads as RFC 3339.
fn junit_timestamp(generated_at: &str) -> Option<String> {
    let timestamp: jiff::Timestamp = generated_at.parse().ok()?;
    Some(
        timestamp
            .strftime("%Y-%m-%dT%H:%M:%S%.3f+00:00")
            .to_string(),
    )
}

/// Text XML 1.0 can carry: quick-junit drops C0 controls; U+FFFE and U+FFFF, which XML cannot
/// carry either, become U+FFFD, so a hostile header value cannot make the file unreadable.
fn xml_text(text: &str) -> String {
    text.replace(['\u{FFFE}', '\u{FFFF}'], "\u{FFFD}")
}

/// quick-junit writes a `skipped` count on `<testsuites>`, which the common `junit-10.xsd` (the
/// schema Jenkins' xUnit plugin validates JUnit input against) does not allow there; the suites
/// and test cases still carry it. Drops that one attribute from the root element. Attribute
/// values are escaped (`"` as `&quot;`, `>` as `&gt;`), so the pattern can only be the attribute.
fn strict_root(xml: &str) -> String {
    let Some(start) = xml.find("<testsuites ") else {
        return xml.to_owned();
    };
    let end = xml[start..].find('>').map_or(xml.len(), |end| start + end);
    let tag = &xml[start..end];
    let Some(at) = tag.find(" skipped=\"") else {
        return xml.to_owned();
    };
    let value_start = at + " skipped=\"".len();
    let Some(value_len) = tag[value_start..].find('"') else {
        return xml.to_owned();
    };
    let mut out = String::with_capacity(xml.len());
    out.push_str(&xml[..start + at]);
    out.push_str(&xml[start + value_start + value_len + 1..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{junit_timestamp, strict_root, xml_text};

    #[test]
    fn the_root_loses_only_its_skipped_count() {
        assert_eq!(
            strict_root(
                "<?xml?>\n<testsuites name=\"a skipped=&quot;1&quot;\" tests=\"2\" skipped=\"1\" failures=\"0\">\n<testsuite skipped=\"1\"/>"
            ),
            "<?xml?>\n<testsuites name=\"a skipped=&quot;1&quot;\" tests=\"2\" failures=\"0\">\n<testsuite skipped=\"1\"/>"
        );
    }

    #[test]
    fn text_loses_what_xml_cannot_carry() {
        assert_eq!(xml_text("a\u{FFFE}b\u{FFFF}"), "a\u{FFFD}b\u{FFFD}");
        assert_eq!(
            junit_timestamp("2026-03-01T12:00:00Z").as_deref(),
            Some("2026-03-01T12:00:00.000+00:00")
        );
        assert_eq!(junit_timestamp("yesterday"), None);
    }
}
