//! What passes on a connection's socket, beneath hyper: what it shows of
//! the connection's activity (`activity.rs`), JSON bodies for the answers
//! hyper makes itself, and the answers it does not make.
//!
//! - **JSON everywhere.** hyper answers a request it cannot read (too
//!   large, malformed) itself, with an empty body and no hook to change
//!   it: [`Wire`] rewrites those answers on their way out, and tells an
//!   address too long from headers too large (hyper says 431 for both
//!   when the address fills its buffer). What hyper closes without a word
//!   (an HTTP/2 preface, headers too slow) gets [`json_answer`] from the
//!   connection.
//! - **Ends that lose no answer.** A socket closed with bytes unread is
//!   reset, and a reset can take the last answer with it: [`linger`]
//!   reads what the client still sends, for a bounded time, before the
//!   close.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;

use super::activity::Watch;

/// A connection's socket as hyper uses it: it keeps the connection's
/// [`Activity`](super::activity::Activity) and rewrites hyper's own error
/// answers in JSON.
pub struct Wire<S> {
    inner: S,
    watch: Watch,
    /// An answer being rewritten: its bytes, how many are written, and the
    /// length of what hyper asked to write.
    rewriting: Option<(Vec<u8>, usize, usize)>,
}

impl<S> Wire<S> {
    /// Wraps `inner`, keeping `watch`.
    pub fn new(inner: S, watch: Watch) -> Wire<S> {
        Wire {
            inner,
            watch,
            rewriting: None,
        }
    }

    /// The socket.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

/// An answer with this status whose body is `{"error": message}`, which
/// closes the connection.
pub fn json_answer(status: u16, reason: &str, message: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The JSON version of `head` when it is an error answer with an empty
/// body (as hyper writes for a request it could not read); `line_open`:
/// the request line had not ended, so "headers too large" is an address
/// too long.
pub fn rewrite(head: &[u8], line_open: bool) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let end = text.find("\r\n\r\n")?;
    if end + 4 != text.len() {
        return None;
    }
    let mut lines = text[..end].split("\r\n");
    let mut status_line = lines.next()?.to_string();
    let mut parts = status_line.splitn(3, ' ');
    let (version, mut code) = (parts.next()?.to_string(), parts.next()?.to_string());
    let reason = parts.next().unwrap_or("").to_string();
    if !version.starts_with("HTTP/1.") || !(code.starts_with('4') || code.starts_with('5')) {
        return None;
    }
    let headers: Vec<&str> = lines.collect();
    let empty = headers
        .iter()
        .any(|h| h.eq_ignore_ascii_case("content-length: 0"));
    if !empty {
        return None;
    }
    if code == "431" && line_open {
        code = "414".to_string();
        status_line = format!("{version} 414 URI Too Long");
    }
    let message = match code.as_str() {
        "400" => "the request could not be read as HTTP/1.1".to_string(),
        "414" => "the request's address is too long".to_string(),
        "431" => "the request's headers are too large or too many".to_string(),
        "505" => "only HTTP/1.1 (and 1.0) is served here".to_string(),
        _ => reason.to_lowercase(),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    let mut out = format!("{status_line}\r\n");
    for h in headers {
        if !h.to_ascii_lowercase().starts_with("content-length:") {
            out.push_str(h);
            out.push_str("\r\n");
        }
    }
    out.push_str(&format!(
        "content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    ));
    Some(out.into_bytes())
}

impl<S: AsyncRead + Unpin> AsyncRead for Wire<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        match polled {
            Poll::Ready(Ok(())) if buf.filled().len() > before => {
                let came = buf.filled()[before..].to_vec();
                self.watch.came(&came);
            }
            Poll::Pending => self.watch.waiting(),
            _ => {}
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Wire<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.rewriting.is_none() {
            let line_open = this.watch.answering();
            match rewrite(buf, line_open) {
                Some(bytes) => this.rewriting = Some((bytes, 0, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        let (bytes, written, asked) = this.rewriting.as_mut().expect("set above");
        while *written < bytes.len() {
            match Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let asked = *asked;
        this.rewriting = None;
        Poll::Ready(Ok(asked))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let flushed = Pin::new(&mut self.inner).poll_flush(cx);
        if let Poll::Ready(Ok(())) = flushed {
            self.watch.flushed();
        }
        flushed
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then writes an answer's head in one piece.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

/// The most a closing connection reads of what its client still sends.
const LINGER_BYTES: usize = 256 * 1024;

/// Writes `answer` (if any) and ends the connection so that the client
/// reads it whole: the server's side is shut, then what the client still
/// sends is read and dropped until it closes, for at most `time` (and
/// [`LINGER_BYTES`]), before the socket is closed.
pub async fn linger(mut stream: TcpStream, answer: Option<&[u8]>, time: Duration) {
    let end = tokio::time::Instant::now() + time;
    if let Some(bytes) = answer {
        let written = tokio::time::timeout_at(end, stream.write_all(bytes)).await;
        if !matches!(written, Ok(Ok(()))) {
            return;
        }
    }
    if !matches!(
        tokio::time::timeout_at(end, stream.shutdown()).await,
        Ok(Ok(()))
    ) {
        return;
    }
    let mut scratch = vec![0u8; 8192];
    let mut read = 0;
    while read < LINGER_BYTES {
        match tokio::time::timeout_at(end, stream.read(&mut scratch)).await {
            Ok(Ok(n)) if n > 0 => read += n,
            _ => return,
        }
    }
}

/// Reads the head of a request (up to its blank line), for at most `time`
/// and `limit` bytes, so that an answer sent before a close does not meet
/// the request still unread (and the reset that would take it away).
pub async fn read_head(stream: &mut TcpStream, time: Duration, limit: usize) {
    let mut head = Vec::new();
    let mut scratch = [0u8; 4096];
    let end = tokio::time::Instant::now() + time;
    while head.len() < limit && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match tokio::time::timeout_at(end, stream.read(&mut scratch)).await {
            Ok(Ok(n)) if n > 0 => head.extend_from_slice(&scratch[..n]),
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_answers_without_a_body_get_one_in_json() {
        let head =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(rewrite(head, false).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(out.contains("date: x\r\n") && out.contains("content-type: application/json"));
        let body = out.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("headers"));
        assert!(out.contains(&format!("content-length: {}\r\n", body.len())));
        // Headers too large before the request line ended: the address is.
        let out = String::from_utf8(rewrite(head, true).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{out}");
        assert!(out.contains("address is too long"), "{out}");
        // Answers with a body, successes and partial writes are left alone.
        assert!(
            rewrite(
                b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n",
                false
            )
            .is_none()
        );
        assert!(rewrite(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", true).is_none());
        assert!(rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n", false).is_none());
        assert!(rewrite(b"{\"error\": 1}", false).is_none());
    }
}
