//! What a running crawl shows and how it is stopped: the progress line on a terminal, and the
//! signals that end a crawl early (the report of what was seen is still written).

use crawlgate_core::crawl::Progress;
use crawlgate_crawl::StopHandle;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// The exit status after a second Ctrl-C or SIGTERM: the shell's convention for SIGINT.
const EXIT_ON_SECOND_SIGNAL: i32 = 130;

/// A one-line progress display on standard error; hidden with `quiet` or when standard error is
/// not a terminal.
pub(crate) fn progress_bar(quiet: bool) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        // Hidden by indicatif itself when standard error is not a terminal.
        ProgressDrawTarget::stderr_with_hz(10)
    };
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// `120 pages fetched (35/s), 40 queued, 12 assets, 2 sitemaps, 16 in flight`.
pub(crate) fn progress_message(counts: &Progress, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64().max(0.001);
    #[allow(clippy::cast_precision_loss)] // a rate for display
    let rate = counts.pages_fetched as f64 / seconds;
    format!(
        "{} pages fetched ({rate:.0}/s), {} queued, {} assets, {} sitemaps, {} in flight",
        counts.pages_fetched,
        counts.pages_queued,
        counts.assets_fetched,
        counts.sitemaps_read,
        counts.in_flight
    )
}

/// Stop the crawl on the first Ctrl-C or SIGTERM (it then finishes with what it saw, marked
/// partial); exit at once on the second. Call inside the command's tokio runtime.
pub(crate) fn stop_on_signals(stop: StopHandle) {
    tokio::spawn(async move {
        if next_signal().await {
            stop.stop();
            eprintln!("\ninterrupted: finishing with what was seen (interrupt again to quit now)");
            if next_signal().await {
                std::process::exit(EXIT_ON_SECOND_SIGNAL);
            }
        }
    });
}

/// Wait for Ctrl-C or SIGTERM; false when signals cannot be listened for.
#[cfg(unix)]
async fn next_signal() -> bool {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut terminate) = signal(SignalKind::terminate()) else {
        return tokio::signal::ctrl_c().await.is_ok();
    };
    tokio::select! {
        result = tokio::signal::ctrl_c() => result.is_ok(),
        received = terminate.recv() => received.is_some(),
    }
}

/// Wait for Ctrl-C; false when it cannot be listened for.
#[cfg(not(unix))]
async fn next_signal() -> bool {
    tokio::signal::ctrl_c().await.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_has_counts_and_rate() {
        let counts = Progress {
            pages_fetched: 100,
            pages_queued: 7,
            assets_fetched: 3,
            sitemaps_read: 2,
            in_flight: 4,
        };
        assert_eq!(
            progress_message(&counts, Duration::from_secs(2)),
            "100 pages fetched (50/s), 7 queued, 3 assets, 2 sitemaps, 4 in flight"
        );
    }
}
