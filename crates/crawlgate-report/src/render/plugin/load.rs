//! Reading report plugins from disk (`--report-dir`), within bounds: a plugin folder is user input.

use super::{Manifest, TemplateRenderer};
use crate::render::RenderError;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// At most this many files in one plugin folder.
const MAX_FILES: usize = 256;
/// At most this deep below the plugin folder.
const MAX_DEPTH: usize = 8;
/// At most this large, one file (an inlined logo, a stylesheet, a template).
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// At most this much, all files of one plugin together.
const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
/// At most this many directory entries looked at in one plugin folder (files, folders, skipped).
const MAX_ENTRIES: usize = 4096;
/// At most this many plugins in one folder of plugins.
const MAX_PLUGINS: usize = 64;

const MANIFEST: &str = "report.toml";

/// The plugin in `dir`, or every plugin in the sub-folders of `dir` (sorted by folder name).
pub(crate) fn load_dir(dir: &Path) -> Result<Vec<TemplateRenderer>, RenderError> {
    if dir.join(MANIFEST).is_file() {
        return Ok(vec![load_plugin(dir)?]);
    }
    let mut folders: Vec<PathBuf> = read_dir(dir)?
        .into_iter()
        .filter(|path| path.join(MANIFEST).is_file())
        .collect();
    folders.sort();
    if folders.is_empty() {
        return Err(RenderError::Manifest {
            path: dir.to_path_buf(),
            message: format!("no {MANIFEST} here or in its sub-folders"),
        });
    }
    if folders.len() > MAX_PLUGINS {
        return Err(RenderError::Plugin {
            path: dir.to_path_buf(),
            message: format!("more than {MAX_PLUGINS} plugins"),
        });
    }
    let mut plugins: Vec<TemplateRenderer> = Vec::new();
    for folder in folders {
        let plugin = load_plugin(&folder)?;
        if plugins
            .iter()
            .any(|p| p.manifest.name == plugin.manifest.name)
        {
            return Err(RenderError::Plugin {
                path: folder,
                message: format!("another plugin is also named `{}`", plugin.manifest.name),
            });
        }
        plugins.push(plugin);
    }
    Ok(plugins)
}

/// One plugin folder: its manifest, templates and assets.
fn load_plugin(dir: &Path) -> Result<TemplateRenderer, RenderError> {
    let manifest_path = dir.join(MANIFEST);
    let text = read_text(&manifest_path, 64 * 1024)?.ok_or_else(|| RenderError::Manifest {
        path: manifest_path.clone(),
        message: "not UTF-8 text".to_owned(),
    })?;
    let manifest = Manifest::parse(&text).map_err(|message| RenderError::Manifest {
        path: manifest_path,
        message,
    })?;
    let mut files = Vec::new();
    let mut walked = Walked::default();
    collect_files(dir, dir, 0, &mut files, &mut walked)?;
    TemplateRenderer::from_files(manifest, files)
}

/// What a walk of a plugin folder has seen so far, for its bounds.
#[derive(Default)]
struct Walked {
    entries: usize,
    bytes: u64,
}

/// Every text file below `dir` as `(relative /-separated path, text)`, in path order. Hidden files
/// and the manifest are skipped; templates must be UTF-8, other files that are not (images) are
/// skipped, since only text can be inlined.
fn collect_files(
    root: &Path,
    dir: &Path,
    depth: usize,
    files: &mut Vec<(String, String)>,
    walked: &mut Walked,
) -> Result<(), RenderError> {
    if depth > MAX_DEPTH {
        return Err(plugin_error(
            root,
            format!("folders nested deeper than {MAX_DEPTH}"),
        ));
    }
    let mut entries = read_dir(dir)?;
    walked.entries += entries.len();
    if walked.entries > MAX_ENTRIES {
        return Err(plugin_error(
            root,
            format!("more than {MAX_ENTRIES} files and folders"),
        ));
    }
    entries.sort();
    for path in entries {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if name.starts_with('.') || (depth == 0 && name == MANIFEST) {
            continue;
        }
        let metadata = fs::metadata(&path).map_err(|source| RenderError::Io {
            path: path.clone(),
            source,
        })?;
        if metadata.is_dir() {
            collect_files(root, &path, depth + 1, files, walked)?;
            continue;
        }
        if files.len() >= MAX_FILES {
            return Err(plugin_error(root, format!("more than {MAX_FILES} files")));
        }
        if metadata.len() > MAX_FILE_BYTES {
            return Err(plugin_error(
                root,
                format!(
                    "{} is larger than {} MiB",
                    path.display(),
                    MAX_FILE_BYTES / 1024 / 1024
                ),
            ));
        }
        walked.bytes += metadata.len();
        if walked.bytes > MAX_TOTAL_BYTES {
            return Err(plugin_error(
                root,
                format!(
                    "files total more than {} MiB",
                    MAX_TOTAL_BYTES / 1024 / 1024
                ),
            ));
        }
        let relative = relative_path(root, &path);
        match read_text(&path, MAX_FILE_BYTES)? {
            Some(text) => files.push((relative, text)),
            None if super::is_template(&relative) => {
                return Err(plugin_error(root, format!("{relative} is not UTF-8 text")));
            }
            None => {}
        }
    }
    Ok(())
}

fn relative_path(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, RenderError> {
    let io_error = |source| RenderError::Io {
        path: dir.to_path_buf(),
        source,
    };
    // One more than any bound allows, so a huge folder is refused without being read whole.
    fs::read_dir(dir)
        .map_err(io_error)?
        .take(MAX_ENTRIES + 1)
        .map(|entry| entry.map(|e| e.path()).map_err(io_error))
        .collect()
}

/// A file's text, reading at most `limit` bytes; `None` when it is not UTF-8.
fn read_text(path: &Path, limit: u64) -> Result<Option<String>, RenderError> {
    let io_error = |source| RenderError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    fs::File::open(path)
        .map_err(io_error)?
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    Ok(String::from_utf8(bytes).ok())
}

fn plugin_error(root: &Path, message: String) -> RenderError {
    RenderError::Plugin {
        path: root.to_path_buf(),
        message,
    }
}
