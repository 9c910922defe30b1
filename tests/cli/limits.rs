//! Every front end keeps the engine's time limit, whatever the position:
//! a tree kept from move to move, proven wins, losses and draws. Each
//! move's time, measured from outside the program, is at most its limit
//! plus 5% and 50 ms (the server's searches as it times them, with 200 ms
//! more for HTTP and its event stream seen from outside).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use cabra::engine::clock::main_share;
use cabra::game::Position;
use cabra::game::record::parse_game;
use serde_json::json;

use crate::common::*;
use crate::http::Server;

/// The thinking time of the tests' moves.
const MOVE_TIME: Duration = Duration::from_millis(1000);

/// The most a move of `limit` may take.
fn allowed(limit: Duration) -> Duration {
    limit.mul_f64(1.05) + Duration::from_millis(50)
}

/// A program that answers each line of input with a block of lines ended
/// by an empty line (`play` in a pipe, `gtp`).
struct Piped {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Piped {
    #[allow(
        clippy::zombie_processes,
        reason = "`Piped` waits for the child when dropped"
    )]
    fn start(args: &[&str]) -> Piped {
        let mut child = spawn(args);
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Piped {
            stdin: child.stdin.take().unwrap(),
            child,
            lines,
        }
    }

    /// Sends `line` and waits for its whole answer; the answer and how
    /// long it took.
    fn ask(&mut self, line: &str) -> (String, Duration) {
        let start = Instant::now();
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no answer to {line:?}: {answer:?}"));
            if l.is_empty() && !answer.is_empty() {
                return (answer.join("\n"), start.elapsed());
            }
            if !l.is_empty() {
                answer.push(l);
            }
        }
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The game of `file` with its last `undone` moves taken back.
fn position(file: &str, undone: usize) -> Position {
    let text = std::fs::read_to_string(file).unwrap();
    let game = parse_game(&text).unwrap();
    let moves = game.moves();
    Position::from_moves(game.rules(), &moves[..moves.len() - undone]).unwrap()
}

/// The late middle games and the proven positions of the tests: a file,
/// moves to take back first, and moves to play from there.
const POSITIONS: [(&str, usize, usize); 4] = [
    // A tree kept from move 12 on: moves of 6 s for 2 s before.
    ("games/midgame-11.caminos", 0, 8),
    // Proven drawn: the swindle search and the draw checks.
    ("games/drawn-position.caminos", 0, 6),
    // Proven lost: the search for the best try.
    ("games/lost-position.caminos", 0, 5),
    // The end of a drawn game, proven as it nears.
    ("games/kept-proof-draw.caminos", 8, 8),
];

#[test]
fn play_keeps_each_moves_time_on_a_kept_tree() {
    let time = format!("{}ms", MOVE_TIME.as_millis());
    for (file, undone, moves) in POSITIONS {
        let mut play = Piped::start(&["play", file, "--you", "none", "--time", &time]);
        if undone > 0 {
            play.ask(&format!("undo {undone}"));
        }
        for i in 0..moves {
            let (answer, took) = play.ask("engine");
            if answer.starts_with("error: the game is over") {
                break;
            }
            assert!(answer.contains(" plays "), "{file}: {answer}");
            assert!(
                took <= allowed(MOVE_TIME),
                "{file}, move {i}: {took:?} for {MOVE_TIME:?}\n{answer}"
            );
        }
    }
}

#[test]
fn gtp_keeps_each_moves_share_of_its_clock() {
    for (file, undone, moves) in POSITIONS {
        let mut gtp = Piped::start(&["gtp"]);
        let total = position(file, 0).plies();
        let (answer, _) = gtp.ask(&format!("loadcaminos {file} {}", total - undone));
        assert!(answer.starts_with('='), "{answer}");
        gtp.ask("time_settings 30 0 0");
        let mut pos = position(file, undone);
        for i in 0..moves {
            if pos.status().is_over() {
                break;
            }
            // 6 s left: a share of half a second to a few seconds.
            let left = Duration::from_secs(6);
            let who = if pos.to_move().number() == 1 {
                "b"
            } else {
                "w"
            };
            gtp.ask(&format!("time_left {who} 6 0"));
            let (answer, took) = gtp.ask(&format!("genmove {who}"));
            let share = main_share(left, &pos);
            assert!(
                took <= allowed(share),
                "{file}, move {i}: {took:?} for a share of {share:?}"
            );
            let mv = answer.trim_start_matches('=').trim();
            pos.play_move_unchecked(cabra::game::parse_move(mv).unwrap());
        }
    }
}

#[test]
fn serve_keeps_each_moves_time() {
    let s = Server::start(&["--threads", "2"]);
    for (file, undone, moves) in POSITIONS {
        let id = s.new_game();
        let path = |rest: &str| format!("/api/games/{id}{rest}");
        let text = std::fs::read(file).unwrap();
        let (status, _) = s.raw("POST", &path("/load"), &[], &text);
        assert_eq!(status, 200);
        let total = position(file, 0).plies();
        s.ok(
            "POST",
            &path("/goto"),
            Some(json!({ "ply": total - undone })),
        );
        let mut events = s.events(&id);
        for i in 0..moves {
            let state = s.ok("GET", &path(""), None);
            if state["result"] != "ongoing" {
                break;
            }
            let start = Instant::now();
            let body = json!({ "time_ms": MOVE_TIME.as_millis() as u64 });
            s.ok("POST", &path("/think"), Some(body));
            let moved = events.wait_for("moved", Duration::from_secs(60));
            let took = start.elapsed();
            // The search as the server timed it keeps the limit; seen from
            // here, the request and the event stream add their own delays,
            // which a loaded machine stretches, so they get 200 ms more.
            let searched = Duration::from_secs_f64(moved["seconds"].as_f64().unwrap());
            assert!(
                searched <= allowed(MOVE_TIME),
                "{file}, move {i}: the search took {searched:?} for {MOVE_TIME:?}"
            );
            assert!(
                took <= allowed(MOVE_TIME) + Duration::from_millis(200),
                "{file}, move {i}: {took:?} for {MOVE_TIME:?}"
            );
        }
    }
}
