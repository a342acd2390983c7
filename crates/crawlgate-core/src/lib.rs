//! crawlgate's pure engine.
//!
//! Everything here is a function of bytes and values: no IO, no async, no clock, no printing
//! (ARCHITECTURE.md, "Invariants"). The crawler feeds it fetched bytes; rules read what it returns.
//!
//! - [`crawl`]: the crawl's decisions without its IO (a state machine a network driver runs).
//! - [`site`]: the Site model the crawl builds and rules read.
//! - [`rule`], [`finding`]: the rule plugin interface, and findings with their evidence.
//! - [`url_pattern`]: the URL patterns of crawl scope and suppressions (one syntax).
//!
//! The three parsers are crates of their own, each usable alone, re-exported here under the
//! paths they always had:
//!
//! - [`robots`] (`crawlgate-robots`): robots.txt parsed and matched exactly as Google's
//!   open-source library does, with the deciding line as evidence; lint; diff.
//! - [`sitemap`] (`crawlgate-sitemap`): a streaming sitemap parser and validator (XML, gzip,
//!   text, RSS, Atom).
//! - [`signals`] (`crawlgate-signals`): what a page says about itself: meta robots,
//!   X-Robots-Tag, canonicals, links, assets; [`http::HeaderLine`].
//! - [`issue`] (`crawlgate-issue`): the shared shape of a document-level problem (a robots.txt
//!   line, a sitemap position) and [`Severity`].

pub mod crawl;
pub mod finding;
pub mod rule;
pub mod site;
pub mod url_pattern;

pub use crawlgate_issue as issue;
pub use crawlgate_robots as robots;
pub use crawlgate_signals as signals;
pub use crawlgate_sitemap as sitemap;

/// HTTP facts shared by the crawler (which records them) and the engine (which reads them).
pub mod http {
    pub use crawlgate_signals::HeaderLine;
}

pub use finding::{Evidence, Finding};
pub use issue::{FailOn, Issue, Severity};
pub use rule::{Rule, RuleMeta};
pub use site::Site;
pub use url_pattern::UrlPattern;
