//! What the network commands share: their tokio runtime (built here, so `main` stays
//! synchronous) and telling a URL argument from a file path.

use anyhow::Context;
use url::Url;

/// A multi-threaded runtime for one command.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// The argument as an http(s) URL, when it is written as one (`http://` or `https://`, any
/// case); `None` for anything else (a file path).
pub(crate) fn as_url(argument: &str) -> Option<anyhow::Result<Url>> {
    let lower = argument.get(..8).unwrap_or(argument).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    Some(Url::parse(argument).with_context(|| format!("`{argument}` is not a valid URL")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_told_from_paths() {
        assert!(as_url("robots.txt").is_none());
        assert!(as_url("./http:/x").is_none());
        assert!(as_url("HTTPS://example.com/robots.txt").unwrap().is_ok());
        assert!(as_url("http://").unwrap().is_err());
    }
}
