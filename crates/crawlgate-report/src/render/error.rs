//! What can go wrong when loading report plugins and rendering reports.

use std::path::PathBuf;

/// An error from loading a report plugin, rendering a report or writing it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// A template failed to parse or to render. `message` names the variable or construct at
    /// fault, as tera states it.
    #[error("report plugin `{plugin}`: template `{template}`{}: {message}", position(*.line, *.column))]
    Template {
        /// The plugin's name.
        plugin: String,
        /// The template file, relative to the plugin folder.
        template: String,
        /// 1-based line in the template, when tera knows it.
        line: Option<usize>,
        /// 1-based column in the template, when tera knows it.
        column: Option<usize>,
        message: String,
    },
    /// A plugin folder has no usable `report.toml`, or its manifest is invalid.
    #[error("{}: {message}", path.display())]
    Manifest { path: PathBuf, message: String },
    /// A plugin folder breaks a rule of plugins: too many files, a file too large, not UTF-8, a
    /// name reserved for a built-in format.
    #[error("report plugin at {}: {message}", path.display())]
    Plugin { path: PathBuf, message: String },
    /// No renderer answers to the format name.
    #[error("unknown report format `{name}` (available: {available})")]
    UnknownFormat { name: String, available: String },
    /// Two formats asked for would write the same file.
    #[error("formats `{first}` and `{second}` would both write report.{extension}")]
    SameExtension {
        first: String,
        second: String,
        extension: String,
    },
    /// Reading a plugin file or writing a report file failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Some formats could not be written; the others were (`written`).
    #[error("{}", some_failed(written, failed))]
    SomeFailed {
        /// The files written.
        written: Vec<PathBuf>,
        /// Each format that failed, with why.
        failed: Vec<(String, RenderError)>,
    },
    /// The report's page records could not be read back from the page store
    /// ([`crate::PageTable::read_error`]): a report written from them would miss pages.
    #[error("the report's page records: {0}")]
    PageRecords(String),
    /// Writing the rendered output failed.
    #[error("writing the report: {0}")]
    Write(#[from] std::io::Error),
    /// Serialising the report as JSON failed.
    #[error("serialising the report: {0}")]
    Json(#[from] serde_json::Error),
    /// Serialising the report as JUnit XML failed.
    #[error("serialising the JUnit report: {0}")]
    Junit(#[from] quick_junit::SerializeError),
}

fn some_failed(written: &[PathBuf], failed: &[(String, RenderError)]) -> String {
    let failed: Vec<String> = failed
        .iter()
        .map(|(format, error)| format!("the {format} report: {error}"))
        .collect();
    let written: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    if written.is_empty() {
        format!("could not write {}", failed.join("; "))
    } else {
        format!(
            "could not write {} (written: {})",
            failed.join("; "),
            written.join(", ")
        )
    }
}

fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!(" line {line}, column {column}"),
        (Some(line), None) => format!(" line {line}"),
        _ => String::new(),
    }
}

impl RenderError {
    /// Turn a tera error into a [`RenderError::Template`] naming the template, line and variable.
    ///
    /// tera's top-level message is often a framed source excerpt; the useful parts are the
    /// innermost report's file name, span and message, so we dig for it (as git-cliff does).
    pub(crate) fn from_tera(plugin: &str, entry: &str, error: &tera::Error) -> Self {
        let mut current: Option<&(dyn std::error::Error + 'static)> = Some(error);
        let mut innermost = None;
        while let Some(err) = current {
            if let Some(tera_error) = err.downcast_ref::<tera::Error>() {
                innermost = Some(tera_error);
            }
            current = err.source();
        }
        let error = innermost.unwrap_or(error);
        match error.kind() {
            tera::ErrorKind::SyntaxError(report) | tera::ErrorKind::RenderingError(report) => {
                let span = report.span();
                let template = if report.filename().is_empty() {
                    entry
                } else {
                    report.filename()
                };
                RenderError::Template {
                    plugin: plugin.to_owned(),
                    template: template.to_owned(),
                    line: (span.start_line > 0).then_some(span.start_line),
                    column: (span.start_line > 0).then_some(span.start_col + 1),
                    message: report.message().to_owned(),
                }
            }
            other => RenderError::Template {
                plugin: plugin.to_owned(),
                template: entry.to_owned(),
                line: None,
                column: None,
                message: other.to_string(),
            },
        }
    }
}
