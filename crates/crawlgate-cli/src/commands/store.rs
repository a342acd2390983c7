//! The crawl store as `crawl` and `audit` use it: opened (or resumed) before the crawl, closed
//! after it, and what it means for the user said: how to resume, or that it is gone.

use crate::commands::crawl_args::CrawlArgs;
use anyhow::{Context as _, Result};
use crawlgate::site::Bound;
use crawlgate::{CrawlStore, HttpOptions, STORE_FILE, Site};
use std::path::{Path, PathBuf};

/// A crawl store in use, and whether it goes once the crawl is complete.
pub(crate) struct OpenStore {
    pub(crate) store: CrawlStore,
    pub(crate) dir: PathBuf,
    /// Kept only while the crawl is incomplete: the audit's own, in its report folder.
    temporary: bool,
    /// The folder did not exist before the store: it goes with a temporary store when empty
    /// (an audit that reached nothing leaves no folder behind).
    made_dir: bool,
}

impl OpenStore {
    /// The store `args` asks for (`--resume DIR`, `--store DIR`), else `default` (the audit's
    /// report folder, kept only until the crawl is complete); `None` when no store is used.
    /// A new store is made for `audit_time`; a resumed one has its own.
    pub(crate) fn open(
        args: &CrawlArgs,
        default: Option<&Path>,
        audit_time: jiff::Timestamp,
    ) -> Result<Option<Self>> {
        if let Some(dir) = &args.resume {
            let store = CrawlStore::resume(dir).context("--resume")?;
            return Ok(Some(Self {
                temporary: !store.keep(),
                store,
                dir: dir.clone(),
                made_dir: false,
            }));
        }
        let (dir, temporary) = match (&args.store, default) {
            (Some(dir), _) => (dir.as_path(), false),
            (None, Some(dir)) => (dir, true),
            (None, None) => return Ok(None),
        };
        let made_dir = !dir.exists();
        let store = CrawlStore::create(dir, audit_time, !temporary).context("the crawl store")?;
        Ok(Some(Self {
            store,
            dir: dir.to_path_buf(),
            temporary,
            made_dir,
        }))
    }

    /// The audit time of the crawl: a resumed store's, else `fresh`.
    pub(crate) fn audit_time(store: Option<&Self>, fresh: jiff::Timestamp) -> jiff::Timestamp {
        store.map_or(fresh, |open| open.store.audit_time())
    }

    /// Tie the store to the crawl about to run (a resumed store refuses another crawl).
    pub(crate) fn bind(
        &mut self,
        config: &crawlgate::crawl::CrawlConfig,
        http: &HttpOptions,
    ) -> Result<()> {
        self.store.bind(config, http).context("--resume")
    }

    /// Close the store once the crawl is over and say what it means: a crawl that did not
    /// finish can be resumed (the command to run), a finished one's temporary store is
    /// removed.
    pub(crate) fn close(self, site: &Site) {
        let incomplete = site.stats.interrupted
            || site
                .stats
                .bounds_hit
                .iter()
                .any(|bound| matches!(bound, Bound::TotalTime(_)));
        let remove = self.temporary && !incomplete;
        let summary = if remove {
            self.store.close_for_removal()
        } else {
            self.store.close()
        };
        if let Some(error) = &summary.error {
            crate::terminal::say!(
                "warning: the crawl store in `{}` stopped storing responses ({error}); {} were not stored, a resume fetches them again",
                self.dir.display(),
                summary.not_stored
            );
        } else if summary.not_stored > 0 {
            crate::terminal::say!(
                "note: the crawl store in `{}` reached its bound of {} GiB; {} responses were not stored, a resume fetches them again",
                self.dir.display(),
                crawlgate::MAX_STORE_BYTES >> 30,
                summary.not_stored
            );
        }
        if incomplete {
            crate::terminal::say!(
                "the crawl did not finish: to continue it, run the same command with --resume {}",
                self.dir.display()
            );
        } else if remove {
            remove_store(&self.dir);
            if self.made_dir {
                // Only an empty folder is removed; the reports are written into it later.
                let _ = std::fs::remove_dir(&self.dir);
            }
        }
    }
}

/// Remove the store's files (the database and SQLite's companions) from `dir`.
fn remove_store(dir: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = dir.join(STORE_FILE).into_os_string();
        file.push(suffix);
        // Already gone is fine; the reports beside it are what matters.
        let _ = std::fs::remove_file(file);
    }
}
