//! The built-in report plugins, `reports/html` and `reports/markdown`, embedded at build time so
//! the binary needs no files beside it. Each file is listed here; a test checks the lists against
//! the folders, so a new partial cannot be forgotten.

use super::{Manifest, TemplateRenderer};
use crate::model::Report;
use crate::render::{RenderError, RenderOptions, Renderer};
use std::path::PathBuf;
use std::sync::OnceLock;

/// A plugin folder compiled into the binary.
pub(crate) struct Embedded {
    /// The folder under `reports/`.
    pub(crate) folder: &'static str,
    /// The name to register under if the manifest itself were broken.
    pub(crate) name: &'static str,
    pub(crate) manifest: &'static str,
    /// `(path in the folder, text)`.
    pub(crate) files: &'static [(&'static str, &'static str)],
}

macro_rules! embed {
    ($folder:literal as $name:literal: $($file:literal),* $(,)?) => {
        Embedded {
            folder: $folder,
            name: $name,
            manifest: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"), "/../../reports/", $folder, "/report.toml"
            )),
            files: &[$((
                $file,
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../reports/", $folder, "/", $file)),
            )),*],
        }
    };
}

pub(crate) const EMBEDDED: [Embedded; 3] = [
    embed!("html" as "html":
        "report.html.tera",
        "report.css",
        "filter.js",
        "partials/summary.html.tera",
        "partials/chart.html.tera",
        "partials/problems.html.tera",
        "partials/pages.html.tera",
        "partials/diff.html.tera",
        "partials/findings.html.tera",
        "partials/rule.html.tera",
        "partials/findings_table.html.tera",
        "partials/url.html.tera",
        "partials/evidence.html.tera",
        "partials/evidence/asset_ref.html.tera",
        "partials/evidence/canonical.html.tera",
        "partials/evidence/change.html.tera",
        "partials/evidence/hreflang.html.tera",
        "partials/evidence/http_header.html.tera",
        "partials/evidence/link.html.tera",
        "partials/evidence/meta_tag.html.tera",
        "partials/evidence/note.html.tera",
        "partials/evidence/redirect.html.tera",
        "partials/evidence/response.html.tera",
        "partials/evidence/robots_fetch.html.tera",
        "partials/evidence/robots_line.html.tera",
        "partials/evidence/robots_rule.html.tera",
        "partials/evidence/robots_verdict.html.tera",
        "partials/evidence/sitemap_entry.html.tera",
        "partials/evidence/sitemap_position.html.tera",
        "partials/robots.html.tera",
        "partials/suggestions.html.tera",
        "partials/sitemaps.html.tera",
    ),
    embed!("markdown" as "md":
        "report.md.tera",
        "partials/summary.md.tera",
        "partials/diff.md.tera",
        "partials/findings.md.tera",
        "partials/rule.md.tera",
        "partials/evidence.md.tera",
        "partials/robots.md.tera",
        "partials/suggestions.md.tera",
        "partials/sitemaps.md.tera",
    ),
    embed!("markdown-summary" as "md-summary": "report.md.tera"),
];

/// The embedded plugins as renderers, each compiled when it first renders: an audit writing
/// only `report.json` compiles no template. One that fails to load (a bug caught by this crate's
/// tests) still answers to its name, with its error, instead of taking the others down.
pub(crate) fn plugins() -> Vec<Box<dyn Renderer>> {
    EMBEDDED.iter().map(lazy).collect()
}

/// One embedded plugin: its manifest read now (the name, extension and media type are needed
/// to choose formats), its templates parsed on first use.
fn lazy(embedded: &'static Embedded) -> Box<dyn Renderer> {
    match Manifest::parse(embedded.manifest) {
        Ok(manifest) => Box::new(Lazy {
            embedded,
            manifest,
            loaded: OnceLock::new(),
        }),
        Err(message) => Box::new(Unloadable {
            name: embedded.name,
            error: RenderError::Manifest {
                path: manifest_path(embedded),
                message,
            }
            .to_string(),
        }),
    }
}

fn manifest_path(embedded: &Embedded) -> PathBuf {
    PathBuf::from(format!("reports/{}/report.toml", embedded.folder))
}

/// The plugin's templates parsed.
fn compile(embedded: &Embedded, manifest: Manifest) -> Result<TemplateRenderer, RenderError> {
    TemplateRenderer::from_files(
        manifest,
        embedded
            .files
            .iter()
            .map(|(path, text)| ((*path).to_owned(), (*text).to_owned())),
    )
}

/// An embedded plugin whose templates are parsed when it first renders.
struct Lazy {
    embedded: &'static Embedded,
    manifest: Manifest,
    /// The compiled plugin, or its load error as [`Unloadable`] gives it.
    loaded: OnceLock<Result<TemplateRenderer, String>>,
}

impl Renderer for Lazy {
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
        let loaded = self.loaded.get_or_init(|| {
            compile(self.embedded, self.manifest.clone()).map_err(|error| error.to_string())
        });
        match loaded {
            Ok(renderer) => renderer.render(report, options, out),
            Err(error) => Err(RenderError::Plugin {
                path: PathBuf::from(format!("built-in plugin `{}`", self.embedded.name)),
                message: error.clone(),
            }),
        }
    }
}

/// A built-in plugin that failed to load: rendering it returns the load error.
struct Unloadable {
    name: &'static str,
    error: String,
}

impl Renderer for Unloadable {
    fn name(&self) -> &str {
        self.name
    }

    fn extension(&self) -> &str {
        self.name
    }

    fn media_type(&self) -> &'static str {
        "application/octet-stream"
    }

    fn render(
        &self,
        _report: &Report,
        _options: &RenderOptions,
        _out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        Err(RenderError::Plugin {
            path: PathBuf::from(format!("built-in plugin `{}`", self.name)),
            message: self.error.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn files_on_disk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            if path.is_dir() {
                files_on_disk(&path, &format!("{prefix}{name}/"), out);
            } else if name != "report.toml" {
                out.push(format!("{prefix}{name}"));
            }
        }
    }

    #[test]
    fn every_file_of_the_builtin_plugin_folders_is_embedded() {
        for embedded in &EMBEDDED {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../reports")
                .join(embedded.folder);
            let mut on_disk = Vec::new();
            files_on_disk(&dir, "", &mut on_disk);
            on_disk.sort();
            let mut listed: Vec<String> = embedded
                .files
                .iter()
                .map(|(path, _)| (*path).to_owned())
                .collect();
            listed.sort();
            assert_eq!(listed, on_disk, "reports/{}", embedded.folder);
        }
    }

    #[test]
    fn the_builtin_plugins_load() {
        for embedded in &EMBEDDED {
            let manifest = Manifest::parse(embedded.manifest).unwrap();
            assert_eq!(manifest.name, embedded.name);
            let files = embedded
                .files
                .iter()
                .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()));
            if let Err(error) = TemplateRenderer::from_files(manifest, files) {
                panic!("reports/{}: {error}", embedded.folder);
            }
        }
    }
}
