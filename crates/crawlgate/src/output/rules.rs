//! What `crawlgate rules` and `crawlgate explain` print: the catalogue
//! ([`crawlgate_rules::catalogue`]), from the rules' own docs.
//!
//! ```
//! use crawlgate::output::rules::{find_rule, write_explanation};
//!
//! let meta = find_rule("robots/blocked-noindex").unwrap();
//! let mut out = Vec::new();
//! write_explanation(meta, &mut out)?;
//! assert!(String::from_utf8(out).unwrap().starts_with("robots/blocked-noindex (error)"));
//! assert_eq!(find_rule("blocked-noindex").unwrap_err(), ["robots/blocked-noindex"]);
//! # Ok::<(), std::io::Error>(())
//! ```

use crawlgate_core::RuleMeta;
use crawlgate_rules::catalogue;
use std::io::{self, Write};

/// Every rule, one per line: id, default severity, summary; with `json`, one object per rule
/// with `id`, `family`, `severity` and `summary`.
pub fn write_list(json: bool, out: &mut impl Write) -> io::Result<()> {
    for meta in catalogue() {
        if json {
            let line = serde_json::json!({
                "id": meta.id,
                "family": meta.family(),
                "severity": meta.default_severity,
                "summary": meta.summary,
            });
            writeln!(out, "{line}")?;
        } else {
            writeln!(
                out,
                "{:<44} {:<8} {}",
                meta.id, meta.default_severity, meta.summary
            )?;
        }
    }
    Ok(())
}

/// The rule with the id `id`; when there is none, up to five ids that contain its last part
/// (the suggestions of "did you mean").
pub fn find_rule(id: &str) -> Result<&'static RuleMeta, Vec<&'static str>> {
    if let Some(meta) = catalogue().find(|meta| meta.id == id) {
        return Ok(meta);
    }
    let name = id.rsplit('/').next().unwrap_or(id);
    Err(catalogue()
        .map(|meta| meta.id)
        .filter(|candidate| candidate.contains(name))
        .take(5)
        .collect())
}

/// A rule's documentation: `id (severity)`, its summary, then its Markdown docs.
pub fn write_explanation(meta: &RuleMeta, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "{} ({})\n\n{}.\n",
        meta.id, meta.default_severity, meta.summary
    )?;
    write!(out, "{}", meta.docs_markdown())
}
