//! The page store of a large crawl: one unnamed temporary file of page records, appended by
//! the crawl and read back at any offset by the rules (`Bounds::pages_in_memory`).
//!
//! The file needs no durability: a resumed crawl makes every page again from the crawl
//! store's responses. So it is append-only with the offsets held by the Site, unnamed (gone
//! when the audit ends, however it ends), and never synced.

use crawlgate_core::site::{PageKey, PageStore};
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// An append-only file of page records (see the module docs).
#[derive(Debug)]
pub struct PageFile {
    writer: Mutex<Writer>,
    /// The same file, for positioned reads from any thread without the writer's lock.
    reader: File,
    /// Bytes known to be in the file (not in the writer's buffer): reads below it need no lock.
    flushed: AtomicU64,
}

#[derive(Debug)]
struct Writer {
    file: BufWriter<File>,
    /// Bytes appended, buffered or not.
    len: u64,
}

impl PageFile {
    /// A new page file in `dir` (the crawl store's folder; the system's temporary folder
    /// without one). It has no name: it goes when the audit does.
    ///
    /// # Errors
    /// When the file cannot be made there.
    pub fn create_in(dir: &Path) -> std::io::Result<Self> {
        let file = tempfile::tempfile_in(dir)?;
        let reader = file.try_clone()?;
        Ok(Self {
            writer: Mutex::new(Writer {
                file: BufWriter::with_capacity(256 * 1024, file),
                len: 0,
            }),
            reader,
            flushed: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Writer> {
        self.writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl PageStore for PageFile {
    fn put(&self, record: &[u8]) -> std::io::Result<PageKey> {
        let len = u32::try_from(record.len()).map_err(std::io::Error::other)?;
        let mut writer = self.lock();
        writer.file.write_all(record)?;
        let key = PageKey {
            offset: writer.len,
            len,
        };
        writer.len += u64::from(len);
        Ok(key)
    }

    fn get(&self, key: PageKey, into: &mut Vec<u8>) -> std::io::Result<()> {
        let end = key.offset.saturating_add(u64::from(key.len));
        if end > self.flushed.load(Ordering::Acquire) {
            let mut writer = self.lock();
            writer.file.flush()?;
            self.flushed.store(writer.len, Ordering::Release);
        }
        into.clear();
        into.resize(key.len as usize, 0);
        read_exact_at(&self.reader, into, key.offset)
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, into: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, into, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut into: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !into.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, into, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                into = &mut std::mem::take(&mut into)[n..];
                offset += n as u64;
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_read_back_at_their_keys_before_and_after_a_flush() {
        let dir = tempfile::tempdir().unwrap();
        let file = PageFile::create_in(dir.path()).unwrap();
        let first = file.put(b"first record").unwrap();
        let second = file.put(b"second").unwrap();
        assert_eq!((first.offset, first.len), (0, 12));
        assert_eq!((second.offset, second.len), (12, 6));
        let mut record = Vec::new();
        file.get(second, &mut record).unwrap();
        assert_eq!(record, b"second");
        let third = file.put(&vec![7; 300_000]).unwrap();
        file.get(first, &mut record).unwrap();
        assert_eq!(record, b"first record");
        file.get(third, &mut record).unwrap();
        assert_eq!(record.len(), 300_000);
        // Unnamed: nothing is left in the folder.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_key_past_the_end_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let file = PageFile::create_in(dir.path()).unwrap();
        file.put(b"abc").unwrap();
        let mut record = Vec::new();
        let beyond = PageKey { offset: 2, len: 10 };
        assert!(file.get(beyond, &mut record).is_err());
    }
}
