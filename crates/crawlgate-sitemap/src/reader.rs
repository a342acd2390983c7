//! The byte pipeline under the parsers: count the input, decide gzip by magic bytes (once),
//! decompress with a hard cap, and track line numbers of everything consumed.
//!
//! ```text
//! caller's Read ─► Counted ─► (MultiGzDecoder if the first bytes are 1f 8b) ─► Capped ─► LineTrack (BufRead)
//! ```
//!
//! Nothing here holds more than one buffer of the document (64 KiB; the XML reader's 128 KiB
//! blocks, and larger only for one construct longer than a block); memory stays bounded whatever
//! the input size.

use flate2::read::MultiGzDecoder;
use std::cell::Cell;
use std::io::{self, BufRead, Chain, Cursor, Read};

/// The first two bytes of every gzip member (RFC 1952).
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Size of the read buffer under the XML and text parsers.
const BUFFER_BYTES: usize = 64 * 1024;

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

/// Counts `\n` bytes, in a form the compiler vectorises (255 per-lane byte counters per chunk).
fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            usize::from(
                chunk
                    .iter()
                    .fold(0u8, |count, &byte| count + u8::from(byte == b'\n')),
            )
        })
        .sum()
}

/// A line and 1-based column (in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineColumn {
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl LineColumn {
    /// Where this position's line starts, when the position is at absolute `offset`.
    pub(crate) fn line_start(self, offset: u64) -> u64 {
        offset.saturating_sub(u64::from(self.column.saturating_sub(1)))
    }
}

/// Maps byte offsets to line:column, counting newlines lazily, once per byte: when a position
/// is asked, between the last position asked and this one, and before bytes are discarded.
/// Positions must be asked in increasing order (the parsers do: each event's start is after the
/// previous one); an earlier offset on the current line is still exact, one before it gets that
/// line's start.
#[derive(Debug)]
struct LineCounter {
    /// Newlines before this absolute offset have been counted.
    counted: Cell<u64>,
    /// How many: the line of `counted` is `lines + 1`.
    lines: Cell<u32>,
    /// Absolute offset where the line of `counted` starts.
    line_start: Cell<u64>,
}

impl LineCounter {
    /// Counting from absolute `offset`, which is at `at`.
    fn new(offset: u64, at: LineColumn) -> Self {
        Self {
            counted: Cell::new(offset),
            lines: Cell::new(at.line.saturating_sub(1)),
            line_start: Cell::new(at.line_start(offset)),
        }
    }

    /// Counts the newlines up to absolute `offset` from where counting got; `bytes` are the
    /// input from absolute `bytes_offset` on, and must cover that range.
    fn count_to(&self, bytes: &[u8], bytes_offset: u64, offset: u64) {
        let counted = self.counted.get();
        if offset <= counted {
            return;
        }
        let relative = |absolute: u64| {
            usize::try_from(absolute.saturating_sub(bytes_offset)).unwrap_or(usize::MAX)
        };
        let Some(fresh) = bytes.get(relative(counted)..relative(offset).min(bytes.len())) else {
            return;
        };
        if let Some(last) = memchr::memrchr(b'\n', fresh) {
            let newlines = count_newlines(fresh);
            let newlines = u32::try_from(newlines).unwrap_or(u32::MAX);
            self.lines.set(self.lines.get().saturating_add(newlines));
            self.line_start.set(counted + last as u64 + 1);
        }
        self.counted.set(counted + fresh.len() as u64);
    }

    /// The line and column of absolute `offset`, within `bytes` (from `bytes_offset` on).
    fn position(&self, bytes: &[u8], bytes_offset: u64, offset: u64) -> LineColumn {
        self.count_to(bytes, bytes_offset, offset);
        LineColumn {
            line: self.lines.get().saturating_add(1),
            column: u32::try_from(
                offset
                    .saturating_sub(self.line_start.get())
                    .saturating_add(1),
            )
            .unwrap_or(u32::MAX),
        }
    }

    /// Counts no more: positions are found elsewhere from here on.
    fn stop(&self) {
        self.counted.set(u64::MAX);
    }
}

/// A buffered reader that maps byte offsets of what it has read (the XML reader only knows
/// offsets) to line:column ([`LineCounter`]).
#[derive(Debug)]
pub(crate) struct LineTrack<R> {
    inner: R,
    /// Grows only when a caller peeks past its size (one XML construct longer than a block).
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    /// Absolute offset of `buffer[0]`.
    buffer_offset: u64,
    lines: LineCounter,
}

impl<R: Read> LineTrack<R> {
    pub(crate) fn new(inner: R) -> Self {
        Self {
            inner,
            buffer: vec![0; BUFFER_BYTES],
            start: 0,
            end: 0,
            buffer_offset: 0,
            lines: LineCounter::new(0, LineColumn { line: 1, column: 1 }),
        }
    }

    pub(crate) fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Bytes consumed so far.
    pub(crate) fn consumed(&self) -> u64 {
        self.buffer_offset + self.start as u64
    }

    /// Makes at least `wanted` bytes available (fewer at the end of the input) without consuming
    /// them: a single read may return as little as one byte. The buffer grows to `wanted`.
    ///
    /// On a read error the bytes read before it stay available ([`LineTrack::buffered`]).
    pub(crate) fn peek(&mut self, wanted: usize) -> io::Result<&[u8]> {
        if self.end - self.start < wanted {
            self.count_to(self.consumed());
            self.buffer.copy_within(self.start..self.end, 0);
            self.buffer_offset += self.start as u64;
            self.end -= self.start;
            self.start = 0;
            if self.buffer.len() < wanted {
                self.buffer.resize(wanted, 0);
            }
            while self.end < wanted {
                let Some(room) = self.buffer.get_mut(self.end..) else {
                    break;
                };
                match self.inner.read(room) {
                    Ok(0) => break,
                    Ok(read) => self.end += read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
            }
        }
        Ok(self.buffered())
    }

    /// The bytes read and not yet consumed.
    pub(crate) fn buffered(&self) -> &[u8] {
        self.buffer.get(self.start..self.end).unwrap_or_default()
    }

    /// Counts the newlines up to absolute `offset` (within the buffer).
    fn count_to(&self, offset: u64) {
        let read = self.buffer.get(..self.end).unwrap_or_default();
        self.lines.count_to(read, self.buffer_offset, offset);
    }

    /// The line and column of a byte offset that has been read.
    pub(crate) fn position(&self, offset: u64) -> LineColumn {
        let read = self.buffer.get(..self.end).unwrap_or_default();
        self.lines.position(read, self.buffer_offset, offset)
    }

    /// Counts lines no more: the XML reader finds them from the line feeds its tokenizer lists.
    pub(crate) fn stop_counting(&self) {
        self.lines.stop();
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

impl<R: Read> LineTrack<R> {
    /// Replaces the consumed buffer with the next read (out of the hot path: the XML reader asks
    /// for the buffer millions of times, and gets a new one every 64 KiB).
    #[cold]
    fn refill(&mut self) -> io::Result<()> {
        // The buffer is about to be replaced: count what is left of it first.
        self.count_to(self.buffer_offset + self.end as u64);
        self.buffer_offset += self.end as u64;
        self.start = 0;
        self.end = 0;
        loop {
            match self.inner.read(&mut self.buffer) {
                Ok(read) => {
                    self.end = read;
                    return Ok(());
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }
}

impl<R: Read> BufRead for LineTrack<R> {
    #[inline]
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start >= self.end {
            self.refill()?;
        }
        Ok(self.buffer.get(self.start..self.end).unwrap_or_default())
    }

    #[inline]
    fn consume(&mut self, amount: usize) {
        self.start = self.start.saturating_add(amount).min(self.end);
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

    /// A reader that hands out one byte per call, like a slow network body.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.first_mut()) {
                (Some((&byte, rest)), Some(slot)) => {
                    *slot = byte;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn peek_gathers_short_reads_without_consuming() {
        let mut track = LineTrack::new(Trickle(b"\xEF\xBB\xBFabc"));
        assert_eq!(track.peek(3).unwrap(), b"\xEF\xBB\xBF");
        track.consume(3);
        assert_eq!(track.peek(10).unwrap(), b"abc");
        assert_eq!(track.consumed(), 3);
    }

    #[test]
    fn positions_map_offsets_to_lines_and_columns() {
        let mut track = LineTrack::new(&b"ab\ncd\n\nefg"[..]);
        track.fill_buf().unwrap();
        let at = |offset| {
            let position = track.position(offset);
            (position.line, position.column)
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(2), (1, 3));
        assert_eq!(at(3), (2, 1));
        assert_eq!(at(7), (4, 1));
        assert_eq!(at(9), (4, 3));
        // An earlier offset on the current line is still exact.
        assert_eq!(at(8), (4, 2));
    }

    #[test]
    fn positions_survive_buffer_refills() {
        let text = b"first\nsecond line\n\n\nlast";
        let mut track = LineTrack::new(Trickle(text));
        let mut expected = (1, 1);
        for (offset, &byte) in text.iter().enumerate() {
            assert_eq!(track.fill_buf().unwrap().len(), 1, "one byte per refill");
            track.consume(1);
            let position = track.position(offset as u64);
            assert_eq!(
                (position.line, position.column),
                expected,
                "offset {offset}"
            );
            expected = if byte == b'\n' {
                (expected.0 + 1, 1)
            } else {
                (expected.0, expected.1 + 1)
            };
        }
    }
}
