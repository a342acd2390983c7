//! The byte pipeline under the parsers: count the input, decide gzip by magic bytes (once),
//! decompress with a hard cap, and track line numbers of everything consumed.
//!
//! ```text
//! caller's Read ─► Counted ─► (MultiGzDecoder if the first bytes are 1f 8b) ─► Capped ─► LineTrack (BufRead)
//! ```
//!
//! Nothing here holds more than one buffer of the document; memory stays bounded whatever the
//! input size.

use flate2::read::MultiGzDecoder;
use std::collections::VecDeque;
use std::io::{self, BufRead, Chain, Cursor, Read};

/// The first two bytes of every gzip member (RFC 1952).
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Size of the read buffer under the XML and text parsers.
const BUFFER_BYTES: usize = 64 * 1024;

/// How many newline offsets are kept for mapping byte offsets back to lines. Offsets are dropped
/// as the parser moves on; this cap only matters for a single event spanning over a million
/// lines, whose inner positions then degrade to the line where it started.
const MAX_TRACKED_NEWLINES: usize = 1 << 20;

/// Counts the bytes read from the caller's reader and remembers whether it failed.
#[derive(Debug)]
pub(crate) struct Counted<R> {
    inner: R,
    count: u64,
    failed: bool,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.inner.read(out) {
                Ok(read) => {
                    self.count += read as u64;
                    return Ok(read);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    self.failed = true;
                    return Err(error);
                }
            }
        }
    }
}

type Replayed<R> = Chain<Cursor<Vec<u8>>, Counted<R>>;

/// Why reading stopped early, if it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadFailure {
    /// The gzip stream is corrupt or truncated.
    Gzip(String),
    /// The caller's reader failed.
    Input(String),
}

/// The document bytes: as given, or gunzipped exactly once.
#[derive(Debug)]
pub(crate) struct Decoded<R: Read> {
    source: Source<R>,
    failure: Option<ReadFailure>,
}

#[derive(Debug)]
enum Source<R: Read> {
    Plain(Replayed<R>),
    Gzip(MultiGzDecoder<Replayed<R>>),
}

impl<R: Read> Decoded<R> {
    /// Sniffs the first two bytes of `input`: gzip's magic means gzip, whatever the file name or
    /// `Content-Encoding` said. The sniffed bytes are replayed, not lost.
    pub(crate) fn new(input: R) -> Self {
        let mut counted = Counted {
            inner: input,
            count: 0,
            failed: false,
        };
        let mut prefix = Vec::with_capacity(2);
        let mut failure = None;
        while prefix.len() < 2 {
            let mut byte = [0u8; 1];
            match counted.read(&mut byte) {
                Ok(0) => break,
                Ok(_) => prefix.push(byte[0]),
                Err(error) => {
                    failure = Some(ReadFailure::Input(error.to_string()));
                    break;
                }
            }
        }
        let gzip = prefix == GZIP_MAGIC;
        let replayed = Cursor::new(prefix).chain(counted);
        let source = if gzip {
            Source::Gzip(MultiGzDecoder::new(replayed))
        } else {
            Source::Plain(replayed)
        };
        Self { source, failure }
    }

    pub(crate) fn is_gzip(&self) -> bool {
        matches!(self.source, Source::Gzip(_))
    }

    /// Input bytes read so far (compressed bytes for gzip).
    pub(crate) fn bytes_read(&self) -> u64 {
        self.counted().count
    }

    pub(crate) fn failure(&self) -> Option<&ReadFailure> {
        self.failure.as_ref()
    }

    fn counted(&self) -> &Counted<R> {
        match &self.source {
            Source::Plain(chain) => chain.get_ref().1,
            Source::Gzip(decoder) => decoder.get_ref().get_ref().1,
        }
    }
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.failure.is_some() {
            return Ok(0);
        }
        let result = match &mut self.source {
            Source::Plain(chain) => chain.read(out),
            Source::Gzip(decoder) => decoder.read(out),
        };
        result.inspect_err(|error| {
            self.failure = Some(if self.counted().failed || !self.is_gzip() {
                ReadFailure::Input(error.to_string())
            } else {
                ReadFailure::Gzip(error.to_string())
            });
        })
    }
}

/// Stops reading after `limit` bytes, and notes whether there was more: the bomb guard.
#[derive(Debug)]
pub(crate) struct Capped<R> {
    inner: R,
    limit: u64,
    count: u64,
    hit: bool,
}

impl<R: Read> Capped<R> {
    pub(crate) fn new(inner: R, limit: u64) -> Self {
        Self {
            inner,
            limit,
            count: 0,
            hit: false,
        }
    }

    /// Bytes let through.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Whether the input went on past the limit (reading stopped there).
    pub(crate) fn hit(&self) -> bool {
        self.hit
    }

    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    pub(crate) fn get_ref(&self) -> &R {
        &self.inner
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.hit || out.is_empty() {
            return Ok(0);
        }
        let room = self.limit.saturating_sub(self.count);
        if room == 0 {
            // Probe one byte: only more input makes the cap a finding.
            let mut probe = [0u8; 1];
            if self.inner.read(&mut probe)? > 0 {
                self.hit = true;
            }
            return Ok(0);
        }
        let wanted = usize::try_from(room).unwrap_or(usize::MAX).min(out.len());
        let read = self.inner.read(out.get_mut(..wanted).unwrap_or_default())?;
        self.count += read as u64;
        Ok(read)
    }
}

/// A line and 1-based column (in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineColumn {
    pub(crate) line: u32,
    pub(crate) column: u32,
}

/// A buffered reader that records where lines start in everything consumed from it, so byte
/// offsets reported by the XML reader (which only knows offsets) map to line:column.
///
/// Offsets before [`LineTrack::forget_before`] are summarised into a line count; only newlines
/// after it are kept, so memory follows the size of one event, not of the document.
#[derive(Debug)]
pub(crate) struct LineTrack<R> {
    inner: R,
    buffer: Box<[u8]>,
    start: usize,
    end: usize,
    consumed: u64,
    newlines: VecDeque<u64>,
    forgotten_lines: u32,
    forgotten_line_start: u64,
}

impl<R: Read> LineTrack<R> {
    pub(crate) fn new(inner: R) -> Self {
        Self {
            inner,
            buffer: vec![0; BUFFER_BYTES].into_boxed_slice(),
            start: 0,
            end: 0,
            consumed: 0,
            newlines: VecDeque::new(),
            forgotten_lines: 0,
            forgotten_line_start: 0,
        }
    }

    pub(crate) fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Bytes consumed so far.
    pub(crate) fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Drops the newline offsets before `offset`: positions before it will not be asked again.
    pub(crate) fn forget_before(&mut self, offset: u64) {
        while let Some(&newline) = self.newlines.front() {
            if newline >= offset {
                break;
            }
            self.forget_first();
        }
    }

    fn forget_first(&mut self) {
        if let Some(newline) = self.newlines.pop_front() {
            self.forgotten_lines = self.forgotten_lines.saturating_add(1);
            self.forgotten_line_start = newline + 1;
        }
    }

    /// The line and column of a consumed byte offset.
    pub(crate) fn position(&self, offset: u64) -> LineColumn {
        let before = self.newlines.partition_point(|&newline| newline < offset);
        let line_start = match before.checked_sub(1).and_then(|i| self.newlines.get(i)) {
            Some(&newline) => newline + 1,
            None => self.forgotten_line_start,
        };
        let newlines_before = u32::try_from(before).unwrap_or(u32::MAX);
        LineColumn {
            line: self
                .forgotten_lines
                .saturating_add(newlines_before)
                .saturating_add(1),
            column: u32::try_from(offset.saturating_sub(line_start).saturating_add(1))
                .unwrap_or(u32::MAX),
        }
    }
}

impl<R: Read> Read for LineTrack<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let read = available.len().min(out.len());
        if let (Some(target), Some(source)) = (out.get_mut(..read), available.get(..read)) {
            target.copy_from_slice(source);
        }
        self.consume(read);
        Ok(read)
    }
}

impl<R: Read> BufRead for LineTrack<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start >= self.end {
            self.start = 0;
            self.end = 0;
            loop {
                match self.inner.read(&mut self.buffer) {
                    Ok(read) => {
                        self.end = read;
                        break;
                    }
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
            }
        }
        Ok(self.buffer.get(self.start..self.end).unwrap_or_default())
    }

    fn consume(&mut self, amount: usize) {
        let amount = amount.min(self.end - self.start);
        let base = self.consumed;
        if let Some(consumed) = self.buffer.get(self.start..self.start + amount) {
            for index in memchr::memchr_iter(b'\n', consumed) {
                self.newlines.push_back(base + index as u64);
            }
        }
        while self.newlines.len() > MAX_TRACKED_NEWLINES {
            self.forget_first();
        }
        self.start += amount;
        self.consumed += amount as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn read_all(mut reader: impl Read) -> Vec<u8> {
        let mut out = Vec::new();
        let _ = reader.read_to_end(&mut out);
        out
    }

    #[test]
    fn gzip_is_decided_by_magic_bytes_and_decoded_once() {
        let plain = b"<urlset/>";
        let compressed = gzip(plain);
        let mut decoded = Decoded::new(&compressed[..]);
        assert!(decoded.is_gzip());
        assert_eq!(read_all(&mut decoded), plain);

        let mut as_is = Decoded::new(&plain[..]);
        assert!(!as_is.is_gzip());
        assert_eq!(read_all(&mut as_is), plain);
        assert_eq!(as_is.bytes_read(), plain.len() as u64);

        // Gzip inside gzip comes out as the inner gzip bytes, not decompressed again.
        let twice = gzip(&gzip(plain));
        assert_eq!(read_all(Decoded::new(&twice[..]))[..2], GZIP_MAGIC);
    }

    #[test]
    fn tiny_inputs_are_replayed() {
        assert_eq!(read_all(Decoded::new(&b""[..])), b"");
        assert_eq!(read_all(Decoded::new(&b"x"[..])), b"x");
        assert_eq!(read_all(Decoded::new(&[0x1f][..])), [0x1f]);
    }

    #[test]
    fn truncated_gzip_is_a_gzip_failure() {
        let whole = gzip(&b"<urlset>".repeat(1000));
        let mut decoded = Decoded::new(&whole[..whole.len() / 2]);
        let _ = read_all(&mut decoded);
        assert!(matches!(decoded.failure(), Some(ReadFailure::Gzip(_))));
    }

    #[test]
    fn the_cap_stops_reading_and_says_so() {
        let mut capped = Capped::new(&b"0123456789"[..], 4);
        assert_eq!(read_all(&mut capped), b"0123");
        assert!(capped.hit());
        let mut exact = Capped::new(&b"0123"[..], 4);
        assert_eq!(read_all(&mut exact), b"0123");
        assert!(!exact.hit());
    }

    #[test]
    fn positions_map_offsets_to_lines_and_columns() {
        let mut track = LineTrack::new(&b"ab\ncd\n\nefg"[..]);
        let mut all = Vec::new();
        track.read_to_end(&mut all).unwrap();
        let at = |offset| {
            let position = track.position(offset);
            (position.line, position.column)
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(2), (1, 3));
        assert_eq!(at(3), (2, 1));
        assert_eq!(at(7), (4, 1));
        assert_eq!(at(9), (4, 3));
        track.forget_before(7);
        assert_eq!(track.position(9), LineColumn { line: 4, column: 3 });
    }
}
