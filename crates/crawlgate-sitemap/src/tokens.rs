//! The tokenizer half of XML reading: quick-xml over the input a block at a time, each event
//! recorded as a span of its block ([`Batch`]), so a block's events can cross to another thread
//! without copying each one.
//!
//! quick-xml reads each block from a slice: its events borrow the block instead of being copied
//! into a buffer (a quarter fewer instructions than its buffered reader). A block ends before
//! its last `<` (and the white space before it), which never falls inside text, a reference or a
//! tag (`<` is not allowed in attribute values). It can fall inside a comment, a CDATA section,
//! a processing instruction or a DOCTYPE: quick-xml then reports an unclosed construct at the
//! block's end, and the construct starts the next, larger, block. Each block's reader is new, so
//! end tags are matched to start tags by the document, not by quick-xml. The tokenizer reads
//! plain attributes: the work of the two threads comes out about even.
//!
//! White space at the start of text is always skipped (an event less per line); the document
//! recovers it inside values from the block ([`Batch::text`]), where it still is.

use super::attributes::{self, Plain};
use super::reader::{Capped, LineTrack};
use quick_xml::errors::Error;
use quick_xml::events::{BytesCData, BytesDecl, BytesEnd, BytesRef, BytesStart, BytesText, Event};
use quick_xml::reader::Reader;
use std::io::{BufRead, Read};

/// Bytes handed to quick-xml at a time (a block grows past this only for one long construct).
const BLOCK_BYTES: usize = 128 * 1024;

/// What kind of quick-xml event a [`Token::Event`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Start,
    Empty,
    End,
    Text,
    CData,
    GeneralRef,
    DocType,
    /// The XML declaration: only its place matters.
    Decl,
    /// A processing instruction or comment: nothing to read.
    Skipped,
}

/// One event or error of a [`Batch`]. Offsets (`end`, `at`) count from where XML reading
/// started, as quick-xml's positions do. Offsets within the batch are `u32` (a block is far
/// smaller than 4 GiB), which halves the tokens' size and so the memory crossing threads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Token {
    Event {
        kind: Kind,
        /// The event's content is `Batch::text[start..start + len]`, or `Batch::spill[…]`.
        start: u32,
        len: u32,
        spilled: bool,
        /// The tag name's length, for start tags.
        name_len: u32,
        /// quick-xml's position after the event.
        end: u64,
        /// A start tag's attributes: `Batch::attributes[from..to]`, or `None` when one is not
        /// plain (quick-xml then reads them).
        attributes: Option<(u32, u32)>,
        /// Whether the start tag may declare a namespace (an `xmlns` in its attributes).
        declares: bool,
    },
    /// The next of `Batch::errors`: where it is, quick-xml's position after it, and whether the
    /// size guard had cut the input by then.
    Error { at: u64, end: u64, capped: bool },
}

/// How reading ended, on the last batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The end of the input (or of what the size guard let through: `input_cut`).
    Eof { end: u64, input_cut: bool },
    /// Reading failed (reported by the reader layer), or an error made no progress.
    Stopped,
}

/// The events of one block.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    /// The block as far as its events reach, up to its first byte that is not UTF-8 (quick-xml
    /// refuses the event holding it, and reading stops there). Checked on the tokenizer thread.
    text: String,
    /// Where `text` has its line feeds, found on the tokenizer thread: the document thread,
    /// which carries more of the load, only looks them up.
    pub(crate) newlines: Vec<u32>,
    /// Where `text` starts, counted from where XML reading started.
    pub(crate) offset: u64,
    pub(crate) tokens: Vec<Token>,
    pub(crate) errors: Vec<Error>,
    /// The plain attributes of start tags, with offsets into `text`.
    attributes: Vec<Plain>,
    /// Event contents that quick-xml did not borrow from the block (none in practice).
    pub(crate) spill: String,
    /// Set on the last batch.
    pub(crate) ending: Option<Ending>,
}

impl Batch {
    fn clear(&mut self) {
        self.text.clear();
        self.newlines.clear();
        self.tokens.clear();
        self.errors.clear();
        self.attributes.clear();
        self.spill.clear();
        self.ending = None;
    }

    /// Records an event whose content `block` holds (or should: else it is spilled).
    fn push(&mut self, event: &Event<'_>, block: &[u8], end: u64) {
        let (kind, content, name_len): (Kind, &str, usize) = match event {
            Event::Start(start) => (Kind::Start, start, start.name().as_ref().len()),
            Event::Empty(start) => (Kind::Empty, start, start.name().as_ref().len()),
            Event::End(tag) => (Kind::End, tag, 0),
            Event::Text(text) => (Kind::Text, text, 0),
            Event::CData(data) => (Kind::CData, data, 0),
            Event::GeneralRef(reference) => (Kind::GeneralRef, reference, 0),
            Event::DocType(doctype) => (Kind::DocType, doctype, 0),
            Event::Decl(decl) => (Kind::Decl, decl, 0),
            Event::PI(_) | Event::Comment(_) | Event::Eof => (Kind::Skipped, "", 0),
        };
        let within = (content.as_ptr() as usize).checked_sub(block.as_ptr() as usize);
        let (start, spilled) = match within {
            Some(start) if start + content.len() <= block.len() => (start, false),
            _ => {
                self.spill.push_str(content);
                (self.spill.len() - content.len(), true)
            }
        };
        let (attributes, declares) = match (kind, content.get(name_len..)) {
            (Kind::Start | Kind::Empty, Some(raw)) if !raw.is_empty() => {
                // Spilled content has no offsets in the block, so its attributes are not read.
                let at = (!spilled).then_some(start + name_len);
                self.read_attributes(raw, at)
            }
            _ => (Some((0, 0)), false),
        };
        self.tokens.push(Token::Event {
            kind,
            start: narrow(start),
            len: narrow(content.len()),
            spilled,
            name_len: narrow(name_len),
            end,
            attributes,
            declares,
        });
    }

    /// Reads a start tag's attributes `raw`, which start at `at` in the block: their range in
    /// `attributes` when all are plain (`None` otherwise), and whether one may declare a
    /// namespace.
    fn read_attributes(&mut self, raw: &str, at: Option<usize>) -> (Option<(u32, u32)>, bool) {
        let from = self.attributes.len();
        if let Some(at) = at
            && attributes::read_plain(raw, at, &mut self.attributes)
        {
            let declares =
                self.attributes
                    .get(from..)
                    .unwrap_or_default()
                    .iter()
                    .any(|attribute| {
                        raw.get(attribute.name.0 - at..attribute.name.1 - at)
                            .is_some_and(|name| name.starts_with("xmlns"))
                    });
            return (
                Some((narrow(from), narrow(self.attributes.len()))),
                declares,
            );
        }
        self.attributes.truncate(from);
        (None, raw.contains("xmlns"))
    }

    /// The event a token stands for, as quick-xml gave it, and what the tokenizer read of its
    /// attributes; `None` for an error token, or where the text is not UTF-8 (quick-xml refuses
    /// such an event, so it does not happen).
    ///
    /// `text` is [`Batch::text`].
    pub(crate) fn event<'b>(
        &'b self,
        text: &'b str,
        token: &Token,
    ) -> Option<(Event<'b>, TagAttributes<'b>)> {
        let &Token::Event {
            kind,
            start,
            len,
            spilled,
            name_len,
            attributes,
            declares,
            ..
        } = token
        else {
            return None;
        };
        let (start, len, name_len) = (widen(start), widen(len), widen(name_len));
        let source = if spilled { self.spill.as_str() } else { text };
        let content = source.get(start..start + len)?;
        let tag = TagAttributes {
            plain: attributes.and_then(|(from, to)| self.attributes.get(widen(from)..widen(to))),
            text,
            declares,
        };
        let event = match kind {
            Kind::Start => Event::Start(BytesStart::from_content(content, name_len)),
            Kind::Empty => Event::Empty(BytesStart::from_content(content, name_len)),
            Kind::End => Event::End(BytesEnd::new(content)),
            Kind::Text => Event::Text(BytesText::from_escaped(content)),
            Kind::CData => Event::CData(BytesCData::new(content)),
            Kind::GeneralRef => Event::GeneralRef(BytesRef::new(content)),
            Kind::DocType => Event::DocType(BytesText::from_escaped(content)),
            Kind::Decl => Event::Decl(BytesDecl::from_start(BytesStart::from_content(content, 3))),
            Kind::Skipped => Event::Comment(BytesText::from_escaped(content)),
        };
        Some((event, tag))
    }
}

/// An offset or length within a batch, as stored in a [`Token`] (a larger one points nowhere,
/// and the event reads as not UTF-8).
fn narrow(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn widen(value: u32) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

/// What the tokenizer read of a start tag's attributes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TagAttributes<'b> {
    /// The attributes when all are plain, with offsets into `text`.
    plain: Option<&'b [Plain]>,
    text: &'b str,
    /// Whether the tag may declare a namespace (an `xmlns` in its attributes).
    pub(crate) declares: bool,
}

impl<'b> TagAttributes<'b> {
    /// For events that are not start tags.
    pub(crate) const NONE: TagAttributes<'static> = TagAttributes {
        plain: Some(&[]),
        text: "",
        declares: false,
    };

    /// The values of the named attributes, when all attributes are plain and none of the
    /// names repeats; `None` sends the caller to quick-xml's attribute reader.
    pub(crate) fn values<const N: usize>(&self, names: [&str; N]) -> Option<[Option<&'b str>; N]> {
        attributes::lookup(self.text, self.plain?, names)
    }
}

/// Where a block can end: before its last `<` and the white space before that; `None` when
/// the block has no such place (one construct fills it).
fn cut_point(block: &[u8]) -> Option<usize> {
    let markup = memchr::memrchr(b'<', block)?;
    let cut = block
        .get(..markup)?
        .iter()
        .rposition(|byte| !byte.is_ascii_whitespace())
        .map_or(0, |last| last + 1);
    (cut > 0).then_some(cut)
}

/// Turns the input into batches of events.
pub(crate) struct Tokenizer<'t, R> {
    track: &'t mut LineTrack<Capped<R>>,
    /// The track's offset where XML reading started.
    base: u64,
    progress: Progress,
}

/// What the tokenizer carries from block to block.
struct Progress {
    /// The next block's size.
    wanted: usize,
    /// The last error's position and end, to notice an error that makes no progress.
    last_error_at: Option<(u64, u64)>,
}

impl<'t, R: Read> Tokenizer<'t, R> {
    pub(crate) fn new(track: &'t mut LineTrack<Capped<R>>) -> Self {
        Self {
            base: track.consumed(),
            track,
            progress: Progress {
                wanted: BLOCK_BYTES,
                last_error_at: None,
            },
        }
    }

    /// Fills `batch` with the next block's events. After a batch with an ending, there are none.
    pub(crate) fn next_batch(&mut self, batch: &mut Batch) {
        batch.clear();
        loop {
            // A read error ends the input; the reader layer reports it.
            let wanted = self.progress.wanted;
            let failed = self.track.peek(wanted).is_err();
            let block = self.track.buffered();
            let at_end = failed || block.len() < wanted;
            let cut = if at_end {
                Some(block.len())
            } else {
                cut_point(block)
            };
            let Some(cut) = cut else {
                self.progress.wanted = block.len().saturating_mul(2);
                continue;
            };
            let part = block.get(..cut).unwrap_or_default();
            batch.offset = self.track.consumed() - self.base;
            let capped = self.track.get_ref();
            let consumed = self.progress.tokenize(part, at_end, failed, capped, batch);
            batch.keep_text(part.get(..consumed).unwrap_or_default());
            self.track.consume(consumed);
            if consumed == 0 && batch.tokens.is_empty() && batch.ending.is_none() {
                continue;
            }
            return;
        }
    }
}

impl Progress {
    /// quick-xml over one block; returns how much of it the batch covers.
    fn tokenize<R: Read>(
        &mut self,
        part: &[u8],
        at_end: bool,
        failed: bool,
        capped: &Capped<R>,
        batch: &mut Batch,
    ) -> usize {
        let offset = batch.offset;
        let mut reader = Reader::from_reader(part);
        let config = reader.config_mut();
        // Bare `&` comes through as text so we can report it with its position and keep reading.
        config.allow_dangling_amp = true;
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        // Kept, so an end tag's length (and so its position) is exact.
        config.trim_markup_names_in_closing_tags = false;
        config.trim_text_start = true;
        // After an error other than ill-formedness quick-xml reads no further: its end is the
        // document's.
        let mut reader_done = false;
        loop {
            let event = reader.read_event();
            let end = offset + reader.buffer_position();
            match event {
                Ok(Event::Eof) => {
                    if failed {
                        batch.ending = Some(Ending::Stopped);
                    } else if at_end || reader_done {
                        batch.ending = Some(Ending::Eof {
                            end,
                            input_cut: capped.hit(),
                        });
                    }
                    self.wanted = BLOCK_BYTES;
                    return part.len();
                }
                Ok(event) => batch.push(&event, part, end),
                Err(Error::Syntax(_))
                    if failed && reader.buffer_position() >= part.len() as u64 =>
                {
                    // Cut by the read failure (which the reader layer reports), not the file's
                    // fault.
                    batch.ending = Some(Ending::Stopped);
                    return part.len();
                }
                Err(Error::Syntax(_))
                    if !at_end && reader.buffer_position() >= part.len() as u64 =>
                {
                    // A construct the block's end cut: it (and the white space before it)
                    // starts the next block.
                    let from = usize::try_from(reader.error_position()).unwrap_or(0);
                    let from = cut_point(part.get(..=from).unwrap_or_default()).unwrap_or(0);
                    self.wanted =
                        BLOCK_BYTES.max(part.len().saturating_sub(from).saturating_mul(2));
                    return from;
                }
                Err(error) => {
                    let at = offset + reader.error_position();
                    if self.last_error_at == Some((at, end)) {
                        // No progress since the last error: stop rather than loop.
                        batch.ending = Some(Ending::Stopped);
                        return part.len();
                    }
                    self.last_error_at = Some((at, end));
                    reader_done |= !matches!(error, Error::IllFormed(_));
                    batch.tokens.push(Token::Error {
                        at,
                        end,
                        capped: capped.hit(),
                    });
                    batch.errors.push(error);
                }
            }
        }
    }
}

impl Batch {
    /// Keeps `block` as the batch's text (the valid UTF-8 start of it), and where its lines end.
    fn keep_text(&mut self, block: &[u8]) {
        let mut bytes = std::mem::take(&mut self.text).into_bytes();
        bytes.clear();
        bytes.extend_from_slice(block);
        self.text = String::from_utf8(bytes).unwrap_or_else(|error| {
            let valid = error.utf8_error().valid_up_to();
            let mut bytes = error.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        });
        self.newlines
            .extend(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(narrow));
    }

    /// The block as text, up to its first byte that is not UTF-8.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_end_before_the_last_markup_and_its_white_space() {
        assert_eq!(cut_point(b"<a>x</a>\n  <b>"), Some(8));
        assert_eq!(cut_point(b"<a>text <b"), Some(7));
        // Nothing before the only `<`: the block must grow.
        assert_eq!(cut_point(b"  <!-- long"), None);
        assert_eq!(cut_point(b"no markup"), None);
    }
}
