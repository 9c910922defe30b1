//! The server's connections: accepted up to a cap, timed out when slow or
//! idle, answered in JSON even when HTTP itself fails, and closed so that
//! the client reads the last answer whole.
//!
//! - **Timeouts.** A client has `header` time to send a request's headers,
//!   counted from the connection's start or from the end of the previous
//!   answer (hyper's header read timeout), so silent, slow and idle
//!   keep-alive connections are closed: one that sent part of a request
//!   is told so (`408`), one that sent nothing is closed without a word
//!   (an answer it did not ask for could pass for the answer to a request
//!   it is sending). A request's body has its own time (the body
//!   extractor in `guard.rs`).
//! - **A cap.** At most `max` connections are open. A new one beyond it
//!   closes the *quiet* connection (nothing under way, nothing of a next
//!   request come: `activity.rs`) that has waited longest without a request,
//!   as hyper ends a connection gracefully; one with a request under way
//!   is never closed for another, and neither is one opened less than
//!   [`FIRST_REQUEST_TIME`] ago that has not had a request yet (its first
//!   may be on the wire: the client sent it as it connected). When none
//!   is quiet (pages listening to their games, requests being sent), the
//!   new one has its request read and answered `503`, then is closed.
//! - **JSON everywhere**, hyper's own answers included (`wire.rs`); what
//!   hyper closes without a word (an HTTP/2 preface, headers too slow) is
//!   answered here.

use std::collections::HashMap;
use std::future::Future;
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
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tower::ServiceExt;

use super::activity::{Activity, Peek, Watch};
use super::store::lock;
use super::wire::{self, Wire};

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

/// The most connections being refused at once; a flood beyond them is
/// closed at once.
const MAX_REFUSING: usize = 256;

/// The time a refused connection has to send its request's head, and
/// then to take the answer.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// How long a new connection's first request may take to come before the
/// connection can be closed for another: a client sends it as it
/// connects, so its bytes are on the wire (on the loopback, microseconds;
/// across the world, part of a round trip).
const FIRST_REQUEST_TIME: Duration = Duration::from_millis(250);

/// The time a closing connection's client has to take its last answer.
const LINGER_TIME: Duration = Duration::from_secs(1);

/// One open connection.
struct Open {
    activity: Arc<Activity>,
    /// When it was admitted.
    opened: Instant,
    /// Its socket (open while the connection is in the table: it leaves
    /// the table before its close).
    peek: Peek,
    /// Closes it, gracefully.
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
    let refusing = Arc::new(AtomicUsize::new(0));
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
        let Some((id, activity, closed)) = admit(&table, &stream, limits.max) else {
            if refusing.fetch_add(1, Ordering::SeqCst) < MAX_REFUSING {
                let refusing = refusing.clone();
                tokio::spawn(async move {
                    refuse(stream).await;
                    refusing.fetch_sub(1, Ordering::SeqCst);
                });
            } else {
                refusing.fetch_sub(1, Ordering::SeqCst);
            }
            continue;
        };
        let info = ConnInfo { peer, local };
        let (router, table) = (router.clone(), table.clone());
        tokio::spawn(async move {
            let ended = connection(stream, router, info, limits, activity, closed).await;
            // Out of the table before the socket closes (its descriptor
            // could be another's then).
            lock(&table).open.remove(&id);
            let (stream, answer) = ended;
            wire::linger(stream, answer.as_deref(), LINGER_TIME).await;
        });
    }
}

/// Makes room for `stream`: below the cap it is admitted; at the cap the
/// quiet connection idle the longest is closed for it; `None` when none
/// is quiet.
fn admit(
    table: &Mutex<Table>,
    stream: &TcpStream,
    max: usize,
) -> Option<(u64, Arc<Activity>, oneshot::Receiver<()>)> {
    let mut t = lock(table);
    if t.open.len() >= max {
        let mut waiting: Vec<_> = (t.open.iter())
            .filter(|(_, o)| o.close.is_some() && o.activity.quiet())
            .filter(|(_, o)| o.activity.had_a_request() || o.opened.elapsed() >= FIRST_REQUEST_TIME)
            .map(|(id, o)| (o.activity.idle_since(), *id))
            .collect();
        waiting.sort_unstable();
        let idlest = (waiting.into_iter()).find(|(_, id)| {
            let o = &t.open[id];
            o.peek.quiet(&o.activity)
        });
        let close = idlest.and_then(|(_, id)| t.open.get_mut(&id)?.close.take())?;
        let _ = close.send(());
    }
    let id = t.next;
    t.next += 1;
    let (tx, rx) = oneshot::channel();
    let activity = Arc::new(Activity::default());
    t.open.insert(
        id,
        Open {
            activity: activity.clone(),
            opened: Instant::now(),
            peek: Peek::new(stream),
            close: Some(tx),
        },
    );
    Some((id, activity, rx))
}

/// Answers a connection beyond the cap with `503` once its request's head
/// has come (or its time has passed), and closes it.
async fn refuse(mut stream: TcpStream) {
    wire::read_head(&mut stream, REFUSAL_TIME, 64 * 1024).await;
    let answer = wire::json_answer(
        503,
        "Service Unavailable",
        "the server has too many connections open: try again in a moment",
    );
    wire::linger(stream, Some(&answer), REFUSAL_TIME).await;
}

type Service = Pin<Box<dyn Future<Output = Result<axum::response::Response, io::Error>> + Send>>;

/// Serves one connection until it ends, times out or is closed for
/// another; then its socket, with the answer still to send on it (one
/// hyper could not make).
async fn connection(
    stream: TcpStream,
    router: Router,
    info: ConnInfo,
    limits: Limits,
    activity: Arc<Activity>,
    mut closed: oneshot::Receiver<()>,
) -> (TcpStream, Option<Vec<u8>>) {
    let counted = activity.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| -> Service {
        req.extensions_mut().insert(info);
        let started = Busy::start(&counted);
        let router = router.clone();
        Box::pin(async move {
            let Ok(mut answer) = router.oneshot(req.map(axum::body::Body::new)).await;
            if started.activity.last.load(Ordering::SeqCst) {
                let close = axum::http::HeaderValue::from_static("close");
                answer
                    .headers_mut()
                    .insert(axum::http::header::CONNECTION, close);
            }
            // The answer's body may stream on (events): the connection is
            // busy until it ends.
            Ok(answer.map(|body| axum::body::Body::new(Tracked { body, started })))
        })
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .keep_alive(true);
    let peek = Peek::new(&stream);
    let mut conn = http.serve_connection(
        TokioIo::new(Wire::new(stream, Watch::new(activity.clone()))),
        service,
    );
    // Closed for another: at once if it is still quiet (hyper closes an
    // idle connection), else after the answer to the request that came
    // since it was found quiet.
    let mut told = false;
    let ended = std::future::poll_fn(|cx: &mut Context<'_>| {
        if !told && Pin::new(&mut closed).poll(cx).is_ready() {
            told = true;
            if peek.quiet(&activity) {
                Pin::new(&mut conn).graceful_shutdown();
            } else {
                activity.last.store(true, Ordering::SeqCst);
            }
        }
        conn.poll_without_shutdown(cx)
    })
    .await;
    let parts = conn.into_parts();
    let stream = parts.io.into_inner().into_inner();
    let answer = match ended {
        // Part of a request came, and hyper closes without a word.
        Err(e) if activity.unheard() => Some(if e.is_timeout() {
            let within = limits.header.as_secs_f64();
            let message = format!("the request's headers did not all arrive within {within} s");
            wire::json_answer(408, "Request Timeout", &message)
        } else if parts.read_buf.starts_with(b"PRI * HTTP/2.0") {
            let message =
                "this is an HTTP/2 connection preface: only HTTP/1.1 (and 1.0) is served here";
            wire::json_answer(400, "Bad Request", message)
        } else {
            let message = "the request could not be read as HTTP/1.1";
            wire::json_answer(400, "Bad Request", message)
        }),
        _ => None,
    };
    (stream, answer)
}

/// A request under way on a connection: counted while it lives.
struct Busy {
    activity: Arc<Activity>,
}

impl Busy {
    fn start(activity: &Arc<Activity>) -> Busy {
        activity.request_started();
        Busy {
            activity: activity.clone(),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.activity.request_ended();
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
