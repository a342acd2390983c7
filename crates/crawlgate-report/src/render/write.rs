//! Writing `report.<ext>` files, each atomically: rendered into a temporary file beside it, then
//! renamed over it, so a reader (a CI step, a browser) never sees half a report.

use super::{RenderError, RenderOptions, Renderer, Renderers};
use crate::model::Report;
use std::fs;
use std::io::{self, BufWriter, Write};
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
    // Every format is tried: one that fails (a full disk, a file in the way) costs only itself.
    let mut written = Vec::new();
    let mut failed = Vec::new();
    for renderer in chosen {
        match write_one(report, renderer, options, dir) {
            Ok(path) => written.push(path),
            Err(error) => failed.push((renderer.name().to_owned(), error)),
        }
    }
    if failed.is_empty() {
        Ok(written)
    } else {
        Err(RenderError::SomeFailed { written, failed })
    }
}

fn write_one(
    report: &Report,
    renderer: &dyn Renderer,
    options: &RenderOptions,
    dir: &Path,
) -> Result<PathBuf, RenderError> {
    let path = dir.join(format!("report.{}", renderer.extension()));
    write_file_atomically(&path, |out| {
        let failures = report.pages.read_failures();
        renderer.render(report, options, out)?;
        // A page record that could not be read back ended this format's rows early: no report
        // misses pages in silence.
        if report.pages.read_failures() > failures {
            let error = report.pages.read_error().unwrap_or_default();
            return Err(RenderError::PageRecords(error.to_owned()));
        }
        Ok(())
    })?;
    Ok(path)
}

/// The folder a file at `path` is written in (its temporary file too): its parent, or `.` for a
/// bare file name.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Write the file at `path` with what `fill` writes, atomically: into a temporary file created
/// beside it under a random name, exclusively (`O_EXCL`: never an existing file, never through
/// a symlink someone planted), synced, then renamed over `path`. A crash, a full disk or a
/// second Ctrl-C mid-write never leaves half a file under `path`: it holds the previous content
/// or the whole new one, and the temporary file is removed. A device, FIFO or socket
/// (`/dev/null`, `/dev/stdout`) is written in place: renaming over it would replace it.
///
/// # Errors
/// What `fill` returns, or the I/O error of creating, writing or renaming the file.
pub fn write_file_atomically<E: From<io::Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let existing = fs::metadata(path).ok();
    if existing
        .as_ref()
        .is_some_and(|meta| !meta.is_file() && !meta.is_dir())
    {
        let mut out = BufWriter::new(fs::OpenOptions::new().write(true).open(path)?);
        fill(&mut out)?;
        out.flush()?;
        return Ok(());
    }
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |name| name.to_string_lossy());
    // The file gets the permissions a shell redirect would give it (or keeps those it had), not
    // the temporary file's owner-only ones: a sitemap or robots.txt written here is served by a
    // web server running as another user.
    let kept = existing.map(|meta| meta.permissions());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    if let Some(permissions) = kept.clone() {
        builder.permissions(permissions);
    } else {
        // What `File::create` asks for a new file: read and write for everyone, less the
        // umask. Elsewhere than Unix a new file gets the temporary file's own permissions.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    }
    let temp = builder.tempfile_in(dir)?;
    if let Some(permissions) = kept {
        // Exactly these: the umask narrowed the ones asked for at creation.
        temp.as_file().set_permissions(permissions)?;
    }
    let mut out = BufWriter::new(temp);
    fill(&mut out)?;
    let temp = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|error| error.error)?;
    Ok(())
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
    fn a_format_that_meets_an_unreadable_page_record_fails_and_the_others_are_written() {
        /// A page store that gives back nothing it took.
        #[derive(Debug)]
        struct Forgetful;
        impl crawlgate_core::site::PageStore for Forgetful {
            fn put(&self, _: &[u8]) -> io::Result<crawlgate_core::site::PageKey> {
                Ok(crawlgate_core::site::PageKey { offset: 0, len: 1 })
            }
            fn get(&self, _: crawlgate_core::site::PageKey, _: &mut Vec<u8>) -> io::Result<()> {
                Err(io::ErrorKind::UnexpectedEof.into())
            }
        }
        let dir = temp_dir("unreadable");
        let mut report = crate::test_report::minimal();
        let page: crate::PageRecord = serde_json::from_value(serde_json::json!({
            "url": "https://example.com/", "kind": "page", "depth": 0, "state": "fetched",
            "status": 200, "in_sitemaps": [], "inbound_links": 0, "profiles": {}
        }))
        .unwrap();
        let mut pages = crate::PageTable::in_store(std::sync::Arc::new(Forgetful));
        pages.push(page).unwrap();
        report.pages = pages;
        let formats = ["json", "sarif", "html"].map(str::to_owned);
        let result = write_reports(
            &report,
            &Renderers::builtin(),
            &formats,
            &RenderOptions::default(),
            &dir,
        );
        let Err(RenderError::SomeFailed { written, failed }) = result else {
            panic!("{result:?}");
        };
        // SARIF reads no page record; JSON and HTML list pages, and would list too few.
        assert_eq!(written, [dir.join("report.sarif")]);
        let failed: Vec<&str> = failed.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(failed, ["json", "html"]);
        fs::remove_dir_all(&dir).unwrap();
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
            &["failing".to_owned(), "json".to_owned()],
            &RenderOptions::default(),
            &dir,
        );
        // The other format is still written, and the error says which failed.
        let Err(RenderError::SomeFailed { written, failed }) = result else {
            panic!("{result:?}");
        };
        assert_eq!(written, [dir.join("report.json")]);
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].0, "failing");
        assert!(matches!(failed[0].1, RenderError::Write(_)));
        fs::remove_file(dir.join("report.json")).unwrap();
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

    /// A written file gets what a shell redirect would give a new one (not the temporary
    /// file's owner-only mode: a sitemap must be readable by the web server serving it), and a
    /// rewritten one keeps its own.
    #[cfg(unix)]
    #[test]
    fn a_written_file_has_a_new_files_permissions_or_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let dir = temp_dir("permissions");
        fs::create_dir_all(&dir).unwrap();
        // What the umask leaves of 0o666, as `File::create` shows it.
        let created = dir.join("created");
        fs::File::create(&created).unwrap();
        let written = dir.join("sitemap.xml");
        write_file_atomically::<io::Error>(&written, |out| out.write_all(b"<urlset/>")).unwrap();
        assert_eq!(mode(&written), mode(&created));

        fs::set_permissions(&written, fs::Permissions::from_mode(0o640)).unwrap();
        write_file_atomically::<io::Error>(&written, |out| out.write_all(b"<urlset></urlset>"))
            .unwrap();
        assert_eq!(mode(&written), 0o640);
        assert_eq!(fs::read_to_string(&written).unwrap(), "<urlset></urlset>");
        fs::remove_dir_all(&dir).unwrap();
    }
}
