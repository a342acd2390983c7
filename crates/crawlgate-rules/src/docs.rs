//! The rule catalogue as Markdown (`RULES.md`), generated from the rules' own docs.

use crate::diff::DIFF_RULES;
use crawlgate_core::{Rule, RuleMeta};
use std::fmt::Write as _;

/// The catalogue as one Markdown document: an index table, then each rule's docs, for `rules`
/// (the audit's) and then the `diff/` rules; each rule links to the file that declares it.
pub fn rules_markdown(rules: &[&dyn Rule]) -> String {
    let metas: Vec<&RuleMeta> = rules
        .iter()
        .map(|rule| rule.meta())
        .chain(DIFF_RULES.iter().copied())
        .collect();
    let mut out = String::from(
        "# crawlgate rules\n\n<!-- Generated from the rules' doc comments by \
         `cargo test -p crawlgate-rules`; do not edit by hand. -->\n\n\
         | id | severity | summary |\n|---|---|---|\n",
    );
    for meta in &metas {
        let _ = writeln!(
            out,
            "| [`{id}`](#{anchor}) | {severity} | {summary} |",
            id = meta.id,
            anchor = anchor(meta.id),
            severity = meta.default_severity,
            summary = meta.summary,
        );
    }
    for meta in &metas {
        let _ = write!(
            out,
            "\n## {id}\n\nDefault severity: **{severity}**. {summary}. Source: [`{source}`]({source}).\n\n",
            id = meta.id,
            severity = meta.default_severity,
            summary = meta.summary,
            source = source_in_crate(meta.source),
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

/// A rule's source file relative to this crate's folder, where RULES.md is.
fn source_in_crate(source: &str) -> &str {
    source
        .strip_prefix(concat!("crates/", env!("CARGO_PKG_NAME"), "/"))
        .unwrap_or(source)
}

/// The GitHub anchor of a `## family/name` heading.
fn anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}
