//! `cabra gtp`: the engine behind a text protocol on standard input and
//! output, in the conventions of GTP version 2 (see docs/PROTOCOL.md).
//!
//! - `line.rs`: reading a command line, writing an answer, players and
//!   placements as arguments;
//! - `commands.rs`: the table of commands and what each does;
//! - `stream.rs`: `cabra-analyze` and `genmove_analyze`, whose search runs
//!   on a thread of its own while this thread waits for the next line;
//! - `clock.rs`: `time_settings`, `time_left` and the time per placement.

mod clock;
mod commands;
mod line;
mod stream;

use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use cabra::engine::{Budget, EngineHandle, Job, Progress, Request, Thought};
use cabra::game::{GameLine, Position, Rules};

use super::lines::{Line, read_line};
use super::options::EngineOptions;
use crate::cli::defaults;
use clock::Clock;
use line::{MAX_LINE, Parsed, answer};

/// Arguments of `cabra gtp`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Reads commands on standard input and answers on standard output (docs/PROTOCOL.md). \
                  Without a limit each genmove thinks 1 s (or its share of the clock set by \
                  time_settings/time_left); threads default to all cores, --seed to 0. \
                  `cabra-set KEY VALUE` changes any of these during the session."
)]
pub struct GtpArgs {
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(flatten)]
    pub level: super::options::LevelOptions,
    #[command(flatten)]
    pub rules: super::options::RulesOptions,
    /// Answer `resign` to genmove when the engine has proven the game lost.
    #[arg(long)]
    pub resign: bool,
    /// Think on the opponent's time: after a genmove, search the
    /// opponent's position until the next command comes, and keep the
    /// tree for the reply (a level below the top never does).
    #[arg(long)]
    pub ponder: bool,
}

/// The state of a session: the engine, the game, the clock.
pub struct Gtp {
    engine: EngineHandle,
    /// The session's own limits (`cabra-set time`, ...): they win over the
    /// engine's; none set, the engine's apply.
    limits: Budget,
    line: GameLine,
    clock: Clock,
    resign: bool,
    /// Files this session loaded or saved: `savecaminos` replaces them;
    /// another existing file only with `--force`.
    own_files: HashSet<PathBuf>,
    /// Files this session loaded only in part, with how many moves they
    /// hold: `savecaminos` replaces them only with `--force`.
    part_loaded: HashMap<PathBuf, usize>,
    /// Think on the opponent's time (`--ponder`).
    ponder: bool,
    /// The search on the opponent's time under way.
    pondering: Option<Job<Thought>>,
}

/// What a command asks of the session loop.
enum Reply {
    /// Success, with the text of the answer.
    Ok(String),
    /// Failure, with the reason.
    Err(String),
    /// Answer, then end the session.
    Quit,
    /// Start a stream of analysis (its answer is written as it goes).
    Stream(stream::Request),
}

impl Gtp {
    /// A session with this engine, the board empty under `rules`.
    pub fn new(engine: EngineHandle, rules: Rules, resign: bool) -> Gtp {
        Gtp {
            engine,
            limits: Budget::UNLIMITED,
            line: GameLine::new(Position::with_rules(rules)),
            clock: Clock::default(),
            resign,
            own_files: HashSet::new(),
            part_loaded: HashMap::new(),
            ponder: false,
            pondering: None,
        }
    }

    /// Thinks on the opponent's time after each genmove (`--ponder`).
    pub fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
    }

    /// After a genmove: searches the opponent's position until the next
    /// command, unless the engine plays a level below the top (whose
    /// strength is its fixed search) or the game is over.
    fn start_pondering(&mut self) {
        let pos = *self.line.position();
        if !self.ponder || pos.status().is_over() || self.engine.config().fixed_level().is_some() {
            return;
        }
        let request = Request::analysis(pos).until_stopped();
        // Its limits are none: it starts.
        self.pondering = self.engine.start(request, |_: &Progress| {}).ok();
    }

    /// Stops the search on the opponent's time, keeping its tree.
    fn stop_pondering(&mut self) {
        if let Some(job) = self.pondering.take() {
            let _ = job.stop_and_wait();
        }
    }

    /// The search of the next genmove of the side to move: the engine's
    /// limits, its time capped by the clock's share when a clock runs.
    fn move_request(&self) -> Request {
        let pos = *self.line.position();
        Request::new(pos)
            .limits(self.limits.limited())
            .share(self.clock.allocation(pos.to_move(), &pos))
    }
}

/// Writes `text` to standard output at once.
fn emit(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Runs `cabra gtp` on standard input and output.
pub fn run(args: &GtpArgs) -> anyhow::Result<()> {
    let engine = args.engine.at_level(&args.level).handle(&defaults::GTP);
    let mut gtp = Gtp::new(engine, args.rules.rules(), args.resign);
    gtp.set_ponder(args.ponder);
    let stdin = io::stdin();
    serve(&mut gtp, &mut stdin.lock())?;
    Ok(())
}

/// Answers the commands of `input` until `quit` or the end of the input.
pub fn serve(gtp: &mut Gtp, input: &mut impl BufRead) -> io::Result<()> {
    // A line read while a stream ran, to run next.
    let mut pending: Option<Option<Line>> = None;
    loop {
        let line = match pending.take() {
            Some(l) => l,
            None => read_line(input, MAX_LINE)?,
        };
        let Some(line) = line else {
            return Ok(());
        };
        let command = match line::parse(&line) {
            Parsed::Empty => continue,
            Parsed::Error { id, reason } => {
                emit(&answer(id, false, &reason))?;
                continue;
            }
            Parsed::Command(c) => c,
        };
        gtp.stop_pondering();
        match gtp.execute(&command) {
            Reply::Ok(text) => {
                emit(&answer(command.id, true, &text))?;
                if command.name == "genmove" {
                    gtp.start_pondering();
                }
            }
            Reply::Err(reason) => emit(&answer(command.id, false, &reason))?,
            Reply::Quit => {
                emit(&answer(command.id, true, ""))?;
                return Ok(());
            }
            Reply::Stream(request) => {
                pending = Some(gtp.stream(command.id, request, input)?);
            }
        }
    }
}

#[cfg(test)]
mod ponder_tests;
