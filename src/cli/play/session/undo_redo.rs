//! Taking back and replaying placements: `undo`, `redo`, `new`.

use super::*;

impl Session {
    /// Reads `N` or `all` (at most `max`), or `None` for no argument.
    pub(super) fn count_arg(arg: &str, max: usize, what: &str) -> Result<Option<usize>, String> {
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
            Err(_) => Err(Self::not_a_count(a, what)),
        }
    }

    /// The complaint about an argument that is neither a number nor `all`,
    /// if `arg` is one: it is named even when there is nothing to take
    /// back or replay.
    fn bad_count(arg: &str, what: &str) -> Option<String> {
        let a = arg.trim();
        let fine = a.is_empty() || a.eq_ignore_ascii_case("all") || a.parse::<usize>().is_ok();
        (!fine).then(|| Self::not_a_count(a, what))
    }

    fn not_a_count(a: &str, what: &str) -> String {
        format!(
            "expected a number of placements or `all` after `{what}`, found '{}'",
            a.chars().take(20).collect::<String>()
        )
    }

    pub(super) fn undo(&mut self, arg: &str) -> Response {
        let max = self.line.position().plies();
        if max == 0 {
            if let Some(e) = Self::bad_count(arg, "undo") {
                return Response::err(e);
            }
            let ahead = self.line.ahead().len();
            if ahead > 0 {
                // Everything was taken back: say how to bring it back.
                return Response::err(format!(
                    "nothing to undo: this is the start of the game (`redo` replays {}, `redo all` every one)",
                    crate::cli::plural(
                        ahead as u64,
                        crate::cli::render::move_noun(self.line.position())
                    )
                ));
            }
            return Response::err("nothing to undo: no placement has been played");
        }
        let n = match Self::count_arg(arg, max, "undo") {
            Ok(n) => n,
            Err(e) => return Response::err(e),
        };
        let n = match n {
            Some(n) => n,
            None => {
                let (n, reached) = self.undo_alone_to();
                // Against the engine, `undo` alone goes back to your turn:
                // where none of yours is left (you play second and only the
                // engine's opening is on the board), it would leave the
                // engine to move and nothing of yours taken back.
                if self.you.one_side() && self.you.engine_plays(reached.to_move()) {
                    return Response::err(
                        "nothing of yours to undo: the engine's opening stays (`undo 1` takes it back too, `new` starts again)",
                    );
                }
                n
            }
        };
        let taken: Vec<Move> = (0..n)
            .map(|_| self.line.undo().expect("plies checked"))
            .collect();
        let list: Vec<String> = taken.iter().map(|p| p.to_string()).collect();
        let mut out = format!(
            "Took back {}: {}\n",
            moves_of(self.line.position(), taken.len()),
            list.join(", ")
        );
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    /// How many moves `undo` alone takes back: one, and against the
    /// engine as many as needed to make it the person's turn again.
    pub(super) fn undo_alone(&self) -> usize {
        self.undo_alone_to().0
    }

    /// [`Session::undo_alone`]'s count, and the position it goes back to.
    fn undo_alone_to(&self) -> (usize, Position) {
        let mut line = self.line;
        let mut n = 0;
        while line.undo().is_some() {
            n += 1;
            if !(self.you.one_side() && self.you.engine_plays(line.position().to_move())) {
                break;
            }
        }
        (n, *line.position())
    }

    /// What `undo` alone would do, in words, for a game that is over:
    /// `` `undo` takes back the engine's last placement and yours``.
    pub(super) fn undo_alone_says(&self) -> String {
        let moves = self.line.position().moves();
        let n = self.undo_alone();
        let noun = crate::cli::render::move_noun(self.line.position());
        match n {
            0 => "nothing is left to undo".to_string(),
            1 => format!(
                "`undo` takes back the last {noun} ({})",
                moves[moves.len() - 1]
            ),
            2 if self.you.one_side() => format!(
                "`undo` takes back the engine's last {noun} and yours ({}, {})",
                moves[moves.len() - 1],
                moves[moves.len() - 2]
            ),
            n => format!(
                "`undo` takes back the last {}",
                moves_of(self.line.position(), n)
            ),
        }
    }

    pub(super) fn redo(&mut self, arg: &str) -> Response {
        let max = self.line.ahead().len();
        if max == 0 {
            if let Some(e) = Self::bad_count(arg, "redo") {
                return Response::err(e);
            }
            return Response::err(
                "nothing to redo: `redo` replays placements taken back with `undo`",
            );
        }
        let n = match Self::count_arg(arg, max, "redo") {
            Ok(n) => n,
            Err(e) => return Response::err(e),
        };
        let mut played = Vec::new();
        let step = |s: &mut Session, played: &mut Vec<Move>| {
            let m = s.line.redo().expect("redo list checked");
            played.push(m);
        };
        match n {
            Some(n) => (0..n).for_each(|_| step(self, &mut played)),
            None => {
                step(self, &mut played);
                while self.you.one_side()
                    && self.line.can_redo()
                    && !self.line.position().status().is_over()
                    && self.you.engine_plays(self.line.position().to_move())
                {
                    step(self, &mut played);
                }
            }
        }
        let list: Vec<String> = played.iter().map(|p| p.to_string()).collect();
        let mut out = format!(
            "Replayed {}: {}\n",
            moves_of(self.line.position(), played.len()),
            list.join(", ")
        );
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    /// Replaces the game, e.g. after `new`, `load` or `pos CODE`.
    pub(super) fn replace(&mut self, pos: Position) {
        self.line.replace(pos);
        self.hints = 0;
    }

    pub(super) fn new_game(&mut self) -> Response {
        let mut out = self.leaving_note();
        out.push_str("New game.\n");
        self.forget_file();
        self.replace(Position::with_rules(self.line.position().rules()));
        // A new game restarts the engine's clock.
        if let Some(c) = &mut self.clock {
            c.left = c.control.main;
        }
        self.saved.clear();
        self.engine_turns(&mut out);
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }

    // ----- files and codes ---------------------------------------------
}
