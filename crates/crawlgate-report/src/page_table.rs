//! The report's page records ([`Report::pages`](crate::Report)): in memory, or, for an audit
//! whose pages went to the page store, in that store too, one JSON record per row, read back
//! as the reports are written. On a large crawl the records are as large as the site they are
//! made from; stored, the report costs a key per row.
//!
//! A row that cannot be read back ends the iteration and is counted
//! ([`PageTable::read_failures`], [`PageTable::read_error`]): an output that met one fails,
//! never lists fewer pages in silence.

use crate::model::PageRecord;
use crawlgate_core::site::{PageKey, PageStore, page_store};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Every known URL's [`PageRecord`], by URL (see the module docs).
#[derive(Clone, Default)]
pub struct PageTable {
    rows: Rows,
}

#[derive(Clone)]
enum Rows {
    Held(Vec<PageRecord>),
    Stored(StoredRows),
}

impl Default for Rows {
    fn default() -> Self {
        Rows::Held(Vec::new())
    }
}

#[derive(Clone)]
struct StoredRows {
    store: Arc<dyn PageStore>,
    /// Whether the store still takes records: after a refusal the rows stay in memory (as
    /// the crawl's pages do), rather than each finding out again.
    taking: bool,
    /// A record being written, reused from row to row.
    record: Vec<u8>,
    rows: Vec<StoredRow>,
    /// Shared by clones: a row one clone cannot read, none can.
    read_error: Arc<OnceLock<String>>,
    /// Reads that failed, by any clone.
    read_failures: Arc<AtomicU64>,
}

#[derive(Clone)]
enum StoredRow {
    Key(PageKey),
    /// A record the store did not take (a full disk): kept in memory instead.
    Held(Box<PageRecord>),
}

impl PageTable {
    /// An empty table whose rows go to `store` as they are pushed.
    pub fn in_store(store: Arc<dyn PageStore>) -> Self {
        PageTable {
            rows: Rows::Stored(StoredRows {
                store,
                taking: true,
                record: Vec::new(),
                rows: Vec::new(),
                read_error: Arc::new(OnceLock::new()),
                read_failures: Arc::new(AtomicU64::new(0)),
            }),
        }
    }

    /// How many rows (known URLs) the table has.
    pub fn len(&self) -> usize {
        match &self.rows {
            Rows::Held(records) => records.len(),
            Rows::Stored(stored) => stored.rows.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the rows are in a page store (read back on each iteration).
    pub fn is_stored(&self) -> bool {
        matches!(self.rows, Rows::Stored(_))
    }

    /// Append a row: to the store, for a stored table. A record the store refuses stays in
    /// memory, and so do the rows after it; the refusal is returned (once) so that the caller
    /// can say so. The row is kept either way.
    ///
    /// # Errors
    /// When the store refused this record.
    pub fn push(&mut self, record: PageRecord) -> Result<(), String> {
        let stored = match &mut self.rows {
            Rows::Held(records) => {
                records.push(record);
                return Ok(());
            }
            Rows::Stored(stored) => stored,
        };
        let mut refused = Ok(());
        if stored.taking {
            stored.record.clear();
            let put = serde_json::to_writer(&mut stored.record, &record)
                .map_err(|error| error.to_string())
                .and_then(|()| {
                    stored
                        .store
                        .put(&stored.record)
                        .map_err(|error| error.to_string())
                });
            match put {
                Ok(key) => {
                    stored.rows.push(StoredRow::Key(key));
                    return Ok(());
                }
                Err(error) => {
                    stored.taking = false;
                    refused = Err(error);
                }
            }
        }
        stored.rows.push(StoredRow::Held(Box::new(record)));
        refused
    }

    /// The row at `index`: borrowed when held, read back when stored (`None` past the end, or
    /// when it cannot be read: [`PageTable::read_error`] then says why).
    pub fn get(&self, index: usize) -> Option<Cow<'_, PageRecord>> {
        match &self.rows {
            Rows::Held(records) => records.get(index).map(Cow::Borrowed),
            Rows::Stored(stored) => stored.read(stored.rows.get(index)?, &mut Vec::new()),
        }
    }

    /// The rows in order (see [`PageTable::get`]).
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            table: self,
            next: 0,
            record: Vec::new(),
        }
    }

    /// The rows, when all are held in memory (`None` for a stored table: see
    /// [`PageTable::iter`]).
    pub fn as_slice(&self) -> Option<&[PageRecord]> {
        match &self.rows {
            Rows::Held(records) => Some(records),
            Rows::Stored(_) => None,
        }
    }

    /// The rows as a slice: borrowed when held, read back into memory when stored (then
    /// without the rows that could not be read: [`PageTable::read_error`] says why).
    pub fn to_held(&self) -> Cow<'_, [PageRecord]> {
        match &self.rows {
            Rows::Held(records) => Cow::Borrowed(records),
            Rows::Stored(_) => Cow::Owned(self.iter().map(Cow::into_owned).collect()),
        }
    }

    /// The rows in order, `n` at a time (at least one): slices of a held table, or each `n`
    /// rows read back from the store (a row that cannot be read back ends them).
    pub fn chunks(&self, n: usize) -> Box<dyn Iterator<Item = Cow<'_, [PageRecord]>> + '_> {
        let n = n.max(1);
        if let Some(rows) = self.as_slice() {
            return Box::new(rows.chunks(n).map(Cow::Borrowed));
        }
        let mut rows = self.iter();
        Box::new(std::iter::from_fn(move || {
            let chunk: Vec<PageRecord> = rows.by_ref().take(n).map(Cow::into_owned).collect();
            (!chunk.is_empty()).then_some(Cow::Owned(chunk))
        }))
    }

    /// How many reads of a row have failed so far: a writer compares it before and after
    /// its output to know whether that output misses rows.
    pub fn read_failures(&self) -> u64 {
        match &self.rows {
            Rows::Held(_) => 0,
            Rows::Stored(stored) => stored.read_failures.load(Ordering::Relaxed),
        }
    }

    /// The first row that could not be read back, and why: the reports written from this
    /// table since are missing rows.
    pub fn read_error(&self) -> Option<&str> {
        match &self.rows {
            Rows::Held(_) => None,
            Rows::Stored(stored) => stored.read_error.get().map(String::as_str),
        }
    }
}

impl StoredRows {
    fn read<'a>(&self, row: &'a StoredRow, buffer: &mut Vec<u8>) -> Option<Cow<'a, PageRecord>> {
        match row {
            StoredRow::Held(record) => Some(Cow::Borrowed(record)),
            StoredRow::Key(key) => {
                let read = page_store::read_record(self.store.as_ref(), *key, buffer, |record| {
                    serde_json::from_slice(record)
                });
                match read {
                    Ok(record) => Some(Cow::Owned(record)),
                    Err(error) => {
                        let _ = self
                            .read_error
                            .set(format!("a page record of the report: {error}"));
                        self.read_failures.fetch_add(1, Ordering::Relaxed);
                        None
                    }
                }
            }
        }
    }
}

/// The rows of a [`PageTable`], in order; ends early at a row that cannot be read back.
pub struct Iter<'a> {
    table: &'a PageTable,
    next: usize,
    record: Vec<u8>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, PageRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        let at = self.next;
        self.next = at.checked_add(1)?;
        let row = match &self.table.rows {
            Rows::Held(records) => records.get(at).map(Cow::Borrowed),
            Rows::Stored(stored) => stored.read(stored.rows.get(at)?, &mut self.record),
        };
        if row.is_none() {
            self.next = usize::MAX;
        }
        row
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.table.len().saturating_sub(self.next)))
    }
}

impl<'a> IntoIterator for &'a PageTable {
    type Item = Cow<'a, PageRecord>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl From<Vec<PageRecord>> for PageTable {
    fn from(records: Vec<PageRecord>) -> Self {
        PageTable {
            rows: Rows::Held(records),
        }
    }
}

impl FromIterator<PageRecord> for PageTable {
    fn from_iter<I: IntoIterator<Item = PageRecord>>(records: I) -> Self {
        records.into_iter().collect::<Vec<_>>().into()
    }
}

impl PartialEq for PageTable {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for PageTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A JSON array of the rows, written one at a time; a row that cannot be read back fails the
/// serialisation.
impl Serialize for PageTable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        let mut written = 0;
        for record in self {
            seq.serialize_element(&*record)?;
            written += 1;
        }
        if written < self.len() {
            return Err(S::Error::custom(
                self.read_error()
                    .unwrap_or("a page record could not be read back"),
            ));
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for PageTable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<PageRecord>::deserialize(deserializer).map(PageTable::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::site::MemoryPageStore;

    fn record(url: &str) -> PageRecord {
        PageRecord {
            url: url.to_owned(),
            kind: Cow::Borrowed("page"),
            depth: Some(1),
            state: Cow::Borrowed("fetched"),
            status: Some(200),
            final_url: None,
            detail: Some("caf\u{e9} \"quoted\" <b>".into()),
            content_type: Some("text/html".into()),
            canonical: None,
            last_modified: None,
            alternates: Vec::new(),
            alternates_cut: false,
            in_sitemaps: vec!["https://example.com/sitemap.xml".to_owned()],
            inbound_links: 3,
            profiles: crate::model::ProfileViews::default(),
            rendered: None,
        }
    }

    #[test]
    fn a_stored_table_reads_back_the_rows_a_held_one_holds() {
        let records: Vec<PageRecord> = (0..5)
            .map(|n| record(&format!("https://example.com/{n}")))
            .collect();
        let held = PageTable::from(records.clone());
        let mut stored = PageTable::in_store(Arc::new(MemoryPageStore::default()));
        for record in records.clone() {
            stored.push(record).unwrap();
        }
        assert!(stored.is_stored());
        assert_eq!(stored, held);
        assert_eq!(stored.get(3).unwrap().url, "https://example.com/3");
        assert!(stored.get(5).is_none());
        assert_eq!(
            serde_json::to_string(&stored).unwrap(),
            serde_json::to_string(&held).unwrap()
        );
        let back: PageTable =
            serde_json::from_str(&serde_json::to_string(&stored).unwrap()).unwrap();
        assert_eq!(back, held);
        assert!(!back.is_stored());
        for table in [&held, &stored] {
            let chunks: Vec<Vec<PageRecord>> = table.chunks(2).map(Cow::into_owned).collect();
            assert_eq!(chunks.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
            assert_eq!(chunks.concat(), records);
        }
        assert!(stored.read_error().is_none());
    }

    /// A store that takes nothing, or gives back what it was not given.
    #[derive(Debug)]
    struct Broken {
        takes: bool,
    }

    impl PageStore for Broken {
        fn put(&self, _: &[u8]) -> std::io::Result<PageKey> {
            if self.takes {
                Ok(PageKey { offset: 0, len: 2 })
            } else {
                Err(std::io::Error::other("disk full"))
            }
        }

        fn get(&self, _: PageKey, into: &mut Vec<u8>) -> std::io::Result<()> {
            into.clear();
            into.extend_from_slice(b"{]");
            Ok(())
        }
    }

    #[test]
    fn a_row_the_store_refuses_stays_in_memory() {
        let mut table = PageTable::in_store(Arc::new(Broken { takes: false }));
        assert_eq!(
            table.push(record("https://example.com/")),
            Err("disk full".to_owned())
        );
        // The rows after a refusal stay in memory without asking again.
        assert_eq!(table.push(record("https://example.com/b")), Ok(()));
        assert_eq!(
            table,
            PageTable::from(vec![
                record("https://example.com/"),
                record("https://example.com/b")
            ])
        );
    }

    #[test]
    fn a_row_that_cannot_be_read_back_fails_the_json_and_is_remembered() {
        let mut table = PageTable::in_store(Arc::new(Broken { takes: true }));
        table.push(record("https://example.com/a")).unwrap();
        table.push(record("https://example.com/b")).unwrap();
        assert_eq!(table.iter().count(), 0);
        assert_eq!(table.read_failures(), 1);
        let error = serde_json::to_string(&table).unwrap_err().to_string();
        assert!(error.contains("a page record of the report"), "{error}");
        assert!(table.read_error().is_some());
    }
}
