//! Another program as a child process, not trusted: its output is read
//! line by line on a thread of its own (lines capped), every wait has a
//! deadline, and the program (with anything it started) is killed when
//! dropped.

use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cli::lines::read_line;

/// The longest output line kept (longer ones are cut).
const MAX_LINE: usize = 64 * 1024;

/// The end of its standard error kept, for the reason of a crash.
const STDERR_TAIL: usize = 2048;

/// How often a wait for an answer looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Output lines read ahead of the match: a program that floods its output
/// then waits on its pipe instead of filling memory.
const LINES_AHEAD: usize = 1024;

/// The longest answer taken from a program (a move takes a few bytes, a
/// `search --json` report a few KiB): a longer one is garbage.
pub const MAX_ANSWER: usize = 1 << 20;

/// What waiting for a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A line (without its line end; invalid UTF-8 replaced).
    Line(String),
    /// Nothing before the deadline.
    Timeout,
    /// The program closed its output (it ended or crashed).
    Closed,
}

/// A running program.
pub struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Raised when its standard error is closed (all of it read).
    stderr_done: Arc<AtomicBool>,
    /// The match's stop flag: waiting for an answer ends when it is raised.
    stop: Option<Arc<AtomicBool>>,
}

/// `text` with each control character (a line break, an escape, which
/// would garble a message line or a file's comment) put as `with`.
pub fn printable(text: &str, with: char) -> String {
    text.chars()
        .map(|c| if c.is_control() { with } else { c })
        .collect()
}

/// A peer's text cut short for a message, quoted.
pub fn clip(text: &str) -> String {
    let t = printable(&text.chars().take(80).collect::<String>(), '?');
    if text.chars().count() > 80 {
        format!("'{t}...'")
    } else {
        format!("'{t}'")
    }
}

/// Splits a command line into words as a shell would for simple cases:
/// white space separates, '...' and "..." quote, a backslash escapes the
/// next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => match chars.next() {
                Some(n) => {
                    word.push(n);
                    in_word = true;
                }
                None => return Err("the command line ends with a backslash".into()),
            },
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err("a quote is not closed in the command line".into());
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the command line is empty".into());
    }
    Ok(words)
}

impl Program {
    /// Starts `argv` with piped standard input and output, in a process
    /// group of its own (so that a Ctrl-C meant for the match does not
    /// reach it, and killing it kills what it started).
    pub fn spawn(argv: &[String]) -> std::io::Result<Program> {
        let (name, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::other("no program given"))?;
        let mut command = Command::new(name);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn()?;
        let out = child.stdout.take().expect("piped");
        let (tx, lines) = sync_channel(LINES_AHEAD);
        std::thread::spawn(move || {
            let mut out = BufReader::new(out);
            while let Ok(Some(line)) = read_line(&mut out, MAX_LINE) {
                let text = String::from_utf8_lossy(&line.bytes).into_owned();
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err = child.stderr.take().expect("piped");
        let tail = stderr.clone();
        let stderr_done = Arc::new(AtomicBool::new(false));
        let done = stderr_done.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let Ok(mut t) = tail.lock() else { break };
                t.extend_from_slice(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
            done.store(true, Ordering::SeqCst);
        });
        Ok(Program {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            stderr_done,
            stop: None,
        })
    }

    /// Waits for answers only until `stop` is raised (a Ctrl-C ends the
    /// match at once, not after a hung program's whole allowance).
    pub fn stop_on(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// Writes one line to the program; `false` when it no longer reads.
    pub fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = &mut self.stdin else {
            return false;
        };
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .is_ok()
    }

    /// The next output line, waiting until `deadline` at most.
    /// A raised stop flag ends the wait as the deadline would.
    pub fn next_line(&mut self, deadline: Instant) -> Next {
        loop {
            let mut wait = deadline.saturating_duration_since(Instant::now());
            if self.stop.is_some() {
                wait = wait.min(STOP_POLL);
            }
            match self.lines.recv_timeout(wait) {
                Ok(l) => return Next::Line(l),
                Err(RecvTimeoutError::Disconnected) => return Next::Closed,
                Err(RecvTimeoutError::Timeout) => {
                    let stopped = self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst));
                    if stopped || Instant::now() >= deadline {
                        return Next::Timeout;
                    }
                }
            }
        }
    }

    /// The exit status, waiting a little for it (`None` if the program
    /// still runs).
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Why the program stopped answering: its exit status (waiting a
    /// little for it) and the last line of its standard error.
    pub fn exit_reason(&mut self) -> String {
        let status = self.exit_status();
        // What it said last may still be on its way.
        let until = Instant::now() + Duration::from_millis(200);
        while status.is_some() && !self.stderr_done.load(Ordering::SeqCst) && Instant::now() < until
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        let mut reason = match status {
            Some(s) => match (s.code(), signal_of(&s)) {
                (Some(c), _) => format!("exited with status {c}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                _ => "ended".to_string(),
            },
            None => "closed its output".to_string(),
        };
        if let Some(said) = telling_line(&self.stderr_tail()) {
            reason.push_str(&format!(" ({said})"));
        }
        reason
    }

    /// The end of what the program wrote on standard error.
    fn stderr_tail(&self) -> String {
        self.stderr
            .lock()
            .map(|t| String::from_utf8_lossy(&t).into_owned())
            .unwrap_or_default()
    }

    /// Waits up to `grace` for the program to end by itself (e.g. after
    /// `quit`), then kills it and everything in its process group.
    pub fn end(&mut self, grace: Duration) {
        drop(self.stdin.take());
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill() with a negative pid signals the process group
            // the child leads (it was started with process_group(0)); it
            // has no memory effects here.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(unix)]
fn signal_of(s: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    s.signal()
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

impl Drop for Program {
    fn drop(&mut self) {
        self.end(Duration::ZERO);
    }
}

/// The line of a program's standard error that says most about why it
/// stopped: the last that names an error or a panic (a usage message or
/// a backtrace note may follow it), else the last one with any text.
fn telling_line(stderr: &str) -> Option<&str> {
    let lines = || {
        stderr
            .lines()
            .rev()
            .map(str::trim)
            .filter(|l| !l.is_empty())
    };
    let telling = |l: &&str| {
        let l = l.to_ascii_lowercase();
        l.contains("error") || l.contains("panicked")
    };
    lines().find(telling).or_else(|| lines().next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_that_says_why_a_program_stopped() {
        let clap = "error: unrecognized subcommand 'x'\n\nUsage: cabra <COMMAND>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            telling_line(clap),
            Some("error: unrecognized subcommand 'x'")
        );
        let panic =
            "thread 'main' panicked at src/x.rs:1:1:\nboom\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            telling_line(panic),
            Some("thread 'main' panicked at src/x.rs:1:1:")
        );
        assert_eq!(telling_line("out of cheese\n\n"), Some("out of cheese"));
        assert_eq!(telling_line(" \n"), None);
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let w = |s: &str| split_command(s).unwrap();
        assert_eq!(
            w("target/release/cabra gtp"),
            ["target/release/cabra", "gtp"]
        );
        assert_eq!(
            w(r#"cabra gtp --engine "baseline, c=0.5"  'a b' c\ d"#),
            ["cabra", "gtp", "--engine", "baseline, c=0.5", "a b", "c d"]
        );
        assert_eq!(w("''"), [""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a\\").is_err());
    }
}
