//! The renderers over real reports: snapshots of every format for one canned audit, escaping of
//! hostile site content in each format, determinism, report plugins (the sample `csv-findings`,
//! template errors), writing files, and the HTML report in headless Chromium when installed.

mod support;

use crawlgate_core::Severity;
use crawlgate_report::{RenderError, RenderOptions, Renderers, Report, write_reports};

fn render(renderers: &Renderers, name: &str, report: &Report, options: &RenderOptions) -> String {
    let renderer = renderers
        .get(name)
        .unwrap_or_else(|| panic!("no renderer `{name}`"));
    let mut out = Vec::new();
    if let Err(error) = renderer.render(report, options, &mut out) {
        panic!("{name}: {error}");
    }
    String::from_utf8(out).expect("UTF-8 output")
}

fn fail_on_error() -> RenderOptions {
    RenderOptions {
        fail_on: Some(Severity::Error),
    }
}

#[test]
fn renders_the_canned_audit_in_every_format() {
    let report = support::report_of("outfitters");
    let mut renderers = Renderers::builtin();
    renderers
        .load_plugin_dir(&support::reports_dir().join("csv-findings"))
        .expect("csv-findings loads");
    let dir = support::scratch_dir("outfitters-report");
    let formats: Vec<String> = ["html", "md", "json", "sarif", "junit", "csv-findings"]
        .map(String::from)
        .to_vec();
    let paths = write_reports(&report, &renderers, &formats, &fail_on_error(), &dir)
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<_> = paths
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "report.html",
            "report.md",
            "report.json",
            "report.sarif",
            "report.junit.xml",
            "report.csv"
        ]
    );
    for (format, path) in formats.iter().zip(&paths) {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            text,
            render(&renderers, format, &report, &fail_on_error()),
            "{format}: the file is the rendering"
        );
    }
}
