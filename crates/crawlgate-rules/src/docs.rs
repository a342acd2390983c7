//! The rule catalogue as Markdown (`RULES.md`), generated from the rules' own docs.

use crawlgate_core::Rule;
use std::fmt::Write as _;

/// The catalogue of `rules` as one Markdown document: an index table, then each rule's docs.
pub fn rules_markdown(rules: &[&dyn Rule]) -> String {
    let mut out = String::from(
        "# crawlgate rules\n\n<!-- Generated from the rules' doc comments by \
         `cargo test -p crawlgate-rules`; do not edit by hand. -->\n\n\
         | id | severity | summary |\n|---|---|---|\n",
    );
    for rule in rules {
        let meta = rule.meta();
        let _ = writeln!(
            out,
            "| [`{id}`](#{anchor}) | {severity} | {summary} |",
            id = meta.id,
            anchor = anchor(meta.id),
            severity = meta.default_severity,
            summary = meta.summary,
        );
    }
    for rule in rules {
        let meta = rule.meta();
        let _ = write!(
            out,
            "\n## {id}\n\nDefault severity: **{severity}**. {summary}.\n\n",
            id = meta.id,
            severity = meta.default_severity,
            summary = meta.summary,
        );
        for line in meta.docs_markdown().lines() {
            // Rule docs use `##` sections; nest them under the rule's heading.
            if let Some(heading) = line.strip_prefix("## ") {
                let _ = writeln!(out, "### {heading}");
            } else {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out
}

/// The GitHub anchor of a `## family/name` heading.
fn anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}
