//! crawlgate's pure engine.
//!
//! Everything here is a function of bytes and values: no IO, no async, no clock, no printing
//! (ARCHITECTURE.md, "Invariants"). The crawler feeds it fetched bytes; rules read what it returns.
//!
//! - [`robots`]: robots.txt parsed and matched exactly as Google's open-source library does, with the
//!   deciding line as evidence, and per-line lint facts.
//! - [`sitemap`]: a streaming sitemap parser and validator (XML, gzip, text, RSS, Atom).
//! - [`signals`]: what a page says about itself: meta robots, X-Robots-Tag, canonicals, links, assets.
//! - [`crawl`]: the crawl's decisions without its IO (a state machine a network driver runs).
//! - [`site`]: the Site model the crawl builds and rules read.
//! - [`rule`], [`finding`]: the rule plugin interface, and findings with their evidence.
//! - [`issue`]: the shared shape of a document-level problem (a robots.txt line, a sitemap position).

pub mod crawl;
pub mod finding;
pub mod http;
pub mod issue;
pub mod robots;
pub mod rule;
pub mod signals;
pub mod site;
pub mod sitemap;

pub use finding::{Evidence, Finding};
pub use issue::{Issue, Severity};
pub use rule::{Rule, RuleMeta};
pub use site::Site;
