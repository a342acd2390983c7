//! Helpers shared by crawlgate's integration tests and benchmarks (never published).
//!
//! - [`chromium`]: headless Chromium loading an HTML report, and checking it fits the screen;
//! - [`fixture`]: the rule fixtures' mini-sites (`fixtures/rules/<family>/<name>/*.toml`)
//!   crawled offline into a [`Site`](crawlgate_core::Site), and [`fixture::run`], one rule over
//!   a site;
//! - [`html`]: generated HTML pages;
//! - [`sitemap`]: generated sitemaps;
//! - [`sarif`]: the locations of a SARIF log;
//! - `served` (feature `serve`): the fixture sites of `fixtures/sites/` served on 127.0.0.1;
//! - [`fixtures_dir`] and [`repo_dir`]: where the repository's files are.
//!
//! Only integration tests (`tests/`) and benches may use this crate. A crate's own unit tests
//! must not when this crate depends on it: they are built against a second copy of the crate,
//! whose types are not the ones these helpers take and return (README.md).
//!
//! Helpers panic on what they cannot do: a broken helper is a failing test.

// Every helper panics when its input is broken (that is the test failing); a `# Panics` section
// on each would say only that.
#![allow(clippy::missing_panics_doc)]

pub mod chromium;
pub mod fixture;
pub mod html;
pub mod sarif;
#[cfg(feature = "serve")]
pub mod served;
pub mod sitemap;

use std::path::PathBuf;

/// The repository's root folder.
pub fn repo_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The repository's `fixtures/` folder.
pub fn fixtures_dir() -> PathBuf {
    repo_dir().join("fixtures")
}
