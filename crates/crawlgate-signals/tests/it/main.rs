//! crawlgate-signals' integration tests, in one test binary (one link step for them all), a module
//! per file. A new test file goes in this folder as a module: a file directly under `tests/` would
//! be a binary of its own.

mod html5lib;
mod pages;
mod props;
mod real;
