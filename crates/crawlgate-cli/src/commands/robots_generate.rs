//! `crawlgate robots generate POLICY.toml`: a robots.txt written from a policy
//! (`crawlgate::robots::generate`), linted by `robots lint`'s engine, with the verdict of every
//! crawler it names on sample paths (the `robots test` matrix) beside it.

use crate::commands::atomic::write_atomically;
use crate::commands::input::read_text_at_most;
use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::Context;
use crawlgate::Severity;
use crawlgate::output::robots::{Matrix, MatrixBot, write_lint_issue};
use crawlgate::robots::RobotsTxt;
use crawlgate::robots::generate::{AI_CRAWLERS, Policy, generate};
use crawlgate::robots::lint::{LintOptions, lint};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Write a robots.txt from a policy file (TOML), check it, and show what it decides.
///
/// The policy: `[[group]]` tables (`user_agents`, `disallow`, `allow`: path patterns), written
/// in order; `block` (product tokens kept out of the whole site) and `block_ai_crawlers = true`
/// (every crawler of the built-in AI list: `GPTBot`, `OAI-SearchBot`, `ChatGPT-User`,
/// `ClaudeBot`, `CCBot`, `Google-Extended`, `Applebot-Extended`, `PerplexityBot`,
/// `meta-externalagent`, `Amazonbot`, each from its operator's documentation), written as one `Disallow: /` group; `sitemaps` (absolute
/// URLs); `samples` (paths to show verdicts for; default `/` and the policy's own paths).
///
/// The robots.txt goes to standard output (or `-o FILE`); the lint issues, if any, and the
/// matrix of every named crawler's verdict on the sample paths go to standard error (to
/// standard output with `-o`).
///
/// Exit status: 0; 1 when the generated file has a lint issue of warning or worse; 2 when the
/// policy cannot be read or written as asked (a token that is not one, an unrooted path, a
/// crawler named twice).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example policy:\n  block_ai_crawlers = true\n  sitemaps = [\"https://www.example.com/sitemap.xml\"]\n  [[group]]\n  user_agents = [\"*\"]\n  disallow = [\"/admin/\", \"/cart\"]\n  allow = [\"/admin/help\"]\n\nExamples:\n  crawlgate robots generate policy.toml > robots.txt\n  crawlgate robots generate policy.toml -o robots.txt"
)]
pub(crate) struct GenerateArgs {
    /// The policy file (TOML).
    #[arg(value_name = "POLICY")]
    policy: PathBuf,

    /// Write the robots.txt here (atomically) instead of to standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// A policy file larger than this is refused (a real one is a few KB).
const MAX_POLICY_BYTES: u64 = 1024 * 1024;

/// The matrix is laid out for this many columns, as `robots test` lays it out.
const MATRIX_WIDTH: usize = 100;

pub(crate) fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let text = read_text_at_most(&args.policy, MAX_POLICY_BYTES, "the policy", None)?;
    let policy: Policy = toml::from_str(&text)
        .with_context(|| format!("in the policy `{}`", args.policy.display()))?;
    let robots_txt =
        generate(&policy).with_context(|| format!("in the policy `{}`", args.policy.display()))?;
    if let Some(path) = &args.output {
        write_atomically(path, |out| Ok(out.write_all(robots_txt.as_bytes())?))?;
    } else {
        let mut out = std::io::stdout().lock();
        out.write_all(robots_txt.as_bytes())?;
        out.flush()?;
    }
    let mut report: Box<dyn Write> = match args.output {
        Some(_) => Box::new(terminal::stdout(Escapes::Text)),
        None => Box::new(std::io::BufWriter::new(std::io::stderr().lock())),
    };
    let name = args.output.as_ref().map_or_else(
        || "robots.txt".to_owned(),
        |path| path.display().to_string(),
    );
    let robots = RobotsTxt::parse_fetched(robots_txt.as_bytes());
    let tokens: Vec<String> = policy.tokens();
    // The crawlers the file lets in are checked by the rules that depend on a crawler; those it
    // keeps out on purpose would only be reported as blocked.
    let blocked = policy.blocked();
    let let_in: Vec<String> = tokens
        .iter()
        .filter(|token| *token != "*" && !blocked.contains(token))
        .cloned()
        .collect();
    let options = LintOptions {
        user_agents: if let_in.is_empty() {
            LintOptions::default().user_agents
        } else {
            let_in
        },
        ..LintOptions::default()
    };
    let issues = lint(&robots, robots_txt.as_bytes(), &options);
    for issue in &issues {
        write_lint_issue(&name, issue, false, &mut report)?;
    }
    if issues.is_empty() {
        writeln!(report, "{name}: robots lint finds nothing")?;
    }
    if policy.block_ai_crawlers {
        writeln!(report, "\nAI crawlers kept out (token, operator, source):")?;
        for crawler in AI_CRAWLERS {
            writeln!(
                report,
                "  {:<19} {:<13} {}",
                crawler.token, crawler.operator, crawler.source
            )?;
        }
    }
    writeln!(report, "\nVerdicts on the sample paths:")?;
    let bots: Vec<MatrixBot> = tokens.iter().map(|token| MatrixBot::token(token)).collect();
    let matrix = Matrix::new(&robots, bots);
    let show = |text: &str| terminal::safe(text).replace('\t', "\\t");
    matrix.write_text(&policy.sample_paths(), MATRIX_WIDTH, &show, &mut report)?;
    report.flush()?;
    let failed = issues
        .iter()
        .any(|issue| issue.severity >= Severity::Warning);
    Ok(exit::code(if failed { exit::FINDINGS } else { exit::OK }))
}
