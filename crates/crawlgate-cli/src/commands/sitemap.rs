//! `crawlgate sitemap` (built in its issue).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub(crate) struct SitemapArgs {}

#[allow(clippy::needless_pass_by_value, clippy::unnecessary_wraps)]
pub(crate) fn run(_args: SitemapArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate sitemap` is not built yet")
}
