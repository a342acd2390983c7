//! Several sites served together, each on its own port: one audit meets several origins (a shop,
//! its CDN, a help centre…), each with its own robots.txt. Named `127.0.0.1:PORT` by default, or
//! by host names ([`HostNames`]) that a client resolves to those ports ([`SiteGroup::resolve`]).

use crate::{Counters, ServeError, ServedSite, accept_loop, acceptor_for};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use url::Url;

/// Sites served at most by one group (each takes a port).
const MAX_SITES: usize = 64;
/// Aliases one group answers to at most.
const MAX_ALIASES: usize = 64;

/// Named sites, each served on its own ephemeral port of `127.0.0.1`, from one background thread.
/// Stops when dropped.
///
/// Every listener is bound before any file is filled in, so each site can name the others: in
/// every file and route,
/// - `{{origin:NAME}}` becomes site NAME's origin: `http://127.0.0.1:PORT` (`https://…` for a
///   site served over HTTPS), or `http://NAME.SUFFIX` with [`HostNames`];
/// - `{{host:NAME}}` its host as URLs write it: `127.0.0.1:PORT`, or `NAME.SUFFIX` (what an
///   allowed-hosts list names);
/// - `{{port:NAME}}` its port, whichever the naming (for a second host name on the same port:
///   `http://localhost:{{port:www}}/`);
/// - `{{origin}}` the site's own origin.
#[derive(Debug)]
pub struct SiteGroup {
    endpoints: BTreeMap<String, Endpoint>,
    /// [`HostNames::alias`]es: other names for some sites' servers.
    aliases: BTreeMap<String, Endpoint>,
    shutdown: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Host names for a [`SiteGroup`]'s sites: site NAME is `NAME.SUFFIX` (`www.northwind.test`), in
/// URLs with no port, so what is served reads like real sites and is the same on every run. A
/// client reaches them through [`SiteGroup::resolve`] (`HttpOptions::resolve`); nothing else
/// resolves them (use a reserved suffix such as `.test`, which DNS never answers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostNames {
    suffix: String,
    /// Alias → the site it names.
    aliases: BTreeMap<String, String>,
}

impl HostNames {
    /// Site NAME is served as `NAME.SUFFIX` (`suffix` without a leading dot).
    pub fn new(suffix: impl Into<String>) -> Self {
        Self {
            suffix: suffix.into(),
            aliases: BTreeMap::new(),
        }
    }

    /// `ALIAS.SUFFIX` is answered by site `site`'s server too (a second host name for one
    /// server: a staging name that serves the shop's files); `{{origin:ALIAS}}`,
    /// `{{host:ALIAS}}` and `{{port:ALIAS}}` name it. Checked when the group starts.
    #[must_use]
    pub fn alias(mut self, alias: impl Into<String>, site: impl Into<String>) -> Self {
        self.aliases.insert(alias.into(), site.into());
        self
    }

    /// `name.SUFFIX`, normalised as a URL host; an error when it is no host name.
    fn host_for(&self, name: &str) -> Result<String, ServeError> {
        let suffix = self.suffix.trim_start_matches('.');
        let host = format!("{name}.{suffix}");
        match url::Host::parse(&host) {
            Ok(url::Host::Domain(domain)) if !domain.contains('*') => Ok(domain),
            Ok(_) => Err(ServeError::Site(format!(
                "site `{name}`: `{host}` is no host name a client can resolve"
            ))),
            Err(error) => Err(ServeError::Site(format!(
                "site `{name}`: `{host}`: {error}"
            ))),
        }
    }
}

impl SiteGroup {
    /// Serve every `(name, site)` as `127.0.0.1:PORT`; names must be distinct (a later one
    /// replaces an earlier one).
    pub fn start_in_background(
        sites: impl IntoIterator<Item = (String, ServedSite)>,
    ) -> Result<Self, ServeError> {
        Self::start(sites, None)
    }

    /// Serve every `(name, site)` under the host names of `names` (`NAME.SUFFIX`, no port); a
    /// client must resolve them with [`SiteGroup::resolve`].
    pub fn start_named_in_background(
        sites: impl IntoIterator<Item = (String, ServedSite)>,
        names: &HostNames,
    ) -> Result<Self, ServeError> {
        Self::start(sites, Some(names))
    }

    fn start(
        sites: impl IntoIterator<Item = (String, ServedSite)>,
        names: Option<&HostNames>,
    ) -> Result<Self, ServeError> {
        let sites: BTreeMap<String, ServedSite> = sites.into_iter().collect();
        if sites.len() > MAX_SITES {
            return Err(ServeError::Site(format!(
                "{} sites in one group; at most {MAX_SITES}",
                sites.len()
            )));
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let mut listeners = Vec::with_capacity(sites.len());
        let mut endpoints = BTreeMap::new();
        for (name, site) in &sites {
            let listener = runtime.block_on(TcpListener::bind(("127.0.0.1", 0)))?;
            let endpoint = Endpoint {
                addr: listener.local_addr()?,
                https: site.is_https(),
                host: names.map(|names| names.host_for(name)).transpose()?,
            };
            endpoints.insert(name.clone(), endpoint);
            listeners.push((listener, acceptor_for(site)?));
        }
        let aliases =
            names.map_or_else(|| Ok(BTreeMap::new()), |names| aliases(names, &endpoints))?;
        let placeholders = placeholders(endpoints.iter().chain(&aliases));
        let (shutdown, stopped) = watch::channel(false);
        let mut loops = Vec::with_capacity(sites.len());
        for ((name, site), (listener, tls)) in sites.into_iter().zip(listeners) {
            let own = endpoints
                .get(&name)
                .map(Endpoint::origin)
                .unwrap_or_default();
            let site = site.with_placeholders(&placeholders).with_origin(&own);
            loops.push((listener, Arc::new(site), stopped.clone(), tls));
        }
        let thread = std::thread::Builder::new()
            .name("crawlgate-serve-group".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let mut tasks = Vec::with_capacity(loops.len());
                    for (listener, site, stopped, tls) in loops {
                        let counters = Arc::new(Counters::default());
                        tasks.push(tokio::spawn(accept_loop(
                            listener, site, counters, stopped, tls,
                        )));
                    }
                    for task in tasks {
                        let _ = task.await;
                    }
                });
                runtime.shutdown_timeout(Duration::from_secs(1));
            })?;
        Ok(Self {
            endpoints,
            aliases,
            shutdown,
            thread: Some(thread),
        })
    }

    /// The names served, sorted (aliases aside).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.endpoints.keys().map(String::as_str)
    }

    /// The address site (or alias) `name` is served on.
    pub fn addr(&self, name: &str) -> Option<SocketAddr> {
        self.endpoint(name).map(|endpoint| endpoint.addr)
    }

    /// Whether some site is served over HTTPS (a client must then trust
    /// [`LOOPBACK_CA_PEM`](crate::LOOPBACK_CA_PEM)).
    pub fn has_https(&self) -> bool {
        self.endpoints.values().any(|endpoint| endpoint.https)
    }

    /// Site (or alias) `name`'s origin joined with `path`: `http://127.0.0.1:PORT/path`, or
    /// `http://NAME.SUFFIX/path` with [`HostNames`] (`https://` over HTTPS).
    pub fn url(&self, name: &str, path: &str) -> Option<Url> {
        let origin = self.endpoint(name)?.origin();
        Url::parse(&format!("{origin}/")).ok()?.join(path).ok()
    }

    /// The host names a client must resolve to reach the sites, with the address each stands
    /// for (`HttpOptions::resolve`), sorted by name; empty when the sites are named
    /// `127.0.0.1:PORT`.
    pub fn resolve(&self) -> Vec<(String, SocketAddr)> {
        let mut pairs: Vec<(String, SocketAddr)> = self
            .endpoints
            .values()
            .chain(self.aliases.values())
            .filter_map(|endpoint| Some((endpoint.host.clone()?, endpoint.addr)))
            .collect();
        pairs.sort();
        pairs
    }

    /// `text` with the group's placeholders (`{{origin:NAME}}`, `{{host:NAME}}`,
    /// `{{port:NAME}}`) filled in: for settings that travel with the sites (allowed hosts,
    /// sitemap URLs).
    pub fn fill(&self, text: &str) -> String {
        placeholders(self.endpoints.iter().chain(&self.aliases))
            .iter()
            .fold(text.to_owned(), |text, (placeholder, value)| {
                text.replace(placeholder.as_str(), value)
            })
    }

    fn endpoint(&self, name: &str) -> Option<&Endpoint> {
        self.endpoints.get(name).or_else(|| self.aliases.get(name))
    }
}

impl Drop for SiteGroup {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Where one site of the group is served, and how it is named.
#[derive(Debug, Clone)]
struct Endpoint {
    addr: SocketAddr,
    https: bool,
    /// Its host name ([`HostNames`]); `None`: `127.0.0.1:PORT`.
    host: Option<String>,
}

impl Endpoint {
    /// `http://HOST` or `http://127.0.0.1:PORT` (`https://` over HTTPS).
    fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}", self.authority())
    }

    /// `HOST`, or `127.0.0.1:PORT`.
    fn authority(&self) -> String {
        self.host.clone().unwrap_or_else(|| self.addr.to_string())
    }
}

/// The endpoints of `names`' aliases: each its site's server under its own host name.
fn aliases(
    names: &HostNames,
    endpoints: &BTreeMap<String, Endpoint>,
) -> Result<BTreeMap<String, Endpoint>, ServeError> {
    if names.aliases.len() > MAX_ALIASES {
        return Err(ServeError::Site(format!(
            "{} aliases in one group; at most {MAX_ALIASES}",
            names.aliases.len()
        )));
    }
    let mut aliases = BTreeMap::new();
    for (alias, site) in &names.aliases {
        if endpoints.contains_key(alias) {
            return Err(ServeError::Site(format!(
                "alias `{alias}` is the name of a site"
            )));
        }
        let Some(endpoint) = endpoints.get(site) else {
            return Err(ServeError::Site(format!(
                "alias `{alias}` names `{site}`, which is not a site of the group"
            )));
        };
        let endpoint = Endpoint {
            host: Some(names.host_for(alias)?),
            ..endpoint.clone()
        };
        aliases.insert(alias.clone(), endpoint);
    }
    Ok(aliases)
}

/// `({{origin:NAME}}, origin)`, `({{host:NAME}}, host)` and `({{port:NAME}}, PORT)` for every
/// named endpoint.
fn placeholders<'a>(
    endpoints: impl Iterator<Item = (&'a String, &'a Endpoint)>,
) -> Vec<(String, String)> {
    endpoints
        .flat_map(|(name, endpoint)| {
            [
                (format!("{{{{origin:{name}}}}}"), endpoint.origin()),
                (format!("{{{{host:{name}}}}}"), endpoint.authority()),
                (
                    format!("{{{{port:{name}}}}}"),
                    endpoint.addr.port().to_string(),
                ),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(url: &Url) -> (u16, String) {
        use std::io::{Read, Write};
        let addr = format!(
            "{}:{}",
            url.host_str().unwrap(),
            url.port_or_known_default().unwrap()
        );
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "GET {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            url.path()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap();
        (status, body)
    }

    #[test]
    fn sites_are_served_on_their_own_ports_and_name_each_other() {
        let www = ServedSite::new().file(
            "index.html",
            "<link rel=stylesheet href='{{origin:cdn}}/a.css'> self={{origin}} alt=http://localhost:{{port:www}}/",
        );
        let cdn = ServedSite::new().file("robots.txt", "Sitemap: {{origin:www}}/s.xml\n");
        let group =
            SiteGroup::start_in_background([("www".to_owned(), www), ("cdn".to_owned(), cdn)])
                .unwrap();
        assert_eq!(group.names().collect::<Vec<_>>(), ["cdn", "www"]);
        let www_addr = group.addr("www").unwrap();
        let cdn_addr = group.addr("cdn").unwrap();
        assert_ne!(www_addr.port(), cdn_addr.port());

        let (status, home) = get(&group.url("www", "/").unwrap());
        assert_eq!(status, 200);
        assert_eq!(
            home,
            format!(
                "<link rel=stylesheet href='http://{cdn_addr}/a.css'> self=http://{www_addr} alt=http://localhost:{}/",
                www_addr.port()
            )
        );
        let (status, robots) = get(&group.url("cdn", "/robots.txt").unwrap());
        assert_eq!(status, 200);
        assert_eq!(robots, format!("Sitemap: http://{www_addr}/s.xml\n"));
        assert_eq!(get(&group.url("cdn", "/").unwrap()).0, 404);
        assert_eq!(
            group.fill("allow = [\"127.0.0.1:{{port:cdn}}\", \"{{host:www}}\"]"),
            format!(
                "allow = [\"127.0.0.1:{}\", \"{www_addr}\"]",
                cdn_addr.port()
            )
        );
        assert!(group.url("nope", "/").is_none());
        // Named 127.0.0.1:PORT, nothing needs resolving.
        assert!(group.resolve().is_empty());
    }

    #[test]
    fn named_sites_have_host_names_without_ports_and_say_what_to_resolve() {
        let www = ServedSite::new().file(
            "index.html",
            "css={{origin:cdn}}/a.css self={{origin}} host={{host:cdn}} staging={{origin:staging}}/ port={{port:www}}",
        );
        let cdn = ServedSite::new().file("robots.txt", "Sitemap: {{origin:www}}/s.xml\n");
        let names = HostNames::new("shop.test").alias("staging", "www");
        let group = SiteGroup::start_named_in_background(
            [("www".to_owned(), www), ("cdn".to_owned(), cdn)],
            &names,
        )
        .unwrap();
        let www_addr = group.addr("www").unwrap();
        let cdn_addr = group.addr("cdn").unwrap();
        assert_eq!(
            group.resolve(),
            [
                ("cdn.shop.test".to_owned(), cdn_addr),
                ("staging.shop.test".to_owned(), www_addr),
                ("www.shop.test".to_owned(), www_addr),
            ]
        );
        assert_eq!(group.names().collect::<Vec<_>>(), ["cdn", "www"]);
        assert_eq!(
            group.url("www", "/a?b").unwrap().as_str(),
            "http://www.shop.test/a?b"
        );
        assert_eq!(
            group.url("staging", "/").unwrap().as_str(),
            "http://staging.shop.test/"
        );
        assert_eq!(group.addr("staging"), Some(www_addr));
        assert_eq!(
            group.fill("[\"{{host:cdn}}\", \"{{origin:www}}\"]"),
            "[\"cdn.shop.test\", \"http://www.shop.test\"]"
        );

        // Served at their addresses, the names filled in; the port stays the real one.
        let at = |addr: SocketAddr, path: &str| {
            get(&Url::parse(&format!("http://{addr}{path}")).unwrap())
        };
        assert_eq!(
            at(www_addr, "/"),
            (
                200,
                format!(
                    "css=http://cdn.shop.test/a.css self=http://www.shop.test host=cdn.shop.test staging=http://staging.shop.test/ port={}",
                    www_addr.port()
                )
            )
        );
        assert_eq!(
            at(cdn_addr, "/robots.txt"),
            (200, "Sitemap: http://www.shop.test/s.xml\n".to_owned())
        );
    }

    #[test]
    fn unusable_names_and_aliases_are_errors() {
        let start = |names: &HostNames| {
            SiteGroup::start_named_in_background([("www".to_owned(), ServedSite::new())], names)
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        let error = start(&HostNames::new("bad suffix.test"));
        assert!(error.contains("site `www`"), "{error}");
        let error = start(&HostNames::new("shop.test").alias("cdn", "nope"));
        assert!(error.contains("`nope`, which is not a site"), "{error}");
        let error = start(&HostNames::new("shop.test").alias("www", "www"));
        assert!(error.contains("is the name of a site"), "{error}");
        // A leading dot is forgiven; the names are written as URLs write them.
        let group = SiteGroup::start_named_in_background(
            [("WWW".to_owned(), ServedSite::new())],
            &HostNames::new(".Shop.Test"),
        )
        .unwrap();
        assert_eq!(group.resolve()[0].0, "www.shop.test");
    }
}
