//! `crawlgate robots suggest <report.json|DIR>`: the robots.txt edits that resolve an audit's
//! findings, each proven over every URL the audit knows (`crawlgate::report::suggest_robots_fixes`,
//! the same suggestions as the report's section), printed with their diffs, and written as the
//! suggested files on request.

use crate::commands::atomic::{check_output_dir, write_atomically};
use crate::commands::crawl_args::{parse_robots_override, read_robots_override};
use crate::commands::diff::read_report;
use crate::exit;
use crate::terminal::{self, Escapes};
use anyhow::Context;
use crawlgate::report::{FileSuggestion, ProofRecord, RobotsSuggestions, suggest_robots_fixes};
use crawlgate::robots::suggest::MAX_LISTED_FLIPS;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use url::Url;

/// Suggest robots.txt edits that resolve an audit's findings, proven against its crawl.
///
/// For the findings a robots.txt edit resolves (`robots/blocked-noindex`, `robots/blocked-css`
/// and `-js`, `robots/blocked-image`, `robots/blocked-canonicalised`,
/// `robots/redirect-to-blocked`, `robots/disallow-all`, `sitemap/url-blocked`,
/// `sitemap/blocked-by-robots`, `sitemap/image-blocked`, `canonical/target-blocked`), proposes
/// per refusing rule the narrowest edit: an exact `Allow: PATH$` for the refused URLs (inserted
/// before the rule, in its group), an `Allow: PREFIX*.EXT$` per extension for many assets, or
/// the rule's removal (first for `Disallow: /`). Each is proven with the robots diff engine over
/// every URL in the report, for every audited crawler: the URLs it frees as intended, and every
/// other verdict it changes (listed, never hidden). Prints each edit with the findings it
/// resolves and its proof, then the whole change as a unified diff of the file as read.
///
/// The file is the one the audit read, rebuilt from the report's listing; a robots.txt longer
/// than the report lists (1,000 lines) needs `--robots ORIGIN=FILE`, which also checks a file
/// changed since. Check a suggestion end to end with `crawlgate audit --robots-override
/// ORIGIN=FILE` on the file `--write` writes.
///
/// Exit status: 0; 2 when the report or a file cannot be read or written.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  crawlgate robots suggest crawlgate-report/\n  crawlgate robots suggest report.json --write suggested/\n  crawlgate audit https://www.example.com/ --robots-override https://www.example.com=suggested/https-www.example.com.robots.txt"
)]
pub(crate) struct SuggestArgs {
    /// The audit's report.json, or the folder holding it.
    #[arg(value_name = "REPORT")]
    report: PathBuf,

    /// The current robots.txt of ORIGIN, instead of the one the report lists (needed when the
    /// report lists only part of it). Repeatable, one per origin.
    #[arg(long = "robots", value_name = "ORIGIN=FILE", value_parser = parse_robots_override)]
    robots: Vec<(String, PathBuf)>,

    /// Write each suggested robots.txt into DIR, as `SCHEME-HOST[-PORT].robots.txt`.
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,

    /// Print the suggestions as JSON (the `robots_suggestions` object of report.json).
    #[arg(long)]
    json: bool,
}

/// Flips listed per edit in the text output; `--json` has the report's whole listing.
const FLIPS_SHOWN: usize = 10;

pub(crate) fn run(args: &SuggestArgs) -> anyhow::Result<ExitCode> {
    let path = if args.report.is_dir() {
        args.report.join("report.json")
    } else {
        args.report.clone()
    };
    let report = read_report(&path)?;
    if let Some(dir) = &args.write {
        check_output_dir(dir)?;
    }
    let mut given = BTreeMap::new();
    for (origin, file) in &args.robots {
        given.insert(origin.clone(), read_robots_override(file)?.body);
    }
    let bodies: BTreeMap<&str, Vec<u8>> = report
        .robots
        .iter()
        .filter_map(|robots| {
            let body = given
                .get(&robots.origin)
                .cloned()
                .or_else(|| robots.listed_body())?;
            Some((robots.url.as_str(), body))
        })
        .collect();
    let suggestions = suggest_robots_fixes(&report, &|url| bodies.get(url).cloned());
    let mut out = terminal::stdout(Escapes::of_json(args.json));
    if args.json {
        serde_json::to_writer_pretty(&mut out, &suggestions)?;
        writeln!(out)?;
    } else {
        write_text(&suggestions, &mut out)?;
    }
    for url in &suggestions.unread {
        let origin = report
            .robots
            .iter()
            .find(|robots| robots.url == *url)
            .map_or("ORIGIN", |robots| robots.origin.as_str());
        terminal::say!(
            "not checked: {url} is not wholly in the report (over {} lines, a line cut, or bytes \
             that are not UTF-8); give it with --robots {origin}=FILE",
            crawlgate::report::MAX_LISTED_LINES
        );
    }
    out.flush()?;
    if let Some(dir) = &args.write
        && !suggestions.files.is_empty()
    {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
        for file in &suggestions.files {
            let Some(body) = bodies.get(file.robots_url.as_str()) else {
                continue;
            };
            let target = dir.join(file_name(&file.robots_url));
            let suggested = file.suggested_body(body);
            write_atomically(&target, |w| Ok(w.write_all(&suggested)?))?;
            let origin = report
                .robots
                .iter()
                .find(|robots| robots.url == file.robots_url)
                .map_or("ORIGIN", |robots| robots.origin.as_str());
            crate::commands::print_summary(&format!(
                "wrote {}: check it with crawlgate audit … --robots-override {origin}={}\n",
                target.display(),
                target.display()
            ));
        }
    }
    Ok(exit::code(exit::OK))
}

/// `https-www.example.com.robots.txt`, `http-127.0.0.1-8080.robots.txt`: one name per origin.
fn file_name(robots_url: &str) -> String {
    let Ok(url) = Url::parse(robots_url) else {
        return "robots.txt".to_owned();
    };
    let host = url
        .host_str()
        .unwrap_or("host")
        .replace([':', '[', ']'], "_");
    match url.port() {
        Some(port) => format!("{}-{host}-{port}.robots.txt", url.scheme()),
        None => format!("{}-{host}.robots.txt", url.scheme()),
    }
}

fn write_text(suggestions: &RobotsSuggestions, out: &mut impl Write) -> std::io::Result<()> {
    if suggestions.files.is_empty() {
        writeln!(
            out,
            "no finding in this report is resolved by a robots.txt edit"
        )?;
    }
    for file in &suggestions.files {
        write_file(file, out)?;
    }
    for skipped in &suggestions.not_by_edit {
        writeln!(
            out,
            "no edit resolves {} finding{} of {}: {}",
            skipped.findings,
            if skipped.findings == 1 { "" } else { "s" },
            skipped.robots_url,
            skipped.reason
        )?;
    }
    Ok(())
}

fn write_file(file: &FileSuggestion, out: &mut impl Write) -> std::io::Result<()> {
    let resolved: usize = file.edits.iter().map(|edit| edit.resolves.len()).sum();
    writeln!(
        out,
        "{}: {} edit{} resolving {resolved} finding{}, proven over {} known URLs for {}",
        file.robots_url,
        file.edits.len(),
        if file.edits.len() == 1 { "" } else { "s" },
        if resolved == 1 { "" } else { "s" },
        file.proof.urls,
        file.profiles.join(", ")
    )?;
    for (number, edit) in (1..).zip(&file.edits) {
        writeln!(out, "\n  {number}. {}", edit.summary)?;
        for finding in &edit.resolves {
            writeln!(
                out,
                "     resolves {} {} ({})",
                finding.rule, finding.url, finding.profile
            )?;
        }
        write_proof("     ", &edit.proof, out)?;
    }
    writeln!(out, "\n  all edits together:")?;
    write_proof("     ", &file.proof, out)?;
    writeln!(out)?;
    for line in file.diff.lines() {
        writeln!(out, "  {line}")?;
    }
    writeln!(out)
}

fn write_proof(indent: &str, proof: &ProofRecord, out: &mut impl Write) -> std::io::Result<()> {
    let verdicts = |n: u64| if n == 1 { "verdict" } else { "verdicts" };
    if proof.exact {
        writeln!(
            out,
            "{indent}proof: frees the {} refused {} as intended; no other verdict changes",
            proof.intended,
            verdicts(proof.intended)
        )?;
    } else {
        writeln!(
            out,
            "{indent}proof: frees {} {} as intended, and ALSO changes {} other {}:",
            proof.intended,
            verdicts(proof.intended),
            proof.other,
            verdicts(proof.other)
        )?;
        let others: Vec<_> = proof.flips.iter().filter(|flip| !flip.intended).collect();
        for flip in others.iter().take(FLIPS_SHOWN) {
            writeln!(
                out,
                "{indent}  {} ({}): {} → {}",
                flip.url, flip.profile, flip.before, flip.after
            )?;
        }
        let shown = FLIPS_SHOWN.min(others.len()) as u64;
        if proof.other > shown {
            writeln!(
                out,
                "{indent}  … and {} more (--json lists up to {MAX_LISTED_FLIPS})",
                proof.other - shown
            )?;
        }
    }
    for target in &proof.still_refused {
        writeln!(out, "{indent}  still refused: {target}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn one_file_name_per_origin() {
        assert_eq!(
            file_name("https://www.example.com/robots.txt"),
            "https-www.example.com.robots.txt"
        );
        assert_eq!(
            file_name("http://127.0.0.1:8080/robots.txt"),
            "http-127.0.0.1-8080.robots.txt"
        );
        assert_eq!(
            file_name("http://[::1]:81/robots.txt"),
            "http-___1_-81.robots.txt"
        );
    }
}
