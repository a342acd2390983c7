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
///
/// [[route]]
/// path = "/liar"
/// body = "<p>short</p>"
/// content_length = 100000      # announce more than is sent, then close
/// raw_headers = ["X-Robots-Tag: noindex %FF%FE"]   # bytes as they are, %XX decoded
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent switches of a `[[route]]` table, as written in TOML"
)]
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
    /// Never end the body: filler bytes (spaces) follow the data until the client goes away,
    /// sent without a length.
    #[serde(default)]
    pub endless: bool,
    /// Announce this `Content-Length` whatever the body's length: a lie when it differs (more
    /// bytes follow on the connection, or it closes early). Hyper would correct the lie, so the
    /// response is written on the socket by hand ([`Route::is_raw`]).
    pub content_length: Option<u64>,
    /// Answer only the first N requests for the path this way; later ones are served as if
    /// the route did not exist (a 503 with `Retry-After` that then recovers).
    pub times: Option<u32>,
    /// Header lines sent byte for byte after the others, `%XX` escapes decoded first, so that any
    /// bytes can be sent (invalid UTF-8, control characters, a broken name). Written by hand.
    #[serde(default)]
    pub raw_headers: Vec<String>,
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

    /// Answer only the first `n` requests this way ([`Route::times`]).
    #[must_use]
    pub fn times(mut self, n: u32) -> Self {
        self.times = Some(n);
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

    /// Send the body at about `bytes_per_sec` bytes a second.
    #[must_use]
    pub fn trickle(mut self, bytes_per_sec: u64) -> Self {
        self.trickle_bytes_per_sec = Some(bytes_per_sec);
        self
    }

    /// Break the connection after `bytes` body bytes.
    #[must_use]
    pub fn reset_after(mut self, bytes: u64) -> Self {
        self.reset_after_bytes = Some(bytes);
        self
    }

    /// Append `bytes` filler bytes to the body.
    #[must_use]
    pub fn pad(mut self, bytes: u64) -> Self {
        self.pad_bytes = Some(bytes);
        self
    }

    /// Never end the body.
    #[must_use]
    pub fn endless(mut self) -> Self {
        self.endless = true;
        self
    }

    /// Announce `length` as the `Content-Length`, whatever the body's length.
    #[must_use]
    pub fn content_length(mut self, length: u64) -> Self {
        self.content_length = Some(length);
        self
    }

    /// Add a header line sent byte for byte (`%XX` escapes decoded).
    #[must_use]
    pub fn raw_header(mut self, line: impl Into<String>) -> Self {
        self.raw_headers.push(line.into());
        self
    }

    /// Whether the response is written on the socket by hand rather than through hyper (which
    /// keeps responses well-formed): for a lying `Content-Length` or raw header bytes.
    pub fn is_raw(&self) -> bool {
        self.content_length.is_some() || !self.raw_headers.is_empty()
    }
}

/// The `_routes.toml` file: a list of `[[route]]` tables.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoutesFile {
    #[serde(default)]
    pub(crate) route: Vec<Route>,
}
