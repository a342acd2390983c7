//! `crawlgate rules` and `crawlgate explain`: the rule catalogue, from the rules' own docs.

use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::{Result, bail};
use crawlgate::output::rules::{find_rule, write_explanation, write_list};
use std::io::Write as _;
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
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    write_list(args.json, &mut out)?;
    out.flush()?;
    Ok(exit::code(exit::OK))
}

pub(crate) fn explain(args: &ExplainArgs) -> Result<ExitCode> {
    match find_rule(&args.rule) {
        Ok(meta) => {
            let mut out = terminal::stdout(Escapes::Text);
            write_explanation(meta, &mut out)?;
            out.flush()?;
        }
        Err(close) if close.is_empty() => {
            bail!("no rule `{}` (see `crawlgate rules`)", args.rule)
        }
        Err(close) => bail!(
            "no rule `{}`; did you mean {}?",
            args.rule,
            close.join(", ")
        ),
    }
    Ok(exit::code(exit::OK))
}
