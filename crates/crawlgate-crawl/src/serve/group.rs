//! Several sites served together, each on its own port: one audit meets several origins (a shop,
//! its CDN, a help centre…), each with its own robots.txt.

use crate::serve::{Counters, ServeError, ServedSite, accept_loop, acceptor_for, origin_of};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use url::Url;

/// Sites served at most by one group (each takes a port).
const MAX_SITES: usize = 64;

/// Named sites, each served on its own ephemeral port of `127.0.0.1`, from one background thread.
/// Stops when dropped.
///
/// Every listener is bound before any file is filled in, so each site can name the others: in
/// every file and route, `{{origin:NAME}}` becomes site NAME's `http://127.0.0.1:PORT` (or
/// `https://…` for a site served over HTTPS) and `{{port:NAME}}` its port (for a second host name
/// on the same port: `http://localhost:{{port:www}}/`); `{{origin}}` stays the site's own origin.
#[derive(Debug)]
pub struct SiteGroup {
    endpoints: BTreeMap<String, Endpoint>,
    shutdown: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SiteGroup {
    /// Serve every `(name, site)`; names must be distinct (a later one replaces an earlier one).
    pub fn start_in_background(
        sites: impl IntoIterator<Item = (String, ServedSite)>,
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
            };
            endpoints.insert(name.clone(), endpoint);
            listeners.push((listener, acceptor_for(site)?));
        }
        let placeholders = placeholders(&endpoints);
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
            shutdown,
            thread: Some(thread),
        })
    }

    /// The names served, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.endpoints.keys().map(String::as_str)
    }

    /// The address site `name` is served on.
    pub fn addr(&self, name: &str) -> Option<SocketAddr> {
        self.endpoints.get(name).map(|endpoint| endpoint.addr)
    }

    /// Whether some site is served over HTTPS (a client must then trust
    /// [`LOOPBACK_CA_PEM`](crate::serve::LOOPBACK_CA_PEM)).
    pub fn has_https(&self) -> bool {
        self.endpoints.values().any(|endpoint| endpoint.https)
    }

    /// Site `name`'s `http://127.0.0.1:PORT` (`https://` over HTTPS) joined with `path`.
    pub fn url(&self, name: &str, path: &str) -> Option<Url> {
        let origin = self.endpoints.get(name)?.origin();
        Url::parse(&format!("{origin}/")).ok()?.join(path).ok()
    }

    /// `text` with the group's placeholders (`{{origin:NAME}}`, `{{port:NAME}}`) filled in: for
    /// settings that travel with the sites (allowed hosts, sitemap URLs).
    pub fn fill(&self, text: &str) -> String {
        placeholders(&self.endpoints)
            .iter()
            .fold(text.to_owned(), |text, (placeholder, value)| {
                text.replace(placeholder.as_str(), value)
            })
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

/// Where one site of the group is served.
#[derive(Debug, Clone, Copy)]
struct Endpoint {
    addr: SocketAddr,
    https: bool,
}

impl Endpoint {
    /// `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`.
    fn origin(&self) -> String {
        origin_of(self.addr, self.https)
    }
}

/// `({{origin:NAME}}, http(s)://127.0.0.1:PORT)` and `({{port:NAME}}, PORT)` for every site.
fn placeholders(endpoints: &BTreeMap<String, Endpoint>) -> Vec<(String, String)> {
    endpoints
        .iter()
        .flat_map(|(name, endpoint)| {
            [
                (format!("{{{{origin:{name}}}}}"), endpoint.origin()),
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
            group.fill("allow = [\"127.0.0.1:{{port:cdn}}\"]"),
            format!("allow = [\"127.0.0.1:{}\"]", cdn_addr.port())
        );
        assert!(group.url("nope", "/").is_none());
    }
}
