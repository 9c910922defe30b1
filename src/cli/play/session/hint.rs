//! `hint`: the full engine's suggestion for the side to move, drawn into
//! the board without being played, and the count of hints a saved game
//! records.

use super::*;
use crate::cli::render::ghost_board;

/// The header comment of a saved game that counts its hints: `# hints: N`.
const HINTS: &str = " hints: ";

/// The hints a game's header says were taken (0 when it says nothing).
pub(crate) fn taken(header: &[String]) -> u32 {
    header
        .iter()
        .find_map(|h| h.strip_prefix(HINTS).and_then(|n| n.trim().parse().ok()))
        .unwrap_or(0)
}

/// `header` with `hints` as its count of hints taken (none when 0).
pub(crate) fn with_hints(header: &[String], hints: u32) -> Vec<String> {
    let mut header: Vec<String> = (header.iter())
        .filter(|h| !h.starts_with(HINTS))
        .cloned()
        .collect();
    if hints > 0 {
        header.push(format!("{HINTS}{hints}"));
    }
    header
}

impl Session {
    /// The header to save: the game's own, with the count of hints taken.
    pub(super) fn header_to_save(&self) -> Vec<String> {
        with_hints(&self.header, self.hints)
    }

    /// The search behind `hint` and `go`: the position as an analysis, by
    /// the full engine at any level (a level's weakness is in its moves,
    /// not its advice), with the session's budget (2 s where it has none).
    pub(super) fn advise(&mut self) -> Result<Thought, SearchError> {
        let pos = *self.line.position();
        let limits = match self.budget {
            b if b.is_unlimited() => Budget::time(Duration::from_secs(2)),
            b => b,
        };
        let ui = &mut self.ui;
        let thought = self
            .engine
            .search_here(Request::analysis(pos).limits(limits), |p| {
                ui.progress(&pos, p)
            });
        self.ui.progress_done();
        self.remember_proof(pos, &thought);
        thought
    }

    /// `hint`: searches the position as an analysis (the full engine, at
    /// any level: a level's weakness is in its moves, not its advice) with
    /// the session's budget, and shows the placement it suggests.
    pub(super) fn hint(&mut self) -> Response {
        if self.line.position().status().is_over() {
            return self.game_over_error();
        }
        let pos = *self.line.position();
        let t = match self.advise() {
            Ok(t) => t,
            Err(e) => return Response::err(e.to_string()),
        };
        let Some(best) = t.report.best else {
            return Response::err("the engine found no placement to suggest");
        };
        self.hints += 1;
        let view = ReportView::of(&pos, &t);
        let mut out = String::new();
        if let Move::Place(p) = best {
            out.push_str(&ghost_board(&pos, p, &self.view()));
        }
        let who = pos.to_move();
        let value = match view.proven {
            Some(Proven::Win) => "a proven win".to_string(),
            Some(Proven::Loss) => "a proven loss, but the best try".to_string(),
            Some(Proven::Draw) => "a proven draw".to_string(),
            None => format!("{:.0}% to win for {who}", 100.0 * view.winrate),
        };
        let shown = if best.placement().is_some() {
            " (its cubes are the capitals above; it is not played)"
        } else {
            ""
        };
        out.push_str(&format!(
            "Hint: {best}, {value}{shown}. Type it to play it. Hints this game: {}.\n",
            self.hints
        ));
        if t.interrupted {
            out.push_str("(The search was stopped early.)\n");
        }
        Response::ok(out)
    }
}
