//! Renderers: one [`Report`], many formats.
//!
//! JSON, SARIF and JUnit are written in code (their shape is a contract with other tools); HTML,
//! Markdown and any user format come from report plugins: a folder with a `report.toml` manifest
//! and tera templates (see `reports/README.md`). [`Renderers::builtin`] holds the five built-in
//! formats; [`Renderers::load_plugin_dir`] adds a user's plugins; [`write_reports`] writes
//! `report.<ext>` files.

mod error;
pub(crate) mod evidence;
mod fold;
mod format;
mod json;
mod junit;
pub(crate) mod plugin;
mod sarif;
pub(crate) mod sarif_map;
mod write;

pub use error::RenderError;
pub use format::Format;
pub use json::JsonRenderer;
pub use junit::JunitRenderer;
pub use plugin::{Manifest, TemplateRenderer};
pub use sarif::SarifRenderer;
pub use sarif_map::{FALLBACK_PREFIX, SarifMap, SarifMapError};
pub use write::{folder_of, write_file_atomically, write_reports};

use crate::model::Report;
use crawlgate_core::FailOn;
use std::collections::BTreeMap;
use std::path::Path;

/// A report format: turns a [`Report`] into bytes.
pub trait Renderer: Send + Sync {
    /// The name `--format` selects it by (`html`, `md`, `json`, `sarif`, `junit`, or a plugin's).
    fn name(&self) -> &str;
    /// The output file's extension, without the dot: the report is written as `report.<ext>`.
    fn extension(&self) -> &str;
    /// The output's media type (`text/html`, `application/sarif+json`, …).
    fn media_type(&self) -> &str;
    /// Render `report` into `out`. The same report and options always give the same bytes.
    fn render(
        &self,
        report: &Report,
        options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError>;
}

/// Choices that change a rendering without changing the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Findings at or above this severity are failures (JUnit `<failure>`; templates get it as
    /// `options.fail_on`, the severity's name or null). [`FailOn::NEVER`]: nothing fails.
    pub fail_on: FailOn,
    /// Where site URLs live in the repository, for SARIF artifact locations (`--sarif-map`);
    /// empty: every URL goes to the documented fallback place under [`FALLBACK_PREFIX`].
    pub sarif_map: SarifMap,
}

/// The renderers available by name: the built-in formats plus loaded plugins.
pub struct Renderers {
    by_name: BTreeMap<String, Box<dyn Renderer>>,
}

impl std::fmt::Debug for Renderers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderers")
            .field("names", &self.names())
            .finish()
    }
}

/// Names that belong to formats written in code; a plugin may not take them (`report.json` is
/// exactly the Report, SARIF and JUnit are contracts with CI tools, `parquet` is the Parquet
/// tables of `crawlgate-parquet`). `html` and `md` may be replaced by a plugin: that is how an
/// agency rebrands the report.
const RESERVED_NAMES: [&str; 4] = ["json", "sarif", "junit", "parquet"];

impl Renderers {
    /// The built-in formats: `json`, `sarif`, `junit` (in code) and `html`, `md` (the embedded
    /// `reports/html` and `reports/markdown` plugins).
    pub fn builtin() -> Renderers {
        let mut renderers = Renderers {
            by_name: BTreeMap::new(),
        };
        renderers.insert(Box::new(JsonRenderer));
        renderers.insert(Box::new(SarifRenderer));
        renderers.insert(Box::new(JunitRenderer));
        for renderer in plugin::builtin::plugins() {
            renderers.insert(renderer);
        }
        renderers
    }

    /// Load the report plugin in `dir` (a folder with a `report.toml`), or every plugin in the
    /// sub-folders of `dir` that have one. A plugin replaces a renderer of the same name, except
    /// the formats written in code (`json`, `sarif`, `junit`, `parquet`).
    pub fn load_plugin_dir(&mut self, dir: &Path) -> Result<(), RenderError> {
        for plugin in plugin::load_dir(dir)? {
            if RESERVED_NAMES.contains(&plugin.name()) {
                return Err(RenderError::Plugin {
                    path: dir.to_path_buf(),
                    message: format!(
                        "the name `{}` belongs to a built-in format; choose another name in report.toml",
                        plugin.name()
                    ),
                });
            }
            self.insert(Box::new(plugin));
        }
        Ok(())
    }

    /// The renderer answering to `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Renderer> {
        self.by_name.get(name).map(AsRef::as_ref)
    }

    /// Every name, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.by_name.keys().map(String::as_str).collect()
    }

    /// Add a renderer, replacing any of the same name.
    pub fn insert(&mut self, renderer: Box<dyn Renderer>) {
        self.by_name.insert(renderer.name().to_owned(), renderer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_format_renders_an_audit_with_nothing_in_it() {
        let report = crate::test_report::minimal();
        let renderers = Renderers::builtin();
        assert_eq!(
            renderers.names(),
            ["html", "json", "junit", "md", "md-summary", "sarif"]
        );
        for name in renderers.names() {
            let mut out = Vec::new();
            if let Err(error) =
                renderers
                    .get(name)
                    .unwrap()
                    .render(&report, &RenderOptions::default(), &mut out)
            {
                panic!("{name}: {error}");
            }
            assert!(!out.is_empty(), "{name}");
        }
        let mut html = Vec::new();
        let html_renderer = renderers.get("html").unwrap();
        html_renderer
            .render(&report, &RenderOptions::default(), &mut html)
            .unwrap();
        let html = String::from_utf8(html).unwrap();
        assert!(html.contains("No findings."));
        assert!(html.contains("No robots.txt was fetched."));
        assert_eq!(
            (html_renderer.extension(), html_renderer.media_type()),
            ("html", "text/html")
        );
    }
}
