//! End-to-end tests: run the `crawlgate` binary against fixtures and sites served on 127.0.0.1.
//!
//! One test binary (owned by crates/crawlgate-cli through `[[test]]`), one module per command.

mod audit_access_cmd;
mod audit_baseline_cmd;
mod audit_cmd;
mod audit_env_cmd;
mod audit_intent_cmd;
mod audit_parquet_cmd;
mod audit_sarif_cmd;
mod bad_invocation_cmd;
mod ca_cert_cmd;
mod crawl_cmd;
mod diff_cmd;
mod interrupt_cmd;
mod oversized_cmd;
mod render_cmd;
mod resolve_cmd;
mod resume_cmd;
mod robots_cmd;
mod robots_diff_cmd;
mod robots_suggest_cmd;
mod rules_cmd;
mod scope_cmd;
mod serve_cmd;
mod sitemap_cmd;
mod sitemap_generate_cmd;
mod util;
