//! A running `cabra serve` and a minimal HTTP/1.1 client for it (plain
//! `std::net`, so the tests need no HTTP crate): requests, JSON, and the
//! server-sent events of a game.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A `cabra serve --port 0` process, killed when dropped.
pub struct Server {
    child: Child,
    /// Kept open: the server may still write to it.
    _stdout: BufReader<std::process::ChildStdout>,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts the server with these extra arguments and reads the address
    /// it prints on its first line.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cabra"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cabra serve starts");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
        let addr = first
            .trim()
            .strip_prefix("http://")
            .and_then(|a| a.split_once('/'))
            .map(|(host, _)| host)
            .unwrap_or_else(|| panic!("the first line is the address: {first:?}"))
            .to_string();
        Server {
            child,
            _stdout: stdout,
            addr,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a request with extra headers and a body; the status and the body.
    pub fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        // A server refusing a large body may close before reading it all.
        let _ = s.write_all(body);
        let mut reply = Vec::new();
        let _ = s.read_to_end(&mut reply);
        let split = reply
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a complete HTTP answer");
        let head = String::from_utf8_lossy(&reply[..split]).to_string();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let mut body = reply[split + 4..].to_vec();
        if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            body = dechunk(&body);
        }
        (status, body)
    }

    /// A JSON request (no body for `GET`); the status and the JSON answer.
    pub fn json(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
        let (status, reply) = self.raw(
            method,
            path,
            &[("Content-Type", "application/json")],
            &bytes,
        );
        let value = serde_json::from_slice(&reply).unwrap_or_else(|_| {
            panic!(
                "{method} {path}: not JSON: {}",
                String::from_utf8_lossy(&reply)
            )
        });
        (status, value)
    }

    /// A request that must succeed with 2xx; its JSON.
    pub fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = self.json(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {v}"
        );
        v
    }

    /// A new game; its id.
    pub fn new_game(&self) -> String {
        let v = self.ok("POST", "/api/games", None);
        v["id"].as_str().unwrap().to_string()
    }

    /// Subscribes to a game's events (after its first `state` event).
    pub fn events(&self, id: &str) -> Events {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
        }
        let mut events = Events {
            reader,
            pending: String::new(),
        };
        let (name, _) = events.next(Duration::from_secs(10));
        assert_eq!(name, "state");
        events
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(std::str::from_utf8(&b[..end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.extend_from_slice(&b[end + 2..end + 2 + size]);
        b = &b[end + 4 + size..];
    }
    out
}

/// A game's event stream.
pub struct Events {
    reader: BufReader<TcpStream>,
    pending: String,
}

impl Events {
    /// Reads one chunk of the stream into `pending`.
    fn fill(&mut self) {
        let mut size = String::new();
        self.reader.read_line(&mut size).unwrap();
        let n = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        let mut data = vec![0; n + 2];
        self.reader.read_exact(&mut data).unwrap();
        self.pending.push_str(&String::from_utf8_lossy(&data[..n]));
    }

    /// The next event (name and JSON data), skipping keep-alive comments;
    /// panics after `timeout`.
    pub fn next(&mut self, timeout: Duration) -> (String, Value) {
        let start = Instant::now();
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let mut name = String::from("message");
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(n) = line.strip_prefix("event:") {
                        name = n.trim().to_string();
                    } else if let Some(d) = line.strip_prefix("data:") {
                        data.push_str(d.trim_start());
                    }
                }
                if data.is_empty() {
                    continue;
                }
                return (name, serde_json::from_str(&data).unwrap());
            }
            assert!(start.elapsed() < timeout, "no event within {timeout:?}");
            self.fill();
        }
    }

    /// Skips events until a `state` for which `pred` holds; returns it.
    pub fn wait_state(&mut self, pred: impl Fn(&Value) -> bool, timeout: Duration) -> Value {
        let start = Instant::now();
        loop {
            let state = self.wait_for("state", timeout.saturating_sub(start.elapsed()));
            if pred(&state) {
                return state;
            }
        }
    }

    /// Skips events until one named `name`; returns its data.
    pub fn wait_for(&mut self, name: &str, timeout: Duration) -> Value {
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            let (n, data) = self.next(left);
            if n == name {
                return data;
            }
        }
    }
}
