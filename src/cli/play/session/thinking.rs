//! Commands that make the engine think: `go`, `engine`, `auto`, and its replies.

use super::*;

/// Moves the table of `go` lists.
const GO_ROWS: usize = 8;

impl Session {
    /// Searches the current position for the move to play with the
    /// session's budget (or on the engine's clock), showing progress.
    fn think(&mut self) -> Result<Thought, SearchError> {
        let pos = *self.line.position();
        let clock = self.clock.map(|c| OnClock {
            left: c.left,
            increment: c.control.increment,
        });
        // On its clock the engine takes its share and may stop early: the
        // clock, set in this session, stands for the time or iterations a
        // placement (`--time` too), as `set time` ends the clock. A node cap
        // stays.
        let request = Request::new(pos).clock(clock);
        let request = match (
            clock,
            self.budget.nodes.or(self.engine.config().budget.nodes),
        ) {
            (None, _) => request.limits(self.budget.limited()),
            (Some(_), Some(nodes)) => request.limits(Budget {
                nodes: Some(nodes),
                ..Budget::UNLIMITED
            }),
            // No limit of its own: the clock's share is the only one.
            (Some(_), None) => request.until_stopped(),
        };
        let ui = &mut self.ui;
        let thought = self.engine.search_here(request, |p| ui.progress(&pos, p));
        self.ui.progress_done();
        self.remember_proof(pos, &thought);
        thought
    }

    /// Remembers a search's proof for the board's warning: the side to
    /// move is lost at `pos`, or after the best move when it wins.
    pub(super) fn remember_proof(&mut self, pos: Position, thought: &Result<Thought, SearchError>) {
        match thought.as_ref().map(|t| (t.report.proven, t.report.best)) {
            Ok((Some(Proven::Loss), _)) => self.proven_lost = Some(pos),
            Ok((Some(Proven::Win), Some(best))) => {
                let mut after = pos;
                if after.play(best).is_ok() {
                    self.proven_lost = Some(after);
                }
            }
            _ => {}
        }
    }

    /// The engine plays while it is its turn. Returns whether it moved.
    pub(super) fn engine_turns(&mut self, out: &mut String) -> bool {
        let mut moved = false;
        while !self.line.position().status().is_over()
            && self.you.engine_plays(self.line.position().to_move())
        {
            if !self.engine_play_one(out) {
                break;
            }
            moved = true;
        }
        moved
    }

    /// The engine plays one placement; false when stopped (nothing played).
    /// What is already in `out` is shown first, as the search may take a while.
    pub(super) fn engine_play_one(&mut self, out: &mut String) -> bool {
        self.ui.stream(&std::mem::take(out));
        let t = match self.think() {
            Ok(t) => t,
            Err(e) => {
                out.push_str(&format!("{e}: nothing played.\n"));
                return false;
            }
        };
        let played = t.report.best.filter(|_| !t.interrupted);
        if let Some(c) = &mut self.clock {
            let used = Duration::from_secs_f64(t.report.seconds);
            c.left = c.left.saturating_sub(used);
            if played.is_some() {
                c.left += c.control.increment;
            }
        }
        match played {
            Some(best) => {
                let mover = self.play(best);
                out.push_str(&self.move_line(best, mover, Some(&t)));
                if let Some(c) = self.clock {
                    out.push_str(&format!("The engine's clock: {} left.\n", c.left_text()));
                }
                true
            }
            _ => {
                out.push_str(&format!(
                    "Stopped after {}: nothing played. {}\n",
                    plural(t.report.iterations, "iteration"),
                    match t.report.best {
                        Some(b) => format!(
                            "Best so far: {b} ({} for {}).",
                            describe_value(t.report.winrate, t.report.proven),
                            who(self.line.position().to_move())
                        ),
                        None => String::new(),
                    }
                ));
                false
            }
        }
    }

    pub(super) fn game_over_error(&self) -> Response {
        Response::err(format!(
            "the game is over ({}): {}, `new` starts a new game",
            result_line(self.line.position(), self.line.position().status()),
            self.undo_alone_says()
        ))
    }

    pub(super) fn go(&mut self) -> Response {
        if self.line.position().status().is_over() {
            return self.game_over_error();
        }
        // Advice, as `hint` gives it: the full engine, whatever the level
        // (a level's search of one iteration would name a move at random).
        let pos = *self.line.position();
        match self.advise() {
            Ok(t) => Response::ok(ReportView::of(&pos, &t).table(GO_ROWS)),
            Err(e) => Response::err(e.to_string()),
        }
    }

    pub(super) fn engine_move(&mut self) -> Response {
        if self.line.position().status().is_over() {
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

    pub(super) fn auto(&mut self) -> Response {
        if self.line.position().status().is_over() {
            return self.game_over_error();
        }
        let mut out = String::new();
        while !self.line.position().status().is_over() {
            if !self.engine_play_one(&mut out) {
                break;
            }
        }
        out.push_str(&self.board());
        Response::ok(out)
    }

    // ----- undo, redo, new --------------------------------------------
}
