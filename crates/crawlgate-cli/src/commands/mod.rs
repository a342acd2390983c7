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

/// An error and its causes, as `{:#}` shows them, less a cause whose words are already said: a
/// library error that quotes its source in its message and also gives it as its source (the
/// crawl store's, a report file's) would say the same thing twice.
pub(crate) fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let words = cause.to_string();
        if text.contains(&words) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&words);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_text;

    /// An error that quotes its source and gives it as its source too.
    #[derive(Debug)]
    struct Quoting {
        source: std::io::Error,
    }

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot use the crawl store `x`: {}", self.source)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn a_cause_already_quoted_is_said_once_and_the_others_in_order() {
        let error = anyhow::Error::new(Quoting {
            source: std::io::Error::other("file is not a database"),
        })
        .context("--resume");
        assert_eq!(
            error_text(&error),
            "--resume: cannot use the crawl store `x`: file is not a database"
        );
        let plain = anyhow::anyhow!("disk full").context("cannot write the reports");
        assert_eq!(error_text(&plain), "cannot write the reports: disk full");
    }
}
