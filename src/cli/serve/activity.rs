//! What the server knows of a connection's activity, so that only a
//! quiet one makes room for another: a connection is *quiet* when no
//! request is under way on it, no byte of a next one has come (read, or
//! waiting in the socket), and every byte of its answers is written:
//! closing it then loses nothing.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::net::TcpStream;

use super::store::lock;

/// What a connection is doing, shared by its socket's wrapper, its
/// requests and the table of connections.
///
/// Requests are counted twice: the heads that came (each ends with a blank
/// line; bodies of a known length are passed over) and those hyper handed
/// on. More heads than requests: one waits in hyper's buffer (pipelined,
/// behind an answer). Should a chunked body's blank lines pass for heads,
/// the count is set right when hyper next waits for bytes with nothing
/// under way.
#[derive(Debug)]
pub struct Activity {
    /// Requests under way (a streamed answer counts until its end).
    pub busy: AtomicUsize,
    /// The heads of requests that came, whole.
    heads: AtomicUsize,
    /// The requests hyper handed on.
    requests: AtomicUsize,
    /// Part of a request came: of its head, or of its body.
    partial: AtomicBool,
    /// An answer began since the last request was handed on.
    answered: AtomicBool,
    /// Bytes of an answer are written but not yet flushed.
    unflushed: AtomicBool,
    /// Bytes of a head came since the last answer began.
    unheard: AtomicBool,
    /// Since when nothing has been under way.
    idle_since: Mutex<Instant>,
    /// Closed for another while a request was coming: its answer is the
    /// connection's last.
    pub last: AtomicBool,
}

impl Default for Activity {
    fn default() -> Activity {
        Activity {
            busy: AtomicUsize::new(0),
            heads: AtomicUsize::new(0),
            requests: AtomicUsize::new(0),
            partial: AtomicBool::new(false),
            answered: AtomicBool::new(true),
            unflushed: AtomicBool::new(false),
            unheard: AtomicBool::new(false),
            idle_since: Mutex::new(Instant::now()),
            last: AtomicBool::new(false),
        }
    }
}

impl Activity {
    /// Whether nothing is under way, as far as the server has seen (the
    /// socket may hold bytes not read yet: see [`Peek`]).
    pub fn quiet(&self) -> bool {
        self.busy.load(Ordering::SeqCst) == 0
            && !self.unflushed.load(Ordering::SeqCst)
            && !self.unanswered()
    }

    /// Whether part of a request, or a whole one, came after the last
    /// answer began, so that an end without a word leaves it unanswered.
    pub fn unheard(&self) -> bool {
        self.unheard.load(Ordering::SeqCst) && self.unanswered()
    }

    /// Whether part of a request, or a whole one, came that nothing
    /// answered yet.
    fn unanswered(&self) -> bool {
        self.partial.load(Ordering::SeqCst)
            || self.heads.load(Ordering::SeqCst) > self.requests.load(Ordering::SeqCst)
    }

    /// Whether hyper handed on a request of this connection.
    pub fn had_a_request(&self) -> bool {
        self.requests.load(Ordering::SeqCst) > 0
    }

    /// Since when the connection has had no request under way.
    pub fn idle_since(&self) -> Instant {
        *lock(&self.idle_since)
    }

    /// hyper handed a request on.
    pub fn request_started(&self) {
        self.busy.fetch_add(1, Ordering::SeqCst);
        self.requests.fetch_add(1, Ordering::SeqCst);
        self.answered.store(false, Ordering::SeqCst);
    }

    /// A request ended (its answer's body is all given to hyper).
    pub fn request_ended(&self) {
        *lock(&self.idle_since) = Instant::now();
        self.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the head of a request says of its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BodyLength {
    /// This many bytes (`Content-Length`).
    Known(u64),
    /// Chunked: its end is not looked for (the bytes until the answer are
    /// taken for it).
    Unknown,
}

/// Where the wire is in the bytes of a connection's requests: in a head
/// (and which line), or in a body.
#[derive(Clone, Debug)]
struct Scan {
    /// At the start of a line.
    line_start: bool,
    /// In a head (a byte other than CR and LF came since the last one).
    in_head: bool,
    /// The request line of this head has ended.
    line_done: bool,
    /// The first bytes of the line being read.
    line: Vec<u8>,
    /// What this head says of its body so far.
    head_body: Option<BodyLength>,
    /// The body being read.
    body: Option<BodyLength>,
}

impl Default for Scan {
    fn default() -> Scan {
        Scan {
            line_start: true,
            in_head: false,
            line_done: false,
            line: Vec::new(),
            head_body: None,
            body: None,
        }
    }
}

impl Scan {
    /// Follows `bytes`; the number of heads they end, and whether any of
    /// them were of a head (not of a body).
    fn came(&mut self, mut bytes: &[u8]) -> (usize, bool) {
        let (mut heads, mut of_head) = (0, false);
        while let Some((&b, rest)) = bytes.split_first() {
            match &mut self.body {
                Some(BodyLength::Unknown) => break,
                Some(BodyLength::Known(left)) => {
                    let k = bytes
                        .len()
                        .min(usize::try_from(*left).unwrap_or(usize::MAX));
                    *left -= k as u64;
                    if *left == 0 {
                        self.body = None;
                    }
                    bytes = &bytes[k..];
                    continue;
                }
                None => {
                    bytes = rest;
                    of_head = true;
                }
            }
            match b {
                b'\r' => {}
                b'\n' => {
                    if self.in_head && self.line_start {
                        heads += 1;
                        self.in_head = false;
                        self.body = self.head_body.take();
                    } else if self.in_head {
                        if self.line_done {
                            self.header();
                        }
                        self.line_done = true;
                    }
                    self.line.clear();
                    self.line_start = true;
                }
                _ => {
                    if !self.in_head {
                        self.in_head = true;
                        self.line_done = false;
                        self.head_body = None;
                    }
                    if self.line.len() < 64 {
                        self.line.push(b);
                    }
                    self.line_start = false;
                }
            }
        }
        (heads, of_head)
    }

    /// A header line ended: what it says of the body, if anything.
    fn header(&mut self) {
        let line = String::from_utf8_lossy(&self.line).to_ascii_lowercase();
        if let Some(length) = line.strip_prefix("content-length:") {
            self.head_body = match length.trim().parse::<u64>() {
                Ok(0) => None,
                Ok(n) => Some(BodyLength::Known(n)),
                Err(_) => Some(BodyLength::Unknown),
            };
        } else if line.starts_with("transfer-encoding:") {
            self.head_body = Some(BodyLength::Unknown);
        }
    }

    /// Whether part of a request came (of its head, or of its body).
    fn partial(&self) -> bool {
        self.in_head || self.body.is_some()
    }
}

/// A look into a connection's socket, for bytes the server has not read
/// (a request that came while its connection's task had not run yet).
/// Valid while the socket is open: the table of connections drops it
/// before the socket closes.
#[derive(Clone, Copy, Debug)]
pub struct Peek {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

impl Peek {
    /// A look into `stream`.
    pub fn new(stream: &TcpStream) -> Peek {
        #[cfg(not(unix))]
        let _ = stream;
        Peek {
            #[cfg(unix)]
            fd: std::os::fd::AsRawFd::as_raw_fd(stream),
        }
    }

    /// Whether bytes wait in the socket.
    #[cfg(unix)]
    pub fn unread(&self) -> bool {
        let mut byte = 0u8;
        // SAFETY: the buffer is one valid byte; `recv` with MSG_PEEK leaves
        // the data where it is, and on a descriptor that is not an open
        // socket it fails, which reads as "nothing".
        let n = unsafe {
            libc::recv(
                self.fd,
                (&raw mut byte).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        n > 0
    }

    /// Whether bytes wait in the socket: not known here, so no.
    #[cfg(not(unix))]
    pub fn unread(&self) -> bool {
        false
    }

    /// Whether closing the connection now loses nothing: nothing under
    /// way, nothing of a request come or waiting in the socket.
    pub fn quiet(&self, activity: &Activity) -> bool {
        activity.quiet() && !self.unread()
    }
}

/// A connection's [`Activity`] as its socket's bytes show it.
#[derive(Debug)]
pub struct Watch {
    activity: Arc<Activity>,
    scan: Scan,
}

impl Watch {
    /// Keeps `activity`.
    pub fn new(activity: Arc<Activity>) -> Watch {
        Watch {
            activity,
            scan: Scan::default(),
        }
    }

    /// Counts the heads in bytes that came.
    pub fn came(&mut self, bytes: &[u8]) {
        let (heads, of_head) = self.scan.came(bytes);
        if of_head {
            self.activity.unheard.store(true, Ordering::SeqCst);
        }
        self.activity.heads.fetch_add(heads, Ordering::SeqCst);
        self.activity
            .partial
            .store(self.scan.partial(), Ordering::SeqCst);
    }

    /// hyper waits for bytes: after an answer, with nothing under way,
    /// it has no whole head left (a body's blank lines were no heads).
    pub fn waiting(&mut self) {
        let a = &self.activity;
        if a.busy.load(Ordering::SeqCst) == 0
            && a.answered.load(Ordering::SeqCst)
            && !a.unflushed.load(Ordering::SeqCst)
        {
            a.heads
                .store(a.requests.load(Ordering::SeqCst), Ordering::SeqCst);
        }
    }

    /// An answer is being written (a chunked body before it was read
    /// whole); whether the request line was still open.
    pub fn answering(&mut self) -> bool {
        let line_open = self.scan.in_head && !self.scan.line_done;
        if self.scan.body == Some(BodyLength::Unknown) {
            self.scan = Scan::default();
        }
        self.activity
            .partial
            .store(self.scan.partial(), Ordering::SeqCst);
        self.activity.answered.store(true, Ordering::SeqCst);
        self.activity.unheard.store(false, Ordering::SeqCst);
        self.activity.unflushed.store(true, Ordering::SeqCst);
        line_open
    }

    /// What was written is flushed.
    pub fn flushed(&mut self) {
        self.activity.unflushed.store(false, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_counted_through_their_pieces() {
        let mut scan = Scan::default();
        // Blank lines before a request are no head.
        assert_eq!(scan.came(b"\r\n\r\nGET /aaaa").0, 0);
        assert!(scan.in_head && !scan.line_done);
        assert_eq!(scan.came(b"aaaa").0, 0);
        assert_eq!(scan.came(b"a HTTP/1.1\r\nHost: x\r").0, 0);
        assert!(scan.in_head && scan.line_done);
        assert_eq!(scan.came(b"\n\r").0, 0);
        assert_eq!(scan.came(b"\n").0, 1);
        assert!(!scan.in_head);
        // Two pipelined at once, then a third begun; bare LF lines too.
        let two = b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\nHost: x\n\nGET";
        assert_eq!(scan.came(two).0, 2);
        assert!(scan.in_head && !scan.line_done);
        // A body of a known length is passed over, blank lines and all.
        let mut scan = Scan::default();
        let post = b"POST / HTTP/1.1\r\nContent-length:  7\r\n\r\na\r\n\r\nb";
        assert_eq!(scan.came(post), (1, true));
        assert_eq!(scan.body, Some(BodyLength::Known(1)));
        assert_eq!(scan.came(b"c"), (0, false));
        assert!(!scan.partial());
        assert_eq!(scan.came(b"GET"), (0, true));
    }

    #[test]
    fn a_connection_is_quiet_when_nothing_came_unanswered() {
        let activity = Arc::new(Activity::default());
        let mut wire = Watch::new(activity.clone());
        assert!(activity.quiet() && !activity.unheard());
        wire.came(b"GET / HTTP/1.1\r\nHo");
        assert!(!activity.quiet() && activity.unheard());
        wire.came(b"st: x\r\n\r\nGET /next HTTP/1.1\r\n\r\n");
        activity.request_started();
        activity.request_ended();
        wire.answering();
        wire.flushed();
        // The pipelined request waits in hyper's buffer.
        assert!(!activity.quiet());
        activity.request_started();
        activity.request_ended();
        wire.answering();
        wire.flushed();
        assert!(activity.quiet());
        // A body is passed over, by its length.
        wire.came(b"POST /load HTTP/1.1\r\nContent-Length: 4\r\n\r\na\n");
        activity.request_started();
        assert!(!activity.quiet());
        wire.came(b"\nb");
        activity.request_ended();
        wire.answering();
        wire.flushed();
        assert!(activity.quiet());
        // A next request begun before an answer is still coming after it.
        wire.came(b"GET / HTTP/1.1\r\n\r\nGET /next HT");
        activity.request_started();
        activity.request_ended();
        wire.answering();
        wire.flushed();
        assert!(!activity.quiet());
        wire.came(b"TP/1.1\r\n\r\n");
        activity.request_started();
        activity.request_ended();
        wire.answering();
        wire.flushed();
        assert!(activity.quiet());
        // A chunked body is not looked into: the answer ends it.
        let chunked = b"POST /load HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        wire.came(chunked);
        activity.request_started();
        wire.came(b"4\r\na\n\nb\r\n0\r\n\r\n");
        activity.request_ended();
        assert!(!activity.quiet());
        wire.answering();
        wire.flushed();
        assert!(activity.quiet());
        // A head miscounted is set right when hyper waits for bytes.
        activity.heads.fetch_add(1, Ordering::SeqCst);
        assert!(!activity.quiet());
        wire.waiting();
        assert!(activity.quiet());
    }

    #[test]
    fn an_answer_to_part_of_a_request_is_heard() {
        let activity = Arc::new(Activity::default());
        let mut wire = Watch::new(activity.clone());
        wire.came(b"GET / HTTP/1.1\r\nX-Big: aaaa");
        assert!(activity.unheard());
        // hyper's 431: the rest is never read, but the client was told.
        assert!(!wire.answering());
        assert!(!activity.quiet() && !activity.unheard());
        wire.came(b"aaaa");
        assert!(activity.unheard());
    }
}
