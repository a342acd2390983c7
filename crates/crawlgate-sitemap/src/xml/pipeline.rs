//! The thread pipeline: the block tokenizer on a second thread, its batches crossing to the
//! document in order, and the line and column of each event from the batches' line feeds.

use super::document::{Document, FirstEvent, Flow};
use crate::collect::{Collector, Sink};
use crate::issues::{Issues, Position};
use crate::reader::{Capped, LineColumn, LineTrack};
use crate::tokens::{Batch, Ending, TagAttributes, Token, Tokenizer};
use quick_xml::events::Event;
use std::cell::Cell;
use std::io::Read;
use std::sync::mpsc::{self, Receiver, Sender};

/// Batches in flight between the tokenizer thread and the document: memory stays bounded.
const BATCHES_IN_FLIGHT: usize = 2;

/// Reads an XML sitemap or feed from `track`. Returns whether reading stopped before the end.
///
/// quick-xml's tokenizer ([`Tokenizer`]) and the document (namespaces, entries, validation,
/// tallies) cost about the same, so a document longer than one block is read by two threads:
/// the tokenizer runs a few blocks ahead on a second one. Events cross as spans of their block,
/// not copied one by one, with the line feeds the tokenizer found in each block.
pub(crate) fn parse<R: Read + Send, F: Sink>(
    track: &mut LineTrack<Capped<R>>,
    collector: &mut Collector<'_, F>,
    issues: &mut Issues,
    after_space: bool,
) -> bool {
    let base = track.consumed();
    let lines = BatchLines::new(base, track.position(base));
    // From here lines are counted from the batches.
    track.stop_counting();
    let mut doc = Document::new(collector, issues);
    doc.first_event = if after_space {
        FirstEvent::AfterSpace
    } else {
        FirstEvent::Pending
    };
    let mut reading = Reading {
        base,
        lines,
        last_end: 0,
    };
    let mut tokenizer = Tokenizer::new(track);
    let mut first = Batch::default();
    tokenizer.next_batch(&mut first);
    if first.ending.is_some() {
        // One block holds the whole document: no second thread.
        return reading.batch(&mut doc, &first).unwrap_or(true);
    }
    let (to_document, from_tokenizer) = mpsc::sync_channel::<Batch>(BATCHES_IN_FLIGHT);
    let (to_tokenizer, spare_batches) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            loop {
                let mut batch = spare_batches.try_recv().unwrap_or_default();
                tokenizer.next_batch(&mut batch);
                let last = batch.ending.is_some();
                // The document stopped listening, or this was the last batch.
                if to_document.send(batch).is_err() || last {
                    return;
                }
            }
        });
        reading.batches(&mut doc, first, from_tokenizer, &to_tokenizer)
    })
}

/// The document side of reading: batches in order, each event with its position.
struct Reading {
    /// The track's offset where XML reading started (batch offsets count from it).
    base: u64,
    lines: BatchLines,
    /// Where the last event ended.
    last_end: u64,
}

impl Reading {
    /// Reads `first` and the batches after it; the tokenizer stops once `from_tokenizer` is
    /// dropped. Returns whether reading stopped before the end.
    fn batches<F: Sink>(
        &mut self,
        doc: &mut Document<'_, '_, F>,
        first: Batch,
        from_tokenizer: Receiver<Batch>,
        to_tokenizer: &Sender<Batch>,
    ) -> bool {
        let mut batch = first;
        let mut incoming = from_tokenizer.into_iter();
        loop {
            if let Some(stopped) = self.batch(doc, &batch) {
                return stopped;
            }
            // The tokenizer may have finished: then the spare batch is simply dropped.
            let _ = to_tokenizer.send(batch);
            let Some(next) = incoming.next() else {
                // The tokenizer ended without a last batch: it panicked (re-raised by the scope).
                return true;
            };
            batch = next;
        }
    }

    /// Reads one batch; `Some(stopped)` once the document is done.
    fn batch<F: Sink>(&mut self, doc: &mut Document<'_, '_, F>, batch: &Batch) -> Option<bool> {
        let base = self.base;
        let text_offset = base + batch.offset;
        let text = batch.text();
        let lines = &self.lines;
        let locate = |at: u64| {
            let at = lines.position(&batch.newlines, text_offset, base + at);
            Position {
                line: at.line,
                column: at.column,
            }
        };
        let mut errors = batch.errors.iter();
        for token in &batch.tokens {
            let flow = match *token {
                Token::Error { at, end, capped } => {
                    self.last_end = end;
                    // Errors pair with their tokens in order.
                    let Some(error) = errors.next() else {
                        continue;
                    };
                    doc.error(error, locate(at), capped)
                }
                Token::Event { end, .. } => {
                    if doc.capture.is_some() {
                        // White space the tokenizer skipped belongs to the value.
                        let from = usize::try_from(self.last_end.saturating_sub(batch.offset))
                            .unwrap_or(usize::MAX);
                        let rest = text.get(from..).unwrap_or_default();
                        let space = rest.len() - rest.trim_ascii_start().len();
                        doc.capture_space(rest.get(..space).unwrap_or_default());
                    }
                    self.last_end = end;
                    match batch.event(text, token) {
                        Some((event, attributes)) => doc.event(event, attributes, end, &locate),
                        None => doc.not_utf8(locate(end)),
                    }
                }
            };
            match flow {
                Flow::Continue => {}
                Flow::End => return Some(false),
                Flow::Stop => return Some(true),
            }
        }
        match batch.ending {
            None => {
                self.lines.pass(&batch.newlines, text_offset);
                None
            }
            Some(Ending::Stopped) => Some(true),
            Some(Ending::Eof { end, input_cut }) => {
                doc.input_cut = input_cut;
                Some(
                    match doc.event(Event::Eof, TagAttributes::NONE, end, &locate) {
                        Flow::Continue | Flow::Stop => true,
                        Flow::End => false,
                    },
                )
            }
        }
    }
}

/// Line and column of offsets in one batch after another, from the line feeds the tokenizer
/// found in each ([`Batch::newlines`]).
struct BatchLines {
    /// Lines ended before the current batch.
    before: u32,
    /// Absolute offset where the line holding the current batch's start begins.
    line_start: u64,
    /// Line feeds of the current batch before the last offset asked: offsets mostly come in
    /// order, so this only moves forward, a step or two per offset.
    cursor: Cell<usize>,
}

impl BatchLines {
    /// Counting from absolute `offset`, which is at `at`.
    fn new(offset: u64, at: LineColumn) -> Self {
        Self {
            before: at.line.saturating_sub(1),
            line_start: at.line_start(offset),
            cursor: Cell::new(0),
        }
    }

    /// The line and column of absolute `offset` in the current batch, which starts at absolute
    /// `batch_offset` and has line feeds at `newlines` (relative).
    fn position(&self, newlines: &[u32], batch_offset: u64, offset: u64) -> LineColumn {
        let relative = offset.saturating_sub(batch_offset);
        let mut ended = self.cursor.get().min(newlines.len());
        if ended > 0
            && newlines
                .get(ended - 1)
                .is_some_and(|&at| u64::from(at) >= relative)
        {
            // Back before the cursor (rare): search.
            ended = newlines.partition_point(|&at| u64::from(at) < relative);
        }
        while newlines
            .get(ended)
            .is_some_and(|&at| u64::from(at) < relative)
        {
            ended += 1;
        }
        self.cursor.set(ended);
        let line_start = match ended.checked_sub(1).and_then(|last| newlines.get(last)) {
            Some(&at) => batch_offset + u64::from(at) + 1,
            None => self.line_start,
        };
        LineColumn {
            line: self
                .before
                .saturating_add(u32::try_from(ended).unwrap_or(u32::MAX))
                .saturating_add(1),
            column: u32::try_from(offset.saturating_sub(line_start).saturating_add(1))
                .unwrap_or(u32::MAX),
        }
    }

    /// The current batch, at absolute `batch_offset` with line feeds at `newlines`, is done.
    fn pass(&mut self, newlines: &[u32], batch_offset: u64) {
        self.before = self
            .before
            .saturating_add(u32::try_from(newlines.len()).unwrap_or(u32::MAX));
        if let Some(&last) = newlines.last() {
            self.line_start = batch_offset + u64::from(last) + 1;
        }
        self.cursor.set(0);
    }
}
