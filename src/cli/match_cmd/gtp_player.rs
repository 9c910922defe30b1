//! A program that speaks the protocol of `cabra gtp`, as a player: told
//! the game with `play`, asked with `genmove`, every answer awaited with
//! a deadline. Whatever goes wrong is the program's fault and loses it
//! the game.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use cabra::engine::format_duration;
use cabra::engine::matches::{Contestant, Fault, OnClock};
use cabra::game::{Move, Position, Rules, parse_move};

use super::players::Limits;
use super::process::{MAX_ANSWER, Next, Program, clip};

/// How long a program may take to start and answer the first command
/// (or `--margin`, if longer: a program loading a large network).
const STARTUP: Duration = Duration::from_secs(10);

/// A GTP program playing one game.
pub struct GtpPlayer {
    program: Program,
    /// The moves the program has been told (or made).
    known: Vec<Move>,
    /// The rules the program was told with `cabra-rules` (none: it plays
    /// its default, the caminos rules).
    rules: Option<Rules>,
    limits: Limits,
    /// Whether it knows `cabra-set` (else it learns its time per move
    /// from `time_left`).
    cabra: bool,
    next_id: u64,
}

impl GtpPlayer {
    /// Waits for the program's answers only until `stop` is raised.
    pub fn stop_on(&mut self, stop: &Arc<AtomicBool>) {
        self.program.stop_on(Some(stop.clone()));
    }

    /// Starts the program and sets it up for one game: its limits, its
    /// threads and seed (through `cabra-set` when it knows it, else
    /// `time_settings` with a byo-yomi of one placement per period).
    pub fn start(argv: &[String], limits: Limits, seed: u64) -> Result<GtpPlayer, Fault> {
        let program = Program::spawn(argv)
            .map_err(|e| Fault::Crashed(format!("cannot start {}: {e}", argv[0])))?;
        let mut p = GtpPlayer {
            program,
            known: Vec::new(),
            rules: None,
            limits,
            cabra: false,
            next_id: 1,
        };
        p.ask("protocol_version", STARTUP.max(p.limits.margin))?;
        p.cabra = p.ask("known_command cabra-set", p.limits.margin)? == "true";
        let setup: Vec<String> = if p.cabra {
            let l = &p.limits;
            let opt = |v: Option<String>| v.unwrap_or_else(|| "none".into());
            vec![
                format!("cabra-set threads {}", l.threads),
                format!("cabra-set seed {seed}"),
                format!("cabra-set time {}", opt(l.time.map(format_duration))),
                format!(
                    "cabra-set iterations {}",
                    opt(l.iterations.map(|n| n.to_string()))
                ),
                format!("cabra-set nodes {}", opt(l.nodes.map(|n| n.to_string()))),
            ]
        } else {
            match p.limits.time {
                Some(t) => vec![format!("time_settings 0 {} 1", seconds(t))],
                None => vec![],
            }
        };
        for c in setup
            .iter()
            .chain(std::iter::once(&"clear_board".to_string()))
        {
            p.ask(c, p.limits.margin).map_err(|f| refused_setup(c, f))?;
        }
        Ok(p)
    }

    /// Sends a command and reads its answer (the text after `=`) within
    /// `limit`.
    fn ask(&mut self, command: &str, limit: Duration) -> Result<String, Fault> {
        let deadline = Instant::now() + limit;
        let id = self.next_id;
        self.next_id += 1;
        if !self.program.send(&format!("{id} {command}")) {
            return Err(Fault::Crashed(self.program.exit_reason()));
        }
        // The first line of the answer.
        let head = match self.program.next_line(deadline) {
            Next::Line(l) => l,
            Next::Timeout => return Err(Fault::Timeout { limit }),
            Next::Closed => return Err(Fault::Crashed(self.program.exit_reason())),
        };
        let (ok, rest) = match head.chars().next() {
            Some('=') => (true, &head[1..]),
            Some('?') => (false, &head[1..]),
            _ => return Err(Fault::Garbage(clip(&head))),
        };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && rest[..digits] != id.to_string() {
            return Err(Fault::Garbage(format!(
                "answer {} to command {id}",
                &rest[..digits]
            )));
        }
        let mut text = rest[digits..].trim().to_string();
        // The rest of the answer, up to its blank line.
        loop {
            match self.program.next_line(deadline) {
                Next::Line(l) if l.trim().is_empty() => break,
                Next::Line(_) if text.len() > MAX_ANSWER => {
                    return Err(Fault::Garbage(format!(
                        "an answer of over {} KiB to {command}",
                        MAX_ANSWER >> 10
                    )));
                }
                Next::Line(l) => {
                    text.push('\n');
                    text.push_str(l.trim_end());
                }
                Next::Timeout => return Err(Fault::Timeout { limit }),
                Next::Closed => return Err(Fault::Crashed(self.program.exit_reason())),
            }
        }
        if ok {
            Ok(text)
        } else {
            // A reason of several lines is told on one.
            Err(Fault::Refused(text.lines().collect::<Vec<_>>().join(" ")))
        }
    }

    /// Tells the program the moves of `pos` it does not know yet (the
    /// whole game again after `clear_board` if it went elsewhere), and the
    /// rules first when they are not its default.
    pub fn sync(&mut self, pos: &Position) -> Result<(), Fault> {
        let rules = pos.rules();
        if self.rules.unwrap_or_default() != rules {
            let command = format!("cabra-rules {rules}");
            self.ask(&command, self.limits.margin)
                .map_err(|f| refused_setup(&command, f))?;
            self.rules = Some(rules);
            self.known.clear();
        }
        let moves = pos.moves();
        let continues =
            moves.len() >= self.known.len() && moves[..self.known.len()] == self.known[..];
        if !continues {
            self.ask("clear_board", self.limits.margin)?;
            self.known.clear();
        }
        // Who made each move (a swap or a time machine changes the turns).
        let mut replay = Position::with_rules(rules);
        for (i, &mv) in moves.iter().enumerate() {
            let player = replay.to_move().number();
            replay.play_move_unchecked(mv);
            if i < self.known.len() {
                continue;
            }
            self.ask(&format!("play {player} {mv}"), self.limits.margin)
                .map_err(|f| match f {
                    Fault::Refused(why) => {
                        Fault::Refused(format!("refused the legal placement {mv}: {why}"))
                    }
                    f => f,
                })?;
            self.known.push(mv);
        }
        Ok(())
    }
}

/// A setup command refused: say which.
fn refused_setup(command: &str, f: Fault) -> Fault {
    match f {
        Fault::Refused(why) => Fault::Refused(format!("refused '{command}': {why}")),
        f => f,
    }
}

/// Seconds as GTP writes them (a decimal fraction when needed).
fn seconds(t: Duration) -> String {
    let s = t.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.3}")
    }
}

impl Contestant for GtpPlayer {
    fn genmove(&mut self, pos: &Position, clock: Option<OnClock>) -> Result<Move, Fault> {
        self.sync(pos)?;
        let player = pos.to_move().number();
        if let Some(c) = clock {
            // Its main time left (GTP's time_left has no increment).
            match self.ask(
                &format!("time_left {player} {} 0", seconds(c.left)),
                self.limits.margin,
            ) {
                Ok(_) | Err(Fault::Refused(_)) => {}
                Err(f) => return Err(f),
            }
            let answer = self.ask(&format!("genmove {player}"), c.left + self.limits.margin)?;
            return self.answered(&answer);
        }
        // Programs without cabra-set learn their time for this move.
        if let Some(t) = self.limits.time.filter(|_| !self.cabra) {
            match self.ask(
                &format!("time_left {player} {} 1", seconds(t)),
                self.limits.margin,
            ) {
                // A program without a clock may refuse it.
                Ok(_) | Err(Fault::Refused(_)) => {}
                Err(f) => return Err(f),
            }
        }
        let answer = self.ask(&format!("genmove {player}"), self.limits.move_limit())?;
        self.answered(&answer)
    }

    fn finish(&mut self, _pos: &Position) {
        if self.ask("quit", Duration::from_millis(200)).is_ok() {
            self.program.end(Duration::from_millis(200));
        } else {
            self.program.end(Duration::ZERO);
        }
    }
}

impl GtpPlayer {
    /// The move of a genmove answer, which the program now knows.
    fn answered(&mut self, answer: &str) -> Result<Move, Fault> {
        if answer.eq_ignore_ascii_case("resign") {
            return Err(Fault::Resigned);
        }
        let mv = parse_move(answer).map_err(|_| Fault::Garbage(clip(answer)))?;
        self.known.push(mv);
        Ok(mv)
    }
}
