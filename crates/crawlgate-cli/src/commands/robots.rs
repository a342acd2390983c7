//! `crawlgate robots` (built in its issue).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub(crate) struct RobotsArgs {}

#[allow(clippy::needless_pass_by_value, clippy::unnecessary_wraps)]
pub(crate) fn run(_args: RobotsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate robots` is not built yet")
}
