//! `crawlgate audit --demo`: the bundled demo (fixtures/sites/demo), embedded in the binary and
//! served on 127.0.0.1 for the length of the audit.
//!
//! Each folder of the demo is a site of its own, served on its own port (one origin can give only
//! one robots.txt outcome, and the demo shows many) under a host name of its own,
//! `http://NAME.northwind.test` (`www` is where the audit starts), which the audit resolves to
//! that port in memory ([`Demo::resolve`]): the report reads like a real site's and is the same
//! on every run, whatever ports were free. `_demo.toml` holds the demo's audit settings (the keys
//! of `crawlgate.toml`), with the sites' placeholders (`{{host:NAME}}`, `{{origin:NAME}}`) filled
//! in. A site whose folder holds a `_tls` file is served over HTTPS; the audit trusts its
//! certificate in-process ([`Demo::root_certificates`]).

use anyhow::{Context, Result};
use crawlgate::ConfigFile;
use crawlgate_serve::{HostNames, LOOPBACK_CA_PEM, ServedSite, SiteGroup};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use url::Url;

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// The site the audit starts at.
const START_SITE: &str = "www";
/// Site NAME is `NAME.northwind.test` (`.test` is reserved: no DNS server answers for it, so
/// nothing but the demo's own audit reaches these names). The loopback certificate covers
/// `secure.northwind.test`.
const HOST_SUFFIX: &str = "northwind.test";
/// Second host names for a site's server: `staging.northwind.test` serves the shop, as a
/// staging copy would (a page's canonical leaks it: `www/journal/partner-review`).
const ALIASES: &[(&str, &str)] = &[("staging", "www")];
/// The demo's own audit settings, at the top of the demo folder.
const SETTINGS_FILE: &str = "_demo.toml";
/// The demo's clock. Its sitemap dates, news articles and `unavailable_after` dates are written
/// against this time, so the demo reports the same findings whatever day it runs.
const AUDIT_TIME: &str = "2026-01-16T12:00:00Z";

/// The demo sites, served until dropped.
pub(crate) struct Demo {
    sites: SiteGroup,
}

impl Demo {
    /// Serve every demo site on an ephemeral port of 127.0.0.1, as `NAME.northwind.test`.
    pub(crate) fn start() -> Result<Self> {
        let mut by_site: BTreeMap<&str, Vec<(&str, &[u8])>> = BTreeMap::new();
        for (path, bytes) in DEMO_FILES {
            if let Some((site, rest)) = path.split_once('/') {
                by_site.entry(site).or_default().push((rest, bytes));
            }
        }
        let mut sites = Vec::with_capacity(by_site.len());
        for (name, files) in by_site {
            let site = ServedSite::from_files(files.iter().map(|(path, bytes)| (*path, *bytes)))
                .with_context(|| format!("the embedded demo site `{name}` is invalid"))?;
            sites.push((name.to_owned(), site));
        }
        let names = ALIASES
            .iter()
            .fold(HostNames::new(HOST_SUFFIX), |names, (alias, site)| {
                names.alias(*alias, *site)
            });
        let sites =
            SiteGroup::start_named_in_background(sites, &names).context("cannot serve the demo")?;
        Ok(Self { sites })
    }

    /// Where the audit starts.
    pub(crate) fn start_url(&self) -> Result<Url> {
        self.sites
            .url(START_SITE, "/")
            .context("the embedded demo has no `www` site")
    }

    /// The demo's host names and the addresses they are served on: the audit resolves them
    /// from this list, never from DNS.
    pub(crate) fn resolve(&self) -> Vec<(String, SocketAddr)> {
        self.sites.resolve()
    }

    /// The root certificates the audit must trust: the loopback CA when a demo site is served
    /// over HTTPS (a `_tls` file in its folder).
    pub(crate) fn root_certificates(&self) -> Vec<Vec<u8>> {
        if self.sites.has_https() {
            vec![LOOPBACK_CA_PEM.as_bytes().to_vec()]
        } else {
            Vec::new()
        }
    }

    /// The time the demo is audited at ([`AUDIT_TIME`]).
    pub(crate) fn audit_time() -> jiff::Timestamp {
        AUDIT_TIME
            .parse()
            .unwrap_or_else(|_| jiff::Timestamp::now())
    }

    /// The demo's audit settings (`_demo.toml`), host names filled in.
    pub(crate) fn settings(&self) -> Result<Option<ConfigFile>> {
        let Some((_, bytes)) = DEMO_FILES.iter().find(|(path, _)| *path == SETTINGS_FILE) else {
            return Ok(None);
        };
        let text = std::str::from_utf8(bytes).context("the demo's _demo.toml is not UTF-8")?;
        ConfigFile::parse(&self.sites.fill(text))
            .map(Some)
            .context("in the demo's _demo.toml")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_file_belongs_to_a_site_or_is_the_settings() {
        for (path, _) in DEMO_FILES {
            assert!(
                path.contains('/') || *path == SETTINGS_FILE || *path == "README.md",
                "`{path}` is at the top of fixtures/sites/demo/: put it in a site folder"
            );
        }
    }

    #[test]
    fn the_demo_starts_at_www_and_its_settings_parse() {
        let demo = Demo::start().unwrap();
        let start = demo.start_url().unwrap();
        assert_eq!(start.as_str(), "http://www.northwind.test/");
        // Every site and alias is resolved to the port it is served on.
        let resolve = demo.resolve();
        let names: Vec<&str> = demo.sites.names().collect();
        assert_eq!(resolve.len(), names.len() + ALIASES.len());
        for name in names {
            let host = format!("{name}.{HOST_SUFFIX}");
            let addr = demo.sites.addr(name);
            assert!(
                resolve.iter().any(|(h, a)| *h == host && Some(*a) == addr),
                "{host}"
            );
        }
        assert!(resolve.contains(&(
            "staging.northwind.test".to_owned(),
            demo.sites.addr("www").unwrap()
        )));
        assert_eq!(Demo::audit_time().to_string(), AUDIT_TIME);
        let settings = demo.settings().unwrap().unwrap();
        let allowed = settings.allow_hosts.unwrap_or_default();
        for host in &allowed {
            assert!(host.ends_with(".northwind.test"), "{host}");
        }
        // The secure site is served over HTTPS, allowed as an origin, and its CA is trusted.
        let secure = demo.sites.url("secure", "/").unwrap();
        assert_eq!(secure.as_str(), "https://secure.northwind.test/");
        assert!(allowed.contains(&secure.origin().ascii_serialization()));
        assert_eq!(
            demo.root_certificates(),
            [LOOPBACK_CA_PEM.as_bytes().to_vec()]
        );
    }
}
