//! Responses written on the socket by hand, for what hyper would refuse to send: a lying
//! `Content-Length`, header bytes that are not valid header text ([`Route::is_raw`]).
//!
//! A site with such routes serves one request per connection: the request head is read here
//! first; a raw route is answered by hand and the connection closed; anything else is handed to
//! hyper with the head replayed ([`Rewind`]).

use crate::body::ServedBody;
use crate::route::Route;
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::Response;
use std::io::{self, Write as _};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;

/// Largest request head read by hand; a longer one is not answered.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Read until the end of the request head (`\r\n\r\n`). Returns every byte read (some of the
/// body may follow the head); `None` when the client closed first or the head is too long.
pub(crate) async fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(1024);
    let mut buffer = [0u8; 4096];
    loop {
        let read = stream.read(&mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        let searched_from = head.len().saturating_sub(3);
        head.extend_from_slice(buffer.get(..read)?);
        if memchr::memmem::find(head.get(searched_from..)?, b"\r\n\r\n").is_some() {
            return Some(head);
        }
        if head.len() > MAX_HEAD_BYTES {
            return None;
        }
    }
}

/// The request target of a head's request line (`GET /a?b HTTP/1.1` → `/a?b`), split into its
/// path and query.
pub(crate) fn request_target(head: &[u8]) -> Option<(String, Option<String>)> {
    let line_end = memchr::memchr(b'\n', head).unwrap_or(head.len());
    let line = std::str::from_utf8(head.get(..line_end)?).ok()?.trim_end();
    let target = line.split(' ').nth(1)?;
    if !target.starts_with('/') {
        return None;
    }
    Some(match target.split_once('?') {
        Some((path, query)) => (path.to_owned(), Some(query.to_owned())),
        None => (target.to_owned(), None),
    })
}

/// The `User-Agent` value of a request head, if it has one.
pub(crate) fn user_agent(head: &[u8]) -> Option<&[u8]> {
    head.split(|&b| b == b'\n').skip(1).find_map(|line| {
        let colon = memchr::memchr(b':', line)?;
        let (name, value) = line.split_at(colon);
        name.eq_ignore_ascii_case(b"user-agent")
            .then(|| value.get(1..).unwrap_or_default().trim_ascii())
    })
}

/// Write `response` by hand: its status and headers, the route's raw header lines,
/// `Connection: close`, the `Content-Length` the route announces (else the body's own length when
/// known, else none: the body then ends when the connection closes), then the body. A body that breaks off resets the
/// connection (RST); otherwise it is closed after the body.
pub(crate) async fn write_response(
    mut stream: TcpStream,
    route: &Route,
    response: Response<ServedBody>,
) {
    let (parts, mut body) = response.into_parts();
    let mut head = Vec::with_capacity(512);
    // Writing to a Vec cannot fail.
    let _ = write!(
        head,
        "HTTP/1.1 {} {}\r\n",
        parts.status.as_u16(),
        parts.status.canonical_reason().unwrap_or("")
    );
    for (name, value) in &parts.headers {
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    for line in &route.raw_headers {
        head.extend_from_slice(&unescape(line));
        head.extend_from_slice(b"\r\n");
    }
    // The connection is closed after this response, and said so: a client must not reuse it
    // (after a `Content-Length` shorter than the body, the rest would be read as the next
    // response), which would make what a test sees depend on connection reuse.
    if !parts.headers.contains_key(hyper::header::CONNECTION) {
        head.extend_from_slice(b"Connection: close\r\n");
    }
    let length = route
        .content_length
        .or_else(|| hyper::body::Body::size_hint(&body).exact());
    if let Some(length) = length {
        let _ = write!(head, "Content-Length: {length}\r\n");
    }
    head.extend_from_slice(b"\r\n");
    if stream.write_all(&head).await.is_err() {
        return;
    }
    // Bounded by the body itself: an endless body ends when the client goes away (the write
    // fails) or the server shuts down (the task is dropped).
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            // Close with RST rather than FIN: the client sees a reset.
            let _ = stream.set_zero_linger();
            return;
        };
        if let Ok(data) = frame.into_data()
            && stream.write_all(&data).await.is_err()
        {
            return;
        }
    }
    let _ = stream.shutdown().await;
}

/// `%XX` escapes decoded to bytes; anything else kept as written.
pub(crate) fn unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let escaped = (byte == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        if let Some(value) = escaped {
            out.push(value);
            i += 3;
        } else {
            out.push(byte);
            i += 1;
        }
    }
    out
}

/// A stream whose first bytes are replayed from a buffer (a request head already read).
pub(crate) struct Rewind {
    prefix: Bytes,
    inner: TcpStream,
}

impl Rewind {
    pub(crate) fn new(prefix: Vec<u8>, inner: TcpStream) -> Self {
        Self {
            prefix: Bytes::from(prefix),
            inner,
        }
    }
}

impl AsyncRead for Rewind {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if !self.prefix.is_empty() {
            let take = self.prefix.len().min(buf.remaining());
            let chunk = self.prefix.split_to(take);
            buf.put_slice(&chunk);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Rewind {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_and_user_agent_come_from_the_head() {
        let head = b"GET /a/b?x=1&y HTTP/1.1\r\nHost: h\r\nuser-agent:  Bot/1 \r\n\r\n";
        assert_eq!(
            request_target(head),
            Some(("/a/b".to_owned(), Some("x=1&y".to_owned())))
        );
        assert_eq!(user_agent(head), Some(&b"Bot/1"[..]));
        assert_eq!(
            request_target(b"GET / HTTP/1.1\r\n\r\n"),
            Some(("/".to_owned(), None))
        );
        assert_eq!(request_target(b"GET http://h/ HTTP/1.1\r\n\r\n"), None);
        assert_eq!(request_target(b"\xff\xfe"), None);
        assert_eq!(user_agent(b"GET / HTTP/1.1\r\n\r\n"), None);
    }

    #[test]
    fn escapes_become_bytes() {
        assert_eq!(unescape("X: a%FF%fe%0Ab"), b"X: a\xff\xfe\nb");
        assert_eq!(unescape("100%"), b"100%");
        assert_eq!(unescape("%zz%4"), b"%zz%4");
    }
}
