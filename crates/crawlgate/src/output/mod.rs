//! What the `crawlgate` commands print, as library functions over [`std::io::Write`]: the CLI
//! parses arguments, reads files, runs these and sets the exit status, nothing else. A tool of
//! your own can write the same lines, JSON objects and Markdown.
//!
//! - [`robots`]: `robots test` verdicts and `robots lint` issues;
//! - [`robots_diff`]: `robots diff` (text, JSON lines, Markdown), streamed;
//! - [`sitemap`]: `sitemap check` of one document or of an index and its children;
//! - [`crawl`]: `crawl --jsonl` lines and the crawl summary;
//! - [`rules`]: `rules` and `explain`;
//! - [`report`]: the summaries `audit` and `diff` print once their reports are written (the
//!   reports themselves are [`crate::report`]'s renderers).

pub mod crawl;
pub mod report;
pub mod robots;
pub mod robots_diff;
pub mod rules;
pub mod sitemap;
