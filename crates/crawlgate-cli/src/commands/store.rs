//! The crawl store as `crawl` and `audit` use it: resumed first (the crawl takes its audit time)
//! or made once the command's inputs are checked, closed after the crawl, and what it means for
//! the user said: how to resume, or that it is gone. A usage error leaves no store behind.

use crate::commands::crawl_args::CrawlArgs;
use anyhow::{Context as _, Result};
use crawlgate::site::Bound;
use crawlgate::{CrawlStore, HttpOptions, STORE_FILE, Site};
use std::path::{Path, PathBuf};

/// A crawl store in use, and whether it goes once the crawl is complete (and what the command
/// writes from it is written).
pub(crate) struct OpenStore {
    pub(crate) store: CrawlStore,
    pub(crate) dir: PathBuf,
    /// Kept only while the crawl is incomplete: the audit's own, in its report folder.
    temporary: bool,
    /// The folder did not exist before the store: it goes with a temporary store when empty
    /// (an audit that reached nothing leaves no folder behind).
    made_dir: bool,
    /// Resumed (`--resume`), not made by this command: what an earlier run stored is in it.
    resumed: bool,
}

impl OpenStore {
    /// The store `--resume DIR` names, opened; `None` without `--resume`. Opened first: the
    /// crawl takes its audit time.
    pub(crate) fn resume(args: &CrawlArgs) -> Result<Option<Self>> {
        let Some(dir) = &args.resume else {
            return Ok(None);
        };
        let store = CrawlStore::resume(dir).context("--resume")?;
        Ok(Some(Self {
            temporary: !store.keep(),
            store,
            dir: dir.clone(),
            made_dir: false,
            resumed: true,
        }))
    }

    /// A new store where `args` asks for one (`--store DIR`), else in `default` (the audit's
    /// report folder, kept only until the crawl is complete); `None` when no store is used.
    /// Made for `audit_time`, once everything else the command needs has been checked, so
    /// that a usage error leaves no store (nor folder) behind.
    pub(crate) fn create(
        args: &CrawlArgs,
        default: Option<&Path>,
        audit_time: jiff::Timestamp,
    ) -> Result<Option<Self>> {
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
            resumed: false,
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

    /// `crawled` as it is; when it is an error (the crawl could not start: a start URL the
    /// scope excludes, a TLS setup error), `store` is abandoned first.
    pub(crate) fn abandon_on_error<T, E>(
        store: &mut Option<Self>,
        crawled: Result<T, E>,
    ) -> Result<T, E> {
        if crawled.is_err()
            && let Some(store) = store.take()
        {
            store.abandon();
        }
        crawled
    }

    /// Close the store of a crawl that could not start: nothing new is in it, so a temporary
    /// store this command made goes, with the folder it made; one the user named (`--store`)
    /// or a resumed one (an earlier run's responses) stays.
    fn abandon(self) {
        if self.temporary && !self.resumed {
            let _ = self.store.close_for_removal();
            remove_store(&self.dir, self.made_dir);
        } else {
            let _ = self.store.close();
        }
    }

    /// Close the store once the crawl is over and say what it means: a crawl that did not
    /// finish can be resumed (the command to run). A finished crawl's temporary store is given
    /// back as a [`FinishedStore`], to be removed once what the command writes is written.
    pub(crate) fn close(self, site: &Site) -> Option<FinishedStore> {
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
        }
        remove.then_some(FinishedStore {
            dir: self.dir,
            made_dir: self.made_dir,
        })
    }
}

/// What quitting costs once the crawl is over and `what` (the reports) is being written: said
/// by the signal listener ([`crate::commands::live::AfterCrawl`]).
pub(crate) fn quit_cost(store: Option<&OpenStore>, what: &str) -> String {
    match store {
        Some(store) => format!(
            "{what} not yet written will not be, but the crawl store in `{}` stays: the same command with --resume {} writes them, fetching only what it does not hold",
            store.dir.display(),
            store.dir.display()
        ),
        None => format!("{what} not yet written are lost (no crawl store)"),
    }
}

/// A finished crawl's store that is not to be kept, closed. Its files stay until the reports
/// are written: when writing them fails, or the process is killed first, a resume writes them
/// again from the store instead of fetching the whole site again.
#[must_use = "a finished store is removed or kept once the reports are written"]
pub(crate) struct FinishedStore {
    dir: PathBuf,
    made_dir: bool,
}

impl FinishedStore {
    /// Remove the store once the command `wrote_all` it had to (or had nothing to write), keep
    /// it and say how to use it when it did not.
    pub(crate) fn settle(this: Option<Self>, wrote_all: bool) {
        let Some(store) = this else { return };
        if wrote_all {
            remove_store(&store.dir, store.made_dir);
        } else {
            crate::terminal::say!(
                "the crawl store in `{}` is kept: run the same command with --resume {} to write the reports again without fetching the site again",
                store.dir.display(),
                store.dir.display()
            );
        }
    }
}

/// Remove the store's files (the database and SQLite's companions) from `dir`, and `dir` too
/// when the store made it and it is empty.
fn remove_store(dir: &Path, made_dir: bool) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = dir.join(STORE_FILE).into_os_string();
        file.push(suffix);
        // Already gone is fine; the reports beside it are what matters.
        let _ = std::fs::remove_file(file);
    }
    if made_dir {
        // Only an empty folder is removed; the reports are written into it later.
        let _ = std::fs::remove_dir(dir);
    }
}
