//! One game session: the position, the redo list, the settings and the
//! engine, driven one line at a time by [`Session::handle`]. Nothing here
//! reads input or writes to the terminal except through [`Ui`], so the
//! whole command handling can be tested (and fuzzed) directly.
//!
//! The command handlers are grouped by concern in the submodules: moves
//! typed by the person (`moves`), the engine's searches (`thinking`),
//! taking back and replaying moves (`undo_redo`), files and position codes
//! (`files`), and settings and listings (`info`); `you` says which sides
//! the person plays.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::plural;
use cabra::engine::Proven;
use cabra::engine::clock::{OnClock, TimeControl};
use cabra::engine::{
    Budget, EngineHandle, Job, Progress, ReportView, Request, SearchError, Thought,
    format_duration, group,
};
use cabra::game::record::Record;
use cabra::game::{GameLine, Move, Piece, PlacementList, Player, Position, Status, parse_move};

mod files;
pub(crate) mod hint;
mod info;
mod leaving;
mod listing;
mod moves;
mod ponder;
mod thinking;
mod undo_redo;
mod you;

use super::commands::{self, Cmd, Input};
use crate::cli::files::{own_key, read_record, save_game};
use crate::cli::render::{
    Known, View, counted, moves_of, paint_player, render, result_line, status_line,
};

pub use you::You;

/// A win probability for people: `63%`, or `a proven win` / `loss` / `draw`.
fn describe_value(winrate: f64, proven: Option<Proven>) -> String {
    match proven {
        Some(Proven::Win) => "a proven win".to_string(),
        Some(Proven::Loss) => "a proven loss".to_string(),
        Some(Proven::Draw) => "a proven draw".to_string(),
        None => format!("{:.0}%", 100.0 * winrate),
    }
}

/// How the session talks to the person while a command runs: the progress
/// of a search, and lines to show at once (the moves of `auto`).
pub trait Ui {
    /// The engine has been thinking for a while (called about ten times a second).
    fn progress(&mut self, pos: &Position, p: &Progress);
    /// The search is over: remove the progress line.
    fn progress_done(&mut self);
    /// Shows part of the current response now (ends with a newline).
    fn stream(&mut self, text: &str);
    /// A move was made: `note` is what to print if the session ends now
    /// (the code of an unsaved game), kept up to date during a command.
    fn moved(&mut self, note: &str) {
        let _ = note;
    }
}

/// A [`Ui`] that shows nothing and keeps the streamed text (for tests).
#[cfg(test)]
#[derive(Default)]
pub struct QuietUi {
    /// Everything streamed so far.
    pub streamed: String,
}

#[cfg(test)]
impl Ui for QuietUi {
    fn progress(&mut self, _: &Position, _: &Progress) {}
    fn progress_done(&mut self) {}
    fn stream(&mut self, text: &str) {
        self.streamed.push_str(text);
    }
}

/// What a command answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// Lines of text, each ending with a newline, no blank line among them.
    pub text: String,
    /// Whether the command failed (the text then says why, in one line).
    pub error: bool,
    /// Whether the session should end.
    pub quit: bool,
}

impl Response {
    fn ok(text: impl Into<String>) -> Response {
        let mut text = text.into();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        Response {
            text,
            ..Response::default()
        }
    }

    /// One line saying what is wrong; control characters the person typed
    /// are shown escaped, so the line stays one line and prints safely.
    fn err(text: impl Into<String>) -> Response {
        let text = commands::echo(&text.into(), 400);
        let mut r = Response::ok(format!("error: {text}"));
        r.error = true;
        r
    }
}

/// How a session starts.
pub struct Options {
    /// The sides the person plays.
    pub you: You,
    /// The engine's budget per placement.
    pub budget: Budget,
    /// The terminal's width in columns.
    pub width: usize,
    /// ANSI colours in the board and the messages.
    pub colours: bool,
    /// A person at a terminal (asks before quitting an unsaved game).
    pub interactive: bool,
    /// Think on the player's time (`--ponder`).
    pub ponder: bool,
    /// The threads the player chose for the full engine (`--threads`,
    /// `threads=`), which a level below the top sets aside and `set level`
    /// back to the top restores; `None`: the front end's default.
    pub threads: Option<usize>,
}

/// One game being played.
pub struct Session {
    /// The game, with the moves taken back that `redo` replays.
    line: GameLine,
    you: You,
    budget: Budget,
    /// See [`Options::threads`] (and `set threads`).
    threads: Option<usize>,
    /// The engine's game clock (`set clock`), instead of the budget.
    clock: Option<EngineClock>,
    engine: EngineHandle,
    ui: Box<dyn Ui>,
    colours: bool,
    interactive: bool,
    /// The terminal's width in columns.
    width: usize,
    /// Warn when the side to move faces a win in one.
    threats: bool,
    /// The game as last loaded or saved (nothing is lost while the current
    /// game is a beginning of it).
    saved: Vec<Move>,
    /// The file last loaded or saved, for `save` without a name.
    file: Option<PathBuf>,
    /// The comment lines at the head of the file loaded, written back by `save`.
    header: Vec<String>,
    /// Files this session loaded or wrote: `save` replaces them without asking.
    own_files: HashSet<PathBuf>,
    /// Files of games the session left (`new`, `pos`): replaced only when
    /// the player says so, as they hold another game.
    left_files: HashSet<PathBuf>,
    /// `quit` was refused once for an unsaved game: the next one leaves.
    quit_armed: bool,
    /// A save that asked whether to replace a file: the next line answers.
    pending_save: Option<PathBuf>,
    /// Hints taken in this game (`hint`), recorded when it is saved.
    hints: u32,
    /// Think on the player's time (`--ponder`).
    ponder: bool,
    /// The search of the player's turn under way (`ponder.rs`).
    pondering: Option<Job<Thought>>,
    /// The last position a search proved lost for its side to move.
    proven_lost: Option<Position>,
    /// Saves that failed, and why the last one did (a script's exit
    /// status says so).
    failed_saves: (usize, String),
}

/// The names of the settings of `set`.
pub const SETTINGS: [&str; 8] = [
    "time",
    "iterations",
    "clock",
    "level",
    "threads",
    "seed",
    "you",
    "threats",
];

/// The engine's clock in a session: its time control and what is left.
#[derive(Clone, Copy, Debug)]
struct EngineClock {
    control: TimeControl,
    left: Duration,
}

impl EngineClock {
    /// The time left, to the millisecond: `28.285s`.
    fn left_text(&self) -> String {
        format_duration(Duration::from_millis(self.left.as_millis() as u64))
    }
}

/// The side of a player as people say it: `player 1`.
fn who(p: Player) -> String {
    p.to_string()
}

impl Session {
    /// A session at the end of `record` (read from `file`, or an empty
    /// record for the empty board), with `engine` to play and analyze.
    pub fn new(
        record: Record,
        file: Option<PathBuf>,
        options: Options,
        engine: EngineHandle,
        ui: Box<dyn Ui>,
    ) -> Session {
        let pos = record.position;
        let own_files = file.iter().map(|f| own_key(f)).collect();
        // A game file goes on counting the hints it records, as `load` does.
        let hints = hint::taken(&record.header);
        Session {
            line: GameLine::new(pos),
            you: options.you,
            budget: options.budget,
            threads: options.threads,
            clock: None,
            engine,
            ui,
            colours: options.colours,
            interactive: options.interactive,
            width: options.width,
            // Warnings help a person against the engine; two people or a
            // watcher turn them on with `set threats on`.
            threats: matches!(options.you, You::One | You::Two),
            saved: pos.moves().to_vec(),
            file,
            header: record.header,
            own_files,
            left_files: HashSet::new(),
            quit_armed: false,
            pending_save: None,
            hints,
            ponder: options.ponder,
            pondering: None,
            proven_lost: None,
            failed_saves: (0, String::new()),
        }
    }

    /// The game.
    pub fn position(&self) -> &Position {
        self.line.position()
    }

    /// The placements that `redo` would replay, the next one first.
    #[cfg(test)]
    pub fn redo_list(&self) -> &[Move] {
        self.line.ahead()
    }

    /// The prompt for the next command (plain text; the caller may colour it).
    pub fn prompt(&self) -> String {
        // A question waits for its answer: the prompt asks it again, so
        // that it does not read as the game's.
        if let Some(path) = &self.pending_save {
            return format!(
                "replace {}? (yes/no)> ",
                commands::echo(&path.display().to_string(), 60)
            );
        }
        match self.line.position().status() {
            Status::Ongoing => {
                let p = self.line.position().to_move();
                let role = match (self.you, self.you.plays(p)) {
                    (You::Both, _) => "",
                    (_, true) => " (you)",
                    (_, false) => " (engine)",
                };
                format!(
                    "move {}, {}{role}> ",
                    self.line.position().plies() + 1,
                    who(p)
                )
            }
            _ => "game over> ".to_string(),
        }
    }

    /// The player to move, coloured when colours are on.
    fn player(&self, p: Player) -> String {
        paint_player(&who(p), p, self.colours)
    }

    /// What the session says when it starts: a greeting on a terminal, and
    /// the engine's opening when it plays player 1 of a new game.
    pub fn start(&mut self, from_file: bool) -> Response {
        let mut out = String::new();
        if self.interactive {
            // Short lines, each its own sentence, wrapped to the terminal.
            out.push_str(&format!(
                "Cabra {} — Caminos on an 8x8x3 board.\n",
                env!("CARGO_PKG_VERSION"),
            ));
            out.push_str(&crate::cli::render::wrap(&self.roles(), self.width));
            out.push_str(&crate::cli::render::wrap(
                "Type a placement such as `L E180 110`, `help` for the commands, `quit` to leave.\n",
                self.width,
            ));
            if self.you.one_side() && self.engine.config().fixed_level().is_none() {
                out.push_str(&crate::cli::render::wrap(
                    &format!(
                        "New to the game? `set level 1` is the weakest opponent (of {}); `hint` suggests a placement.\n",
                        cabra::engine::levels::TOP
                    ),
                    self.width,
                ));
            }
        }
        let moved = if from_file {
            false
        } else {
            self.engine_turns(&mut out)
        };
        if self.interactive || moved {
            out.push_str(&self.board());
            out.push_str(&self.turn_hint());
        }
        self.ponder_if_due();
        Response::ok(out)
    }

    /// Who plays what, in a sentence.
    fn roles(&self) -> String {
        let budget = match self.clock {
            Some(c) => format!("on a clock of {}", c.control),
            None => format!("{} a placement", self.budget),
        };
        let engine = match self.engine.config().fixed_level() {
            Some(l) => format!(
                "the engine at level {} of {} ({} Elo)",
                l.number,
                cabra::engine::levels::TOP,
                l.elo
            ),
            None => format!("the engine ({budget})"),
        };
        match self.you {
            You::One => format!("You are player 1 (x), against {engine}."),
            You::Two => format!("You are player 2 (o), against {engine}."),
            You::Both => "Two people play: you enter the placements for both sides.".to_string(),
            You::None => format!("The engine plays both sides ({budget}); Ctrl-C stops it."),
        }
    }

    /// Tells the session the terminal's width (it may change between commands).
    pub fn set_width(&mut self, width: usize) {
        self.width = width.max(20);
    }

    /// How boards are drawn.
    fn view(&self) -> View {
        View {
            colours: self.colours,
            width: self.width,
            threats: self.threats,
            known: if self.proven_lost == Some(*self.line.position()) {
                Known::ProvenLoss
            } else {
                Known::Nothing
            },
        }
    }

    /// The board and the state of play.
    fn board(&self) -> String {
        render(self.line.position(), &self.view())
    }

    /// When it is the engine's turn but it is not moving by itself, a line
    /// saying how to go on.
    fn turn_hint(&self) -> String {
        if self.line.position().status().is_over() {
            return String::new();
        }
        let p = self.line.position().to_move();
        if self.you.engine_plays(p) {
            format!(
                "It is the engine's turn ({}): type `engine` to let it play, or a placement to play for it.\n",
                who(p)
            )
        } else {
            String::new()
        }
    }

    /// Handles one line of input: a search on the player's time stops
    /// first, and goes on after the command if it is still their turn.
    pub fn handle(&mut self, line: &str) -> Response {
        self.stop_pondering();
        let r = self.handle_line(line);
        if !r.quit {
            self.ponder_if_due();
        }
        r
    }

    fn handle_line(&mut self, line: &str) -> Response {
        if let Some(path) = self.pending_save.take() {
            let unchanged = format!(
                "Not saved: {} is unchanged.\n",
                commands::echo(&path.display().to_string(), 200)
            );
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return self.save_to(path),
                "n" | "no" | "" => return Response::ok(unchanged),
                // Anything else is a new command: the save is dropped,
                // and the player told so before what the command does.
                _ => {
                    let mut r = self.handle(line);
                    r.text.insert_str(0, &unchanged);
                    return r;
                }
            }
        }
        let input = commands::classify(line);
        if !matches!(input, Input::Command(Cmd::Quit, _) | Input::Empty) {
            self.quit_armed = false;
        }
        match input {
            Input::Empty => Response::default(),
            Input::Placement(text) => self.place(text),
            Input::Unknown(word) => Response::err(commands::unknown_message(word)),
            Input::Command(cmd, arg) => {
                let word = line.split_whitespace().next().unwrap_or_default();
                self.command(cmd, word, arg)
            }
        }
    }

    /// Runs command `cmd`, typed as `word`, with `arg`.
    fn command(&mut self, cmd: Cmd, word: &str, arg: &str) -> Response {
        let spec = commands::spec(cmd);
        if spec.args.is_empty() && !arg.is_empty() {
            // `Q T0 330`: a placement with a mistyped piece letter that
            // happens to name a command must not run the command, and is
            // answered as the placement it looks like.
            if word.chars().count() == 1 && commands::looks_like_placement(&format!("O {arg}")) {
                return Response::err(format!(
                    "`{word}` is no piece: the pieces are L, T, Z and O (`help pieces` draws them); \
                     as a command, `{word}` ({}) takes no argument",
                    spec.names[0]
                ));
            }
            let hint = if commands::looks_like_placement(&format!("O {arg}")) {
                " — to place a piece, start with its letter: the pieces are L, T, Z and O (`help pieces` draws them)"
            } else {
                ""
            };
            return Response::err(format!(
                "`{}` takes no argument (found '{}'); `help {}` says more{hint}",
                spec.names[0],
                commands::echo(arg, 24),
                spec.names[0]
            ));
        }
        match cmd {
            Cmd::Place if arg.is_empty() => Response::err(
                "expected a placement after `place`, e.g. `place L E180 110` (`help place` explains)",
            ),
            Cmd::Place => self.place(arg),
            Cmd::Show => Response::ok(self.board()),
            Cmd::Moves => self.moves(arg),
            Cmd::History => Response::ok(self.history()),
            Cmd::Go => self.go(),
            Cmd::Hint => self.hint(),
            Cmd::Engine => self.engine_move(),
            Cmd::Auto => self.auto(),
            Cmd::Undo => self.undo(arg),
            Cmd::Redo => self.redo(arg),
            Cmd::New => self.new_game(),
            Cmd::Load => self.load(arg),
            Cmd::Save | Cmd::ForceSave => {
                let r = self.save(arg, cmd == Cmd::ForceSave);
                if r.error {
                    self.failed_saves.0 += 1;
                    self.failed_saves.1 = r.text.trim_end().to_string();
                }
                r
            }
            Cmd::Pos => self.pos(arg),
            Cmd::Set => self.set(arg),
            Cmd::Result => Response::ok(self.result()),
            Cmd::Help if arg.is_empty() => Response::ok(super::help::help_list(
                self.width,
                self.line.position().rules(),
            )),
            Cmd::Help => match super::help::help_for(arg, self.width) {
                Ok(t) => Response::ok(t),
                Err(e) => Response::err(e),
            },
            Cmd::Quit => self.quit(),
        }
    }
}
