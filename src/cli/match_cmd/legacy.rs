//! An old build of Cabra as a player, through its `search --json`
//! command (version 0.1.0 has no protocol): for each placement the game
//! so far is written to a temporary `.caminos` file and the program runs
//! `PATH search FILE --time T --threads N --seed S --json` (or
//! `--iterations`/`--nodes`), and its `best` is played. Each placement is
//! a fresh process, so the old engine keeps no tree between moves. Old
//! builds know only the caminos rules.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use cabra::engine::clock::allocation;
use cabra::engine::format_duration;
use cabra::engine::matches::{Contestant, Fault, OnClock};
use cabra::game::record::write_game;
use cabra::game::{Move, Position, parse_move};

use super::players::Limits;
use super::process::{MAX_ANSWER, Next, Program, clip};

/// An old build playing one game.
pub struct LegacyPlayer {
    path: PathBuf,
    limits: Limits,
    seed: u64,
    /// The match's stop flag, which ends the wait for a search.
    stop: Option<Arc<AtomicBool>>,
}

impl LegacyPlayer {
    /// The build at `path`, with these limits, seeded from `seed`.
    pub fn new(path: PathBuf, limits: Limits, seed: u64) -> LegacyPlayer {
        LegacyPlayer {
            path,
            limits,
            seed,
            stop: None,
        }
    }

    /// Waits for its searches only until `stop` is raised.
    pub fn stop_on(&mut self, stop: &Arc<AtomicBool>) {
        self.stop = Some(stop.clone());
    }

    /// The command line of one search of `file` for `time` (and the other
    /// limits).
    fn command(&self, file: &str, ply: usize, time: Option<Duration>) -> Vec<String> {
        let mut argv = vec![
            self.path.display().to_string(),
            "search".into(),
            file.into(),
        ];
        let l = &self.limits;
        if let Some(t) = time {
            argv.extend(["--time".into(), format_duration(t)]);
        }
        if let Some(n) = l.iterations {
            argv.extend(["--iterations".into(), n.to_string()]);
        }
        if let Some(n) = l.nodes {
            argv.extend(["--nodes".into(), n.to_string()]);
        }
        argv.extend([
            "--threads".into(),
            l.threads.to_string(),
            "--seed".into(),
            self.seed.wrapping_add(ply as u64).to_string(),
            "--json".into(),
        ]);
        argv
    }
}

impl Contestant for LegacyPlayer {
    /// On a clock, an old build searches for the time this build would
    /// give the placement (it cannot stop early).
    fn genmove(&mut self, pos: &Position, clock: Option<OnClock>) -> Result<Move, Fault> {
        let io = |e: std::io::Error| Fault::Crashed(format!("cannot write the game file: {e}"));
        let mut file = tempfile::Builder::new()
            .prefix("cabra-legacy-")
            .suffix(".caminos")
            .tempfile()
            .map_err(io)?;
        file.write_all(write_game(pos).as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        let (time, limit) = match clock {
            Some(c) => (
                Some(allocation(c.left, c.increment, pos)),
                c.left + self.limits.margin,
            ),
            None => (self.limits.time, self.limits.move_limit()),
        };
        let argv = self.command(&file.path().display().to_string(), pos.plies(), time);
        let start = Instant::now();
        let deadline = start + limit;
        let mut program = Program::spawn(&argv)
            .map_err(|e| Fault::Crashed(format!("cannot start {}: {e}", argv[0])))?;
        program.stop_on(self.stop.clone());
        let mut out = Vec::new();
        let mut size = 0;
        loop {
            match program.next_line(deadline) {
                Next::Line(_) if size > MAX_ANSWER => {
                    return Err(Fault::Garbage(format!(
                        "an answer of over {} KiB",
                        MAX_ANSWER >> 10
                    )));
                }
                Next::Line(l) => {
                    size += l.len() + 1;
                    out.push(l);
                }
                Next::Closed => break,
                Next::Timeout => return Err(Fault::Timeout { limit }),
            }
        }
        if !program.exit_status().is_some_and(|s| s.success()) {
            return Err(Fault::Crashed(program.exit_reason()));
        }
        let text = out.join("\n");
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|_| {
            Fault::Garbage(format!("not the JSON of search --json: {}", clip(&text)))
        })?;
        let best = json["best"]
            .as_str()
            .ok_or_else(|| Fault::Garbage(format!("no \"best\" in {}", clip(&text))))?;
        parse_move(best).map_err(|_| Fault::Garbage(format!("\"best\": {}", clip(best))))
    }
}
