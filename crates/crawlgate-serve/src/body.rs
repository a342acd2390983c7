//! A response body that can be padded, paced and broken on purpose.

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Sleep;

/// Bytes per frame of generated padding.
const PAD_CHUNK: usize = 64 * 1024;
/// How often a trickled body sends a piece.
const TRICKLE_TICK: Duration = Duration::from_millis(100);

/// Spaces, shared by every padded body.
static PADDING: [u8; PAD_CHUNK] = [b' '; PAD_CHUNK];

/// A body: fixed bytes, then generated padding; optionally sent slowly, optionally cut by an
/// error (the connection is then broken).
#[derive(Debug)]
pub(crate) struct ServedBody {
    data: Bytes,
    pad_left: u64,
    /// Bytes per frame when trickling.
    trickle: Option<usize>,
    /// Body bytes still allowed before the connection is broken.
    reset_left: Option<u64>,
    /// Padding never runs out (and no length is announced).
    endless: bool,
    sleep: Option<Pin<Box<Sleep>>>,
}

impl ServedBody {
    pub(crate) fn new(data: Bytes) -> Self {
        Self {
            data,
            pad_left: 0,
            trickle: None,
            reset_left: None,
            endless: false,
            sleep: None,
        }
    }

    /// Padding without end after the data: the client has to stop reading.
    pub(crate) fn endless(mut self) -> Self {
        self.endless = true;
        self.pad_left = u64::MAX;
        self
    }

    pub(crate) fn padded(mut self, bytes: u64) -> Self {
        self.pad_left = bytes;
        self
    }

    /// About `bytes_per_sec` bytes a second, in pieces every 100 ms.
    pub(crate) fn trickled(mut self, bytes_per_sec: u64) -> Self {
        let per_tick = (bytes_per_sec / 10).max(1);
        self.trickle = Some(usize::try_from(per_tick).unwrap_or(usize::MAX));
        self
    }

    pub(crate) fn reset_after(mut self, bytes: u64) -> Self {
        self.reset_left = Some(bytes);
        self
    }

    fn remaining(&self) -> u64 {
        (self.data.len() as u64).saturating_add(self.pad_left)
    }
}

impl Body for ServedBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        let this = &mut *self;
        if let Some(sleep) = this.sleep.as_mut() {
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            this.sleep = None;
        }
        if this.remaining() == 0 {
            return Poll::Ready(None);
        }
        if this.reset_left == Some(0) {
            return Poll::Ready(Some(Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionReset,
                "the route breaks the connection here",
            ))));
        }
        let mut limit = this.trickle.unwrap_or(usize::MAX);
        if let Some(left) = this.reset_left {
            limit = limit.min(usize::try_from(left).unwrap_or(usize::MAX));
        }
        let chunk = if this.data.is_empty() {
            let size = PAD_CHUNK
                .min(limit)
                .min(usize::try_from(this.pad_left).unwrap_or(usize::MAX));
            if !this.endless {
                this.pad_left -= size as u64;
            }
            Bytes::from_static(&PADDING[..size])
        } else {
            let size = this.data.len().min(limit);
            this.data.split_to(size)
        };
        if let Some(left) = this.reset_left.as_mut() {
            *left -= chunk.len() as u64;
        }
        if this.trickle.is_some() {
            this.sleep = Some(Box::pin(tokio::time::sleep(TRICKLE_TICK)));
        }
        Poll::Ready(Some(Ok(Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.remaining() == 0
    }

    fn size_hint(&self) -> SizeHint {
        // A body that breaks off does not announce its length (that would be a lie in the
        // Content-Length header; a route asks for lies explicitly).
        if self.reset_left.is_some() || self.endless {
            SizeHint::default()
        } else {
            SizeHint::with_exact(self.remaining())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn padding_follows_the_data() {
        let body = ServedBody::new(Bytes::from_static(b"<p>")).padded(100_000);
        let bytes = body.collect().await.unwrap().to_bytes();
        assert_eq!(bytes.len(), 100_003);
        assert!(bytes.starts_with(b"<p> "));
    }

    #[tokio::test]
    async fn an_endless_body_keeps_going_without_a_length() {
        let mut body = ServedBody::new(Bytes::from_static(b"<p>")).endless();
        assert_eq!(body.size_hint().exact(), None);
        assert!(!body.is_end_stream());
        let mut received = 0usize;
        // Far past any fixed padding chunk: 100 frames.
        for _ in 0..100 {
            received += body
                .frame()
                .await
                .unwrap()
                .unwrap()
                .into_data()
                .unwrap()
                .len();
        }
        assert!(received > 100 * 1024, "{received}");
        assert!(!body.is_end_stream());
    }

    #[tokio::test]
    async fn a_reset_cuts_the_body_with_an_error() {
        let mut body = ServedBody::new(Bytes::from_static(b"0123456789")).reset_after(4);
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(&first[..], b"0123");
        assert!(body.frame().await.unwrap().is_err());
    }
}
