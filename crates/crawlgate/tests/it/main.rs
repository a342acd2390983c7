//! The `crawlgate` facade's integration tests, in one test binary (one link step for them all), a
//! module per file. A new test file goes in this folder as a module: a file directly under `tests/`
//! would be a binary of its own.

mod ca_cert;
mod examples;
mod page_store;
mod resolve;
