//! crawlgate's reports: one [`Report`] model, built from an audited [`Site`] and its findings, and
//! the renderers that write it (JSON, SARIF, JUnit in code; HTML, Markdown and user plugins through
//! tera templates).
//!
//! ```no_run
//! # fn demo(report: &crawlgate_report::Report) -> Result<(), crawlgate_report::RenderError> {
//! use crawlgate_report::{RenderOptions, Renderers, write_reports};
//!
//! let mut renderers = Renderers::builtin();
//! renderers.load_plugin_dir(std::path::Path::new("reports/csv-findings"))?;
//! let formats = ["html".to_owned(), "sarif".to_owned(), "csv-findings".to_owned()];
//! let options = RenderOptions {
//!     fail_on: crawlgate_core::FailOn::at(crawlgate_core::Severity::Error),
//!     ..RenderOptions::default()
//! };
//! let written = write_reports(report, &renderers, &formats, &options, "audit".as_ref())?;
//! # Ok(()) }
//! ```
//!
//! [`Site`]: crawlgate_core::Site

mod baseline;
mod build;
mod fingerprint;
mod model;
mod page_table;
mod render;
mod sitemap_gen;
mod suggest;
#[cfg(test)]
mod test_report;
mod url_map;

pub use baseline::{Baseline, BaselineError, baseline_json};
pub use build::{BuildOptions, MAX_LISTED_LINES, Tally, build, build_owned, rule_doc};
pub use fingerprint::{fingerprint, fingerprint_mapped};
pub use model::*;
pub use page_table::Iter as PageRows;
pub use render::plugin::Escape;
pub use render::{
    FALLBACK_PREFIX, Format, JsonRenderer, JunitRenderer, Manifest, RenderError, RenderOptions,
    Renderer, Renderers, SarifMap, SarifMapError, SarifRenderer, TemplateRenderer, folder_of,
    write_file_atomically, write_reports,
};
pub use sitemap_gen::{
    GeneratedSitemaps, MAX_BYTES as SITEMAP_MAX_BYTES, MAX_LOC_CHARS as SITEMAP_MAX_LOC_CHARS,
    MAX_URLS as SITEMAP_MAX_URLS, SitemapFile, SitemapGenError, SitemapGenOptions, SitemapUrl,
    chosen_profile, generate_sitemaps, last_modified_w3c, sitemap_urls,
};
pub use suggest::{
    FIXABLE_RULES, FileSuggestion, FlipRecord, NotByEdit, ProofRecord, ResolvedFinding,
    RobotsSuggestions, SuggestedEdit, deciding_profile, named_urls, suggest_robots_fixes,
    unified_diff,
};
pub use url_map::{MapError, UrlMap};
