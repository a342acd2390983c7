//! The hostile-server suite: sites on 127.0.0.1 that misbehave the ways real servers do (and
//! worse), each with the outcome the crawl must reach asserted. Bounds are small so the suite is
//! fast; no assertion is about durations.
//!
//! A module per kind of file.

mod pages;
mod robots;
mod sitemaps;
