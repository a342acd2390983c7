//! Report plugins: a `report.toml` manifest plus tera templates (`*.tera`) and raw text assets
//! (CSS, scripts, SVG), rendered over the Report.
//!
//! The template context is `report` (the Report, exactly as `report.json` has it), `options`
//! (`fail_on`: the `--fail-on` severity or none) and `plugin` (`name`, `extension`). Files ending in
//! `.tera` are templates, named by their path in the folder (`partials/summary.html.tera`); every
//! other text file is an asset, inlined with `{{ asset(path="report.css") }}` and never parsed.

pub(crate) mod builtin;
mod escape;
mod filters;
mod load;
mod manifest;

pub use escape::Escape;
pub(crate) use load::load_dir;
pub use manifest::Manifest;

use super::{RenderError, RenderOptions, Renderer};
use crate::model::Report;
use crawlgate_core::FailOn;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A renderer driven by a report plugin's templates.
pub struct TemplateRenderer {
    manifest: Manifest,
    entry: String,
    tera: tera::Tera,
}

impl std::fmt::Debug for TemplateRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TemplateRenderer")
            .field("manifest", &self.manifest)
            .finish_non_exhaustive()
    }
}

/// What templates see.
#[derive(Serialize)]
struct TemplateContext<'a> {
    report: &'a Report,
    options: ContextOptions,
    plugin: PluginInfo<'a>,
}

#[derive(Serialize)]
struct ContextOptions {
    fail_on: FailOn,
}

#[derive(Serialize)]
struct PluginInfo<'a> {
    name: &'a str,
    extension: &'a str,
}

impl TemplateRenderer {
    /// Build a renderer from a manifest and the plugin's files as `(path in the folder, text)`,
    /// paths `/`-separated. Every template is parsed now, so errors show before any rendering.
    pub fn from_files(
        manifest: Manifest,
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<TemplateRenderer, RenderError> {
        let entry = manifest.entry_template();
        let mut templates = Vec::new();
        let mut assets = BTreeMap::new();
        for (path, text) in files {
            if is_template(&path) {
                templates.push((path, text));
            } else {
                assets.insert(path, text);
            }
        }
        if !templates.iter().any(|(path, _)| *path == entry) {
            return Err(RenderError::Template {
                plugin: manifest.name.clone(),
                template: entry,
                line: None,
                column: None,
                message: "the template is missing from the plugin folder".to_owned(),
            });
        }
        let mut tera = tera::Tera::new();
        filters::register(&mut tera, Arc::new(assets));
        match manifest.escape().function() {
            Some(escape) => {
                tera.set_escape_fn(escape);
                // Every template name ends with "": the plugin's escaping applies to all.
                tera.autoescape_on([""]);
            }
            None => tera.autoescape_on(Vec::<&str>::new()),
        }
        tera.add_raw_templates(templates)
            .map_err(|e| RenderError::from_tera(&manifest.name, &entry, &e))?;
        Ok(TemplateRenderer {
            manifest,
            entry,
            tera,
        })
    }

    /// The plugin's manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
}

/// Whether a plugin file is a template (`*.tera`) rather than an asset.
pub(crate) fn is_template(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("tera"))
}

impl Renderer for TemplateRenderer {
    fn name(&self) -> &str {
        &self.manifest.name
    }

    fn extension(&self) -> &str {
        &self.manifest.extension
    }

    fn media_type(&self) -> &str {
        &self.manifest.media_type
    }

    fn render(
        &self,
        report: &Report,
        options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        let context = TemplateContext {
            report,
            options: ContextOptions {
                fail_on: options.fail_on,
            },
            plugin: PluginInfo {
                name: &self.manifest.name,
                extension: &self.manifest.extension,
            },
        };
        let context = tera::Context::from_serialize(&context)
            .map_err(|e| RenderError::from_tera(&self.manifest.name, &self.entry, &e))?;
        self.tera
            .render_to(&self.entry, &context, out)
            .map_err(|e| match e.kind() {
                tera::ErrorKind::Io(kind) => RenderError::Write((*kind).into()),
                _ => RenderError::from_tera(&self.manifest.name, &self.entry, &e),
            })
    }
}
