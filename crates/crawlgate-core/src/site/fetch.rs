//! What came back from the network, as data: a response, or why there was none.

use crate::http::HeaderLine;
use serde::{Deserialize, Serialize};

/// A final (non-redirect, or unfollowed) HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub final_url: url::Url,
    pub status: u16,
    /// Every header line, as received, in order.
    pub headers: Vec<HeaderLine>,
    /// The body, up to the crawler's byte cap (after transfer decoding).
    pub body: Vec<u8>,
    /// The body was longer than the cap and was cut.
    pub body_truncated: bool,
}

impl Received {
    /// The first `Content-Type` header value, if any.
    pub fn content_type(&self) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.is("content-type"))
            .map(|h| h.value.as_str())
    }

    /// A response for unit tests: `status`, `body`, no headers, at `http://a.test/robots.txt`.
    #[doc(hidden)]
    pub fn for_test(status: u16, body: &[u8]) -> Self {
        Self {
            final_url: url::Url::parse("http://a.test/robots.txt").expect("valid test URL"),
            status,
            headers: Vec::new(),
            body: body.to_vec(),
            body_truncated: false,
        }
    }
}

/// Why a request produced no usable response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The host name did not resolve.
    Dns,
    /// The connection was refused or could not be made.
    Connect,
    /// TLS handshake or certificate failure.
    Tls,
    /// No complete response within the per-request time limit.
    Timeout,
    /// The connection was reset or closed mid-response.
    Reset,
    /// The body could not be read or decoded (broken chunking, bad compression).
    Body,
    /// More redirect hops than the crawler's bound.
    TooManyRedirects,
    /// A redirect led back to a URL already in the chain.
    RedirectLoop,
    /// A redirect without a usable `Location`.
    InvalidRedirect,
    /// The response was not valid HTTP.
    InvalidResponse,
    /// The crawl was interrupted while this request was in flight.
    Interrupted,
}

impl FailureKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Dns => "dns",
            FailureKind::Connect => "connect",
            FailureKind::Tls => "tls",
            FailureKind::Timeout => "timeout",
            FailureKind::Reset => "reset",
            FailureKind::Body => "body",
            FailureKind::TooManyRedirects => "too-many-redirects",
            FailureKind::RedirectLoop => "redirect-loop",
            FailureKind::InvalidRedirect => "invalid-redirect",
            FailureKind::InvalidResponse => "invalid-response",
            FailureKind::Interrupted => "interrupted",
        }
    }
}
