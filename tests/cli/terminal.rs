//! `cabra play` at a terminal, as a person uses it: a pseudo-terminal
//! stands in for the keyboard and the screen, so that the line editor
//! runs, Ctrl-C is a key the terminal turns into a signal, and the
//! terminal's modes can be read after the program ends.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::{assert_no_panic, pty};

/// A `cabra` whose standard streams are a new pseudo-terminal, which is
/// its controlling terminal.
struct Terminal {
    master: File,
    child: Child,
    screen: Arc<Mutex<String>>,
    /// The program's working directory and home, removed at the end.
    home: tempfile::TempDir,
}

impl Terminal {
    fn start(args: &[&str]) -> Terminal {
        let (master, slave) = pty::open(None);
        let home = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cabra"));
        cmd.args(args)
            .current_dir(home.path())
            // A terminal the line editor supports, no colours to filter
            // out, and a history file of the test's own.
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .env("HOME", home.path());
        pty::attach(&mut cmd, slave);
        let child = cmd.spawn().expect("cabra runs");
        drop(cmd);
        let screen = Arc::new(Mutex::new(String::new()));
        let (mut reader, shown) = (master.try_clone().unwrap(), screen.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Reading fails (EIO) once the program has ended.
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                shown
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Terminal {
            master,
            child,
            screen,
            home,
        }
    }

    /// The program's working directory.
    fn dir(&self) -> &std::path::Path {
        self.home.path()
    }

    fn screen(&self) -> String {
        self.screen.lock().unwrap().clone()
    }

    /// Waits (at most 20 s) until `text` has appeared `times` times on
    /// the screen; fails with the screen if it does not.
    fn expect(&self, text: &str, times: usize) {
        let start = Instant::now();
        while self.screen().matches(text).count() < times {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no {text:?} (x{times}) on the screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &[u8]) {
        self.master.write_all(keys).unwrap();
        self.master.flush().unwrap();
    }

    /// Waits for the program to end (at most 20 s); fails if it panicked
    /// or died by a signal.
    fn wait_end(&mut self) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "cabra did not end"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = std::process::Output {
            status,
            stdout: Vec::new(),
            stderr: self.screen().into_bytes(),
        };
        assert_no_panic(&out, "play");
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const PROMPT: &str = "player 1> ";

#[test]
fn ctrl_c_at_the_terminal_stops_a_search_after_the_first_prompt() {
    // A minute to think: only Ctrl-C can end the search within the test.
    let mut t = Terminal::start(&["play", "--you", "both", "--time", "60s", "--threads", "1"]);
    t.expect(PROMPT, 1);
    t.type_keys(b"go\r");
    t.expect("thinking", 1);
    t.type_keys(b"\x03");
    t.expect("Stopped: here is what", 1);
    t.expect(PROMPT, 2);
    // At the prompt Ctrl-C is a key: the session goes on.
    t.type_keys(b"\x03");
    t.expect("the game is kept", 1);
    t.type_keys(b"quit\r");
    t.wait_end();
}

#[test]
fn a_terminated_session_leaves_the_terminal_as_it_found_it() {
    let mut t = Terminal::start(&["play", "--you", "both", "--time", "1s", "--threads", "1"]);
    t.expect(PROMPT, 1);
    t.type_keys(b"L E180 110\r");
    t.expect("player 2> ", 1);
    // At the prompt the line editor holds the terminal in raw mode.
    // SAFETY: kill with the pid of our own child process.
    unsafe {
        libc::kill(t.child.id() as libc::pid_t, libc::SIGTERM);
    }
    t.wait_end();
    t.expect("pos c1", 1);
    // SAFETY: tcgetattr fills a termios struct from a valid descriptor.
    let modes = unsafe {
        let mut modes: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(t.master.as_raw_fd(), &mut modes), 0);
        modes
    };
    for (flag, name) in [
        (libc::ICANON, "ICANON"),
        (libc::ISIG, "ISIG"),
        (libc::ECHO, "ECHO"),
    ] {
        assert_ne!(modes.c_lflag & flag, 0, "{name} left off");
    }
}

#[test]
fn ctrl_c_at_a_question_answers_no() {
    let mut t = Terminal::start(&["play", "--you", "both", "--threads", "1"]);
    let old = "# a file this session did not write\n";
    std::fs::write(t.dir().join("old.caminos"), old).unwrap();
    t.expect(PROMPT, 1);
    t.type_keys(b"L E180 110\r");
    t.expect("player 2> ", 1);
    t.type_keys(b"save old.caminos\r");
    // Said once, asked once: by the prompt.
    t.expect(
        "old.caminos exists and this session did not write it.\r\n",
        1,
    );
    t.expect("replace old.caminos? (yes/no)> ", 1);
    assert!(!t.screen().contains("Replace it?"), "{}", t.screen());
    t.type_keys(b"\x03");
    t.expect("not saved, old.caminos is unchanged", 1);
    // A `yes` now is no answer to anything: the file stays as it was.
    t.type_keys(b"yes\r");
    t.expect("unknown command 'yes'", 1);
    let now = std::fs::read_to_string(t.dir().join("old.caminos")).unwrap();
    assert_eq!(now, old);
    // An empty line answers no, as PLAY.md says.
    t.type_keys(b"save old.caminos\r");
    t.expect("replace old.caminos? (yes/no)> ", 2);
    t.type_keys(b"\r");
    t.expect("Not saved: old.caminos is unchanged.", 1);
    let now = std::fs::read_to_string(t.dir().join("old.caminos")).unwrap();
    assert_eq!(now, old);
}

/// What a tmux pane of `width` x 24 shows after typing each of `lines`
/// into `cabra play`, one screen per line typed (and one at the start).
fn tmux_screens(width: u16, lines: &[&str]) -> Vec<String> {
    let name = format!("cabra-test-{}-{width}", std::process::id());
    // A tmux server of the test's own, on a socket in a directory removed
    // afterwards: on the shared default socket, another program's last
    // session ending stops the server under this one's new-session
    // ("server exited unexpectedly").
    let socket_dir = tempfile::tempdir().expect("a temporary directory");
    let socket = socket_dir.path().join("tmux");
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(args)
            .output()
            .expect("tmux runs (`apt-get install tmux`)")
    };
    let cabra = env!("CARGO_BIN_EXE_cabra");
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &name,
        "-x",
        &width.to_string(),
        "-y",
        "24",
        &format!("NO_COLOR=1 {cabra} play --time 500ms --threads 1"),
    ]);
    assert!(started.status.success(), "{started:?}");
    let capture = || {
        let out = tmux(&["capture-pane", "-p", "-t", &name]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let wait_for_prompt = |times: usize| {
        let start = Instant::now();
        while capture().matches("(you)>").count() < times {
            assert!(start.elapsed() < Duration::from_secs(20), "{}", capture());
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for_prompt(1);
    let mut screens = vec![capture()];
    for line in lines {
        tmux(&["send-keys", "-t", &name, "C-l"]);
        std::thread::sleep(Duration::from_millis(200));
        tmux(&["send-keys", "-t", &name, line, "Enter"]);
        wait_for_prompt(2);
        screens.push(capture());
    }
    tmux(&["kill-session", "-t", &name]);
    screens
}

#[test]
fn at_80_by_24_the_banner_and_the_help_fit_under_tmux() {
    for width in [80, 100] {
        let screens = tmux_screens(width, &["help", "help place"]);
        // The banner: each sentence whole on its line.
        let start = &screens[0];
        assert!(
            start
                .lines()
                .any(|l| l.trim_end().ends_with("Caminos on an 8x8x3 board.")),
            "{start}"
        );
        assert!(
            start
                .lines()
                .any(|l| l
                    .starts_with("You are player 1 (x), against the engine (500ms a placement).")),
            "{width}:\n{start}"
        );
        // `help`: its first line and its pointer to `help pieces` on one screen.
        let help = &screens[1];
        assert!(
            help.contains("Type a placement such as `L E180 110`, or a command"),
            "{width}:\n{help}"
        );
        assert!(
            help.contains("`help rules` the rules, `help pieces` the pieces."),
            "{width}:\n{help}"
        );
        // One line a command.
        let quit = help
            .lines()
            .find(|l| l.starts_with("  quit, exit, q"))
            .unwrap();
        assert!(
            quit.ends_with("leave (end of input does the same)"),
            "{help}"
        );
        // `help place`: prose in full lines, no ragged continuations.
        let place = &screens[2];
        let prose = place.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(prose.contains("Case and spaces do not matter"), "{place}");
        // All of it on the screen, the line typed included.
        assert!(place.contains("> help place\nplace PLACEMENT"), "{place}");
        assert!(prose.contains("it answers at once."), "{place}");
        assert!(
            !place.lines().any(|l| l.starts_with("  ")),
            "{width}:\n{place}"
        );
    }
}

#[test]
fn at_80_by_24_moves_and_the_pieces_fit_one_screen() {
    let screens = tmux_screens(80, &["moves", "moves L", "help pieces", "help pieces L"]);
    // Each answer whole on the screen: its first line and its last.
    let whole = |screen: &str, first: &str, last: &str| {
        assert!(screen.contains(first), "no {first:?}:\n{screen}");
        assert!(screen.contains(last), "no {last:?}:\n{screen}");
    };
    whole(
        &screens[1],
        "1,345 legal placements for player 1: L 752, T 264, Z 168, O 161",
        "`moves L T0` one orientation's positions.",
    );
    whole(
        &screens[2],
        "752 legal placements of L for player 1",
        "`moves L T0` lists the positions of one",
    );
    whole(
        &screens[3],
        "Each drawing shows a piece's layers",
        "`help place` says what the faces",
    );
    whole(&screens[4], "Each drawing shows a piece's layers", "W270");
    assert!(screens[4].contains("L: 24 orientations"), "{}", screens[4]);
}
