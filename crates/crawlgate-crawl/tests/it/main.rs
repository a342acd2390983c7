//! crawlgate-crawl's integration tests, in one test binary (one link step for them all), a module
//! per file. A new test file goes in this folder as a module: a file directly under `tests/` would
//! be a binary of its own.

mod access;
mod backoff;
mod client;
mod crawl;
mod fixture_site;
mod hostile;
mod pace;
mod resolve;
mod robots;
mod scope;
mod sitemaps;
mod support;
mod tls;
