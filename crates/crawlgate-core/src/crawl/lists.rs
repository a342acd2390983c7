//! The evidence lists the crawl holds, bounded. Every known URL gathers the first links to it,
//! its references and the sitemap entries listing it while the crawl runs; any page may add to
//! any URL's lists until the end, so none is final before then.
//!
//! With a page store, once the entries held pass `Bounds::lists_in_memory`, the lists changed
//! since the last spill are written to the store as a run (blocks of slots, in slot order) and
//! dropped from memory. At the crawl's end each URL with spilled lists gets its runs' lists and
//! those still held merged exactly as held lists are kept (the first link samples by page and
//! line, each reference once and the first few of them, listings in sitemap and line order),
//! in one record ([`ListsRecord`]) its resource points at.

use super::Crawl;
use super::discovery::{LINK_SAMPLES, REFERENCE_SAMPLES};
use crate::site::lists::{self, HeldLists, Lists, ListsRecord, ReferenceEntry, StoredLists};
use crate::site::{PageKey, PageStore, Resource, page_store};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::sync::Arc;

/// Slots per spilled block: a block is read whole when the runs are merged, one per run.
const SLOTS_PER_BLOCK: usize = 1024;

/// What the crawl spilled of its lists, and what it holds since.
#[derive(Debug, Default)]
pub(super) struct ListSpill {
    /// Entries added to held lists since the last spill.
    held: u64,
    /// The slots holding lists, each once.
    changed: Vec<u32>,
    /// Each spill's blocks, in slot order (merged by [`ListMerge`] at the crawl's end).
    pub(super) runs: Vec<Vec<PageKey>>,
}

impl Crawl {
    /// Apply `change` to the resource at `index`, counting what it adds to its lists: every
    /// change that may add to them goes through here.
    pub(super) fn change_lists(&mut self, index: usize, change: impl FnOnce(&mut Resource)) {
        let before = self.slots[index].resource.lists.held_len();
        change(&mut self.slots[index].resource);
        self.lists_changed(index, before);
    }

    /// Count what a change to the lists of `index` added (`before` is its `held_len` before it,
    /// as [`Crawl::change_lists`] measures it).
    /// Without a page store nothing is spilled, so nothing is counted.
    pub(super) fn lists_changed(&mut self, index: usize, before: usize) {
        if self.writable_page_store().is_none() {
            return;
        }
        let after = self.slots[index].resource.lists.held_len();
        if after > before {
            self.lists.held += (after - before) as u64;
        }
        // Lists only grow until spilled, so a slot holds some exactly when it has since it
        // last held none: listed once. Slot numbers fit in u32 (at most ten million URLs).
        if before == 0 && after > 0 {
            self.lists
                .changed
                .push(u32::try_from(index).unwrap_or(u32::MAX));
        }
    }

    /// Spill the held lists to the page store when they are over their bound. A store that
    /// refuses them stops all storing, as for pages; they then stay in memory.
    pub(super) fn spill_lists_over_budget(&mut self) {
        if self.lists.held <= self.config.bounds.lists_in_memory {
            return;
        }
        let Some(store) = self.writable_page_store().cloned() else {
            return;
        };
        let mut changed = std::mem::take(&mut self.lists.changed);
        changed.sort_unstable();
        // A second page store given would list its slots again: a block holds each once.
        changed.dedup();
        let mut run = Vec::new();
        let mut block = Vec::new();
        for chunk in changed.chunks(SLOTS_PER_BLOCK) {
            let entries: Vec<(u32, ListsRecord<'_>)> = chunk
                .iter()
                .filter_map(
                    |&slot| match &self.slots.get(slot as usize)?.resource.lists {
                        Lists::Held(held) => Some((slot, ListsRecord::of(held))),
                        Lists::Stored(_) => None,
                    },
                )
                .collect();
            block.clear();
            let written = serde_json::to_writer(&mut block, &entries)
                .map_err(std::io::Error::other)
                .and_then(|()| store.put(&block));
            match written {
                Ok(key) => run.push(key),
                Err(error) => {
                    self.page_store_failed(error.to_string());
                    return;
                }
            }
        }
        for &slot in &changed {
            self.slots[slot as usize].resource.lists = Lists::default();
        }
        self.lists.runs.push(run);
        self.lists.held = 0;
    }
}

/// The crawl's spilled runs, read back in slot order, one block per run at a time: a heap of
/// each run's next slot, so a URL costs the runs that hold lists for it, not every run.
pub(super) struct ListMerge {
    store: Arc<dyn PageStore>,
    /// Whether merged lists go to the store (it refused nothing so far) or stay held.
    writable: bool,
    runs: Vec<RunCursor>,
    /// `(slot, run)` of each run's next lists, smallest first (the oldest run first for a slot).
    next: BinaryHeap<Reverse<(u32, usize)>>,
    buffer: Vec<u8>,
    /// The first failure to read a block back: the lists it held are missing.
    pub(super) error: Option<String>,
}

struct RunCursor {
    blocks: std::vec::IntoIter<PageKey>,
    entries: std::vec::IntoIter<(u32, ListsRecord<'static>)>,
    /// The lists of the slot this run is queued under in `next`.
    pending: Option<ListsRecord<'static>>,
}

impl ListMerge {
    pub(super) fn new(store: Arc<dyn PageStore>, writable: bool, runs: Vec<Vec<PageKey>>) -> Self {
        let mut merge = ListMerge {
            store,
            writable,
            runs: runs
                .into_iter()
                .map(|blocks| RunCursor {
                    blocks: blocks.into_iter(),
                    entries: Vec::new().into_iter(),
                    pending: None,
                })
                .collect(),
            next: BinaryHeap::new(),
            buffer: Vec::new(),
            error: None,
        };
        for at in 0..merge.runs.len() {
            merge.advance(at);
        }
        merge
    }

    /// Give `resource` (at `slot`) its whole lists: those spilled for it, merged with those it
    /// holds, go into one record in the store. A record the store does not take leaves the
    /// merged lists held. Called for every slot, in order.
    pub(super) fn settle(&mut self, slot: u32, resource: &mut Resource) {
        let mut spilled = Vec::new();
        while let Some(&Reverse((next, at))) = self.next.peek() {
            if next > slot {
                break;
            }
            self.next.pop();
            if let Some(lists) = self.runs[at].pending.take().filter(|_| next == slot) {
                spilled.push(lists);
            }
            self.advance(at);
        }
        if spilled.is_empty() {
            return;
        }
        if let Lists::Held(held) = &resource.lists {
            spilled.push(ListsRecord::of(held).into_owned());
        }
        let (merged, references_left_out) = merge(spilled);
        resource.other_references = resource
            .other_references
            .saturating_add(references_left_out);
        let listings = u32::try_from(merged.listings.len()).unwrap_or(u32::MAX);
        let stored = Some(&merged)
            .filter(|_| self.writable)
            .and_then(|merged| serde_json::to_vec(merged).ok())
            .and_then(|record| {
                let key = self.store.put(&record).ok();
                self.writable = key.is_some();
                key
            })
            .and_then(|key| StoredLists::new(key, listings));
        if let Some(stored) = stored {
            resource.lists = Lists::Stored(stored);
            return;
        }
        match (
            lists::link_samples(&merged),
            lists::references(&merged),
            lists::listings(&merged),
        ) {
            (Ok(samples), Ok(references), Ok(listings)) => {
                resource.lists = Lists::Held(HeldLists {
                    samples: samples.into(),
                    references: references.into(),
                    listed_in: listings.into(),
                });
            }
            _ => self.fail("a spilled list names a URL that does not parse".to_owned()),
        }
    }

    /// Queue run `at` under its next slot, reading its next block when the last is done.
    fn advance(&mut self, at: usize) {
        loop {
            let run = &mut self.runs[at];
            if let Some((slot, lists)) = run.entries.next() {
                run.pending = Some(lists);
                self.next.push(Reverse((slot, at)));
                return;
            }
            let Some(key) = run.blocks.next() else {
                return;
            };
            let read =
                page_store::read_record(self.store.as_ref(), key, &mut self.buffer, |bytes| {
                    serde_json::from_slice::<Vec<(u32, ListsRecord<'_>)>>(bytes).map(|entries| {
                        entries
                            .into_iter()
                            .map(|(slot, lists)| (slot, lists.into_owned()))
                            .collect::<Vec<_>>()
                    })
                });
            match read {
                Ok(entries) => self.runs[at].entries = entries.into_iter(),
                Err(error) => {
                    self.fail(error);
                    self.runs[at].blocks = Vec::new().into_iter();
                }
            }
        }
    }

    fn fail(&mut self, error: String) {
        self.error.get_or_insert(error);
    }
}

/// Merge one URL's partial lists, oldest first, as held lists are kept; with how many
/// references the cap left out that no partial list had left out already.
fn merge(partials: Vec<ListsRecord<'static>>) -> (ListsRecord<'static>, u32) {
    let mut merged = ListsRecord::default();
    for partial in partials {
        merged.samples.extend(partial.samples);
        merged.references.extend(partial.references);
        merged.listings.extend(partial.listings);
    }
    // Stable sorts: equal keys stay in arrival order, as the held lists insert them.
    merged
        .samples
        .sort_by(|a, b| (a.0.as_ref(), a.1).cmp(&(b.0.as_ref(), b.1)));
    merged.samples.truncate(LINK_SAMPLES);
    let mut seen = HashSet::new();
    merged
        .references
        .retain(|ReferenceEntry(from, kind, line)| seen.insert((from.clone(), *kind, *line)));
    merged
        .references
        .sort_by(|a, b| (a.0.as_ref(), a.2).cmp(&(b.0.as_ref(), b.2)));
    let left_out = merged.references.len().saturating_sub(REFERENCE_SAMPLES);
    merged.references.truncate(REFERENCE_SAMPLES);
    merged
        .listings
        .sort_by(|a, b| (a.0.as_ref(), a.1).cmp(&(b.0.as_ref(), b.1)));
    (merged, u32::try_from(left_out).unwrap_or(u32::MAX))
}
