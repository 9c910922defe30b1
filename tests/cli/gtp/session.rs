//! A `cabra gtp` process driven through a pipe, one command at a time.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long any one line may take before the test fails (generous: the
/// tests run while other programs build).
const PATIENCE: Duration = Duration::from_secs(120);

/// One answer: success or failure, its id, and its text (lines joined
/// with `\n`, the first without the `= ` or `? `).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub ok: bool,
    pub id: Option<u64>,
    pub text: String,
}

/// A running `cabra gtp`.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Session {
    /// Starts `cabra gtp` with these extra arguments.
    #[allow(
        clippy::zombie_processes,
        reason = "the session waits for the child when dropped"
    )]
    pub fn start(args: &[&str]) -> Session {
        let mut all = vec!["gtp"];
        all.extend_from_slice(args);
        let mut child = crate::common::spawn(&all);
        let mut out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut byte = [0u8; 4096];
            loop {
                let n = match out.read(&mut byte) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                buf.extend_from_slice(&byte[..n]);
                while let Some(i) = buf.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=i).collect();
                    let text = String::from_utf8(line[..i].to_vec()).expect("answers are UTF-8");
                    if tx.send(text).is_err() {
                        return;
                    }
                }
            }
        });
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
        }
    }

    /// Writes raw bytes to the program.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).expect("the program reads");
        stdin.flush().unwrap();
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line of output, `None` at its end.
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!("no output from cabra gtp in {PATIENCE:?}"),
        }
    }

    /// The next line, which must be there.
    pub fn line(&mut self) -> String {
        self.next_line().expect("more output")
    }

    /// Reads one whole answer (up to its blank line).
    pub fn answer(&mut self) -> Answer {
        let head = self.line();
        let ok = match head.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!("an answer starts with = or ?, not {head:?}"),
        };
        let rest = &head[1..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let id = (!digits.is_empty()).then(|| digits.parse().unwrap());
        let after = &rest[digits.len()..];
        assert!(
            after.is_empty() || after.starts_with(' '),
            "a space after the id: {head:?}"
        );
        let mut text = vec![after.trim().to_string()];
        loop {
            let l = self.line();
            if l.is_empty() {
                break;
            }
            text.push(l);
        }
        Answer {
            ok,
            id,
            text: text.join("\n"),
        }
    }

    /// Sends a command and returns the text of its successful answer.
    pub fn ok(&mut self, command: &str) -> String {
        self.send(command);
        let a = self.answer();
        assert!(a.ok, "{command}: {}", a.text);
        a.text
    }

    /// Sends a command: the text of a success, or the reason of a failure.
    pub fn ok_or_err(&mut self, command: &str) -> Result<String, String> {
        self.send(command);
        let a = self.answer();
        if a.ok { Ok(a.text) } else { Err(a.text) }
    }

    /// Sends a command and returns the reason of its failure.
    pub fn fails(&mut self, command: &str) -> String {
        self.send(command);
        let a = self.answer();
        assert!(!a.ok, "{command} should fail, answered {}", a.text);
        a.text
    }

    /// Closes the program's input.
    pub fn close_input(&mut self) {
        drop(self.stdin.take());
    }

    /// Closes the input; the program must end cleanly with nothing more
    /// to say, without a panic. Returns what it wrote on standard error.
    pub fn close(mut self) -> String {
        drop(self.stdin.take());
        let rest: Vec<String> = std::iter::from_fn(|| self.next_line()).collect();
        assert!(rest.is_empty(), "output after the input ended: {rest:?}");
        self.wait()
    }

    /// Waits for the end of the program (after `quit` or the end of the
    /// input) and checks it ended cleanly.
    pub fn wait(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let err = self.stderr.take().unwrap().join().unwrap();
        assert!(!err.contains("panicked"), "{err}");
        assert!(status.success(), "{status}: {err}");
        err
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // A failed test must not leave the program running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
