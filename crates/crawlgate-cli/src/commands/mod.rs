//! One module per top-level subcommand.

pub(crate) mod atomic;
pub(crate) mod audit;
pub(crate) mod audit_config;
pub(crate) mod crawl;
pub(crate) mod crawl_args;
pub(crate) mod diff;
pub(crate) mod input;
pub(crate) mod live;
pub(crate) mod net;
pub(crate) mod robots;
pub(crate) mod robots_diff;
pub(crate) mod robots_generate;
pub(crate) mod robots_suggest;
pub(crate) mod rules;
pub(crate) mod serve;
pub(crate) mod sitemap;
pub(crate) mod store;

/// Print a command's closing summary on stdout. The reports are written by then and the exit
/// status says what they found, so a closed pipe (`… | head -0`) or a full disk (`> /dev/full`)
/// costs only the summary: said on stderr, never a panic, never a changed exit status.
pub(crate) fn print_summary(text: &str) {
    use std::io::Write as _;
    let mut stdout = crate::terminal::stdout(crate::terminal::Escapes::Text);
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && error.kind() != std::io::ErrorKind::BrokenPipe
    {
        crate::terminal::say!("warning: cannot write the summary to standard output: {error}");
    }
}

/// The warning for a page store that stopped taking pages (a full disk): nothing is lost, the
/// later pages were held in memory, but the memory bound the store gives no longer held.
pub(crate) fn warn_page_store_refused(error: &str) {
    eprintln!(
        "warning: the page store took no more pages ({}); the rest were held in memory",
        crate::terminal::safe(error)
    );
}
