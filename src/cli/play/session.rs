//! One game session: the position, the redo list, the settings and the
//! engine, driven one line at a time by [`Session::handle`]. Nothing here
//! reads input or writes to the terminal except through [`Ui`], so the
//! whole command handling can be tested (and fuzzed) directly.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use cabra::game::record::{read_game, save_game};
use cabra::game::{MoveList, Piece, Placement, Player, Position, Status, parse_move};
use cabra::search::Proven;

use super::code;
use super::commands::{self, Cmd, Input};
use super::engine::{Budget, Engine, Progress, Thought, describe_value, format_duration, group};
use crate::cli::duration::parse_duration;
use crate::cli::render::{paint_player, render, result_line, status_line};

/// Which players the person at the keyboard plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum You {
    /// Player 1, against the engine.
    One,
    /// Player 2, against the engine.
    Two,
    /// Both: a board for two people.
    Both,
    /// Neither: the engine plays itself.
    None,
}

impl You {
    /// Reads `1`, `2`, `both`, `none` (and a few other spellings).
    pub fn parse(text: &str) -> Result<You, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "1" | "one" | "p1" | "player1" | "x" | "first" => Ok(You::One),
            "2" | "two" | "p2" | "player2" | "o" | "second" => Ok(You::Two),
            "both" | "all" | "12" | "human" | "humans" => Ok(You::Both),
            "none" | "neither" | "0" | "engine" | "watch" => Ok(You::None),
            other => Err(format!(
                "'{other}' is not a side: say 1, 2, both (two people) or none (the engine plays itself)"
            )),
        }
    }

    /// Whether the person plays `p`.
    pub fn plays(self, p: Player) -> bool {
        match self {
            You::One => p == Player::One,
            You::Two => p == Player::Two,
            You::Both => true,
            You::None => false,
        }
    }

    /// Whether the engine plays `p` by itself.
    pub fn engine_plays(self, p: Player) -> bool {
        !self.plays(p)
    }

    /// Against the engine: the person plays exactly one side.
    fn one_side(self) -> bool {
        matches!(self, You::One | You::Two)
    }
}

impl std::fmt::Display for You {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            You::One => "1",
            You::Two => "2",
            You::Both => "both",
            You::None => "none",
        })
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
    /// Search threads.
    pub threads: usize,
    /// The engine's random seed.
    pub seed: u64,
    /// ANSI colours in the board and the messages.
    pub colours: bool,
    /// A person at a terminal (asks before quitting an unsaved game).
    pub interactive: bool,
}

/// One game being played.
pub struct Session {
    pos: Position,
    /// Placements taken back, the next one to replay last.
    redo: Vec<Placement>,
    you: You,
    budget: Budget,
    engine: Engine,
    stop: Arc<AtomicBool>,
    ui: Box<dyn Ui>,
    colours: bool,
    interactive: bool,
    /// The game as last loaded or saved (nothing is lost while the current
    /// game is a beginning of it).
    saved: Vec<Placement>,
    /// The file last loaded or saved, for `save` without a name.
    file: Option<PathBuf>,
    /// `quit` was refused once for an unsaved game: the next one leaves.
    quit_armed: bool,
}

/// `1 placement`, `3 placements`.
fn placements(n: usize) -> String {
    format!("{n} placement{}", if n == 1 { "" } else { "s" })
}

/// The side of a player as people say it: `player 1`.
fn who(p: Player) -> String {
    p.to_string()
}

impl Session {
    /// A session at `pos` (from a file, `file`, or the empty board).
    pub fn new(
        pos: Position,
        file: Option<PathBuf>,
        options: Options,
        stop: Arc<AtomicBool>,
        ui: Box<dyn Ui>,
    ) -> Session {
        Session {
            pos,
            redo: Vec::new(),
            you: options.you,
            budget: options.budget,
            engine: Engine::new(options.threads, options.seed, stop.clone()),
            stop,
            ui,
            colours: options.colours,
            interactive: options.interactive,
            saved: pos.history().to_vec(),
            file,
            quit_armed: false,
        }
    }

    /// The game.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The placements that `redo` would replay, the next one last.
    #[cfg(test)]
    pub fn redo_list(&self) -> &[Placement] {
        &self.redo
    }

    /// The prompt for the next command (plain text; the caller may colour it).
    pub fn prompt(&self) -> String {
        match self.pos.status() {
            Status::Ongoing => {
                let p = self.pos.to_move();
                let role = match (self.you, self.you.plays(p)) {
                    (You::Both, _) => "",
                    (_, true) => " (you)",
                    (_, false) => " (engine)",
                };
                format!("move {}, {}{role}> ", self.pos.plies() + 1, who(p))
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
            out.push_str(&format!(
                "Cabra {} — Caminos on an 8x8x3 board. {}\n",
                env!("CARGO_PKG_VERSION"),
                self.roles()
            ));
            out.push_str(
                "Type a placement such as `L E180 110`, `help` for the commands, `quit` to leave.\n",
            );
        }
        let moved = if from_file {
            false
        } else {
            self.stop.store(false, Ordering::SeqCst);
            self.engine_turns(&mut out)
        };
        if self.interactive || moved {
            out.push_str(&self.board());
            out.push_str(&self.turn_hint());
        }
        Response::ok(out)
    }

    /// Who plays what, in a sentence.
    fn roles(&self) -> String {
        let engine = format!("the engine ({} a placement)", self.budget);
        match self.you {
            You::One => format!("You are player 1 (x), against {engine}."),
            You::Two => format!("You are player 2 (o), against {engine}."),
            You::Both => "Two people play: you enter the placements for both sides.".to_string(),
            You::None => format!(
                "The engine plays both sides ({} a placement); Ctrl-C stops it.",
                self.budget
            ),
        }
    }

    /// The board and the state of play.
    fn board(&self) -> String {
        render(&self.pos, self.colours)
    }

    /// When it is the engine's turn but it is not moving by itself, a line
    /// saying how to go on.
    fn turn_hint(&self) -> String {
        if self.pos.status().is_over() {
            return String::new();
        }
        let p = self.pos.to_move();
        if self.you.engine_plays(p) {
            format!(
                "It is the engine's turn ({}): type `engine` to let it play, or a placement to play for it.\n",
                who(p)
            )
        } else {
            String::new()
        }
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Response {
        let input = commands::classify(line);
        if !matches!(input, Input::Command(Cmd::Quit, _) | Input::Empty) {
            self.quit_armed = false;
        }
        // A Ctrl-C that arrived between commands is not meant for this one.
        self.stop.store(false, Ordering::SeqCst);
        match input {
            Input::Empty => Response::default(),
            Input::Placement(text) => self.place(text),
            Input::Unknown(word) => Response::err(commands::unknown_message(word)),
            Input::Command(cmd, arg) => self.command(cmd, arg),
        }
    }

    fn command(&mut self, cmd: Cmd, arg: &str) -> Response {
        let no_arg = |r: Response| -> Response {
            if arg.is_empty() {
                r
            } else {
                Response::err(format!(
                    "`{}` takes no argument (found '{}'); `help {}` says more",
                    commands::spec(cmd).names[0],
                    commands::echo(arg, 24),
                    commands::spec(cmd).names[0]
                ))
            }
        };
        match cmd {
            Cmd::Place if arg.is_empty() => Response::err(
                "expected a placement after `place`, e.g. `place L E180 110` (`help place` explains)",
            ),
            Cmd::Place => self.place(arg),
            Cmd::Show => no_arg(Response::ok(self.board())),
            Cmd::Moves => self.moves(arg),
            Cmd::History => no_arg(Response::ok(self.history())),
            Cmd::Go => {
                if !arg.is_empty() {
                    return no_arg(Response::default());
                }
                self.go()
            }
            Cmd::Engine => {
                if !arg.is_empty() {
                    return no_arg(Response::default());
                }
                self.engine_move()
            }
            Cmd::Auto => {
                if !arg.is_empty() {
                    return no_arg(Response::default());
                }
                self.auto()
            }
            Cmd::Undo => self.undo(arg),
            Cmd::Redo => self.redo(arg),
            Cmd::New => {
                if !arg.is_empty() {
                    return no_arg(Response::default());
                }
                self.new_game()
            }
            Cmd::Load => self.load(arg),
            Cmd::Save => self.save(arg),
            Cmd::Pos => self.pos(arg),
            Cmd::Set => self.set(arg),
            Cmd::Result => no_arg(Response::ok(self.result())),
            Cmd::Help if arg.is_empty() => Response::ok(commands::help_list()),
            Cmd::Help => match commands::help_for(arg) {
                Ok(t) => Response::ok(t),
                Err(e) => Response::err(e),
            },
            Cmd::Quit => self.quit(),
        }
    }

    // ----- placements -------------------------------------------------

    /// One line for a placement just made.
    fn move_line(&self, p: Placement, by_engine: Option<&Thought>) -> String {
        let ply = self.pos.plies();
        let player = Player::from_index((ply - 1) % 2);
        let mut s = format!("{ply}. {} plays {p}", self.player(player));
        if let Some(t) = by_engine {
            let r = &t.report;
            s.push_str(&format!(
                "   (engine: {} for {}, {} iterations in {:.1} s)",
                describe_value(r.winrate, r.proven),
                who(player),
                group(r.iterations),
                r.seconds
            ));
        }
        s.push('\n');
        if let s2 @ (Status::Won { .. } | Status::Draw) = self.pos.status() {
            s.push_str(&format!("Game over: {}.\n", result_line(&self.pos, s2)));
        }
        s
    }

    /// Plays `p` for the side to move and keeps the redo list consistent.
    fn play(&mut self, p: Placement) {
        self.pos.play(p);
        if self.redo.last() == Some(&p) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
    }

    fn place(&mut self, text: &str) -> Response {
        let p = match parse_move(text) {
            Ok(p) => p,
            Err(e) => {
                let shown: String = text.chars().take(40).collect();
                return Response::err(format!("{shown}: {e} (`help place` explains the notation)"));
            }
        };
        if let Err(e) = self.pos.check(p) {
            let hint = match e {
                cabra::game::PlacementError::GameOver(_) => {
                    " — `undo` takes back the last placement, `new` starts a new game".to_string()
                }
                cabra::game::PlacementError::NoPieceLeft { player, .. } => {
                    let left: Vec<String> = Piece::ALL
                        .iter()
                        .filter(|&&k| self.pos.pieces_left(player, k) > 0)
                        .map(|&k| format!("{k} {}", self.pos.pieces_left(player, k)))
                        .collect();
                    format!(" (left: {})", left.join(", "))
                }
                _ => " (`moves` lists the legal placements)".to_string(),
            };
            return Response::err(format!("{p}: {e}{hint}"));
        }
        self.play(p);
        let mut out = self.move_line(p, None);
        self.engine_turns(&mut out);
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    // ----- the engine -------------------------------------------------

    /// Searches the current position with the budget, showing progress.
    fn think(&mut self) -> Thought {
        let pos = self.pos;
        let ui = &mut self.ui;
        let thought = self
            .engine
            .think(&pos, self.budget, &mut |p| ui.progress(&pos, p));
        self.ui.progress_done();
        thought
    }

    /// The engine plays while it is its turn. Returns whether it moved.
    fn engine_turns(&mut self, out: &mut String) -> bool {
        let mut moved = false;
        while !self.pos.status().is_over() && self.you.engine_plays(self.pos.to_move()) {
            if !self.engine_play_one(out) {
                break;
            }
            moved = true;
        }
        moved
    }

    /// The engine plays one placement; false when stopped (nothing played).
    /// What is already in `out` is shown first, as the search may take a while.
    fn engine_play_one(&mut self, out: &mut String) -> bool {
        self.ui.stream(&std::mem::take(out));
        let t = self.think();
        match t.report.best {
            Some(best) if !t.interrupted => {
                self.play(best);
                out.push_str(&self.move_line(best, Some(&t)));
                true
            }
            _ => {
                out.push_str(&format!(
                    "Stopped after {} iterations: nothing played. {}\n",
                    group(t.report.iterations),
                    match t.report.best {
                        Some(b) => format!(
                            "Best so far: {b} ({} for {}).",
                            describe_value(t.report.winrate, t.report.proven),
                            who(self.pos.to_move())
                        ),
                        None => String::new(),
                    }
                ));
                false
            }
        }
    }

    fn game_over_error(&self) -> Response {
        Response::err(format!(
            "the game is over ({}): `undo` takes back placements, `new` starts a new game",
            result_line(&self.pos, self.pos.status())
        ))
    }

    fn go(&mut self) -> Response {
        if self.pos.status().is_over() {
            return self.game_over_error();
        }
        let t = self.think();
        let r = &t.report;
        let mover = self.pos.to_move();
        let mut out = String::new();
        if t.interrupted {
            out.push_str("Stopped (Ctrl-C): here is what the search found so far.\n");
        }
        out.push_str(&format!(
            "{} to move: {} iterations in {:.1} s ({} thread{}, {} nodes)\n",
            who(mover),
            group(r.iterations),
            r.seconds,
            r.threads,
            if r.threads == 1 { "" } else { "s" },
            group(r.nodes)
        ));
        match (r.best, r.proven) {
            (Some(b), Some(Proven::Win)) => out.push_str(&format!(
                "best: {b} — {} wins by force (proven)\n",
                who(mover)
            )),
            (Some(b), Some(Proven::Loss)) => out.push_str(&format!(
                "best: {b} — but {} loses against best play (proven)\n",
                who(mover)
            )),
            (Some(b), Some(Proven::Draw)) => {
                out.push_str(&format!("best: {b} — a draw with best play (proven)\n"))
            }
            (Some(b), None) => out.push_str(&format!(
                "best: {b} — {} wins {:.1}% of the engine's playouts\n",
                who(mover),
                100.0 * r.winrate
            )),
            (None, _) => out.push_str("no placement found\n"),
        }
        if !r.top.is_empty() {
            let width = r
                .top
                .iter()
                .map(|m| m.mv.to_string().len())
                .max()
                .unwrap_or(10)
                .max(9);
            out.push_str(&format!(
                "  {:<width$}  {:>10}  {:>6}\n",
                "placement", "visits", "win"
            ));
            for m in r.top.iter().take(8) {
                let value = match m.proven {
                    Some(Proven::Win) => "won".to_string(),
                    Some(Proven::Loss) => "lost".to_string(),
                    Some(Proven::Draw) => "draw".to_string(),
                    None => format!("{:.1}%", 100.0 * m.winrate),
                };
                out.push_str(&format!(
                    "  {:<width$}  {:>10}  {:>6}\n",
                    m.mv.to_string(),
                    group(m.visits),
                    value
                ));
            }
        }
        if r.pv.len() > 1 {
            let pv: Vec<String> = r.pv.iter().take(10).map(|m| m.to_string()).collect();
            out.push_str(&format!("expected line: {}\n", pv.join(", ")));
        }
        Response::ok(out)
    }

    fn engine_move(&mut self) -> Response {
        if self.pos.status().is_over() {
            return self.game_over_error();
        }
        let mut out = String::new();
        if self.engine_play_one(&mut out) {
            // Against the engine, a placement it made for you gets its answer.
            if self.you.one_side() {
                self.engine_turns(&mut out);
            }
            out.push_str(&self.board());
            out.push_str(&self.turn_hint());
        }
        Response::ok(out)
    }

    fn auto(&mut self) -> Response {
        if self.pos.status().is_over() {
            return self.game_over_error();
        }
        let mut out = String::new();
        while !self.pos.status().is_over() {
            if !self.engine_play_one(&mut out) {
                break;
            }
        }
        out.push_str(&self.board());
        Response::ok(out)
    }

    // ----- undo, redo, new --------------------------------------------

    /// Reads `N` or `all` (at most `max`), or `None` for no argument.
    fn count_arg(arg: &str, max: usize, what: &str) -> Result<Option<usize>, String> {
        let a = arg.trim();
        if a.is_empty() {
            return Ok(None);
        }
        if a.eq_ignore_ascii_case("all") {
            return Ok(Some(max));
        }
        match a.parse::<usize>() {
            Ok(0) => Err(format!(
                "`{what} 0` does nothing: give a number from 1 to {max}, or `all`"
            )),
            Ok(n) if n > max => Err(format!(
                "cannot {what} {n}: there {} only {max} placement{} to {what}",
                if max == 1 { "is" } else { "are" },
                if max == 1 { "" } else { "s" }
            )),
            Ok(n) => Ok(Some(n)),
            Err(_) => Err(format!(
                "expected a number of placements or `all` after `{what}`, found '{}'",
                a.chars().take(20).collect::<String>()
            )),
        }
    }

    fn undo(&mut self, arg: &str) -> Response {
        let max = self.pos.plies();
        if max == 0 {
            return Response::err("nothing to undo: no placement has been played");
        }
        let n = match Self::count_arg(arg, max, "undo") {
            Ok(n) => n,
            Err(e) => return Response::err(e),
        };
        let mut taken = Vec::new();
        let mut take = |s: &mut Session| {
            let p = s.pos.undo().expect("plies checked");
            s.redo.push(p);
            taken.push(p);
        };
        match n {
            Some(n) => (0..n).for_each(|_| take(self)),
            None => {
                take(self);
                while self.you.one_side()
                    && self.pos.plies() > 0
                    && self.you.engine_plays(self.pos.to_move())
                {
                    take(self);
                }
            }
        }
        let list: Vec<String> = taken.iter().map(|p| p.to_string()).collect();
        let mut out = format!(
            "Took back {} placement{}: {}\n",
            taken.len(),
            if taken.len() == 1 { "" } else { "s" },
            list.join(", ")
        );
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    fn redo(&mut self, arg: &str) -> Response {
        let max = self.redo.len();
        if max == 0 {
            return Response::err(
                "nothing to redo: `redo` replays placements taken back with `undo`",
            );
        }
        let n = match Self::count_arg(arg, max, "redo") {
            Ok(n) => n,
            Err(e) => return Response::err(e),
        };
        let mut played = Vec::new();
        let step = |s: &mut Session, played: &mut Vec<Placement>| {
            let p = s.redo.pop().expect("redo list checked");
            s.pos.play(p);
            played.push(p);
        };
        match n {
            Some(n) => (0..n).for_each(|_| step(self, &mut played)),
            None => {
                step(self, &mut played);
                while self.you.one_side()
                    && !self.redo.is_empty()
                    && !self.pos.status().is_over()
                    && self.you.engine_plays(self.pos.to_move())
                {
                    step(self, &mut played);
                }
            }
        }
        let list: Vec<String> = played.iter().map(|p| p.to_string()).collect();
        let mut out = format!(
            "Replayed {} placement{}: {}\n",
            played.len(),
            if played.len() == 1 { "" } else { "s" },
            list.join(", ")
        );
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    /// Whether leaving the current game would lose placements: it has some,
    /// and it is not the saved game or a beginning of it.
    fn unsaved(&self) -> bool {
        let h = self.pos.history();
        let kept = h.len() <= self.saved.len() && self.saved[..h.len()] == *h;
        !h.is_empty() && !kept
    }

    /// A line giving the code of the game being left, when it is not saved.
    fn leaving_note(&self) -> String {
        if self.unsaved() {
            format!(
                "The game you left ({}) was not saved; `pos {}` brings it back.\n",
                placements(self.pos.plies()),
                code::encode(&self.pos)
            )
        } else {
            String::new()
        }
    }

    /// The same when leaving the program.
    fn exit_note(&self) -> String {
        if self.unsaved() {
            format!(
                "This game ({}) was not saved; to get it back, run `cabra play` and type `pos {}`.\n",
                placements(self.pos.plies()),
                code::encode(&self.pos)
            )
        } else {
            String::new()
        }
    }

    /// Replaces the game, e.g. after `new`, `load` or `pos CODE`.
    fn replace(&mut self, pos: Position) {
        self.pos = pos;
        self.redo.clear();
    }

    fn new_game(&mut self) -> Response {
        let mut out = self.leaving_note();
        out.push_str("New game.\n");
        self.replace(Position::new());
        self.saved.clear();
        self.engine_turns(&mut out);
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    // ----- files and codes ---------------------------------------------

    /// A file name argument: quotes removed, `~/` expanded.
    fn path_arg(arg: &str) -> PathBuf {
        let a = arg.trim();
        let a = a
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .or_else(|| a.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
            .unwrap_or(a);
        if let (Some(rest), Some(home)) = (a.strip_prefix("~/"), std::env::var_os("HOME")) {
            return Path::new(&home).join(rest);
        }
        PathBuf::from(a)
    }

    fn load(&mut self, arg: &str) -> Response {
        if arg.is_empty() {
            return Response::err(
                "expected a file name after `load`, e.g. `load games/opening.caminos`",
            );
        }
        let path = Self::path_arg(arg);
        match read_game(&path) {
            Ok(pos) => {
                let mut out = self.leaving_note();
                self.replace(pos);
                self.saved = pos.history().to_vec();
                self.file = Some(path.clone());
                out.push_str(&format!(
                    "Loaded {}: {} placement{}.\n",
                    commands::echo(&path.display().to_string(), 200),
                    pos.plies(),
                    if pos.plies() == 1 { "" } else { "s" }
                ));
                out.push_str(&self.board());
                out.push_str(&self.turn_hint());
                Response::ok(out)
            }
            Err(e) => Response::err(format!("{e:#} (the current game is unchanged)")),
        }
    }

    fn save(&mut self, arg: &str) -> Response {
        let path = if arg.is_empty() {
            match &self.file {
                Some(f) => f.clone(),
                None => {
                    return Response::err(
                        "expected a file name after `save`, e.g. `save mygame.caminos`",
                    );
                }
            }
        } else {
            Self::path_arg(arg)
        };
        if path.is_dir() {
            return Response::err(format!(
                "{} is a directory: give a file name, e.g. `save {}/game.caminos`",
                path.display(),
                path.display()
            ));
        }
        let existed = path.exists();
        match save_game(&path, &self.pos) {
            Ok(()) => {
                self.saved = self.pos.history().to_vec();
                self.file = Some(path.clone());
                Response::ok(format!(
                    "Saved {} placement{} to {}{}.",
                    self.pos.plies(),
                    if self.pos.plies() == 1 { "" } else { "s" },
                    commands::echo(&path.display().to_string(), 200),
                    if existed { " (replacing it)" } else { "" }
                ))
            }
            Err(e) => Response::err(format!("{e:#} (nothing was written)")),
        }
    }

    fn pos(&mut self, arg: &str) -> Response {
        if arg.is_empty() {
            return Response::ok(code::encode(&self.pos));
        }
        match code::decode(arg) {
            Ok(pos) => {
                let mut out = if pos.history() == self.pos.history() {
                    String::new()
                } else {
                    self.leaving_note()
                };
                self.replace(pos);
                out.push_str(&format!(
                    "Position set: {} placement{}.\n",
                    pos.plies(),
                    if pos.plies() == 1 { "" } else { "s" }
                ));
                out.push_str(&self.board());
                out.push_str(&self.turn_hint());
                Response::ok(out)
            }
            Err(e) => Response::err(e),
        }
    }

    // ----- settings, listings ----------------------------------------

    fn settings(&self) -> String {
        let (time, iterations) = match self.budget {
            Budget::Time(d) => (format_duration(d), "-".to_string()),
            Budget::Iterations(n) => ("-".to_string(), n.to_string()),
        };
        format!(
            "you         {}   ({})\ntime        {time}\niterations  {iterations}\nthreads     {}\nseed        {}\n",
            self.you,
            self.roles(),
            self.engine.threads(),
            self.engine.seed()
        )
    }

    fn set(&mut self, arg: &str) -> Response {
        if arg.is_empty() {
            return Response::ok(self.settings());
        }
        let (name, value) = match arg.find(char::is_whitespace) {
            Some(i) => (arg[..i].to_ascii_lowercase(), arg[i..].trim()),
            None => (arg.to_ascii_lowercase(), ""),
        };
        let names = ["time", "iterations", "threads", "seed", "you"];
        let name = match name.as_str() {
            "t" | "movetime" => "time".to_string(),
            "it" | "iter" | "iters" | "n" => "iterations".to_string(),
            "th" | "thread" => "threads".to_string(),
            "side" | "player" => "you".to_string(),
            _ => name,
        };
        if !names.contains(&name.as_str()) {
            return Response::err(format!(
                "no setting '{}': the settings are time, iterations, threads, seed and you",
                name.chars().take(20).collect::<String>()
            ));
        }
        if value.is_empty() {
            return Response::err(format!(
                "expected a value after `set {name}` (`help set` gives examples)"
            ));
        }
        let done = match name.as_str() {
            "time" => parse_duration(value).and_then(|d| {
                if d.is_zero() {
                    Err("the time must be more than 0, e.g. `set time 2s`".to_string())
                } else if d.as_secs() > 24 * 3600 {
                    Err("the time can be at most a day".to_string())
                } else {
                    self.budget = Budget::Time(d);
                    Ok(format!(
                        "The engine now thinks {} a placement.",
                        format_duration(d)
                    ))
                }
            }),
            "iterations" => super::engine::parse_count(value).map(|n| {
                self.budget = Budget::Iterations(n);
                format!("The engine now thinks {} iterations a placement.", group(n))
            }),
            "threads" => match value.parse::<usize>() {
                Ok(n @ 1..=256) => {
                    self.engine.set_threads(n);
                    Ok(format!(
                        "The engine now searches with {n} thread{}.",
                        if n == 1 { "" } else { "s" }
                    ))
                }
                _ => Err(format!(
                    "expected a number of threads from 1 to 256, found '{value}'"
                )),
            },
            "seed" => match value.parse::<u64>() {
                Ok(s) => {
                    self.engine.set_seed(s);
                    Ok(format!("Seed set to {s}."))
                }
                Err(_) => Err(format!(
                    "expected a whole number from 0 to {} for the seed, found '{value}'",
                    u64::MAX
                )),
            },
            _ => You::parse(value).map(|you| {
                self.you = you;
                let mut s = self.roles();
                if !self.pos.status().is_over() && you.engine_plays(self.pos.to_move()) {
                    s.push('\n');
                    s.push_str(self.turn_hint().trim_end());
                }
                s
            }),
        };
        match done {
            Ok(t) => Response::ok(t),
            Err(e) => Response::err(e),
        }
    }

    fn moves(&self, arg: &str) -> Response {
        let filter = match arg.trim() {
            "" => None,
            a => {
                let mut chars = a.chars();
                match (chars.next().and_then(Piece::from_letter), chars.next()) {
                    (Some(p), None) => Some(p),
                    _ => {
                        return Response::err(format!(
                            "expected a piece L, T, Z or O after `moves`, found '{}'",
                            a.chars().take(20).collect::<String>()
                        ));
                    }
                }
            }
        };
        if self.pos.status().is_over() {
            return Response::ok(format!(
                "No legal placements: the game is over ({}).",
                result_line(&self.pos, self.pos.status())
            ));
        }
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        let mover = self.pos.to_move();
        let count = |k: Piece| list.iter().filter(|p| p.entry().piece == k).count();
        let mut out = String::new();
        match filter {
            None => {
                let per: Vec<String> = Piece::ALL
                    .iter()
                    .map(|&k| format!("{k} {}", group(count(k) as u64)))
                    .collect();
                out.push_str(&format!(
                    "{} legal placements for {}: {}\n",
                    group(list.len() as u64),
                    who(mover),
                    per.join(", ")
                ));
            }
            Some(k) => {
                let n = count(k);
                let left = self.pos.pieces_left(mover, k);
                out.push_str(&format!(
                    "{} legal placements of {k} for {}{}\n",
                    group(n as u64),
                    who(mover),
                    if left == 0 {
                        format!(" (no {k} left)")
                    } else {
                        String::new()
                    }
                ));
            }
        }
        // One line per shape: `L E180: 110 120 ...`, wrapped.
        let mut current: Option<String> = None;
        let mut line = String::new();
        for p in list
            .iter()
            .filter(|p| filter.is_none_or(|k| p.entry().piece == k))
        {
            let text = p.to_string();
            let (shape, at) = text.rsplit_once(' ').expect("notation has spaces");
            if current.as_deref() != Some(shape) {
                if !line.is_empty() {
                    out.push_str(&line);
                    out.push('\n');
                }
                line = format!("  {shape}:");
                current = Some(shape.to_string());
            }
            if line.len() + 4 > 96 {
                out.push_str(&line);
                out.push('\n');
                line = format!("  {}", " ".repeat(shape.len() + 1));
            }
            line.push(' ');
            line.push_str(at);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        Response::ok(out)
    }

    fn history(&self) -> String {
        let h = self.pos.history();
        if h.is_empty() {
            return "No placement yet.\n".to_string();
        }
        let mut out = String::from("      player 1        player 2\n");
        for (i, pair) in h.chunks(2).enumerate() {
            let second = pair.get(1).map(|p| p.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "{:>3}.  {:<14}  {}\n",
                i + 1,
                pair[0].to_string(),
                second
            ));
        }
        out.push_str(&format!("{}\n", status_line(&self.pos)));
        out
    }

    fn result(&self) -> String {
        let [a, b] = Player::BOTH.map(|p| self.pos.perimeter_count(p));
        match self.pos.status() {
            Status::Ongoing => format!(
                "In progress after {}: {} to move; perimeter pieces {a} (player 1) to {b} (player 2).",
                placements(self.pos.plies()),
                who(self.pos.to_move())
            ),
            s => format!(
                "{} after {} placements.",
                result_line(&self.pos, s),
                self.pos.plies()
            ),
        }
    }

    fn quit(&mut self) -> Response {
        if self.interactive && self.unsaved() && !self.quit_armed {
            self.quit_armed = true;
            return Response::ok(format!(
                "This game ({}) is not saved: `save FILE` keeps it; type `quit` again to leave anyway.",
                placements(self.pos.plies())
            ));
        }
        let mut r = Response::ok(if self.interactive {
            self.exit_note()
        } else {
            String::new()
        });
        r.quit = true;
        r
    }

    /// What to say when the input ends (Ctrl-D on a terminal).
    pub fn end_of_input(&mut self) -> Response {
        let mut r = Response::ok(if self.interactive {
            self.exit_note()
        } else {
            String::new()
        });
        r.quit = true;
        r
    }
}
