//! Commands that make the engine think: `go`, `engine`, `auto`, and its replies.

use super::*;

/// Raised while a search runs, so that a Ctrl-C handler can tell stopping
/// a search from leaving the program.
pub static SEARCHING: AtomicBool = AtomicBool::new(false);

impl Session {
    /// Searches the current position with the budget, showing progress.
    pub(super) fn think(&mut self) -> Thought {
        self.think_within(self.budget)
    }

    /// Searches the current position within `budget`, showing progress.
    fn think_within(&mut self, budget: Budget) -> Thought {
        let pos = *self.line.position();
        let ui = &mut self.ui;
        SEARCHING.store(true, Ordering::SeqCst);
        let thought = self
            .engine
            .think(&pos, budget, &mut |p| ui.progress(&pos, p));
        SEARCHING.store(false, Ordering::SeqCst);
        self.ui.progress_done();
        thought
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
        let t = match self.clock {
            // On its clock the engine takes its share and may stop early.
            Some(c) => self.think_within(clock::budget(
                c.left,
                c.control.increment,
                self.line.position(),
                self.engine.config().early_stop,
            )),
            None => self.think(),
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
            "the game is over ({}): `undo` takes back placements, `new` starts a new game",
            result_line(self.line.position(), self.line.position().status())
        ))
    }

    pub(super) fn go(&mut self) -> Response {
        if self.line.position().status().is_over() {
            return self.game_over_error();
        }
        let t = self.think();
        let r = &t.report;
        let mover = self.line.position().to_move();
        let mut out = String::new();
        if t.interrupted {
            out.push_str("Stopped (Ctrl-C): here is what the search found so far.\n");
        }
        out.push_str(&format!(
            "{} to move: {} in {:.1} s ({}, {})\n",
            who(mover),
            plural(r.iterations, "iteration"),
            r.seconds,
            plural(r.threads as u64, "thread"),
            plural(r.nodes, "node")
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
