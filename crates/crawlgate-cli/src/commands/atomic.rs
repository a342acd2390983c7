//! Writing an output file atomically (`crawl --jsonl FILE`, `--write-baseline`): through
//! `crawlgate_report::write_file_atomically`, as the reports are written: a temporary file
//! created exclusively beside it, synced, renamed over it; a device or FIFO written in place.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Write `path` with what `fill` writes, atomically. On failure the temporary file is removed
/// and `path` is left as it was.
pub(crate) fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    crawlgate::report::write_file_atomically(path, fill)
        .with_context(|| format!("cannot write `{}`", path.display()))
}

/// Check, before any work, that `dir` can take the reports: a folder where a file can be
/// created, or a path whose nearest existing folder takes new ones (it is made only when the
/// reports are written, so an audit that writes nothing leaves nothing). A bad `-o` fails in a
/// second, not after an hour's crawl.
pub(crate) fn check_output_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "`{}` is a file; -o takes a folder for the reports",
            dir.display()
        );
    }
    // A relative path's last ancestor is "", the current folder.
    let existing = dir
        .ancestors()
        .map(|ancestor| {
            if ancestor.as_os_str().is_empty() {
                Path::new(".")
            } else {
                ancestor
            }
        })
        .find(|ancestor| ancestor.exists())
        .unwrap_or(Path::new("."));
    if !existing.is_dir() {
        anyhow::bail!(
            "cannot create the report folder `{}`: `{}` is a file",
            dir.display(),
            existing.display()
        );
    }
    probe(existing)
        .with_context(|| format!("cannot write into the report folder `{}`", dir.display()))
}

/// Check, before any work, that the file `path` can be written: not a folder, in a folder
/// that exists and takes a new file (a device or FIFO is written in place and needs no check).
pub(crate) fn check_output_file(path: &Path, what: &str) -> Result<()> {
    let meta = std::fs::metadata(path).ok();
    if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        anyhow::bail!("{what} `{}` is a folder; give a file name", path.display());
    }
    if meta.is_some_and(|meta| !meta.is_file()) {
        return Ok(());
    }
    // Where the report's write puts its temporary file, so the check and the write agree.
    let dir = crawlgate::report::folder_of(path);
    if !dir.is_dir() {
        anyhow::bail!(
            "{what} `{}`: the folder `{}` does not exist",
            path.display(),
            dir.display()
        );
    }
    probe(dir).with_context(|| format!("cannot write {what} `{}`", path.display()))
}

/// A file can be created in `dir` (created exclusively and removed at once).
fn probe(dir: &Path) -> std::io::Result<()> {
    tempfile::Builder::new()
        .prefix(".crawlgate-probe.")
        .tempfile_in(dir)
        .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crawlgate-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_whole_content_replaces_the_file() {
        let dir = scratch("whole");
        let path = dir.join("out.jsonl");
        fs::write(&path, "previous\n").unwrap();
        write_atomically(&path, |out| {
            out.write_all(b"{\"a\":1}\n")?;
            Ok(())
        })
        .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\":1}\n");
        assert_eq!(names(&dir), ["out.jsonl"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("pipe");
        let pipe = dir.join("lines");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.unwrap().success());
        let reader = std::thread::spawn({
            let pipe = pipe.clone();
            move || fs::read_to_string(pipe).unwrap()
        });
        write_atomically(&pipe, |out| {
            out.write_all(b"{\"a\":1}\n")?;
            Ok(())
        })
        .unwrap();
        // Checked before joining: a pipe replaced by a file would leave the reader waiting.
        assert!(fs::metadata(&pipe).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), "{\"a\":1}\n");
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_is_never_written_through() {
        let dir = scratch("symlink");
        let victim = dir.join("victim.txt");
        fs::write(&victim, "keep me\n").unwrap();
        // Every name the old fixed scheme could pick, and the output itself, point at the victim.
        let path = dir.join("out.jsonl");
        for name in [
            format!(".out.jsonl.{}.tmp", std::process::id()),
            ".out.jsonl.tmp".to_owned(),
        ] {
            std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
        }
        write_atomically(&path, |out| {
            out.write_all(b"new\n")?;
            Ok(())
        })
        .unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert!(
            !fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failure_mid_write_leaves_the_previous_file_and_no_temporary() {
        let dir = scratch("failure");
        let path = dir.join("out.jsonl");
        fs::write(&path, "previous\n").unwrap();
        let error = write_atomically(&path, |out| {
            out.write_all(&vec![b'x'; 100_000])?;
            anyhow::bail!("disk full")
        })
        .unwrap_err();
        assert!(format!("{error:#}").contains("disk full"), "{error:#}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "previous\n");
        assert_eq!(names(&dir), ["out.jsonl"]);

        // With no previous file, none appears.
        let fresh = dir.join("fresh.jsonl");
        assert!(write_atomically(&fresh, |_| anyhow::bail!("broken")).is_err());
        assert_eq!(names(&dir), ["out.jsonl"]);
        let _ = fs::remove_dir_all(&dir);
    }
}
