//! The command examples of README.md and docs/*.md, run: a change that
//! alters what a documented command prints fails here until the doc is
//! regenerated.
//!
//! The convention for fenced blocks in those files (docs/STRENGTH.md, whose
//! figures are measured rather than replayed, is left out):
//!
//! - ```` ```console ````: a transcript. A line `$ COMMAND` runs a command
//!   (in the repository's directory) and the lines below it are what it
//!   prints, standard output and error together. In them `[..]` stands for
//!   any text within one line and a line `...` for any number of lines:
//!   times, speeds, versions, and output left out. trycmd runs these.
//! - ```` ```console,ignore ````: a transcript that needs standard input,
//!   which trycmd cannot give; [`replay`] below runs each one (it fails on
//!   a transcript it cannot replay). Its first line is the `$` command:
//!   - `$ cabra play ...`: the session as at a terminal, each line typed
//!     after its prompt (`move 3, player 1 (you)> go`). What comes before
//!     the first prompt (the greeting and the board) is read from the
//!     program on a pseudo-terminal of 100 columns; the typed lines are
//!     then fed to it through a pipe, where it answers each with the same
//!     text but prints no prompt, so the prompts are the doc's, unchecked;
//!   - `$ cabra gtp ...` or `$ cabra analysis ...`: the lines the program
//!     read start with `> `, the rest is what it wrote. Each line is sent
//!     once the program has written all that the doc shows before the next
//!     one (so a `cabra-analyze` stream ends where the doc ends it);
//!   - `$ printf '...' | cabra ...`: that standard input, the output;
//!   - `$ python3 examples/SCRIPT ...`: the script, with this build's
//!     `cabra` first on `PATH`.
//!
//!   A session runs in a fresh directory where `games/` is the
//!   repository's. A ```` ```text file=NAME ```` block right after a
//!   transcript is the file NAME as the session left it.
//! - ```` ```sh ````: commands without their output; not run.
//! - any other language (`text`, `json`, `python`, ...): not a transcript.
//!   Every fenced block names a language: trycmd reads a bare one as a
//!   transcript.
//!
//! To regenerate a doc after a change: `TRYCMD=overwrite cargo test
//! --release --test docs` rewrites the ```` ```console ```` blocks; a
//! replayed transcript that differs is written whole under
//! `target/tmp/docs/`, and the failure names the file.

// The replays use a pseudo-terminal and symlinks.
#![cfg(unix)]

#[path = "common/mod.rs"]
mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use snapbox::{Assert, IntoData};

/// Docs left out of the tests, with why.
const NOT_RUN: &[&str] = &[
    // Measured figures (matches, timings), not replayable transcripts.
    "STRENGTH.md",
];

/// README.md and every docs/*.md but those of [`NOT_RUN`], relative to the
/// repository.
fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().file_name())
        .filter(|n| {
            let n = n.to_string_lossy();
            n.ends_with(".md") && !NOT_RUN.contains(&n.as_ref())
        })
        .map(|n| Path::new("docs").join(n))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn console_transcripts() {
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("cabra", PathBuf::from(env!("CARGO_BIN_EXE_cabra")))
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(120));
    for file in doc_files() {
        cases.case(file);
    }
}

/// A fenced block of a Markdown file.
#[derive(Clone, Debug)]
struct Block {
    file: PathBuf,
    /// The line of its opening fence, from 1.
    line: usize,
    /// The info string: `console,ignore`, `text file=x`, ...
    info: String,
    /// The text between the fences.
    text: String,
}

impl Block {
    fn at(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// The fenced blocks of a file (fences of three or more backticks at the
/// start of a line, closed by the same fence).
fn blocks(file: &Path) -> Vec<Block> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("the doc reads");
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        if ticks < 3 {
            continue;
        }
        let fence = &line[..ticks];
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with(fence) {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        out.push(Block {
            file: file.to_path_buf(),
            line: i + 1,
            info: line[ticks..].trim().to_string(),
            text: body,
        });
    }
    out
}

#[test]
fn every_fenced_block_names_its_language() {
    for file in doc_files() {
        for b in blocks(&file) {
            assert!(
                !b.info.is_empty(),
                "{}: a fenced block without a language (```console, ```sh, ```text, ...)",
                b.at()
            );
        }
    }
}

/// Comparisons as the docs' transcripts want them: `[..]` and `...`, and
/// a backslash left as it is (not taken for a Windows path separator).
fn assert_docs() -> Assert {
    Assert::new().normalize_paths(false)
}

/// Whether `actual` matches `expected`, with its `[..]` and `...`.
fn matches(actual: &str, expected: &str) -> bool {
    assert_docs()
        .try_eq(None, actual.into_data(), expected.into_data())
        .is_ok()
}

/// Fails, with a diff, when a replayed transcript differs from its doc; the
/// whole transcript is written under target/tmp/docs/ to copy from.
fn check(block: &Block, actual: &str) {
    if matches(actual, &block.text) {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs");
    std::fs::create_dir_all(&dir).unwrap();
    let name = format!(
        "{}-{}.txt",
        block.file.display().to_string().replace('/', "-"),
        block.line
    );
    std::fs::write(dir.join(&name), actual).unwrap();
    eprintln!(
        "{}: the transcript differs from what the program prints now \
         (all of it: {})",
        block.at(),
        dir.join(&name).display()
    );
    assert_docs()
        .palette(snapbox::report::Palette::plain())
        .eq(actual, block.text.as_str());
}

/// A fresh directory for a session, where `games/` is the repository's.
fn session_dir() -> tempfile::TempDir {
    let dir = common::temp_dir();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games"),
        dir.path().join("games"),
    )
    .unwrap();
    dir
}

fn cabra_command(args: &[&str], dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cabra"));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("HOME", dir);
    cmd
}

/// Replays every ```` ```console,ignore ```` transcript of `file`, and
/// checks the ```` ```text file=NAME ```` blocks after them; returns how
/// many were replayed.
fn replay_file(file: &str) -> usize {
    let all = blocks(Path::new(file));
    let mut replayed = 0;
    for (i, b) in all.iter().enumerate() {
        if b.info != "console,ignore" {
            continue;
        }
        let dir = session_dir();
        let actual = replay(b, dir.path());
        check(b, &actual);
        if let Some(next) = all.get(i + 1) {
            if let Some(name) = next.info.strip_prefix("text file=") {
                let saved = std::fs::read_to_string(dir.path().join(name))
                    .unwrap_or_else(|e| panic!("{}: {name}: {e}", next.at()));
                check(next, &saved);
            }
        }
        replayed += 1;
    }
    replayed
}

/// Runs the transcript of `block` in `dir`; returns the transcript the
/// program gives now, to compare with the doc's.
fn replay(block: &Block, dir: &Path) -> String {
    let mut lines = block.text.lines();
    let command = lines
        .next()
        .and_then(|l| l.strip_prefix("$ "))
        .unwrap_or_else(|| panic!("{}: a transcript starts with `$ `", block.at()));
    let body: Vec<&str> = lines.collect();
    let head = format!("$ {command}\n");
    if let Some(rest) = command.strip_prefix("printf '") {
        let (input, cabra) = rest
            .split_once("' | cabra ")
            .unwrap_or_else(|| panic!("{}: printf '...' | cabra ...", block.at()));
        let input = input.replace("\\n", "\n");
        let args: Vec<&str> = cabra.split_whitespace().collect();
        return head + &piped(&args, &input, dir);
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    match words.as_slice() {
        ["cabra", "play", args @ ..] => head + &play_session(args, &body, dir),
        ["cabra", cmd @ ("gtp" | "analysis"), args @ ..] => {
            let mut all = vec![*cmd];
            all.extend_from_slice(args);
            head + &dialogue(&all, &body, dir)
        }
        ["python3", script, args @ ..] => head + &python(script, args),
        _ => panic!("{}: no way to replay `{command}`", block.at()),
    }
}

/// Standard output, then standard error, of a finished program.
fn output_text(out: &std::process::Output, what: &str) -> String {
    common::assert_no_panic(out, what);
    let mut text = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text
}

/// `cabra ARGS` with `input` on standard input: what it prints.
fn piped(args: &[&str], input: &str, dir: &Path) -> String {
    let mut child = cabra_command(args, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cabra runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    output_text(&child.wait_with_output().unwrap(), "cabra")
}

/// Where a `cabra play` prompt line ends: `move 3, player 1 (you)> go` or
/// `game over> show` gives the length of the prompt.
fn prompt_len(line: &str) -> Option<usize> {
    if !(line.starts_with("move ") || line.starts_with("game over>")) {
        return None;
    }
    line.find("> ").map(|i| i + 2)
}

/// A `cabra play` session typed at the prompts of `body`, replayed through a
/// pipe (see the module's comment).
fn play_session(args: &[&str], body: &[&str], dir: &Path) -> String {
    let first = body
        .iter()
        .position(|l| prompt_len(l).is_some())
        .unwrap_or(body.len());
    let (before, rest) = body.split_at(first);
    let mut typed: Vec<&str> = Vec::new();
    let mut prompts = Vec::new();
    for line in rest {
        if let Some(n) = prompt_len(line) {
            prompts.push(&line[..n]);
            typed.push(&line[n..]);
        }
    }
    let mut input = typed.join("\n");
    input.push('\n');
    let mut play_args = vec!["play"];
    play_args.extend_from_slice(args);
    let text = piped(&play_args, &input, dir);
    // A block per command, each ended by an empty line; none for `quit`,
    // a blank line or a comment.
    let mut answers = text.split_terminator("\n\n");
    let mut next = |cmd: &str| -> String {
        let word = cmd.split('#').next().unwrap().trim();
        if word.is_empty() || ["quit", "exit", "q"].contains(&word.to_lowercase().as_str()) {
            return String::new();
        }
        answers.next().map_or(String::new(), |a| format!("{a}\n"))
    };
    let mut out = String::new();
    if !before.is_empty() {
        // What a terminal shows before the first prompt: the greeting and
        // the board, which a pipe does not print.
        out.push_str(&at_terminal(&play_args, prompts[0], dir));
    }
    for (prompt, cmd) in prompts.iter().zip(&typed) {
        out.push_str(&format!("{prompt}{cmd}\n"));
        out.push_str(&next(cmd));
    }
    // Anything left over (more blocks than commands) shows in the diff.
    for a in answers {
        out.push_str(a);
        out.push('\n');
    }
    out
}

/// What `cabra ARGS` writes on a terminal of 100 columns before `prompt`
/// (a pseudo-terminal stands in for it; the program is then killed).
#[cfg(unix)]
fn at_terminal(args: &[&str], prompt: &str, dir: &Path) -> String {
    let (master, slave) = common::pty::open(Some((100, 50)));
    let mut cmd = cabra_command(args, dir);
    cmd.env("TERM", "xterm");
    common::pty::attach(&mut cmd, slave);
    let mut child = cmd.spawn().expect("cabra runs");
    drop(cmd);
    let screen = Arc::new(Mutex::new(Vec::<u8>::new()));
    let (mut reader, sink) = (master.try_clone().unwrap(), screen.clone());
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // Reading fails (EIO) once the program has ended.
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let start = Instant::now();
    let text = loop {
        let text = String::from_utf8_lossy(&screen.lock().unwrap()).replace('\r', "");
        if text.contains(prompt) || start.elapsed() > Duration::from_secs(20) {
            break text;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = child.kill();
    let _ = child.wait();
    drop(master);
    // The text before the prompt, without the terminal's control sequences.
    let before = text.split(prompt).next().unwrap_or("");
    let mut plain = String::new();
    let mut chars = before.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // ESC [ parameters, then a letter.
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() || c == '~' {
                        break;
                    }
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// A conversation with `cabra ARGS` (`gtp`, `analysis`): the `> ` lines of
/// `body` are sent one at a time, each once the program has written all
/// that the doc shows before it.
fn dialogue(args: &[&str], body: &[&str], dir: &Path) -> String {
    // (the line sent, or none for what comes before the first; the output)
    let mut steps: Vec<(Option<&str>, String)> = vec![(None, String::new())];
    for line in body {
        match line.strip_prefix("> ") {
            Some(sent) => steps.push((Some(sent), String::new())),
            None => {
                let out = &mut steps.last_mut().unwrap().1;
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    let mut child = cabra_command(args, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cabra runs");
    let written = Arc::new(Mutex::new(Vec::<u8>::new()));
    let mut reader = child.stdout.take().unwrap();
    let sink = written.clone();
    let reading = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let mut stdin = child.stdin.take();
    let so_far = || String::from_utf8_lossy(&written.lock().unwrap()).into_owned();
    let mut out = String::new();
    let mut from = 0;
    for (i, (sent, expected)) in steps.iter().enumerate() {
        if let Some(sent) = sent {
            let pipe = stdin.as_mut().unwrap();
            // A program that has ended reads nothing more: the diff shows it.
            let _ = pipe.write_all(format!("{sent}\n").as_bytes());
            let _ = pipe.flush();
            out.push_str(&format!("> {sent}\n"));
        }
        if i + 1 == steps.len() {
            break;
        }
        let start = Instant::now();
        loop {
            let now = so_far();
            let done = matches(&now[from..], expected);
            if done || start.elapsed() > Duration::from_secs(30) {
                out.push_str(&now[from..]);
                from = now.len();
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    // The last line sent: the input ends, and what follows is its answer.
    drop(stdin.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    reading.join().unwrap();
    out.push_str(&so_far()[from..]);
    out.push_str(&err);
    assert!(
        status.code().is_some(),
        "cabra {args:?}: killed by a signal"
    );
    out
}

/// `python3 SCRIPT ARGS` in the repository, with this build's `cabra` first
/// on `PATH`.
fn python(script: &str, args: &[&str]) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_cabra")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .output()
        .expect("python3 runs (the docs' examples need it)");
    output_text(&out, script)
}

#[test]
fn readme_sessions() {
    assert_eq!(replay_file("README.md"), 1);
}

#[test]
fn play_md_sessions() {
    assert_eq!(replay_file("docs/PLAY.md"), 2);
}

#[test]
fn protocol_md_sessions() {
    assert_eq!(replay_file("docs/PROTOCOL.md"), 3);
}

/// Every ```` ```console,ignore ```` block is in a file replayed above.
#[test]
fn every_stdin_transcript_is_replayed() {
    let replayed = ["README.md", "docs/PLAY.md", "docs/PROTOCOL.md"];
    for file in doc_files() {
        for b in blocks(&file) {
            assert!(
                b.info != "console,ignore" || replayed.contains(&file.to_str().unwrap()),
                "{}: add the file to the tests that replay transcripts",
                b.at()
            );
        }
    }
}

/// PLAY.md's JSON document is `cabra analyze --json` of its example, cut to
/// the first placement.
#[test]
fn play_md_analyze_json() {
    let all = blocks(Path::new("docs/PLAY.md"));
    let example = all
        .iter()
        .find(|b| b.info == "console" && b.text.starts_with("$ cabra analyze "))
        .expect("PLAY.md's analyze example");
    let json = all
        .iter()
        .find(|b| b.info == "json" && b.text.contains("\"winrate_before\""))
        .expect("PLAY.md's JSON example");
    let command = example.text.lines().next().unwrap();
    let mut args: Vec<&str> = command.split_whitespace().skip(2).collect();
    args.push("--json");
    let out = Command::new(env!("CARGO_BIN_EXE_cabra"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    let mut actual: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    actual["moves"].as_array_mut().unwrap().truncate(1);
    let expected: serde_json::Value =
        serde_json::from_str(&json.text).unwrap_or_else(|e| panic!("{}: {e}", json.at()));
    assert_eq!(
        expected,
        actual,
        "{}: now\n{}",
        json.at(),
        serde_json::to_string_pretty(&actual).unwrap()
    );
}
