//! Moves typed by the person: placements, `swap` and `tm`, and the line
//! that reports each move.

use super::*;

/// The fewest iterations whose estimate the line of an engine's move shows.
const MIN_SHOWN_ITERATIONS: u64 = 1_000;

impl Session {
    /// One line for a move just made by `player`.
    pub(super) fn move_line(&self, m: Move, player: Player, by_engine: Option<&Thought>) -> String {
        let ply = self.line.position().plies();
        let mut s = match m {
            Move::Place(_) => format!("{ply}. {} plays {m}", self.player(player)),
            Move::Swap => format!(
                "{ply}. {} swaps: player 1's first piece is now player 2's",
                self.player(player)
            ),
            Move::TimeMachine => format!(
                "{ply}. {} calls the time machine: the last two placements are taken back; {} places again",
                self.player(player),
                who(player)
            ),
        };
        if let Some(t) = by_engine {
            let r = &t.report;
            // The low levels search a few iterations: their estimate is
            // noise (0%, 100%), which a newcomer would read as a verdict.
            let value = if r.proven.is_some() || r.iterations >= MIN_SHOWN_ITERATIONS {
                format!(
                    "{} for {}, ",
                    describe_value(r.winrate, r.proven),
                    who(player)
                )
            } else {
                String::new()
            };
            s.push_str(&format!(
                "   (engine: {value}{} in {:.1} s)",
                plural(r.iterations, "iteration"),
                r.seconds
            ));
        }
        s.push('\n');
        if let s2 @ (Status::Won { .. } | Status::Draw { .. }) = self.line.position().status() {
            // Against the engine, say who that is: "player 1" makes a
            // newcomer look up which side was theirs.
            let verdict = match s2 {
                Status::Won { winner, .. } if self.you.one_side() => {
                    if self.you.plays(winner) {
                        " You win."
                    } else {
                        " The engine wins."
                    }
                }
                _ => "",
            };
            s.push_str(&format!(
                "Game over: {}.{verdict}\n",
                result_line(self.line.position(), s2)
            ));
        }
        s
    }

    /// Plays `m` for the side to move, keeps the redo list consistent, and
    /// returns who played it.
    pub(super) fn play(&mut self, m: Move) -> Player {
        let mover = self.line.position().to_move();
        self.line
            .play(m)
            .expect("the session plays legal moves only");
        // A signal while the engine answers must not lose this move.
        let note = self.end_note();
        self.ui.moved(&note);
        mover
    }

    pub(super) fn place(&mut self, text: &str) -> Response {
        let p = match parse_move(text) {
            Ok(p) => p,
            Err(e) => {
                let shown: String = text.chars().take(40).collect();
                // An error that names the placement already is not
                // prefixed with it again.
                let e = e.to_string();
                let said = if e
                    .to_ascii_lowercase()
                    .starts_with(&shown.trim().to_ascii_lowercase())
                {
                    e
                } else {
                    format!("{shown}: {e}")
                };
                return Response::err(format!(
                    "{said} (`help place` explains the notation, `help pieces` draws the pieces)"
                ));
            }
        };
        if let Err(e) = self.line.position().check(p) {
            let hint = match e {
                cabra::game::PlacementError::GameOver(_) => {
                    format!(" — {}, `new` starts a new game", self.undo_alone_says())
                }
                cabra::game::PlacementError::NoPieceLeft { player, .. } => {
                    let left: Vec<String> = Piece::ALL
                        .iter()
                        .filter(|&&k| self.line.position().pieces_left(player, k) > 0)
                        .map(|&k| format!("{k} {}", self.line.position().pieces_left(player, k)))
                        .collect();
                    format!(" (left: {})", left.join(", "))
                }
                _ => " (`moves` lists the legal placements)".to_string(),
            };
            // The errors of `swap` and `tm` name their move already.
            let named = format!("{p}: ");
            let e = e.to_string();
            let e = if e.starts_with(&named) { e } else { named + &e };
            return Response::err(format!("{e}{hint}"));
        }
        let mover = self.play(p);
        let mut out = self.move_line(p, mover, None);
        self.engine_turns(&mut out);
        out.push_str(&self.board());
        out.push_str(&self.turn_hint());
        Response::ok(out)
    }
}
