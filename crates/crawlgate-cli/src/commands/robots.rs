//! `crawlgate robots test` and `crawlgate robots lint` (and the `robots diff` subcommand, in
//! `robots_diff.rs`).
//!
//! Both read a robots.txt file with the semantics of a 200 response carrying that body
//! (`RobotsTxt::parse_fetched`: Googlebot's 500 KiB cut), or fetch one over HTTP when given a URL
//! (`crawlgate::fetch_robots`: Google's status semantics; a non-2xx answer or a failure
//! decides every verdict, as it does for Googlebot). The work is done on the body bytes
//! ([`test_body`], [`lint_body`]).

use crate::commands::input::{fetch, for_each_line, read_robots};
use crate::commands::net::ConnectArgs;
use crate::commands::{net, robots_diff, robots_generate, robots_suggest};
use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::bail;
use crawlgate::FailOn;
use crawlgate::output::robots::{
    Matrix, MatrixBot, write_disallowed_by_fetch, write_fetch_outcome, write_lint_issue,
    write_verdict,
};
use crawlgate::robots::lint::{LintOptions, lint};
use crawlgate::robots::{GOOGLE_MAX_ROBOTS_BYTES, RobotsTxt, product_token_of_header};
use crawlgate::signals::Profile;
use crawlgate::site::{RobotsEffect, RobotsFile};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Test URLs against a robots.txt, or lint one.
#[derive(Debug, clap::Args)]
pub(crate) struct RobotsArgs {
    #[command(subcommand)]
    command: RobotsCommand,
}

#[derive(Debug, clap::Subcommand)]
enum RobotsCommand {
    Test(TestArgs),
    Lint(LintArgs),
    Diff(robots_diff::DiffArgs),
    Generate(robots_generate::GenerateArgs),
    Suggest(robots_suggest::SuggestArgs),
}

/// Tell whether a crawler may fetch each URL, as Googlebot reads robots.txt.
///
/// Prints one line per URL: `allowed` or `disallowed`, a tab, the URL, a tab, and the deciding
/// rule (`line 3: Disallow: /private/`) or `no matching rule`. Verdicts are those of Google's
/// open-source robots.txt library: the URL's path and query are taken exactly as written (scheme,
/// host and #fragment dropped; nothing decoded or re-encoded), and `/robots.txt` itself gets no
/// implicit allow.
///
/// With several crawlers (`--user-agent` more than once, or any `--profile`), prints a URL ×
/// crawler matrix instead: a header row of crawler names, a row per URL, each cell `allowed` or
/// `disallowed` with the deciding line (`disallowed (line 4)`); the crawler columns are split into
/// blocks to stay within 100 columns. Under the table, the deciding lines, then per crawler the
/// group that applied: its own group (its User-agent line), a fallback token's group, the `*`
/// group it falls back to, or none (everything allowed). Each cell is the verdict a single
/// `robots test` run for that crawler prints.
///
/// Exit status: 0 when every URL was tested, whatever the verdicts; 2 on a usage or read error.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate robots test robots.txt --user-agent Googlebot /private/x https://example.com/a?b=c\n  crawlgate robots test robots.txt --user-agent Googlebot --json --urls-from urls.txt\n  crawlgate robots test robots.txt --profile all /checkout/ /media/lookbook/a.jpg\n  crawlgate robots test robots.txt -u GPTBot -u Google-Extended --json /blog/"
)]
struct TestArgs {
    /// The robots.txt file, or a URL: the robots.txt of that URL's scheme, host and port is
    /// fetched with Google's status semantics (2xx: its rules; 4xx but 429: everything allowed;
    /// 5xx, 429 or no response: everything disallowed; at most 5 redirects).
    #[arg(value_name = "FILE|URL")]
    file: String,

    /// The crawler's product token, e.g. `Googlebot`.
    ///
    /// Compared as Google's library compares it: verbatim and case-insensitively with each
    /// group's token as read from the file, which is the leading run of letters, `-` and `_` of
    /// the User-agent value. So `--user-agent AB42bot` does not match a group written
    /// `User-agent: AB42bot` (read as `AB`), and `Foo Bar` does not match `User-agent: Foo Bar`.
    /// If no group names the token, the `*` group applies.
    ///
    /// Only when the value is clearly a full User-Agent header (it contains `/` or `(`, e.g.
    /// `Googlebot/2.1 (+http://www.google.com/bot.html)`) is it first reduced to its product
    /// token (`Googlebot`; for `Mozilla/5.0 (compatible; bingbot/2.0; …)`, `bingbot`), and a
    /// note on stderr says so.
    ///
    /// Repeat for several crawlers: the output is then a matrix (see above).
    #[arg(
        long = "user-agent",
        short = 'u',
        value_name = "UA",
        required_unless_present = "profiles"
    )]
    user_agents: Vec<String>,

    /// A built-in crawler profile, tested with its robots.txt tokens as an audit uses them:
    /// googlebot, googlebot-image (falls back to the Googlebot group), bingbot (falls back to
    /// msnbot), gptbot, claudebot, ccbot, `*` (the `*` group only); `all` for every one. Repeat
    /// for several; the output is a matrix (see above). Its columns follow the `--user-agent`
    /// ones.
    #[arg(long = "profile", value_name = "NAME")]
    profiles: Vec<String>,

    /// Print one JSON object per URL, with the keys `url`, `allowed`, `user_agent`, `line`,
    /// `directive` and `pattern` (null where no rule matched).
    ///
    /// For a matrix, one object per URL and crawler (URL by URL, crawlers in column order), with
    /// those keys (`user_agent`: the first token tried, `*` for the `*` profile) and `bot` (the
    /// column's name), `profile` (the built-in profile's name, or null), `tokens` (the tokens
    /// tried, in order), `group` (`specific`: a group names one of the tokens; `global`: the `*`
    /// group; `none`: no group applies, everything is allowed; `unreadable`: robots.txt could not
    /// be fetched, everything is disallowed), `group_token` (the token whose group applied, or
    /// null) and `group_lines` (the User-agent lines of the group that applied).
    #[arg(long)]
    json: bool,

    /// URLs to test: absolute (`https://example.com/a?b`) or a path (`/a?b`).
    #[arg(value_name = "URL", conflicts_with = "urls_from")]
    urls: Vec<String>,

    /// Read the URLs from FILE, one per line (`-` for standard input). Streamed: millions of URLs
    /// are fine (a text matrix, which is sized to its URLs, takes at most 10,000; its `--json`
    /// streams).
    #[arg(long, value_name = "FILE")]
    urls_from: Option<PathBuf>,

    #[command(flatten)]
    connect: ConnectArgs,
}

/// Check a robots.txt for mistakes, as Googlebot and other crawlers would read it.
///
/// Prints compiler-style lines, `FILE:LINE: severity[rule-id]: message` (`FILE: …` for issues
/// about the whole file), sorted by line. Rule ids and severities are those of the rule catalogue
/// (`robots/typo-field`, `robots/disallow-all`, …). Lines Google tolerates (typos, unknown
/// fields, a missing colon) are warnings or notices, never errors.
///
/// Exit status: 0, or 1 when an issue at or above `--fail-on` was found; 2 on a usage or read
/// error.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate robots lint robots.txt\n  crawlgate robots lint robots.txt --fail-on error --user-agent googlebot --user-agent bingbot"
)]
struct LintArgs {
    /// The robots.txt file, or a URL (its origin's robots.txt is fetched; a non-2xx answer or a
    /// failure is reported as the issue Google would see).
    #[arg(value_name = "FILE|URL")]
    file: String,

    /// Print one JSON object per issue, with the keys `file`, `line`, `column`, `severity`,
    /// `rule` and `message`.
    #[arg(long)]
    json: bool,

    /// Exit with status 1 when an issue of this severity or worse is found.
    #[arg(long, value_name = "SEVERITY", default_value = "never")]
    fail_on: FailOn,

    /// A crawler product token to check the file for (for `disallow-all` and
    /// `group-shadows-global`); repeat for several. The `*` group is always checked.
    #[arg(
        long = "user-agent",
        short = 'u',
        value_name = "UA",
        default_value = "googlebot"
    )]
    user_agents: Vec<String>,

    #[command(flatten)]
    connect: ConnectArgs,
}

/// `robots lint` reads files up to this size (the rules past Google's 500 KiB cut are listed).
const LINT_MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

pub(crate) fn run(args: RobotsArgs) -> anyhow::Result<ExitCode> {
    let (file, connect) = match &args.command {
        RobotsCommand::Test(test) => (&test.file, &test.connect),
        RobotsCommand::Lint(lint) => (&lint.file, &lint.connect),
        RobotsCommand::Diff(diff) => return robots_diff::run(diff),
        RobotsCommand::Generate(generate) => return robots_generate::run(generate),
        RobotsCommand::Suggest(suggest) => return robots_suggest::run(suggest),
    };
    if let Some(url) = net::as_url(file) {
        let robots = fetch(&url?, &connect.http()?)?;
        return match args.command {
            RobotsCommand::Test(args) => match robots.effect {
                RobotsEffect::Rules => test_body(robots.body().unwrap_or_default(), &args),
                RobotsEffect::AllowAll => test_body(b"", &args),
                RobotsEffect::DisallowAll => test_all_disallowed(&robots, &args),
            },
            RobotsCommand::Diff(args) => robots_diff::run(&args),
            RobotsCommand::Generate(args) => robots_generate::run(&args),
            RobotsCommand::Suggest(args) => robots_suggest::run(&args),
            RobotsCommand::Lint(args) => match robots.effect {
                RobotsEffect::Rules => lint_body(
                    robots.url.as_str(),
                    robots.body().unwrap_or_default(),
                    &args,
                ),
                _ => lint_fetch_outcome(&robots, &args),
            },
        };
    }
    match args.command {
        RobotsCommand::Generate(args) => robots_generate::run(&args),
        RobotsCommand::Suggest(args) => robots_suggest::run(&args),
        RobotsCommand::Test(args) => {
            // Google parses only the first 500 KiB, so nothing past it is read.
            let (body, _) = read_robots(&args.file, GOOGLE_MAX_ROBOTS_BYTES)?;
            test_body(&body, &args)
        }
        RobotsCommand::Lint(args) => {
            let (body, complete) = read_robots(&args.file, LINT_MAX_FILE_BYTES)?;
            if !complete {
                bail!(
                    "`{}` is larger than {LINT_MAX_FILE_BYTES} bytes; Google reads only the first \
                     {GOOGLE_MAX_ROBOTS_BYTES} bytes of a robots.txt",
                    args.file
                );
            }
            lint_body(&args.file, &body, &args)
        }
        RobotsCommand::Diff(args) => robots_diff::run(&args),
    }
}

/// `robots test` when robots.txt is unreachable: Googlebot crawls nothing.
fn test_all_disallowed(robots: &RobotsFile, args: &TestArgs) -> anyhow::Result<ExitCode> {
    let reason = format!("robots.txt {}", robots.effect.as_str());
    let token = match bots(args)? {
        Bots::One(token) => token,
        Bots::Matrix(bots) => {
            let empty = RobotsTxt::parse(b"");
            return test_matrix(&Matrix::refused(&empty, bots, &reason), args);
        }
    };
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    let mut tested = 0u64;
    let mut test = |url: &str, out: &mut _| -> anyhow::Result<()> {
        tested += 1;
        Ok(write_disallowed_by_fetch(
            token, url, &reason, args.json, out,
        )?)
    };
    if let Some(source) = &args.urls_from {
        for_each_line(source, |url| test(url, &mut out))?;
    } else {
        for url in &args.urls {
            test(url, &mut out)?;
        }
    }
    out.flush()?;
    if tested == 0 {
        bail!(
            "no URL to test: give URLs after the robots.txt URL, or --urls-from FILE (`-` for stdin)"
        );
    }
    Ok(exit::code(exit::OK))
}

/// `robots lint` when the fetch gave no robots.txt to parse: the outcome is the one issue, under
/// the rule the catalogue gives it.
fn lint_fetch_outcome(robots: &RobotsFile, args: &LintArgs) -> anyhow::Result<ExitCode> {
    let rule = crawlgate::rules::robots::fetch_outcome_rule(robots);
    let name = robots.url.as_str();
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    write_fetch_outcome(
        name,
        rule.default_severity,
        rule.id,
        &robots.effect_reason,
        args.json,
        &mut out,
    )?;
    out.flush()?;
    let failed = args.fail_on.fails(rule.default_severity);
    Ok(exit::code(if failed { exit::FINDINGS } else { exit::OK }))
}

/// The token to match with: the argument verbatim, or a full header's product token.
fn product_token(user_agent: &str) -> anyhow::Result<&str> {
    if !user_agent.contains(['/', '(']) {
        return Ok(user_agent);
    }
    let Some(token) = product_token_of_header(user_agent) else {
        bail!(
            "--user-agent `{user_agent}` looks like a full User-Agent header but has no product \
             token (letters, `-`, `_`) to match robots.txt groups with; pass the token itself"
        );
    };
    crate::terminal::say!(
        "note: --user-agent looks like a full User-Agent header; matching robots.txt groups with \
         its product token `{token}`"
    );
    Ok(token)
}

/// `robots test` on a robots.txt body (as from a 200 response).
fn test_body(body: &[u8], args: &TestArgs) -> anyhow::Result<ExitCode> {
    let robots = RobotsTxt::parse_fetched(body);
    let token = match bots(args)? {
        Bots::One(token) => token,
        Bots::Matrix(bots) => return test_matrix(&Matrix::new(&robots, bots), args),
    };
    let agent = robots.agent(&[token]);
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    let mut tested = 0u64;
    let mut test = |url: &str, out: &mut _| -> anyhow::Result<()> {
        tested += 1;
        Ok(write_verdict(&agent, token, url, args.json, out)?)
    };
    if let Some(source) = &args.urls_from {
        for_each_line(source, |url| test(url, &mut out))?;
    } else {
        for url in &args.urls {
            test(url, &mut out)?;
        }
    }
    out.flush()?;
    if tested == 0 {
        bail!("no URL to test: give URLs after the file, or --urls-from FILE (`-` for stdin)");
    }
    Ok(exit::code(exit::OK))
}

/// At most this many crawlers in one matrix: a hundred columns of verdicts is no longer
/// something to read, and each costs a compile of its rules.
const MAX_BOTS: usize = 64;

/// The text matrix is printed once every URL is known (its columns are sized to them), so it
/// holds at most this many URLs, of at most this many bytes in all; `--json` streams.
/// (The refusal names these two figures in words: keep it in step.)
const MAX_MATRIX_TEXT_URLS: usize = 10_000;
const MAX_MATRIX_TEXT_URL_BYTES: usize = 16 * 1024 * 1024;

/// The text matrix is laid out for a terminal this wide.
const MATRIX_WIDTH: usize = 100;

/// What `robots test` tests for: one crawler (the historical one-line-per-URL output) or a matrix.
enum Bots<'a> {
    One(&'a str),
    Matrix(Vec<MatrixBot>),
}

/// The crawlers of `--user-agent` and `--profile`, in that order, each once.
fn bots(args: &TestArgs) -> anyhow::Result<Bots<'_>> {
    if let ([user_agent], []) = (args.user_agents.as_slice(), args.profiles.as_slice()) {
        return Ok(Bots::One(product_token(user_agent)?));
    }
    let mut bots: Vec<MatrixBot> = Vec::new();
    for user_agent in &args.user_agents {
        bots.push(MatrixBot::token(product_token(user_agent)?));
    }
    for name in &args.profiles {
        if name.eq_ignore_ascii_case("all") {
            bots.extend(Profile::builtins().iter().map(MatrixBot::profile));
        } else if let Some(profile) = Profile::builtin(name) {
            bots.push(MatrixBot::profile(&profile));
        } else {
            let builtins: Vec<String> = Profile::builtins().into_iter().map(|p| p.name).collect();
            bail!(
                "--profile `{name}` is not a built-in profile; the built-ins are {} (`all` for \
                 every one). For another crawler, pass its product token with --user-agent",
                builtins.join(", ")
            );
        }
    }
    let mut seen = std::collections::HashSet::new();
    bots.retain(|bot| seen.insert(bot.label.to_ascii_lowercase()));
    if bots.len() > MAX_BOTS {
        bail!(
            "{} crawlers given; a matrix takes at most {MAX_BOTS} (split them over several runs)",
            bots.len()
        );
    }
    Ok(Bots::Matrix(bots))
}

/// `robots test` with several crawlers: JSON lines streamed, or the text matrix once every URL
/// is read.
fn test_matrix(matrix: &Matrix<'_>, args: &TestArgs) -> anyhow::Result<ExitCode> {
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    let mut tested = 0u64;
    if args.json {
        let mut test = |url: &str, out: &mut _| -> anyhow::Result<()> {
            tested += 1;
            Ok(matrix.write_json(url, out)?)
        };
        if let Some(source) = &args.urls_from {
            for_each_line(source, |url| test(url, &mut out))?;
        } else {
            for url in &args.urls {
                test(url, &mut out)?;
            }
        }
    } else {
        let urls = if let Some(source) = &args.urls_from {
            let mut urls = Vec::new();
            let mut bytes = 0;
            for_each_line(source, |url| {
                bytes += url.len();
                if urls.len() == MAX_MATRIX_TEXT_URLS || bytes > MAX_MATRIX_TEXT_URL_BYTES {
                    bail!(
                        "the text matrix takes at most 10,000 URLs (16 MiB of them): it is laid \
                         out once all are read; --json streams any number"
                    );
                }
                urls.push(url.to_owned());
                Ok(())
            })?;
            urls
        } else {
            args.urls.clone()
        };
        tested = urls.len() as u64;
        if tested > 0 {
            // Tabs too: the columns are aligned with spaces, and a tab would break them.
            let show = |text: &str| terminal::safe(text).replace('\t', "\\t");
            matrix.write_text(&urls, MATRIX_WIDTH, &show, &mut out)?;
        }
    }
    out.flush()?;
    if tested == 0 {
        bail!("no URL to test: give URLs after the file, or --urls-from FILE (`-` for stdin)");
    }
    Ok(exit::code(exit::OK))
}

/// `robots lint` on a robots.txt body (as from a 200 response); `name` labels the output.
fn lint_body(name: &str, body: &[u8], args: &LintArgs) -> anyhow::Result<ExitCode> {
    let robots = RobotsTxt::parse_fetched(body);
    let options = LintOptions {
        user_agents: args.user_agents.clone(),
        ..LintOptions::default()
    };
    let issues = lint(&robots, body, &options);
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    for issue in &issues {
        write_lint_issue(name, issue, args.json, &mut out)?;
    }
    out.flush()?;
    let failed = issues
        .iter()
        .any(|issue| args.fail_on.fails(issue.severity));
    Ok(exit::code(if failed { exit::FINDINGS } else { exit::OK }))
}
