//! crawlgate's pure engine.
//!
//! Everything here is a function of bytes and values: no IO, no async, no clock, no printing
//! (ARCHITECTURE.md, "Invariants"). The crawler feeds it fetched bytes; rules read what it returns.
//!
//! - [`robots`]: robots.txt parsed and matched exactly as Google's open-source library does, with the
//!   deciding line as evidence, and per-line lint facts.
//! - [`sitemap`]: a streaming sitemap parser and validator (XML, gzip, text, RSS, Atom).
//! - [`signals`]: what a page says about itself: meta robots, X-Robots-Tag, canonicals, links, assets.
//! - [`issue`]: the shared shape of a document-level problem (a robots.txt line, a sitemap position).

pub mod http;
pub mod issue;
pub mod robots;
pub mod signals;
pub mod sitemap;

pub use issue::{Issue, Severity};
