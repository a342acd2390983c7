//! `crawlgate rules` and `crawlgate explain`: the rule catalogue, from the rules' own docs.

use crate::exit;
use anyhow::{Result, bail};
use crawlgate_rules::catalogue;
use std::io::Write;
use std::process::ExitCode;

/// List every rule: id, default severity, summary.
#[derive(Debug, clap::Args)]
pub(crate) struct RulesArgs {
    /// One JSON object per rule: id, family, severity, summary.
    #[arg(long)]
    json: bool,
}

/// Print a rule's documentation: what it does, why it matters, an example, how to fix it.
#[derive(Debug, clap::Args)]
pub(crate) struct ExplainArgs {
    /// The rule id, e.g. `robots/blocked-noindex` (see `crawlgate rules`).
    rule: String,
}

pub(crate) fn list(args: &RulesArgs) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    for meta in catalogue() {
        if args.json {
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
    Ok(exit::code(exit::OK))
}

pub(crate) fn explain(args: &ExplainArgs) -> Result<ExitCode> {
    let Some(meta) = catalogue().find(|meta| meta.id == args.rule) else {
        let close: Vec<&str> = catalogue()
            .map(|meta| meta.id)
            .filter(|id| id.contains(args.rule.rsplit('/').next().unwrap_or(&args.rule)))
            .take(5)
            .collect();
        if close.is_empty() {
            bail!("no rule `{}` (see `crawlgate rules`)", args.rule);
        }
        bail!(
            "no rule `{}`; did you mean {}?",
            args.rule,
            close.join(", ")
        );
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} ({})\n\n{}.\n",
        meta.id, meta.default_severity, meta.summary
    )?;
    write!(out, "{}", meta.docs_markdown())?;
    Ok(exit::code(exit::OK))
}
