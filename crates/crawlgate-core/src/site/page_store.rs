//! Fetched pages kept out of memory. Past [`Bounds::pages_in_memory`](crate::crawl::Bounds)
//! the crawl hands each page's record to a [`PageStore`] and keeps only where it went (a
//! [`PageKey`]); [`Site::page`](super::Site::page) reads it back when a rule or the report asks.
//! Core does no IO: the crawl driver gives a file (`crawlgate_crawl::PageFile`), the offline
//! driver and tests a [`MemoryPageStore`].
//!
//! A record is the page's fields as JSON (the signals' serde shape, the one the report already
//! writes: internally tagged enums and skipped empty fields rule out the compact formats). A
//! page is stored once its links are recorded, and is not changed after (rendering, which
//! does change it, reads it back and keeps it in memory).

use super::{FetchedPage, KeptHeaders};
use crate::signals::Signals;
use serde::{Deserialize, Serialize};
use std::sync::RwLock;

/// Where a stored page's record is: given by [`PageStore::put`], read by [`PageStore::get`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageKey {
    /// The record's first byte in the store.
    pub offset: u64,
    /// The record's length in bytes.
    pub len: u32,
}

/// An append-only home for page records. Records are written by one crawl (in the order
/// recorded) and read by the rules, from several threads, in any order.
pub trait PageStore: Send + Sync + std::fmt::Debug {
    /// Append `record`; where it went.
    ///
    /// # Errors
    /// When it could not be written (a full disk); the crawl then keeps its pages in memory.
    fn put(&self, record: &[u8]) -> std::io::Result<PageKey>;

    /// The record at `key`, replacing the contents of `into`.
    ///
    /// # Errors
    /// When it could not be read; the audit then says its findings are incomplete.
    fn get(&self, key: PageKey, into: &mut Vec<u8>) -> std::io::Result<()>;
}

/// The record at `key` in `store` (read into `buffer`), decoded by `decode`; why not, in words.
/// One way to read a record back, for the Site's pages and for any other record kept in the
/// same store (the report's page rows).
///
/// # Errors
/// When the store cannot give the record, or `decode` refuses it.
pub fn read_record<T, E: std::fmt::Display>(
    store: &dyn PageStore,
    key: PageKey,
    buffer: &mut Vec<u8>,
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Result<T, String> {
    store.get(key, buffer).map_err(|error| error.to_string())?;
    decode(buffer).map_err(|error| error.to_string())
}

/// A [`PageStore`] in one growing buffer: for the offline driver and tests (it saves no
/// memory, but runs every page through the same records a file holds).
#[derive(Debug, Default)]
pub struct MemoryPageStore {
    bytes: RwLock<Vec<u8>>,
}

impl PageStore for MemoryPageStore {
    fn put(&self, record: &[u8]) -> std::io::Result<PageKey> {
        let mut bytes = self
            .bytes
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = PageKey {
            offset: bytes.len() as u64,
            len: u32::try_from(record.len()).map_err(std::io::Error::other)?,
        };
        bytes.extend_from_slice(record);
        Ok(key)
    }

    fn get(&self, key: PageKey, into: &mut Vec<u8>) -> std::io::Result<()> {
        let bytes = self
            .bytes
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let record = usize::try_from(key.offset)
            .ok()
            .and_then(|start| Some(start..start.checked_add(key.len as usize)?))
            .and_then(|range| bytes.get(range))
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::UnexpectedEof))?;
        into.clear();
        into.extend_from_slice(record);
        Ok(())
    }
}

/// A page as stored: every field of [`FetchedPage`] but the rendering (stored pages are never
/// rendered ones).
#[derive(Serialize)]
struct RecordOut<'a> {
    status: u16,
    headers: &'a str,
    body_len: u64,
    body_truncated: bool,
    signals: &'a Signals,
    internal_outlinks: u32,
    assets_found: u32,
}

#[derive(Deserialize)]
struct RecordIn {
    status: u16,
    headers: Box<str>,
    body_len: u64,
    body_truncated: bool,
    signals: Signals,
    internal_outlinks: u32,
    assets_found: u32,
}

/// `page` as a record; `None` for a rendered page, which stays in memory.
pub(crate) fn encode(page: &FetchedPage, into: &mut Vec<u8>) -> Option<()> {
    if page.rendered.is_some() {
        return None;
    }
    into.clear();
    let record = RecordOut {
        status: page.status,
        headers: page.headers.as_text(),
        body_len: page.body_len,
        body_truncated: page.body_truncated,
        signals: &page.signals,
        internal_outlinks: page.internal_outlinks,
        assets_found: page.assets_found,
    };
    serde_json::to_writer(into, &record).ok()
}

/// The page a record written by [`encode`] holds.
pub(crate) fn decode(record: &[u8]) -> serde_json::Result<FetchedPage> {
    let record: RecordIn = serde_json::from_slice(record)?;
    Ok(FetchedPage {
        status: record.status,
        headers: KeptHeaders::from_text(record.headers),
        body_len: record.body_len,
        body_truncated: record.body_truncated,
        signals: record.signals,
        internal_outlinks: record.internal_outlinks,
        assets_found: record.assets_found,
        rendered: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::HeaderLine;
    use crate::signals::{PageInput, extract};
    use url::Url;

    /// A page with a signal of every kind: tags, headers, a refresh, a head break, non-ASCII.
    fn rich_page() -> FetchedPage {
        let url = Url::parse("https://site.test/dir/page?q=1").unwrap();
        let headers = [
            HeaderLine::new("Content-Type", "text/html; charset=utf-8"),
            HeaderLine::new(
                "X-Robots-Tag",
                "googlebot: noindex, unavailable_after: 2030-01-01",
            ),
            HeaderLine::new("Link", "<https://site.test/c>; rel=\"canonical\""),
            HeaderLine::new("Last-Modified", "Tue, 01 Jun 2021 10:00:00 GMT"),
        ];
        let body = r#"<html lang="de"><head><title>Grüße "quoted" \ back</title>
            <meta name="robots" content="nofollow, max-snippet:20, unknown-token">
            <link rel="canonical" href="/dir/page?q=1">
            <link rel="alternate" hreflang="en" href="https://site.test/en/">
            <link rel="alternate" hreflang="x-default" href="/">
            <meta http-equiv="refresh" content="5; url=/next">
            <img src="/break.png"><link rel="canonical" href="/late">
            </head><body><a href="/a">a</a></body></html>"#;
        let signals = extract(&PageInput {
            url: &url,
            status: 200,
            headers: &headers,
            body: body.as_bytes(),
        });
        assert!(signals.meta_refresh.is_some() && signals.head_break.is_some());
        FetchedPage {
            status: 200,
            headers: KeptHeaders::keep(&headers),
            body_len: body.len() as u64,
            body_truncated: true,
            signals,
            internal_outlinks: 7,
            assets_found: 3,
            rendered: None,
        }
    }

    #[test]
    fn a_page_read_back_from_its_record_is_the_page_written() {
        let page = rich_page();
        let mut record = Vec::new();
        encode(&page, &mut record).unwrap();
        let back = decode(&record).unwrap();
        assert_eq!(back.signals, page.signals);
        assert_eq!(back.headers, page.headers);
        assert_eq!(
            (back.status, back.body_len, back.body_truncated),
            (page.status, page.body_len, page.body_truncated)
        );
        assert_eq!(
            (back.internal_outlinks, back.assets_found),
            (page.internal_outlinks, page.assets_found)
        );
    }

    #[test]
    fn the_memory_store_gives_back_each_record_and_refuses_a_key_past_its_end() {
        let store = MemoryPageStore::default();
        let first = store.put(b"one").unwrap();
        let second = store.put(b"second").unwrap();
        let mut into = Vec::new();
        store.get(second, &mut into).unwrap();
        assert_eq!(into, b"second");
        store.get(first, &mut into).unwrap();
        assert_eq!(into, b"one");
        let beyond = PageKey { offset: 5, len: 9 };
        assert!(store.get(beyond, &mut into).is_err());
    }

    #[test]
    fn a_corrupt_record_is_an_error_not_a_panic() {
        let mut record = Vec::new();
        encode(&rich_page(), &mut record).unwrap();
        record.truncate(record.len() / 2);
        assert!(decode(&record).is_err());
    }
}
