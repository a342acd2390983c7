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
