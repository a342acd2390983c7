//! `crawlgate audit --demo`: the bundled demo site (fixtures/sites/demo), embedded in the binary
//! and served on 127.0.0.1 for the length of the audit.

use anyhow::{Context, Result};
use crawlgate_crawl::serve::{ServedSite, SiteServer};
use url::Url;

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// The demo site, served until dropped.
pub(crate) struct Demo {
    server: SiteServer,
}

impl Demo {
    /// Serve the demo site on an ephemeral port of 127.0.0.1.
    pub(crate) fn start() -> Result<Self> {
        let site = ServedSite::from_files(DEMO_FILES.iter().map(|(path, bytes)| (*path, *bytes)))
            .context("the embedded demo site is invalid")?;
        let server = SiteServer::start_in_background(site).context("cannot serve the demo site")?;
        Ok(Self { server })
    }

    /// Where the audit starts.
    pub(crate) fn start_url(&self) -> Url {
        self.server.url("/")
    }
}
