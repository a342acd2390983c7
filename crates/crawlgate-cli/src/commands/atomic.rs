//! Writing an output file atomically: into a temporary file beside it, synced, then renamed over
//! it. A crash, a full disk or a second Ctrl-C mid-write never leaves half a file under the
//! name asked for: it holds the previous content or the whole new one. (The reports are written
//! the same way by `crawlgate_report::render::write_reports`.)

use anyhow::{Context, Result};
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Write `path` with what `fill` writes, atomically. On failure the temporary file is removed
/// and `path` is left as it was.
pub(crate) fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    if is_special_file(path) {
        return write_in_place(path, fill)
            .with_context(|| format!("cannot write `{}`", path.display()));
    }
    let temp = temp_path(path);
    let result = write_then_rename(&temp, path, fill);
    if result.is_err() {
        // Best effort: the error that matters is the one returned.
        let _ = fs::remove_file(&temp);
    }
    result.with_context(|| format!("cannot write `{}`", path.display()))
}

fn write_then_rename(
    temp: &Path,
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let mut out = BufWriter::new(File::create(temp)?);
    fill(&mut out)?;
    let written = out
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)?;
    written.sync_all()?;
    fs::rename(temp, path)?;
    Ok(())
}

/// A device, FIFO or socket (`/dev/null`, `/dev/stdout`, a pipe): renaming a file over it would
/// replace it (`--jsonl /dev/null` once turned `/dev/null` into a plain file), and half a
/// stream cannot be taken back anyway, so it is written in place.
fn is_special_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
}

fn write_in_place(path: &Path, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let mut out = BufWriter::new(fs::OpenOptions::new().write(true).open(path)?);
    fill(&mut out)?;
    out.flush()?;
    Ok(())
}

/// `.name.PID.tmp` in the same folder (a rename across file systems would not be atomic).
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
