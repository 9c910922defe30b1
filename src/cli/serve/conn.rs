//! The server's connections: accepted up to a cap, timed out when slow or
//! idle, and answered in JSON even when HTTP itself fails.
//!
//! - **Timeouts.** A client has `header` time to send a request's headers,
//!   counted from the connection's start or from the end of the previous
//!   answer (hyper's header read timeout), so silent, slow and idle
//!   keep-alive connections are closed; a request's body has its own time
//!   (the body extractor in `guard.rs`).
//! - **A cap.** At most `max` connections are open. A new one beyond it
//!   closes the connection that has waited longest without a request under
//!   way (a slow or idle client), so the server keeps answering; when every
//!   connection is busy (pages listening to their games), the new one is
//!   answered `503` and closed.
//! - **JSON everywhere.** hyper answers a request it cannot read (too
//!   large, malformed) itself, with an empty body and no hook to change
//!   it: [`JsonErrors`] rewrites those answers on their way out.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tower::ServiceExt;

use super::store::lock;

/// How connections are limited.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most connections open at once.
    pub max: usize,
    /// Time to send a request's headers (and the most a connection may
    /// idle between requests).
    pub header: Duration,
}

/// Where a request came from and arrived at: the guard's checks need both.
#[derive(Clone, Copy, Debug)]
pub struct ConnInfo {
    /// The client's address.
    pub peer: SocketAddr,
    /// The server's address the client connected to.
    pub local: SocketAddr,
}

/// One open connection.
struct Open {
    /// Requests under way (a streamed answer counts until its end).
    busy: Arc<AtomicUsize>,
    /// Since when it has had no request under way.
    idle_since: Arc<Mutex<Instant>>,
    /// Closes it.
    close: Option<oneshot::Sender<()>>,
}

#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Open>,
}

/// Serves `router` on `listener` within `limits` until the process ends.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) -> io::Result<()> {
    let table = Arc::new(Mutex::new(Table::default()));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it
                // was taken: wait a moment and go on.
                eprintln!("cabra serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let local = stream.local_addr().unwrap_or(peer);
        let Some((id, busy, idle_since, closed)) = admit(&table, limits.max) else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let info = ConnInfo { peer, local };
        let (router, table) = (router.clone(), table.clone());
        tokio::spawn(async move {
            connection(stream, router, info, limits, busy, idle_since, closed).await;
            lock(&table).open.remove(&id);
        });
    }
}

type Admitted = (
    u64,
    Arc<AtomicUsize>,
    Arc<Mutex<Instant>>,
    oneshot::Receiver<()>,
);

/// Makes room for a new connection: below the cap it is admitted; at the
/// cap the connection idle the longest is closed for it; `None` when all
/// are busy.
fn admit(table: &Mutex<Table>, max: usize) -> Option<Admitted> {
    let mut t = lock(table);
    if t.open.len() >= max {
        let idlest = (t.open.iter())
            .filter(|(_, o)| o.busy.load(Ordering::SeqCst) == 0 && o.close.is_some())
            .min_by_key(|(_, o)| *lock(&o.idle_since))
            .map(|(id, _)| *id);
        let close = idlest.and_then(|id| t.open.get_mut(&id)?.close.take())?;
        let _ = close.send(());
    }
    let id = t.next;
    t.next += 1;
    let (tx, rx) = oneshot::channel();
    let busy = Arc::new(AtomicUsize::new(0));
    let idle_since = Arc::new(Mutex::new(Instant::now()));
    t.open.insert(
        id,
        Open {
            busy: busy.clone(),
            idle_since: idle_since.clone(),
            close: Some(tx),
        },
    );
    Some((id, busy, idle_since, rx))
}

/// Answers a connection beyond the cap with `503` and closes it.
async fn refuse(mut stream: TcpStream) {
    let body = r#"{"error":"the server has too many connections open: try again in a moment"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(answer.as_bytes())).await;
}

/// Serves one connection until it ends, times out or is closed for another.
async fn connection(
    stream: TcpStream,
    router: Router,
    info: ConnInfo,
    limits: Limits,
    busy: Arc<AtomicUsize>,
    idle_since: Arc<Mutex<Instant>>,
    closed: oneshot::Receiver<()>,
) {
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(info);
        let started = Busy::start(&busy, &idle_since);
        let router = router.clone();
        async move {
            let answer = router.oneshot(req.map(axum::body::Body::new)).await;
            // The answer's body may stream on (events): the connection is
            // busy until it ends.
            answer.map(|r| r.map(|body| axum::body::Body::new(Tracked { body, started })))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .keep_alive(true);
    let conn = http.serve_connection(TokioIo::new(JsonErrors::new(stream)), service);
    tokio::select! {
        _ = conn => {}
        _ = closed => {}
    }
}

/// A request under way on a connection: counted while it lives.
struct Busy {
    busy: Arc<AtomicUsize>,
    idle_since: Arc<Mutex<Instant>>,
}

impl Busy {
    fn start(busy: &Arc<AtomicUsize>, idle_since: &Arc<Mutex<Instant>>) -> Busy {
        busy.fetch_add(1, Ordering::SeqCst);
        Busy {
            busy: busy.clone(),
            idle_since: idle_since.clone(),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        *lock(&self.idle_since) = Instant::now();
        self.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An answer's body, which keeps its request counted until it is done.
struct Tracked {
    body: axum::body::Body,
    #[allow(dead_code)]
    started: Busy,
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A connection's stream whose answers of hyper's own making (an error
/// status with an empty body) get a JSON body.
pub struct JsonErrors<S> {
    inner: S,
    /// An answer being rewritten: its bytes, how many are written, and the
    /// length of what hyper asked to write.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<S> JsonErrors<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> JsonErrors<S> {
        JsonErrors {
            inner,
            pending: None,
        }
    }
}

/// The JSON version of `head` when it is an error answer with an empty
/// body (as hyper writes for a request it could not read).
pub fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let end = text.find("\r\n\r\n")?;
    if end + 4 != text.len() {
        return None;
    }
    let mut lines = text[..end].split("\r\n");
    let status_line = lines.next()?;
    let mut parts = status_line.splitn(3, ' ');
    let (version, code) = (parts.next()?, parts.next()?);
    let reason = parts.next().unwrap_or("");
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
    let message = match code {
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

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_none() {
            match rewrite(buf) {
                Some(bytes) => self.pending = Some((bytes, 0, buf.len())),
                None => return Pin::new(&mut self.inner).poll_write(cx, buf),
            }
        }
        let this = &mut *self;
        let (bytes, written, asked) = this.pending.as_mut().expect("set above");
        while *written < bytes.len() {
            match Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let asked = *asked;
        this.pending = None;
        Poll::Ready(Ok(asked))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then writes an answer's head in one piece.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_answers_without_a_body_get_one_in_json() {
        let head =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(rewrite(head).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(out.contains("date: x\r\n") && out.contains("content-type: application/json"));
        let body = out.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("headers"));
        assert!(out.contains(&format!("content-length: {}\r\n", body.len())));
        // Answers with a body, successes and partial writes are left alone.
        assert!(rewrite(b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n").is_none());
        assert!(rewrite(b"{\"error\": 1}").is_none());
    }
}
