//! What a running crawl shows and how it is stopped: the progress line on a terminal, and the
//! signals that end a crawl early (the report of what was seen is still written).

use crawlgate::StopHandle;
use crawlgate::crawl::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::{Arc, OnceLock};
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

/// What quitting costs once the crawl is over (the reports not yet written, and how to write
/// them later), said by the signal listener from then on: set by the command when its crawl
/// ends ([`AfterCrawl::set`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct AfterCrawl(Arc<OnceLock<String>>);

impl AfterCrawl {
    /// The crawl is over: a signal now interrupts the writing, and quitting costs `cost`.
    pub(crate) fn set(&self, cost: String) {
        let _ = self.0.set(cost);
    }
}

/// Stop the crawl on the first Ctrl-C or SIGTERM (it then finishes with what it saw, marked
/// partial); exit at once on the second, however far the command has got. Once the crawl is
/// over (the returned [`AfterCrawl`] set), the first says that the reports are being finished
/// and what quitting would cost, and the second says it again as it quits.
///
/// The signals are listened for on a thread of their own with its own small runtime, not on the
/// command's runtime: that one is shut down once the crawl ends, and a second Ctrl-C while the
/// reports are written (seconds, on a large site) must still quit. The handlers are installed
/// before this returns, so a signal sent once the crawl has started is never missed. When they
/// cannot be installed, signals keep their default effect (the process ends).
pub(crate) fn stop_on_signals(stop: StopHandle) -> AfterCrawl {
    let after_crawl = AfterCrawl::default();
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    else {
        return after_crawl;
    };
    let signals = {
        let _entered = runtime.enter();
        Signals::listen()
    };
    let Some(mut signals) = signals else {
        return after_crawl;
    };
    let cost = Arc::clone(&after_crawl.0);
    let listener = move || {
        runtime.block_on(async move {
            if signals.next().await {
                stop.stop();
                match cost.get() {
                    Some(cost) => crate::terminal::say!(
                        "\ninterrupted: the crawl is over, finishing its output (interrupt again to quit now: {cost})"
                    ),
                    None => crate::terminal::say!(
                        "\ninterrupted: finishing with what was seen (interrupt again to quit now)"
                    ),
                }
                if signals.next().await {
                    if let Some(cost) = cost.get() {
                        crate::terminal::say!("quit: {cost}");
                    }
                    std::process::exit(EXIT_ON_SECOND_SIGNAL);
                }
            }
        });
    };
    // Without the thread, signals keep their default effect; nothing else to do.
    let _ = std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(listener);
    after_crawl
}

/// Ctrl-C (SIGINT) and SIGTERM, listened for.
#[cfg(unix)]
pub(crate) struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    /// Install the handlers (inside a runtime); `None` when they cannot be.
    pub(crate) fn listen() -> Option<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Some(Self {
            interrupt: signal(SignalKind::interrupt()).ok()?,
            terminate: signal(SignalKind::terminate()).ok()?,
        })
    }

    /// Wait for the next one; false when no more can come.
    pub(crate) async fn next(&mut self) -> bool {
        tokio::select! {
            received = self.interrupt.recv() => received.is_some(),
            received = self.terminate.recv() => received.is_some(),
        }
    }
}

/// Ctrl-C, listened for.
#[cfg(not(unix))]
pub(crate) struct Signals;

#[cfg(not(unix))]
impl Signals {
    pub(crate) fn listen() -> Option<Self> {
        Some(Self)
    }

    pub(crate) async fn next(&mut self) -> bool {
        tokio::signal::ctrl_c().await.is_ok()
    }
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
