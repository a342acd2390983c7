//! The crawl store: every response the crawl records, written to disk as it comes, so that a
//! crawl stopped by Ctrl-C, a kill or a crash continues from where it was (`--resume DIR`).
//!
//! What is kept is the response as received (redirect hops, status, header lines, the body up
//! to its cap, or the failure), not what the crawl made of it: a resumed crawl answers the
//! requests the state machine hands out from the store and fetches the rest, so every
//! decision (scope, bounds, depth, verdicts) is made again by the same code, and the Site
//! is the one an uninterrupted crawl builds.
//!
//! SQLite (rusqlite, bundled) in WAL mode: a committed batch survives the process being
//! killed at any point; a batch being written when it dies is rolled back, and its requests
//! are fetched again. Writes go through one thread of their own, in batches, so fetching tasks
//! never wait for the disk unless it falls behind by [`CHANNEL_RECORDS`].

use crate::HttpOptions;
use crawlgate_core::crawl::{CrawlConfig, Request, RequestKind, Response};
use crawlgate_core::finding::RedirectHop;
use crawlgate_core::signals::HeaderLine;
use crawlgate_core::site::{FailureKind, Received};
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use jiff::Timestamp;
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use url::Url;

/// The store's file in its folder (SQLite adds `-wal` and `-shm` beside it while it is open).
pub const STORE_FILE: &str = "crawl-store.sqlite";

/// The layout of the tables and of a stored response; a store of another layout is refused.
const FORMAT: &str = "crawlgate-crawl-store 1";

/// Records waiting for the writer thread; past it, fetching tasks wait for the disk.
const CHANNEL_RECORDS: usize = 1_024;

/// Records written in one transaction at most.
const BATCH_RECORDS: usize = 1_000;

/// The pause after a batch that was not full, for the next one to gather; the most a
/// response waits in memory before its commit, beyond the commit itself.
const BATCH_GATHER: Duration = Duration::from_millis(20);

/// How often the pause checks whether it can end early.
const GATHER_STEP: Duration = Duration::from_millis(1);

/// Bodies larger than this are stored deflated (sitemaps and large pages shrink several
/// times); smaller ones are stored as they are, which costs less CPU than it saves on disk.
const COMPRESS_FROM_BYTES: usize = 16 * 1024;

/// Bytes of bodies the store keeps at most over a crawl; past it, responses are not stored
/// (a resume fetches them again) and the store says how many it left out.
pub const MAX_STORE_BYTES: u64 = 16 * 1024 * 1024 * 1024;

/// How long closing waits for the writer to finish what it was given.
const CLOSE_WAIT: Duration = Duration::from_secs(60);

/// Why a store cannot be used. Names paths, never what a response held.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot use the crawl store `{path}`: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("cannot create the crawl store's folder `{path}`: {source}")]
    Folder {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{0}` holds no crawl store to resume (no {STORE_FILE} in it)")]
    Missing(PathBuf),
    #[error(
        "the crawl store `{path}` is not one this crawlgate can resume ({found}): start afresh in another folder"
    )]
    Format { path: PathBuf, found: String },
    #[error(
        "the crawl store `{path}` was made by another crawl ({what}): resume it with the options that started it, or start afresh in another folder"
    )]
    OtherCrawl { path: PathBuf, what: String },
}

/// What closing a store tells: how much it holds, what it left out and whether writing failed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreSummary {
    /// Responses stored by this run.
    pub written: u64,
    /// Responses answered from the store (written by an earlier run).
    pub replayed: u64,
    /// Responses not stored: past [`MAX_STORE_BYTES`], or after a write failed.
    pub not_stored: u64,
    /// The first write error (a full disk, a removed folder), when there was one.
    pub error: Option<String>,
}

/// An open crawl store. Give it to [`crate::crawl_with_store`]; close it with
/// [`CrawlStore::close`] once the crawl is done.
pub struct CrawlStore {
    path: PathBuf,
    /// Reads on the crawl's loop; the writer thread has a connection of its own.
    reader: Mutex<Connection>,
    /// Whether the store held responses when it was opened: without any, nothing is looked up.
    had_responses: bool,
    audit_time: Timestamp,
    key: String,
    keep: bool,
    sender: Option<mpsc::Sender<Record>>,
    outcome: std_mpsc::Receiver<WriterOutcome>,
    replayed: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for CrawlStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrawlStore")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl CrawlStore {
    /// A new store in `dir` (created when missing) for a crawl at `audit_time`; `keep` says
    /// whether it is to be kept once the crawl is complete (for its user: [`CrawlStore::keep`]).
    /// A store already there is replaced: only [`CrawlStore::resume`] continues one.
    pub fn create(dir: &Path, audit_time: Timestamp, keep: bool) -> Result<Self, StoreError> {
        Self::create_within(dir, audit_time, keep, MAX_STORE_BYTES)
    }

    /// [`CrawlStore::create`], keeping at most `max_bytes` of bodies.
    fn create_within(
        dir: &Path,
        audit_time: Timestamp,
        keep: bool,
        max_bytes: u64,
    ) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Folder {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join(STORE_FILE);
        for suffix in ["", "-wal", "-shm"] {
            let mut file = path.clone().into_os_string();
            file.push(suffix);
            // Nothing to remove is the usual case.
            let _ = std::fs::remove_file(file);
        }
        let connection = open(&path)?;
        let sqlite = |source| StoreError::Sqlite {
            path: path.clone(),
            source,
        };
        connection
            .execute_batch(
                "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE responses (
                     kind TEXT NOT NULL,
                     url TEXT NOT NULL,
                     meta TEXT NOT NULL,
                     body BLOB NOT NULL,
                     deflated INTEGER NOT NULL,
                     body_len INTEGER NOT NULL,
                     UNIQUE (kind, url));",
            )
            .map_err(sqlite)?;
        connection
            .execute(
                "INSERT INTO meta (name, value) VALUES ('format', ?1), ('audit_time', ?2), ('keep', ?3)",
                params![FORMAT, audit_time.to_string(), if keep { "yes" } else { "no" }],
            )
            .map_err(sqlite)?;
        let budget = Budget {
            stored: 0,
            max: max_bytes,
        };
        Self::start(
            path,
            connection,
            audit_time,
            false,
            String::new(),
            keep,
            budget,
        )
    }

    /// The store an earlier crawl left in `dir`, to continue it.
    pub fn resume(dir: &Path) -> Result<Self, StoreError> {
        Self::resume_within(dir, MAX_STORE_BYTES)
    }

    /// [`CrawlStore::resume`], keeping at most `max_bytes` of bodies over all the runs.
    fn resume_within(dir: &Path, max_bytes: u64) -> Result<Self, StoreError> {
        let path = dir.join(STORE_FILE);
        if !path.is_file() {
            return Err(StoreError::Missing(dir.to_path_buf()));
        }
        let connection = open(&path)?;
        let meta = |name: &str| -> Result<Option<String>, rusqlite::Error> {
            connection
                .query_row("SELECT value FROM meta WHERE name = ?1", [name], |row| {
                    row.get(0)
                })
                .optional()
        };
        let format_error = |found: String| StoreError::Format {
            path: path.clone(),
            found,
        };
        let format = meta("format").map_err(|error| format_error(error.to_string()))?;
        if format.as_deref() != Some(FORMAT) {
            return Err(format_error(
                format.unwrap_or_else(|| "no format".to_owned()),
            ));
        }
        let audit_time = meta("audit_time")
            .ok()
            .flatten()
            .and_then(|text| text.parse::<Timestamp>().ok())
            .ok_or_else(|| format_error("no audit time".to_owned()))?;
        let key = meta("crawl").ok().flatten().unwrap_or_default();
        let keep = meta("keep").ok().flatten().as_deref() != Some("no");
        let had_responses = connection
            .query_row("SELECT EXISTS (SELECT 1 FROM responses)", [], |row| {
                row.get::<_, bool>(0)
            })
            .map_err(|source| StoreError::Sqlite {
                path: path.clone(),
                source,
            })?;
        // What earlier runs stored counts against the bound: it holds over the store, not
        // per run, however often the crawl is resumed. Each batch writes the total; a store
        // without it (written before it was kept) is summed once.
        let stored = match meta("stored_bytes").ok().flatten() {
            Some(total) => total.parse().ok(),
            None => connection
                .query_row(
                    "SELECT COALESCE(SUM(octet_length(body) + octet_length(meta)
                                         + octet_length(url)), 0)
                     FROM responses",
                    [],
                    |row| row.get::<_, i64>(0),
                )
                .ok()
                .and_then(|total| u64::try_from(total).ok()),
        }
        .ok_or_else(|| format_error("no size of what it holds".to_owned()))?;
        let budget = Budget {
            stored,
            max: max_bytes,
        };
        Self::start(
            path,
            connection,
            audit_time,
            had_responses,
            key,
            keep,
            budget,
        )
    }

    fn start(
        path: PathBuf,
        reader: Connection,
        audit_time: Timestamp,
        had_responses: bool,
        key: String,
        keep: bool,
        budget: Budget,
    ) -> Result<Self, StoreError> {
        let writer = open(&path)?;
        let (sender, receiver) = mpsc::channel(CHANNEL_RECORDS);
        let (outcome_sender, outcome) = std_mpsc::channel();
        std::thread::Builder::new()
            .name("crawl-store".to_owned())
            .spawn(move || {
                let outcome = write_records(&writer, receiver, budget);
                // Closed before `close` hears of it: the reader, closed last, then checkpoints
                // the WAL and removes its files. Closed after, a process exiting right after
                // `close` could leave them beside the store.
                drop(writer);
                // The receiver may be gone (a store dropped without closing): nothing to tell.
                let _ = outcome_sender.send(outcome);
            })
            .map_err(|source| StoreError::Folder {
                path: path.clone(),
                source,
            })?;
        Ok(Self {
            path,
            reader: Mutex::new(reader),
            had_responses,
            audit_time,
            key,
            keep,
            sender: Some(sender),
            outcome,
            replayed: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Whether the store is to be kept once the crawl is complete, as [`CrawlStore::create`]
    /// was told (a resumed store keeps what its first run said).
    pub fn keep(&self) -> bool {
        self.keep
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The audit time of the crawl that made the store: a resumed crawl keeps it, so that
    /// what is judged against the date (sitemap `lastmod`) is judged as before.
    pub fn audit_time(&self) -> Timestamp {
        self.audit_time
    }

    /// Tie the store to the crawl about to run: a new store records what the crawl is; a
    /// resumed one must be continued by the same crawl (the same start, scope, bounds,
    /// profiles and User-Agent; access given or not), else its responses would answer
    /// requests they were not the answer to.
    pub fn bind(&mut self, config: &CrawlConfig, http: &HttpOptions) -> Result<(), StoreError> {
        let key = crawl_key(config, http);
        if self.key.is_empty() {
            self.reader
                .lock()
                .map_err(|_| StoreError::Format {
                    path: self.path.clone(),
                    found: "a poisoned lock".to_owned(),
                })?
                .execute(
                    "INSERT OR REPLACE INTO meta (name, value) VALUES ('crawl', ?1), ('start', ?2)",
                    params![key, config.start_url.as_str()],
                )
                .map_err(|source| StoreError::Sqlite {
                    path: self.path.clone(),
                    source,
                })?;
            self.key = key;
            return Ok(());
        }
        if self.key == key {
            return Ok(());
        }
        let start: Option<String> = self.reader.lock().ok().and_then(|reader| {
            reader
                .query_row("SELECT value FROM meta WHERE name = 'start'", [], |row| {
                    row.get(0)
                })
                .ok()
        });
        let what = match start {
            Some(start) if start != config.start_url.as_str() => {
                format!("it started at {start}, not {}", config.start_url)
            }
            _ => "its options differ".to_owned(),
        };
        Err(StoreError::OtherCrawl {
            path: self.path.clone(),
            what,
        })
    }

    /// The stored response to `request`, when an earlier run recorded one. A record that
    /// cannot be read is treated as absent: the request is fetched again.
    pub(crate) fn lookup(&self, request: &Request) -> Option<Response> {
        if !self.had_responses {
            return None;
        }
        let reader = self.reader.lock().ok()?;
        let mut statement = reader
            .prepare_cached(
                "SELECT meta, body, deflated, body_len FROM responses WHERE kind = ?1 AND url = ?2",
            )
            .ok()?;
        let (meta, body, deflated, body_len): (String, Vec<u8>, bool, u64) = statement
            .query_row(
                params![kind_name(request.kind), request.url.as_str()],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()
            .ok()??;
        let meta: StoredMeta = serde_json::from_str(&meta).ok()?;
        let body = if deflated {
            let mut inflated = Vec::with_capacity(usize::try_from(body_len).ok()?);
            DeflateDecoder::new(body.as_slice())
                .take(body_len.saturating_add(1))
                .read_to_end(&mut inflated)
                .ok()?;
            (inflated.len() as u64 == body_len).then_some(inflated)?
        } else {
            body
        };
        let response = meta.into_response(body)?;
        self.replayed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(response)
    }

    /// A handle the fetching tasks record responses through.
    pub(crate) fn recorder(&self) -> Option<Recorder> {
        self.sender.clone().map(|sender| Recorder { sender })
    }

    /// Wait for the writer to store what it was given, and say what the store holds. The
    /// crawl must be over (its tasks hold recorders until they end).
    pub fn close(self) -> StoreSummary {
        self.finish(true)
    }

    /// [`CrawlStore::close`] for a store about to be removed (a complete crawl's, not to be
    /// kept): the write-ahead log is not folded into the database first, which would write and
    /// sync every stored response a second time. The caller removes the files.
    pub fn close_for_removal(self) -> StoreSummary {
        self.finish(false)
    }

    fn finish(mut self, checkpoint: bool) -> StoreSummary {
        if !checkpoint {
            let reader = self
                .reader
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            // Not applied leaves the checkpoint to happen: slower, same result.
            let _ = reader.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true);
        }
        self.sender = None;
        let outcome = self
            .outcome
            .recv_timeout(CLOSE_WAIT)
            .unwrap_or(WriterOutcome {
                written: 0,
                not_stored: 0,
                error: Some("the store's writer did not finish in time".to_owned()),
            });
        StoreSummary {
            written: outcome.written,
            replayed: self.replayed.load(std::sync::atomic::Ordering::Relaxed),
            not_stored: outcome.not_stored,
            error: outcome.error,
        }
    }
}

/// What makes a crawl the same crawl: its configuration (audit time aside: the store's own is
/// used) and what the server sees of the requests, access by kind only (no secret is stored).
fn crawl_key(config: &CrawlConfig, http: &HttpOptions) -> String {
    let mut config = CrawlConfig {
        audit_time: Timestamp::UNIX_EPOCH,
        ..config.clone()
    };
    // Where the pages are kept changes nothing the crawl asks or finds: a crawl resumed with
    // another --pages-in-memory is the same crawl.
    config.bounds.pages_in_memory = 0;
    let access = &http.access;
    let headers: Vec<&str> = access
        .headers
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    format!(
        "{config:?}\nuser-agent: {}\nbasic auth: {}\ncookie: {}\nheaders: {headers:?}",
        http.user_agent,
        access.basic_auth.is_some(),
        access.cookie.is_some(),
    )
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let sqlite = |source| StoreError::Sqlite {
        path: path.to_path_buf(),
        source,
    };
    let connection = Connection::open(path).map_err(sqlite)?;
    // WAL: a commit is one append, readers do not block the writer, and a process killed
    // mid-write leaves the last committed state. `NORMAL` syncs at checkpoints only: a kill
    // loses nothing committed (the OS holds it); a power cut may lose the last batches, never
    // the file's consistency.
    // The switch of a new file to WAL is made without syncing: a store cut short by a power
    // failure right then is refused by `resume` (no format), and syncing cost a few ms of every
    // audit's start.
    connection
        .execute_batch(
            "PRAGMA page_size = 65536; PRAGMA synchronous = OFF; PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;",
        )
        .map_err(sqlite)?;
    // Pages behind authentication may be stored: the file is the user's alone.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // A file system without permissions (a mounted share) keeps its own.
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(connection)
}

fn kind_name(kind: RequestKind) -> &'static str {
    match kind {
        RequestKind::Robots => "robots",
        RequestKind::Sitemap => "sitemap",
        RequestKind::Page => "page",
        RequestKind::Asset => "asset",
    }
}

/// Sends responses to the writer thread.
#[derive(Clone)]
pub(crate) struct Recorder {
    sender: mpsc::Sender<Record>,
}

impl Recorder {
    /// Store `response` to `request` (the final answer: not one asked again).
    pub(crate) async fn record(&self, request: &Request, response: &Response) {
        let record = Record::of(request, response);
        // The writer is gone only after a failure it reports itself.
        let _ = self.sender.send(record).await;
    }
}

/// One response, as the fetching task hands it over: copied, not yet encoded (the writer
/// thread encodes it, off the crawl's loop).
struct Record {
    kind: RequestKind,
    url: String,
    meta: StoredMeta,
    body: Vec<u8>,
}

impl Record {
    fn of(request: &Request, response: &Response) -> Self {
        let (meta, body) = StoredMeta::of(response);
        Self {
            kind: request.kind,
            url: request.url.as_str().to_owned(),
            meta,
            body: body.to_vec(),
        }
    }

    /// The row's `meta` text, body (deflated when large) and whether it is deflated.
    fn encode(&self) -> (String, Cow<'_, [u8]>, bool) {
        // Serialising plain strings and numbers cannot fail.
        let meta = serde_json::to_string(&self.meta).unwrap_or_default();
        if self.body.len() > COMPRESS_FROM_BYTES {
            let mut encoder = DeflateEncoder::new(Vec::new(), Compression::fast());
            if let Ok(deflated) = encoder
                .write_all(&self.body)
                .and_then(|()| encoder.finish())
            {
                return (meta, Cow::Owned(deflated), true);
            }
        }
        (meta, Cow::Borrowed(&self.body), false)
    }
}

struct WriterOutcome {
    written: u64,
    not_stored: u64,
    error: Option<String>,
}

/// The writer thread: records in batches, one transaction each, until every sender is gone.
/// Bytes of bodies (with their meta and URL) a store holds, and the most it may.
#[derive(Debug, Clone, Copy)]
struct Budget {
    stored: u64,
    max: u64,
}

fn write_records(
    connection: &Connection,
    mut receiver: mpsc::Receiver<Record>,
    mut budget: Budget,
) -> WriterOutcome {
    let mut outcome = WriterOutcome {
        written: 0,
        not_stored: 0,
        error: None,
    };
    let mut batch = Vec::with_capacity(BATCH_RECORDS);
    while let Some(first) = receiver.blocking_recv() {
        batch.push(first);
        while batch.len() < BATCH_RECORDS {
            match receiver.try_recv() {
                Ok(record) => batch.push(record),
                Err(_) => break,
            }
        }
        if outcome.error.is_some() {
            outcome.not_stored += batch.len() as u64;
            batch.clear();
            continue;
        }
        let before = outcome.written;
        if let Err(error) = write_batch(connection, &mut batch, &mut budget, &mut outcome) {
            outcome.error = Some(error.to_string());
            outcome.not_stored += batch.len() as u64 + (outcome.written - before);
            outcome.written = before;
        }
        let full = batch.len() == BATCH_RECORDS;
        batch.clear();
        if !full {
            gather(&receiver);
        }
    }
    outcome
}

/// Let the next batch gather after one that was not full: a commit costs locks and a write
/// per page however few records it holds, and records arriving one by one would each be a
/// transaction. The pause ends early once a batch is waiting or every sender is gone:
/// closing the store must not wait for it.
fn gather(receiver: &mpsc::Receiver<Record>) {
    let until = Instant::now() + BATCH_GATHER;
    while receiver.len() < BATCH_RECORDS && !receiver.is_closed() {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        std::thread::sleep(left.min(GATHER_STEP));
    }
}

/// What a stored response counts against the store's bound: its body as stored, its meta and
/// its URL (the resume's sum of the store's contents counts the same).
fn stored_bytes(meta: &str, body: &[u8], url: &str) -> u64 {
    (body.len() + meta.len() + url.len()) as u64
}

fn write_batch(
    connection: &Connection,
    batch: &mut [Record],
    budget: &mut Budget,
    outcome: &mut WriterOutcome,
) -> Result<(), rusqlite::Error> {
    let transaction = connection.unchecked_transaction()?;
    {
        let mut insert = transaction.prepare_cached(
            "INSERT OR REPLACE INTO responses (kind, url, meta, body, deflated, body_len)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for record in batch.iter() {
            let (meta, body, deflated) = record.encode();
            let size = stored_bytes(&meta, &body, &record.url);
            if budget.stored.saturating_add(size) > budget.max {
                outcome.not_stored += 1;
                continue;
            }
            insert.execute(params![
                kind_name(record.kind),
                record.url,
                meta,
                body.as_ref(),
                deflated,
                record.body.len() as u64
            ])?;
            budget.stored += size;
            outcome.written += 1;
        }
    }
    // With the batch, so that a resume reads it without summing every response.
    transaction.execute(
        "INSERT OR REPLACE INTO meta (name, value) VALUES ('stored_bytes', ?1)",
        [budget.stored.to_string()],
    )?;
    transaction.commit()
}

/// A response without its body, as stored.
#[derive(Serialize, Deserialize)]
struct StoredMeta {
    hops: Vec<RedirectHop>,
    outcome: StoredOutcome,
}

#[derive(Serialize, Deserialize)]
enum StoredOutcome {
    Received {
        final_url: String,
        status: u16,
        headers: Vec<HeaderLine>,
        truncated: bool,
    },
    Failed {
        kind: FailureKind,
        message: String,
    },
}

impl StoredMeta {
    fn of(response: &Response) -> (Self, &[u8]) {
        let hops = response.hops.clone();
        let (outcome, body) = match &response.outcome {
            Ok(received) => (
                StoredOutcome::Received {
                    final_url: received.final_url.as_str().to_owned(),
                    status: received.status,
                    headers: received.headers.clone(),
                    truncated: received.body_truncated,
                },
                received.body.as_slice(),
            ),
            Err((kind, message)) => (
                StoredOutcome::Failed {
                    kind: *kind,
                    message: message.clone(),
                },
                &[][..],
            ),
        };
        (Self { hops, outcome }, body)
    }

    fn into_response(self, body: Vec<u8>) -> Option<Response> {
        let hops = self.hops;
        let outcome = match self.outcome {
            StoredOutcome::Received {
                final_url,
                status,
                headers,
                truncated,
            } => Ok(Received {
                final_url: Url::parse(&final_url).ok()?,
                status,
                headers,
                body,
                body_truncated: truncated,
            }),
            StoredOutcome::Failed { kind, message } => Err((kind, message)),
        };
        Some(Response { hops, outcome })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::crawl::RequestId;

    fn request(kind: RequestKind, url: &str) -> Request {
        Request {
            id: RequestId::default(),
            url: Url::parse(url).unwrap(),
            kind,
            max_body_bytes: 1 << 20,
            read_body: true,
            max_redirects: 10,
        }
    }

    fn received(url: &str, body: Vec<u8>) -> Response {
        Response {
            hops: vec![RedirectHop {
                url: format!("{url}?from"),
                status: 301,
                location: Some(url.to_owned()),
            }],
            outcome: Ok(Received {
                final_url: Url::parse(url).unwrap(),
                status: 200,
                headers: vec![HeaderLine::new("Content-Type", "text/html")],
                body,
                body_truncated: true,
            }),
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crawlgate-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn responses_come_back_as_they_were_stored_after_a_reopen() {
        let dir = temp_dir("round-trip");
        let time: Timestamp = "2026-01-02T03:04:05Z".parse().unwrap();
        let config = CrawlConfig::new(Url::parse("http://127.0.0.1:1/").unwrap(), time);
        let http = HttpOptions::default();
        let mut store = CrawlStore::create(&dir, time, true).unwrap();
        store.bind(&config, &http).unwrap();
        let page = request(RequestKind::Page, "http://127.0.0.1:1/a");
        let large = request(RequestKind::Sitemap, "http://127.0.0.1:1/s.xml");
        let failed = request(RequestKind::Asset, "http://127.0.0.1:1/x.css");
        let large_body: Vec<u8> = b"<url><loc>http://127.0.0.1:1/p</loc></url>\n".repeat(2_000);
        let recorder = store.recorder().unwrap();
        recorder
            .record(
                &page,
                &received("http://127.0.0.1:1/a", b"<p>hi</p>".to_vec()),
            )
            .await;
        recorder
            .record(
                &large,
                &received("http://127.0.0.1:1/s.xml", large_body.clone()),
            )
            .await;
        let failure = Response {
            hops: Vec::new(),
            outcome: Err((FailureKind::Timeout, "timed out".to_owned())),
        };
        recorder.record(&failed, &failure).await;
        drop(recorder);
        // Nothing was stored before this run: nothing is looked up.
        assert!(store.lookup(&page).is_none());
        let summary = store.close();
        assert_eq!(
            (summary.written, summary.replayed, summary.error),
            (3, 0, None)
        );

        let mut store = CrawlStore::resume(&dir).unwrap();
        assert_eq!(store.audit_time(), time);
        store.bind(&config, &http).unwrap();
        let back = store.lookup(&page).unwrap();
        assert_eq!(back.hops, received("http://127.0.0.1:1/a", Vec::new()).hops);
        let received = back.outcome.unwrap();
        assert_eq!(received.body, b"<p>hi</p>");
        assert!(received.body_truncated);
        assert_eq!(
            received.headers,
            [HeaderLine::new("Content-Type", "text/html")]
        );
        assert_eq!(
            store.lookup(&large).unwrap().outcome.unwrap().body,
            large_body
        );
        assert_eq!(
            store.lookup(&failed).unwrap().outcome.unwrap_err(),
            (FailureKind::Timeout, "timed out".to_owned())
        );
        // The same URL as another kind of request was not stored.
        assert!(
            store
                .lookup(&request(RequestKind::Asset, "http://127.0.0.1:1/a"))
                .is_none()
        );
        assert_eq!(store.close().replayed, 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The bound on bodies holds over the store: a resumed run counts what earlier ones stored,
    /// so a crawl resumed again and again does not grow it past the bound each time.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_byte_bound_holds_over_every_run_of_a_resumed_store() {
        let dir = temp_dir("bound-over-runs");
        let time: Timestamp = "2026-01-02T03:04:05Z".parse().unwrap();
        let config = CrawlConfig::new(Url::parse("http://127.0.0.1:1/").unwrap(), time);
        let http = HttpOptions::default();
        let body = vec![b'x'; 1_000];
        // Room for three of these responses (body, meta and URL), not four.
        let one = {
            let url = "http://127.0.0.1:1/0";
            let record = Record::of(
                &request(RequestKind::Page, url),
                &received(url, body.clone()),
            );
            let (meta, stored, _) = record.encode();
            stored_bytes(&meta, &stored, &record.url)
        };
        let max_bytes = 3 * one + one / 2;
        let record = |store: &CrawlStore, names: std::ops::Range<u32>| {
            let recorder = store.recorder().unwrap();
            let body = body.clone();
            async move {
                for name in names {
                    let url = format!("http://127.0.0.1:1/{name}");
                    recorder
                        .record(
                            &request(RequestKind::Page, &url),
                            &received(&url, body.clone()),
                        )
                        .await;
                }
            }
        };

        let mut store = CrawlStore::create_within(&dir, time, true, max_bytes).unwrap();
        store.bind(&config, &http).unwrap();
        record(&store, 0..2).await;
        let summary = store.close();
        assert_eq!((summary.written, summary.not_stored), (2, 0));
        // A store whose total is not written down (as before it was) is summed instead.
        Connection::open(dir.join(STORE_FILE))
            .unwrap()
            .execute("DELETE FROM meta WHERE name = 'stored_bytes'", [])
            .unwrap();

        let mut store = CrawlStore::resume_within(&dir, max_bytes).unwrap();
        store.bind(&config, &http).unwrap();
        record(&store, 2..5).await;
        let summary = store.close();
        assert_eq!((summary.written, summary.not_stored), (1, 2));

        let mut store = CrawlStore::resume_within(&dir, max_bytes).unwrap();
        store.bind(&config, &http).unwrap();
        record(&store, 5..6).await;
        assert_eq!(store.close().not_stored, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_store_resumes_only_the_crawl_that_made_it() {
        let dir = temp_dir("other-crawl");
        let time = Timestamp::UNIX_EPOCH;
        let start = |url: &str| CrawlConfig::new(Url::parse(url).unwrap(), time);
        let http = HttpOptions::default();
        let mut store = CrawlStore::create(&dir, time, true).unwrap();
        store.bind(&start("http://127.0.0.1:1/"), &http).unwrap();
        store.close();

        let mut store = CrawlStore::resume(&dir).unwrap();
        let error = store
            .bind(&start("http://127.0.0.1:2/"), &http)
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("it started at http://127.0.0.1:1/, not http://127.0.0.1:2/"),
            "{error}"
        );
        let mut bounded = start("http://127.0.0.1:1/");
        bounded.bounds.max_pages = 3;
        let error = store.bind(&bounded, &http).unwrap_err();
        assert!(error.to_string().contains("its options differ"), "{error}");
        store.close();

        assert!(matches!(
            CrawlStore::resume(&dir.join("none")),
            Err(StoreError::Missing(_))
        ));
        std::fs::write(dir.join(STORE_FILE), b"not a database").unwrap();
        let error = CrawlStore::resume(&dir).unwrap_err().to_string();
        assert!(error.contains(STORE_FILE), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
