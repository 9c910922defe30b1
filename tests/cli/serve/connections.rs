//! The connection cap as clients meet it: a refusal they can read, and
//! no request lost when room is made for a new connection. All on the
//! loopback, a few dozen connections, each test bounded in time.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::safety::{answer, raw};
use crate::http::Server;

/// A kept-alive connection to the server.
struct Client {
    stream: BufReader<TcpStream>,
    /// The last answer said that it was the connection's last.
    last: bool,
}

impl Client {
    fn connect(s: &Server) -> Client {
        let stream = TcpStream::connect(&s.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Client {
            stream: BufReader::new(stream),
            last: false,
        }
    }

    fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.get_mut().write_all(bytes)
    }

    /// The next answer: its status and JSON body, or how the connection
    /// ended before one came.
    fn answer(&mut self) -> Result<(u16, Value), String> {
        let mut head = String::new();
        loop {
            let mut line = String::new();
            match self.stream.read_line(&mut line) {
                Ok(0) => return Err(format!("closed after {} bytes", head.len())),
                Ok(_) if line == "\r\n" => break,
                Ok(_) => head.push_str(&line),
                Err(e) => return Err(format!("{:?} after {} bytes", e.kind(), head.len())),
            }
        }
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok());
        let length = head.lines().find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")?
                .trim()
                .parse()
                .ok()
        });
        self.last = head
            .to_ascii_lowercase()
            .contains("\r\nconnection: close\r\n");
        let (Some(status), Some(length)) = (status, length) else {
            return Err(format!("not an answer of known length: {head}"));
        };
        let mut body = vec![0; length];
        self.stream
            .read_exact(&mut body)
            .map_err(|e| format!("{:?} in the body", e.kind()))?;
        let body = serde_json::from_slice(&body).map_err(|_| format!("not JSON: {head}"))?;
        Ok((status, body))
    }
}

fn get_info(s: &Server) -> String {
    format!("GET /api/info HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr)
}

#[test]
fn over_the_cap_every_refusal_is_a_json_503() {
    let s = Server::start(&["--threads", "1", "--max-connections", "4"]);
    let id = s.new_game();
    // Pages listening to their games hold every place.
    let listeners: Vec<_> = (0..4).map(|_| s.events(&id)).collect();
    let host = format!("Host: {}\r\n", s.addr);
    let body = format!("{{\"rules\": \"caminos\"{}}}", " ".repeat(2000));
    let post = format!(
        "POST /api/games HTTP/1.1\r\n{host}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let get = format!("GET /api/info HTTP/1.1\r\n{host}\r\n");
    for i in 0..40 {
        let request = if i % 2 == 0 { &get } else { &post };
        let mut c = Client::connect(&s);
        // The refusal waits for the request, sent at once or a moment late.
        if i % 4 >= 2 {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = c.send(request.as_bytes());
        let (status, body) = c.answer().unwrap_or_else(|e| panic!("try {i}: {e}"));
        assert_eq!(status, 503, "try {i}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(error.contains("too many connections"), "{body}");
        // And then the connection ends, not broken off (a reset).
        assert_eq!(c.answer().unwrap_err(), "closed after 0 bytes", "try {i}");
    }
    // Once the pages are gone (which the server sees within a second or
    // so, by their streams), there is room again.
    drop(listeners);
    let start = Instant::now();
    while s.json("GET", "/api/info", None).0 != 200 {
        assert!(start.elapsed() < Duration::from_secs(10), "still refused");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_request_under_way_keeps_its_connection() {
    let s = Server::start(&["--threads", "1", "--max-connections", "4"]);
    let request = get_info(&s);
    let (head, end) = request.split_at(request.len() - 2);
    // One kept alive after an answer, halfway through its next request;
    // the oldest without a request by the time it was answered.
    let mut halfway = Client::connect(&s);
    halfway.send(request.as_bytes()).unwrap();
    assert_eq!(halfway.answer().unwrap().0, 200);
    halfway.send(head.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    // Three that have sent nothing yet.
    let mut silent: Vec<Client> = (0..3).map(|_| Client::connect(&s)).collect();
    std::thread::sleep(Duration::from_millis(300));
    // A new one makes room: the oldest of the silent ones goes.
    let mut new = Client::connect(&s);
    new.send(request.as_bytes()).unwrap();
    assert_eq!(new.answer().unwrap().0, 200);
    let closed = silent[0].answer().unwrap_err();
    assert_eq!(closed, "closed after 0 bytes", "closed, and without a word");
    // The request under way is answered.
    halfway.send(end.as_bytes()).unwrap();
    let (status, body) = halfway.answer().unwrap();
    assert_eq!(status, 200, "{body}");
    // Now every place is held by a request under way (the headers not all
    // sent): the next connection is refused, the requests are answered.
    drop((halfway, new, silent));
    std::thread::sleep(Duration::from_millis(300));
    let mut slow: Vec<Client> = (0..4)
        .map(|_| {
            let mut c = Client::connect(&s);
            c.send(head.as_bytes()).unwrap();
            c
        })
        .collect();
    // Connections closed above that the server has not seen end yet make
    // room for a few; then only the requests under way are left.
    let closing = format!(
        "GET /api/info HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    );
    let mut statuses = Vec::new();
    while statuses.last() != Some(&503) {
        assert!(statuses.len() < 8, "never refused: {statuses:?}");
        let mut late = Client::connect(&s);
        late.send(closing.as_bytes()).unwrap();
        statuses.push(late.answer().unwrap().0);
    }
    for (i, c) in slow.iter_mut().enumerate() {
        c.send(end.as_bytes()).unwrap();
        let answer = c.answer();
        assert!(matches!(answer, Ok((200, _))), "slow {i}: {answer:?}");
    }
}

#[test]
fn a_new_connection_has_time_to_send_its_first_request() {
    let s = Server::start(&["--threads", "1", "--max-connections", "4"]);
    let request = get_info(&s);
    // Four that connected and have sent nothing yet: their requests may be
    // on the wire, so a fifth is refused rather than close one of them.
    // (Should the fifth come a quarter of a second late, on a busy
    // machine, it may close one: try again.)
    for attempt in 0.. {
        assert!(attempt < 5, "the fifth always came too late");
        let opened = Instant::now();
        let mut fresh: Vec<Client> = (0..4).map(|_| Client::connect(&s)).collect();
        let mut fifth = Client::connect(&s);
        fifth.send(request.as_bytes()).unwrap();
        let fifth = fifth.answer();
        if opened.elapsed() > Duration::from_millis(200) {
            continue;
        }
        assert!(matches!(fifth, Ok((503, _))), "{fifth:?}");
        for (i, c) in fresh.iter_mut().enumerate() {
            c.send(request.as_bytes()).unwrap();
            let answer = c.answer();
            assert!(matches!(answer, Ok((200, _))), "fresh {i}: {answer:?}");
        }
        break;
    }
}

/// What one client of [`busy_clients_over_the_cap_lose_no_request`] met.
#[derive(Default)]
struct Met {
    answered: usize,
    refused: usize,
    lost: Vec<String>,
}

/// Sends `total` requests on a kept-alive connection, each begun before
/// the answer to the last is read (so that one is always under way),
/// opening another connection when one is refused.
fn pipeline(s: &Server, request: &[u8], total: usize, deadline: Instant) -> Met {
    let (head, end) = request.split_at(request.len() / 2);
    let mut met = Met::default();
    while met.answered < total && Instant::now() < deadline {
        let mut c = Client::connect(s);
        let left = total - met.answered;
        // The first request whole, and the next begun.
        let mut first = request.to_vec();
        if left > 1 {
            first.extend_from_slice(head);
        }
        if c.send(&first).is_err() {
            continue;
        }
        let mut answered_here = 0;
        while answered_here < left {
            match c.answer() {
                Ok((200, _)) => {
                    answered_here += 1;
                    met.answered += 1;
                    // The server closes after this answer (as it may, for
                    // another connection): the request begun goes on
                    // another connection.
                    if c.last {
                        break;
                    }
                }
                // A refusal comes first, and ends the connection.
                Ok((503, _)) if answered_here == 0 => {
                    met.refused += 1;
                    std::thread::sleep(Duration::from_millis(20));
                    break;
                }
                Ok((status, body)) => {
                    met.lost.push(format!("{status} {body}"));
                    break;
                }
                Err(e) => {
                    met.lost.push(format!("after {answered_here} answers: {e}"));
                    break;
                }
            }
            // The request begun is finished, and the next one begun.
            let mut next = Vec::new();
            if answered_here < left {
                next.extend_from_slice(end);
            }
            if answered_here + 1 < left {
                next.extend_from_slice(head);
            }
            if !next.is_empty() && c.send(&next).is_err() {
                met.lost
                    .push(format!("after {answered_here} answers: cannot send"));
                break;
            }
        }
    }
    met
}

#[test]
fn busy_clients_over_the_cap_lose_no_request() {
    const CLIENTS: usize = 16;
    const REQUESTS: usize = 20;
    let s = Server::start(&["--threads", "1", "--max-connections", "8"]);
    // Idle connections: they make room for the busy ones (once they are
    // old enough not to be sending a first request).
    let mut idle: Vec<Client> = (0..4).map(|_| Client::connect(&s)).collect();
    std::thread::sleep(Duration::from_millis(400));
    let request = get_info(&s);
    let deadline = Instant::now() + Duration::from_secs(90);
    let met: Vec<Met> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|_| scope.spawn(|| pipeline(&s, request.as_bytes(), REQUESTS, deadline)))
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let answered: usize = met.iter().map(|m| m.answered).sum();
    let refused: usize = met.iter().map(|m| m.refused).sum();
    let lost: Vec<&String> = met.iter().flat_map(|m| &m.lost).collect();
    assert!(
        lost.is_empty(),
        "{} connections lost requests in flight ({answered} answered, {refused} refused): {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
    assert_eq!(answered, CLIENTS * REQUESTS, "{refused} refused");
    for (i, c) in idle.iter_mut().enumerate() {
        assert_eq!(c.answer().unwrap_err(), "closed after 0 bytes", "idle {i}");
    }
}

#[test]
fn a_request_too_slow_or_unreadable_gets_json() {
    let s = Server::start(&["--threads", "1", "--header-timeout", "1s"]);
    let host = format!("Host: {}\r\n", s.addr);
    // Headers that do not all come in time: 408.
    let start = Instant::now();
    let partial = format!("GET /api/info HTTP/1.1\r\n{host}");
    let out = raw(&s, partial.as_bytes(), Duration::from_secs(10));
    let (status, body) = answer(&out);
    assert_eq!(status, 408, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("within 1 s"),
        "{body}"
    );
    assert!(start.elapsed() < Duration::from_secs(9));
    // A connection that sent nothing, or nothing after an answer, is
    // closed without a word: an answer it did not ask for could be taken
    // for the answer to a request it is sending.
    assert!(raw(&s, b"", Duration::from_secs(10)).is_empty());
    let idle = format!("GET /api/info HTTP/1.1\r\n{host}\r\n");
    let out = raw(&s, idle.as_bytes(), Duration::from_secs(10));
    assert_eq!(answer(&out).0, 200);
    assert_eq!(out.windows(9).filter(|w| w == b"HTTP/1.1 ").count(), 1);
    // An HTTP/2 client (its connection preface): 400.
    let out = raw(
        &s,
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        Duration::from_secs(10),
    );
    let (status, body) = answer(&out);
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("HTTP/2"), "{body}");
    s.ok("GET", "/api/info", None);
}
