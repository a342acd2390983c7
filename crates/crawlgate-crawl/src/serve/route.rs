//! Per-path overrides of a served site (`_routes.toml`, or given in code): status, headers,
//! redirects, bodies, and the misbehaviours tests need (delays, slow or broken bodies).

use serde::Deserialize;

/// How one path is answered instead of (or on top of) serving its file.
///
/// In `_routes.toml`:
///
/// ```toml
/// [[route]]
/// path = "/old"                # the request path, or path?query for one query exactly
/// status = 301
/// location = "/new"
///
/// [[route]]
/// path = "/private/page"
/// headers = ["X-Robots-Tag: noindex", "X-Robots-Tag: nofollow"]
///
/// [[route]]
/// path = "/slow"
/// delay_ms = 5000              # wait before sending the headers
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// The request path this route answers (`/a/b`, or `/a?x=1` to match one query exactly).
    pub path: String,
    /// The status (default: 200 when there is a body to serve, else 404).
    pub status: Option<u16>,
    /// Header lines `Name: value`, added in order (repeated names stay separate lines).
    #[serde(default)]
    pub headers: Vec<String>,
    /// Drop the default headers (the `Content-Type` guessed from the file name) first.
    #[serde(default)]
    pub replace_headers: bool,
    /// A `Location` header.
    pub location: Option<String>,
    /// The body, as text (instead of the file at `path`).
    pub body: Option<String>,
    /// The body and content type of another file of the site (a site path, `/` separated).
    pub body_from: Option<String>,
    /// Compress the body with gzip and say so with `Content-Encoding: gzip` (HTTP compression:
    /// clients decode it).
    #[serde(default)]
    pub gzip: bool,
    /// Compress the body with gzip without saying so (a `.gz` file as such: clients get gzip
    /// bytes).
    #[serde(default)]
    pub gzip_file: bool,
    /// Wait this long before sending the response headers.
    pub delay_ms: Option<u64>,
    /// Append this many filler bytes (spaces) to the body, generated as it is sent.
    pub pad_bytes: Option<u64>,
    /// Send the body at about this many bytes per second.
    pub trickle_bytes_per_sec: Option<u64>,
    /// Break the connection after sending this many body bytes.
    pub reset_after_bytes: Option<u64>,
    /// Send the body this many times over, before compression (a sitemap of 50,001 entries from a
    /// one-line file); `{{n}}` in it becomes the copy's number (1, 2, …). At most about 64 MiB.
    pub repeat: Option<u64>,
}

impl Route {
    /// A route for `path` that changes nothing yet (set fields, or use the builders).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            ..Self::default()
        }
    }

    /// A redirect to `location` with `status`.
    pub fn redirect(path: impl Into<String>, status: u16, location: impl Into<String>) -> Self {
        Self {
            status: Some(status),
            location: Some(location.into()),
            ..Self::new(path)
        }
    }

    /// A response with `status` and the given text body.
    pub fn status(path: impl Into<String>, status: u16, body: impl Into<String>) -> Self {
        Self {
            status: Some(status),
            body: Some(body.into()),
            ..Self::new(path)
        }
    }

    /// Add a header line `Name: value`.
    #[must_use]
    pub fn header(mut self, line: impl Into<String>) -> Self {
        self.headers.push(line.into());
        self
    }

    /// Wait `millis` before sending the headers.
    #[must_use]
    pub fn delay_ms(mut self, millis: u64) -> Self {
        self.delay_ms = Some(millis);
        self
    }

    /// Compress the body with gzip (`Content-Encoding: gzip`).
    #[must_use]
    pub fn gzip(mut self) -> Self {
        self.gzip = true;
        self
    }
}

/// The `_routes.toml` file: a list of `[[route]]` tables.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoutesFile {
    #[serde(default)]
    pub(crate) route: Vec<Route>,
}
