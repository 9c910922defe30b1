//! One view of a search's report for every front end: the JSON of
//! `search --json`, of `analysis` answers and of the server's events, the
//! words of `gtp`'s live analysis, and the text table of `search` and of
//! `play`'s `go`. A proven result is always one of three words, `win`,
//! `loss` or `draw`, for the player to move ([`Proven::word`]).

use std::fmt::Write as _;

use super::engine::Thought;
use super::units::{group, plural};
use crate::game::{Move, Position};
use crate::search::{Proven, Report};

/// One root move of a report.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MoveView {
    /// The move, in notation.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// Playouts through it.
    pub visits: u64,
    /// The mover's chance to win by it (draws count one half); 1, 0 or
    /// 0.5 when proven.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::search::nan_if_null")
    )]
    pub winrate: f64,
    /// `win`, `loss` or `draw` once proven, for the player who makes it.
    pub proven: Option<Proven>,
    /// The expected line that starts with it.
    pub pv: Vec<String>,
}

/// A search's report as every front end shows it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ReportView {
    /// The player to move (1 or 2), for whom the values are.
    pub player: u8,
    /// The move to play (none once the game is over).
    pub best: Option<String>,
    /// The player's chance to win after `best` (draws count one half).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::search::nan_if_null")
    )]
    pub winrate: f64,
    /// `win`, `loss` or `draw` once the search has proven the position.
    pub proven: Option<Proven>,
    /// The expected line, starting with `best`.
    pub pv: Vec<String>,
    /// The most visited moves, the move to play first.
    pub top: Vec<MoveView>,
    /// Iterations (playouts) of the search, all threads together.
    pub iterations: u64,
    /// Nodes in the tree at the end (those kept from earlier included).
    pub nodes: u64,
    /// How long it searched.
    pub seconds: f64,
    /// Iterations per second.
    pub iterations_per_second: f64,
    /// Threads that searched.
    pub threads: usize,
    /// Whether it was stopped before its budget ended.
    pub interrupted: bool,
}

impl MoveView {
    /// The value in words: `61.2%`, or the proven result.
    pub fn value(&self) -> String {
        value(self.winrate, self.proven)
    }
}

fn value(winrate: f64, proven: Option<Proven>) -> String {
    match proven {
        Some(p) => p.word().to_string(),
        None => format!("{:.1}%", 100.0 * winrate),
    }
}

impl ReportView {
    /// The view of `report`, a search of `pos`.
    pub fn new(pos: &Position, report: &Report<Move>, interrupted: bool) -> ReportView {
        let line = |pv: &[Move]| pv.iter().map(Move::to_string).collect();
        ReportView {
            player: pos.to_move().number(),
            best: report.best.map(|m| m.to_string()),
            winrate: report.winrate,
            proven: report.proven,
            pv: line(&report.pv),
            top: report
                .top
                .iter()
                .map(|m| MoveView {
                    mv: m.mv.to_string(),
                    visits: m.visits,
                    winrate: m.winrate,
                    proven: m.proven,
                    pv: line(&m.pv),
                })
                .collect(),
            iterations: report.iterations,
            nodes: report.nodes,
            seconds: report.seconds,
            iterations_per_second: report.iterations_per_second,
            threads: report.threads,
            interrupted,
        }
    }

    /// The view of a finished search of `pos`.
    pub fn of(pos: &Position, thought: &Thought) -> ReportView {
        ReportView::new(pos, &thought.report, thought.interrupted)
    }

    /// The value of the position in words: `61.2%`, or the proven result.
    pub fn value(&self) -> String {
        value(self.winrate, self.proven)
    }

    /// The verdict in a sentence: `best: L T180 300 — player 1 wins 49.4%
    /// of the engine's playouts`, or what is proven.
    pub fn verdict(&self) -> String {
        let who = format!("player {}", self.player);
        let Some(best) = &self.best else {
            return "no move: the game is over".to_string();
        };
        match self.proven {
            Some(Proven::Win) => format!("best: {best} — {who} wins by force (proven win)"),
            Some(Proven::Loss) => {
                format!("best: {best} — but {who} loses against best play (proven loss)")
            }
            Some(Proven::Draw) => format!("best: {best} — a draw with best play (proven draw)"),
            None => format!(
                "best: {best} — {who} wins {:.1}% of the engine's playouts",
                100.0 * self.winrate
            ),
        }
    }

    /// The report as text, for people: the verdict, the effort, the
    /// expected line (up to 10 moves) and a table of up to `rows` moves.
    pub fn table(&self, rows: usize) -> String {
        let mut out = String::new();
        if self.interrupted {
            out.push_str("Stopped: here is what the search found so far.\n");
        }
        let _ = writeln!(
            out,
            "player {} to move: {} in {:.1} s ({}, {}, {} a second)",
            self.player,
            plural(self.iterations, "iteration"),
            self.seconds,
            plural(self.threads as u64, "thread"),
            plural(self.nodes, "node"),
            group(self.iterations_per_second.round() as u64)
        );
        let _ = writeln!(out, "{}", self.verdict());
        if !self.top.is_empty() {
            let width = (self.top.iter().map(|m| m.mv.len()).max())
                .unwrap_or(9)
                .max(9);
            let _ = writeln!(
                out,
                "  {:<width$}  {:>11}  {:>6}",
                "placement", "visits", "win"
            );
            for m in self.top.iter().take(rows) {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:>11}  {:>6}",
                    m.mv,
                    group(m.visits),
                    m.value()
                );
            }
            // A tree kept from earlier moves brings its visits along.
            if self
                .top
                .iter()
                .take(rows)
                .any(|m| m.visits > self.iterations)
            {
                let _ = writeln!(
                    out,
                    "  (visits include those of the tree kept from earlier moves, \
                     so they can pass this search's {})",
                    plural(self.iterations, "iteration")
                );
            }
        }
        if self.pv.len() > 1 {
            let pv: Vec<&str> = self.pv.iter().take(10).map(String::as_str).collect();
            let _ = writeln!(out, "expected line: {}", pv.join(", "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_move;
    use crate::search::MoveStats;

    fn report(proven: Option<Proven>) -> Report<Move> {
        let (a, b) = (
            parse_move("L T0 000").unwrap(),
            parse_move("O T0 660").unwrap(),
        );
        let stats = |mv, visits, winrate| MoveStats {
            mv,
            visits,
            winrate,
            proven,
            pv: vec![mv, b],
        };
        Report {
            best: Some(a),
            winrate: 0.625,
            proven,
            iterations: 12_345,
            nodes: 12_346,
            seconds: 0.5,
            iterations_per_second: 24_690.0,
            pv: vec![a, b],
            top: vec![stats(a, 9_000, 0.625), stats(b, 3_000, 0.5)],
            threads: 2,
        }
    }

    #[test]
    fn one_view_serialises_and_prints_the_same_report() {
        let pos = Position::new();
        let v = ReportView::new(&pos, &report(None), false);
        #[cfg(feature = "serde")]
        {
            let json = serde_json::to_value(&v).unwrap();
            assert_eq!(json["player"], 1);
            assert_eq!(json["best"], "L T0 000");
            assert_eq!(json["top"][1]["move"], "O T0 660");
            assert!(json["proven"].is_null() && json["interrupted"] == false);
        }
        let text = v.table(8);
        assert!(
            text.contains("12,345 iterations in 0.5 s (2 threads, 12,346 nodes, 24,690 a second)")
        );
        assert!(
            text.contains("player 1 wins 62.5% of the engine's playouts"),
            "{text}"
        );
        assert!(text.contains("  O T0 660         3,000   50.0%"), "{text}");
        assert!(text.contains("expected line: L T0 000, O T0 660"));
        // A proven result is one word, the same in JSON and in the table.
        let v = ReportView::new(&pos, &report(Some(Proven::Loss)), true);
        #[cfg(feature = "serde")]
        assert_eq!(serde_json::to_value(&v).unwrap()["proven"], "loss");
        let text = v.table(8);
        assert!(text.starts_with("Stopped"), "{text}");
        assert!(
            text.contains("(proven loss)") && text.contains("   loss\n"),
            "{text}"
        );
        assert_eq!(v.value(), "loss");
        assert!(!text.contains("tree kept"), "{text}");
    }

    #[test]
    fn visits_past_the_iterations_are_explained() {
        // 9,000 visits of L T0 000 after a search of 5,000 iterations: the
        // tree kept from earlier moves had 4,000 or more.
        let mut r = report(None);
        r.iterations = 5_000;
        let text = ReportView::new(&Position::new(), &r, false).table(8);
        assert!(
            text.contains(
                "(visits include those of the tree kept from earlier moves, \
                 so they can pass this search's 5,000 iterations)"
            ),
            "{text}"
        );
    }
}
