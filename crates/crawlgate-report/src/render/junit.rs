//! JUnit XML: a `<testsuite>` per rule family, a `<testcase>` per rule × URL, a `<failure>` when
//! one of its findings is at or above [`RenderOptions::fail_on`]. Findings below the threshold
//! leave the test case passing, with the findings in `<system-out>` so they stay visible.

use super::evidence::describe;
use super::{RenderError, RenderOptions, Renderer};
use crate::model::{Report, ReportFinding};
use crawlgate_core::FailOn;
use std::collections::BTreeMap;
use std::fmt::Write as _;

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
        out.write_all(junit_xml(report, options.fail_on).as_bytes())?;
        Ok(())
    }
}

/// Findings of one rule on one URL: one test case.
struct Case<'a> {
    rule: &'a str,
    url: &'a str,
    findings: Vec<&'a ReportFinding>,
}

impl Case<'_> {
    fn failing(&self, fail_on: FailOn) -> Vec<&ReportFinding> {
        self.findings
            .iter()
            .copied()
            .filter(|f| fail_on.fails(f.finding.severity))
            .collect()
    }
}

fn junit_xml(report: &Report, fail_on: FailOn) -> String {
    // family → (rule, url) → findings; BTreeMaps give the documented, stable order.
    let mut suites: BTreeMap<&str, BTreeMap<(&str, &str), Vec<&ReportFinding>>> = BTreeMap::new();
    for finding in &report.findings {
        suites
            .entry(finding.finding.family())
            .or_default()
            .entry((&finding.finding.rule, &finding.finding.url))
            .or_default()
            .push(finding);
    }
    let suites: Vec<(&str, Vec<Case<'_>>)> = suites
        .into_iter()
        .map(|(family, cases)| {
            let cases = cases
                .into_iter()
                .map(|((rule, url), findings)| Case {
                    rule,
                    url,
                    findings,
                })
                .collect();
            (family, cases)
        })
        .collect();
    let tests: usize = suites.iter().map(|(_, cases)| cases.len()).sum();
    let failures: usize = suites
        .iter()
        .flat_map(|(_, cases)| cases)
        .filter(|case| !case.failing(fail_on).is_empty())
        .count();

    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">",
        escape_attr(&format!("crawlgate audit of {}", report.target.start_url))
    );
    for (family, cases) in &suites {
        let suite_failures = cases
            .iter()
            .filter(|case| !case.failing(fail_on).is_empty())
            .count();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{suite_failures}\" errors=\"0\" skipped=\"0\">",
            escape_attr(family),
            cases.len()
        );
        for case in cases {
            write_case(&mut xml, case, fail_on);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

fn write_case(xml: &mut String, case: &Case<'_>, fail_on: FailOn) {
    let _ = write!(
        xml,
        "    <testcase name=\"{}\" classname=\"{}\">",
        escape_attr(case.url),
        escape_attr(case.rule)
    );
    let failing = case.failing(fail_on);
    let body = case
        .findings
        .iter()
        .map(|f| finding_text(f))
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(first) = failing.first() {
        let worst = failing
            .iter()
            .map(|f| f.finding.severity)
            .max()
            .unwrap_or(first.finding.severity);
        let _ = write!(
            xml,
            "\n      <failure type=\"{worst}\" message=\"{}\">{}</failure>\n    </testcase>\n",
            escape_attr(&first.finding.message),
            escape(&body)
        );
    } else {
        let _ = write!(
            xml,
            "\n      <system-out>{}</system-out>\n    </testcase>\n",
            escape(&body)
        );
    }
}

/// A finding as text: severity, profile, message, then its evidence one per line.
fn finding_text(report_finding: &ReportFinding) -> String {
    let finding = &report_finding.finding;
    let mut text = finding.severity.to_string();
    if let Some(profile) = &finding.profile {
        let _ = write!(text, " [{profile}]");
    }
    let _ = write!(text, ": {}", finding.message);
    for evidence in &finding.evidence {
        let _ = write!(text, "\n  - {}", describe(evidence));
    }
    text
}

/// Escape text for an XML attribute value: as [`escape`], and line breaks as character references
/// (a parser would turn a literal one into a space).
fn escape_attr(text: &str) -> String {
    escape(text).replace('\n', "&#10;").replace('\t', "&#9;")
}

/// Escape text for XML content and attribute values. Characters XML 1.0 cannot carry at all (most
/// C0 controls, lone surrogates cannot occur in `str`, U+FFFE/U+FFFF) become U+FFFD, so a hostile
/// header value cannot make the file unreadable.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' => out.push(c),
            '\r' => out.push_str("&#13;"),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_attr};

    #[test]
    fn escape_makes_hostile_text_inert_and_well_formed() {
        assert_eq!(escape_attr("a\nb"), "a&#10;b");
        assert_eq!(
            escape("\"><script>alert('x')</script>&\u{1}"),
            "&quot;&gt;&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;&amp;\u{FFFD}"
        );
    }
}
