//! crawlgate's reports: one [`Report`] model, built from an audited [`Site`] and its findings, and
//! the renderers that write it (JSON, SARIF, JUnit in code; HTML, Markdown and user plugins through
//! tera templates).
//!
//! [`Site`]: crawlgate_core::Site

mod build;
mod fingerprint;
mod model;

pub use build::{BuildOptions, build, rule_doc};
pub use fingerprint::fingerprint;
pub use model::*;
