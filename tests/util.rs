//! Shared helpers for the end-to-end tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run the built `crawlgate` binary with `args`, capturing its output.
#[allow(dead_code)]
pub(crate) fn crawlgate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(args)
        .output()
        .expect("the crawlgate binary runs")
}

/// Run the built `crawlgate` binary with `args` in the folder `cwd` (README's examples, from
/// the repository root; commands that write where they run, from a scratch folder).
#[allow(dead_code)]
pub(crate) fn crawlgate_in<S: AsRef<std::ffi::OsStr>>(cwd: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the crawlgate binary runs")
}

/// Output bytes as text (lossy).
#[allow(dead_code)]
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Run `crawlgate args`: it must exit 2 with `says` on standard error.
#[allow(dead_code)]
pub(crate) fn exits_2_saying(args: &[&str], says: &str) {
    let output = crawlgate(args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

/// The report.json an audit wrote into `dir`, parsed.
#[allow(dead_code)]
pub(crate) fn report_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json is written");
    serde_json::from_str(&text).expect("report.json parses")
}

/// The names of the files in `dir`, sorted.
#[allow(dead_code)]
pub(crate) fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the folder is readable")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A fresh, empty folder of its own under the system's temp folder (`name` must be unique
/// among the tests).
#[allow(dead_code)]
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crawlgate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

/// `crawlgate audit URL --quiet --format json -o OUT --no-assets EXTRA…`, whatever it exits with.
#[allow(dead_code)]
pub(crate) fn audit_json_without_assets(url: &str, out: &Path, extra: &[&str]) -> Output {
    let out = out.display().to_string();
    let mut args = vec![
        "audit",
        url,
        "--quiet",
        "--format",
        "json",
        "-o",
        &out,
        "--no-assets",
    ];
    args.extend_from_slice(extra);
    crawlgate(&args)
}

/// `crawlgate audit URL EXTRA… -o OUT --format json --fail-on never --quiet`, asserting that it
/// exits 0; its output, for what it printed.
#[allow(dead_code)]
pub(crate) fn audit_to_json(url: &str, extra: &[&str], out: &Path) -> Output {
    let mut args = vec!["audit", url];
    args.extend_from_slice(extra);
    let out = out.to_str().expect("a UTF-8 path");
    args.extend([
        "-o",
        out,
        "--format",
        "json",
        "--fail-on",
        "never",
        "--quiet",
    ]);
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    output
}
