//! Shared helpers for the end-to-end tests.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository's `fixtures/` folder.
#[allow(dead_code)]
pub(crate) fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Run the built `crawlgate` binary with `args`, capturing its output.
#[allow(dead_code)]
pub(crate) fn crawlgate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .args(args)
        .output()
        .expect("the crawlgate binary runs")
}
