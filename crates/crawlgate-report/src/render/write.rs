//! Writing `report.<ext>` files, each atomically: rendered into a temporary file beside it, then
//! renamed over it, so a reader (a CI step, a browser) never sees half a report.

use super::{RenderError, RenderOptions, Renderer, Renderers};
use crate::model::Report;
use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Write `report.<ext>` for each format into `dir` (atomically: temp file + rename), returning the
/// paths in the order of `formats`.
///
/// `dir` is created if missing. A format named twice is written once. Every name is checked before
/// anything is written: an unknown format, or two formats with the same extension, write nothing.
pub fn write_reports(
    report: &Report,
    renderers: &Renderers,
    formats: &[String],
    options: &RenderOptions,
    dir: &Path,
) -> Result<Vec<PathBuf>, RenderError> {
    let mut chosen: Vec<&dyn Renderer> = Vec::new();
    for name in formats {
        let renderer = renderers
            .get(name)
            .ok_or_else(|| RenderError::UnknownFormat {
                name: name.clone(),
                available: renderers.names().join(", "),
            })?;
        if chosen.iter().any(|r| r.name() == renderer.name()) {
            continue;
        }
        if let Some(other) = chosen
            .iter()
            .find(|r| r.extension() == renderer.extension())
        {
            return Err(RenderError::SameExtension {
                first: other.name().to_owned(),
                second: renderer.name().to_owned(),
                extension: renderer.extension().to_owned(),
            });
        }
        chosen.push(renderer);
    }
    fs::create_dir_all(dir).map_err(|source| RenderError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    chosen
        .into_iter()
        .map(|renderer| write_one(report, renderer, options, dir))
        .collect()
}

fn write_one(
    report: &Report,
    renderer: &dyn Renderer,
    options: &RenderOptions,
    dir: &Path,
) -> Result<PathBuf, RenderError> {
    let file_name = format!("report.{}", renderer.extension());
    let path = dir.join(&file_name);
    let temp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RenderError::Io { path, source }
    };
    let result = File::create(&temp)
        .map_err(io_error(&temp))
        .and_then(|file| {
            let mut out = BufWriter::new(file);
            renderer.render(report, options, &mut out)?;
            let file = out.into_inner().map_err(|e| RenderError::Io {
                path: temp.clone(),
                source: e.into_error(),
            })?;
            file.sync_all().map_err(io_error(&temp))
        })
        .and_then(|()| fs::rename(&temp, &path).map_err(io_error(&path)));
    if result.is_err() {
        // Best effort: the error that matters is the one returned.
        let _ = fs::remove_file(&temp);
    }
    result.map(|()| path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    struct Failing;

    impl Renderer for Failing {
        fn name(&self) -> &'static str {
            "failing"
        }
        fn extension(&self) -> &'static str {
            "txt"
        }
        fn media_type(&self) -> &'static str {
            "text/plain"
        }
        fn render(
            &self,
            _: &Report,
            _: &RenderOptions,
            out: &mut dyn Write,
        ) -> Result<(), RenderError> {
            out.write_all(b"half a report")?;
            Err(RenderError::Write(std::io::Error::other("disk full")))
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "crawlgate-report-write-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_failed_render_leaves_the_previous_report_and_no_temp_file() {
        let dir = temp_dir("failed");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("report.txt"), "previous").unwrap();
        let mut renderers = Renderers::builtin();
        renderers.insert(Box::new(Failing));
        let report = crate::test_report::minimal();
        let result = write_reports(
            &report,
            &renderers,
            &["failing".to_owned()],
            &RenderOptions::default(),
            &dir,
        );
        assert!(matches!(result, Err(RenderError::Write(_))));
        assert_eq!(
            fs::read_to_string(dir.join("report.txt")).unwrap(),
            "previous"
        );
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["report.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_formats_and_clashing_extensions_write_nothing() {
        let dir = temp_dir("unknown");
        let renderers = Renderers::builtin();
        let report = crate::test_report::minimal();
        let formats = ["json".to_owned(), "pdf".to_owned()];
        let error = write_reports(
            &report,
            &renderers,
            &formats,
            &RenderOptions::default(),
            &dir,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown report format `pdf` (available: html, json, junit, md, md-summary, sarif)"
        );
        assert!(!dir.exists());
    }

    #[test]
    fn a_format_named_twice_is_written_once() {
        let dir = temp_dir("twice");
        let renderers = Renderers::builtin();
        let report = crate::test_report::minimal();
        let formats = ["json".to_owned(), "json".to_owned()];
        let paths = write_reports(
            &report,
            &renderers,
            &formats,
            &RenderOptions::default(),
            &dir,
        )
        .unwrap();
        assert_eq!(paths, [dir.join("report.json")]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
