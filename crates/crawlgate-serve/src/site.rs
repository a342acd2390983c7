//! A site to serve: files by path, and routes that override paths.

use crate::ServeError;
use crate::route::{Route, RoutesFile};
use bytes::Bytes;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// The name of the routes file inside a site folder (never served itself).
pub const ROUTES_FILE: &str = "_routes.toml";

/// A file by this name in a site folder (its content is ignored, and it is never served) makes
/// the site served over HTTPS ([`ServedSite::https`]).
pub const TLS_MARKER: &str = "_tls";

/// Replaced, in every file and route, by the server's origin (`http://127.0.0.1:PORT`) when it
/// starts: fixture sites need absolute URLs (robots.txt `Sitemap:` lines, sitemap `<loc>`s) but
/// their port is chosen at random.
pub const ORIGIN_PLACEHOLDER: &str = "{{origin}}";

/// Files read from a site folder at most (a fixture site is small; a wrong path is not).
const MAX_FILES: usize = 100_000;
/// Folder nesting followed at most.
const MAX_DEPTH: usize = 32;

/// A site's files (by path, `/`-separated, without the leading slash) and routes (by request
/// path).
#[derive(Debug, Clone, Default)]
pub struct ServedSite {
    files: HashMap<String, Bytes>,
    routes: HashMap<String, Route>,
    generators: Vec<Generator>,
    https: bool,
    /// Request headers every request must carry, `(lowercase name, value)`.
    required_headers: Vec<(String, String)>,
    /// Requests answered so far per route with [`Route::times`], by route path.
    route_hits: Arc<std::sync::Mutex<HashMap<String, u32>>>,
}

/// Makes the body of a request target (`/path?query`), or `None` for a 404.
pub type PageMaker = dyn Fn(&str) -> Option<Bytes> + Send + Sync;

/// Pages made on request under a path prefix (a site too large, or too endless, for files).
#[derive(Clone)]
struct Generator {
    prefix: String,
    make: Arc<PageMaker>,
}

impl fmt::Debug for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl ServedSite {
    /// An empty site: every path answers 404 until files or routes are added.
    pub fn new() -> Self {
        Self::default()
    }

    /// A site read from a folder (`fixtures/sites/<name>/`): every file under it, served by its
    /// path; `_routes.toml`, when present, gives the routes; a `_tls` file serves it over HTTPS.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Self, ServeError> {
        let dir = dir.as_ref();
        let mut files = Vec::new();
        collect_files(dir, "", 0, &mut files)?;
        Self::from_files(files)
    }

    /// A site from memory: `(path, bytes)` pairs (paths `/`-separated, a leading `/` optional).
    /// A `_routes.toml` among them gives the routes; a `_tls` serves the site over HTTPS.
    pub fn from_files<P, B>(files: impl IntoIterator<Item = (P, B)>) -> Result<Self, ServeError>
    where
        P: AsRef<str>,
        B: Into<Bytes>,
    {
        let mut site = Self::new();
        for (path, bytes) in files {
            let path = path.as_ref().trim_start_matches('/');
            let bytes = bytes.into();
            if path == ROUTES_FILE {
                let text = std::str::from_utf8(&bytes)
                    .map_err(|error| ServeError::Routes(error.to_string()))?;
                let routes: RoutesFile =
                    toml::from_str(text).map_err(|error| ServeError::Routes(error.to_string()))?;
                for route in routes.route {
                    site = site.route(route);
                }
            } else if path == TLS_MARKER {
                site.https = true;
            } else {
                site.files.insert(path.to_owned(), bytes);
            }
        }
        Ok(site)
    }

    /// Add (or replace) a file at `path`.
    #[must_use]
    pub fn file(mut self, path: &str, bytes: impl Into<Bytes>) -> Self {
        self.files
            .insert(path.trim_start_matches('/').to_owned(), bytes.into());
        self
    }

    /// Add (or replace) the route for `route.path`.
    #[must_use]
    pub fn route(mut self, route: Route) -> Self {
        self.routes.insert(route.path.clone(), route);
        self
    }

    /// Answer every request whose path starts with `prefix` (and that no route or file answers)
    /// with what `make` returns for its target (`/path?query`, the path percent-decoded): a site
    /// of any size without files, or a crawler trap of endless distinct URLs. The content type is
    /// guessed from the bytes (HTML when they start with `<`). Generators are tried in the order
    /// added. `{{origin}}` is not replaced in what they make.
    #[must_use]
    pub fn generate(
        mut self,
        prefix: impl Into<String>,
        make: impl Fn(&str) -> Option<Bytes> + Send + Sync + 'static,
    ) -> Self {
        self.generators.push(Generator {
            prefix: prefix.into(),
            make: Arc::new(make),
        });
        self
    }

    /// Serve the site over HTTPS, with the loopback certificate (for 127.0.0.1 and `localhost`,
    /// signed by [`LOOPBACK_CA_PEM`](crate::LOOPBACK_CA_PEM), which the client must be
    /// told to trust). Its origin is then `https://127.0.0.1:PORT`. Routes written by hand
    /// ([`Route::is_raw`]) are not served over HTTPS.
    #[must_use]
    pub fn https(mut self) -> Self {
        self.https = true;
        self
    }

    /// Whether the site is served over HTTPS.
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// Whether some route is written on the socket by hand ([`Route::is_raw`]).
    pub(crate) fn has_raw_routes(&self) -> bool {
        self.routes.values().any(Route::is_raw)
    }

    /// The body a generator makes for `target` (`/path?query`), if one answers it.
    pub(crate) fn generated(&self, target: &str) -> Option<Bytes> {
        self.generators
            .iter()
            .filter(|g| target.starts_with(&g.prefix))
            .find_map(|g| (g.make)(target))
    }

    /// The site with [`ORIGIN_PLACEHOLDER`] replaced by `origin` everywhere.
    pub(crate) fn with_origin(self, origin: &str) -> Self {
        self.with_placeholders(&[(ORIGIN_PLACEHOLDER.to_owned(), origin.to_owned())])
    }

    /// The site with each `(placeholder, value)` replaced everywhere: in files and in route
    /// headers, locations and bodies.
    pub(crate) fn with_placeholders(mut self, pairs: &[(String, String)]) -> Self {
        for (placeholder, value) in pairs {
            for bytes in self.files.values_mut() {
                if memchr::memmem::find(bytes, placeholder.as_bytes()).is_some() {
                    *bytes = Bytes::from(replace_bytes(bytes, placeholder, value));
                }
            }
            let fill = |text: &mut String| {
                if text.contains(placeholder.as_str()) {
                    *text = text.replace(placeholder.as_str(), value);
                }
            };
            for route in self.routes.values_mut() {
                route.headers.iter_mut().for_each(fill);
                route.location.iter_mut().for_each(fill);
                route.body.iter_mut().for_each(fill);
                route.raw_headers.iter_mut().for_each(fill);
            }
        }
        self
    }

    /// The route for a request, by `path?query` first, then by path.
    /// Answer only requests that carry header `name` with exactly `value` (a staging site
    /// behind basic authentication: `authorization`, `Basic …`); others get 401 with a
    /// `WWW-Authenticate` challenge for `authorization`, 403 for any other header. Repeatable:
    /// every one is required. Routes written by hand ([`Route::is_raw`]) are not checked.
    #[must_use]
    pub fn require_header(mut self, name: &str, value: &str) -> Self {
        self.required_headers
            .push((name.to_ascii_lowercase(), value.to_owned()));
        self
    }

    /// The first required header a request with `headers` lacks (its name).
    pub(crate) fn missing_header(&self, headers: &hyper::HeaderMap) -> Option<&str> {
        self.required_headers
            .iter()
            .find(|(name, value)| {
                headers
                    .get_all(name.as_str())
                    .iter()
                    .all(|sent| sent.as_bytes() != value.as_bytes())
            })
            .map(|(name, _)| name.as_str())
    }

    /// The route answering this request, counting it for a route with [`Route::times`]: past
    /// its count the path is served as without the route.
    pub(crate) fn route_answering(&self, path: &str, query: Option<&str>) -> Option<&Route> {
        let route = self.route_for(path, query)?;
        let Some(times) = route.times else {
            return Some(route);
        };
        let mut hits = self
            .route_hits
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = hits.entry(route.path.clone()).or_insert(0);
        *count = count.saturating_add(1);
        (*count <= times).then_some(route)
    }

    pub(crate) fn route_for(&self, path: &str, query: Option<&str>) -> Option<&Route> {
        query
            .and_then(|q| self.routes.get(&format!("{path}?{q}")))
            .or_else(|| self.routes.get(path))
    }

    /// The file serving request path `path` (percent-decoded): `index.html` for `/` and
    /// folders, and the site path it was found at.
    pub(crate) fn file_for(&self, path: &str) -> Option<(&str, &Bytes)> {
        let relative = path.trim_start_matches('/');
        let candidate = if relative.is_empty() || relative.ends_with('/') {
            format!("{relative}index.html")
        } else {
            relative.to_owned()
        };
        self.files
            .get_key_value(&candidate)
            .map(|(key, bytes)| (key.as_str(), bytes))
    }
}

/// `bytes` with every `placeholder` replaced by `value`.
fn replace_bytes(bytes: &[u8], placeholder: &str, value: &str) -> Vec<u8> {
    let needle = placeholder.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() + value.len() * 4);
    let mut rest = bytes;
    while let Some(at) = memchr::memmem::find(rest, needle) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(value.as_bytes());
        rest = &rest[at + needle.len()..];
    }
    out.extend_from_slice(rest);
    out
}

fn collect_files(
    dir: &Path,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, Bytes)>,
) -> Result<(), ServeError> {
    if depth > MAX_DEPTH {
        return Err(ServeError::Site(format!(
            "`{}` is nested deeper than {MAX_DEPTH} folders",
            dir.display()
        )));
    }
    let read = |error: std::io::Error| ServeError::Site(format!("`{}`: {error}", dir.display()));
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(read)?
        .collect::<Result<_, _>>()
        .map_err(read)?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        let file_type = entry.file_type().map_err(read)?;
        if file_type.is_dir() {
            collect_files(&entry.path(), &format!("{path}/"), depth + 1, out)?;
        } else if file_type.is_file() {
            if out.len() >= MAX_FILES {
                return Err(ServeError::Site(format!(
                    "more than {MAX_FILES} files under the site folder"
                )));
            }
            let bytes = std::fs::read(entry.path()).map_err(read)?;
            out.push((path, Bytes::from(bytes)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_html_serves_the_root_and_folders() {
        let site = ServedSite::new()
            .file("index.html", "home")
            .file("/docs/index.html", "docs")
            .file("docs/a.html", "a");
        assert_eq!(site.file_for("/").map(|(p, _)| p), Some("index.html"));
        assert_eq!(
            site.file_for("/docs/").map(|(p, _)| p),
            Some("docs/index.html")
        );
        assert_eq!(
            site.file_for("/docs/a.html").map(|(p, _)| p),
            Some("docs/a.html")
        );
        assert!(site.file_for("/docs").is_none());
        assert!(site.file_for("/missing").is_none());
    }

    #[test]
    fn routes_come_from_the_routes_file_and_match_query_first() {
        let routes = r#"
            [[route]]
            path = "/old"
            status = 301
            location = "/new"

            [[route]]
            path = "/old?x=1"
            status = 410
        "#;
        let site = ServedSite::from_files([("_routes.toml", routes.as_bytes().to_vec())]).unwrap();
        assert_eq!(site.route_for("/old", None).unwrap().status, Some(301));
        assert_eq!(
            site.route_for("/old", Some("x=1")).unwrap().status,
            Some(410)
        );
        assert_eq!(
            site.route_for("/old", Some("y=2")).unwrap().status,
            Some(301)
        );
        assert!(site.file_for("/_routes.toml").is_none());
    }

    #[test]
    fn the_origin_placeholder_is_filled_in_files_and_routes() {
        let site = ServedSite::new()
            .file(
                "robots.txt",
                "Sitemap: {{origin}}/a.xml\nSitemap: {{origin}}/b.xml\n",
            )
            .route(Route::redirect("/old", 301, "{{origin}}/new"))
            .with_origin("http://127.0.0.1:9");
        let (_, robots) = site.file_for("/robots.txt").unwrap();
        assert_eq!(
            &robots[..],
            b"Sitemap: http://127.0.0.1:9/a.xml\nSitemap: http://127.0.0.1:9/b.xml\n"
        );
        assert_eq!(
            site.route_for("/old", None).unwrap().location.as_deref(),
            Some("http://127.0.0.1:9/new")
        );
    }

    #[test]
    fn generators_answer_what_no_file_does() {
        let site = ServedSite::new()
            .file("cal/index.html", "file")
            .generate("/cal/", |target| {
                Some(Bytes::from(format!("<p>{target}</p>")))
            })
            .generate("/", |target| (target == "/x").then(|| Bytes::from("x")));
        assert_eq!(
            site.generated("/cal/2026?m=1").as_deref(),
            Some(&b"<p>/cal/2026?m=1</p>"[..])
        );
        assert_eq!(site.generated("/x").as_deref(), Some(&b"x"[..]));
        assert!(site.generated("/y").is_none());
        assert!(!site.has_raw_routes());
        let raw = site.route(Route::new("/liar").content_length(10));
        assert!(raw.has_raw_routes());
    }

    #[test]
    fn an_unknown_route_key_is_an_error() {
        let routes = "[[route]]\npath = \"/a\"\nstauts = 301\n";
        let error = ServedSite::from_files([("_routes.toml", routes.as_bytes().to_vec())])
            .unwrap_err()
            .to_string();
        assert!(error.contains("stauts"), "{error}");
    }
}
