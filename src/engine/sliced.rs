//! A search cut into short slices: progress after each, a prompt
//! reaction to a stop, and a clock that keeps its deadline on a busy
//! machine.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::budget::Budget;
use super::engine::Progress;
use crate::game::{Move, Position};
use crate::search::{Report, Searcher};

/// Iterations in the first slice of a search with an iteration budget; later
/// slices are sized from the measured speed to last about one slice.
const FIRST_SLICE_ITERATIONS: u64 = 2_000;

/// One search's limits, cut into slices.
pub(super) struct Sliced<'a> {
    pub budget: Budget,
    /// Whether the search may end once its move is settled.
    pub early_stop: bool,
    pub slice: Duration,
    /// How often progress is reported (slices may be shorter, to see soon
    /// when a move is settled).
    pub report_every: Duration,
    /// When progress was last reported.
    pub reported: std::cell::Cell<Instant>,
    pub stop: &'a Arc<AtomicBool>,
    /// When the search (all its phases) began.
    pub start: Instant,
}

impl Sliced<'_> {
    /// Runs `searcher` slice by slice until the budget, of which `done`
    /// iterations were spent already, is used up, the stop flag is raised
    /// or the position is solved; `present` makes of each report what
    /// progress shows, and progress may stop the search (`Break`). Returns
    /// the last report (iterations and time are totals of the whole
    /// search) and whether it was stopped.
    pub fn run(
        &self,
        searcher: &mut Searcher<Position>,
        done: u64,
        progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
        present: &dyn Fn(Report<Move>) -> Report<Move>,
    ) -> (Report<Move>, bool) {
        let (budget, slice, start) = (self.budget, self.slice, self.start);
        let mut total = done;
        let mut slice_iterations = FIRST_SLICE_ITERATIONS;
        // How late a timed slice has ended past its own limit (threads not
        // scheduled on a busy machine): later slices end that much earlier,
        // so that the whole search keeps its deadline.
        let mut lag = Duration::ZERO;
        // A node limit alone would never end a search whose tree cannot
        // grow any more (every line played to its end, or the tree at its
        // cap): such a search ends after a slice that added no node.
        let nodes_only =
            budget.nodes.is_some() && budget.time.is_none() && budget.iterations.is_none();
        let mut nodes_before = searcher.nodes() as u64;
        loop {
            let mut limits = Budget::UNLIMITED;
            limits.time = Some(match budget.time {
                Some(t) => t.saturating_sub(start.elapsed() + lag).min(slice),
                None => slice,
            });
            if let Some(n) = budget.iterations {
                limits.iterations = Some(n.saturating_sub(total).min(slice_iterations));
                limits.time = budget.time.map(|t| t.saturating_sub(start.elapsed()));
            }
            limits.nodes = budget.nodes;
            let slice_start = Instant::now();
            let mut report = searcher.search_until(&limits, self.stop);
            if let (Some(target), None) = (limits.time, budget.iterations) {
                lag = lag.max(slice_start.elapsed().saturating_sub(target));
            }
            total += report.iterations;
            if budget.iterations.is_some() {
                // Size the next slice to last about one slice.
                let secs = slice_start.elapsed().as_secs_f64().max(1e-4);
                let rate = report.iterations as f64 / secs;
                slice_iterations = ((rate * slice.as_secs_f64()) as u64).clamp(256, 1 << 24);
            }
            let ran = report.iterations;
            let elapsed = start.elapsed();
            report.iterations = total;
            report.seconds = elapsed.as_secs_f64();
            if self.stop.load(Ordering::SeqCst) {
                return (report, true);
            }
            let fraction = budget.fraction(elapsed, total, report.nodes);
            let grew = report.nodes > nodes_before;
            nodes_before = report.nodes;
            if report.proven.is_some() || ran == 0 || fraction >= 1.0 || (nodes_only && !grew) {
                return (report, false);
            }
            if self.early_stop && settled(&report, budget.time, elapsed) {
                return (report, false);
            }
            if self.reported.get().elapsed().saturating_add(slice / 2) < self.report_every {
                continue;
            }
            self.reported.set(Instant::now());
            // The speed of the search so far, not of its last slice.
            report.iterations_per_second = total as f64 / elapsed.as_secs_f64().max(1e-9);
            let flow = progress(&Progress {
                elapsed,
                fraction,
                report: &present(report.clone()),
            });
            if flow.is_break() {
                // Whoever listened is gone: the search stops as if told to.
                self.stop.store(true, Ordering::SeqCst);
                return (report, true);
            }
        }
    }
}

/// Whether the move to play can no longer change within `limit`: the
/// most visited root move, which is the one to play, leads every other by
/// more visits than the rest of the time gives at the speed so far. (A
/// proven move to play ends the search anyway.)
fn settled(report: &Report<Move>, limit: Option<Duration>, elapsed: Duration) -> bool {
    let (Some(limit), [first, rest @ ..]) = (limit, report.top.as_slice()) else {
        return false;
    };
    if report.best != Some(first.mv) || elapsed.is_zero() {
        return false;
    }
    let second = rest.iter().map(|m| m.visits).max().unwrap_or(0);
    let rate = report.iterations as f64 / elapsed.as_secs_f64();
    let still = limit.saturating_sub(elapsed).as_secs_f64() * rate;
    first.visits.saturating_sub(second) as f64 > still
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_move;
    use crate::search::MoveStats;

    /// A report of `iterations` with root moves of these visits, the
    /// first the move to play.
    fn report(iterations: u64, visits: &[u64]) -> Report<Move> {
        let moves = ["L T0 000", "T T0 330", "O T0 660"];
        let top: Vec<MoveStats<Move>> = visits
            .iter()
            .zip(moves)
            .map(|(&v, m)| MoveStats {
                mv: parse_move(m).unwrap(),
                visits: v,
                winrate: 0.5,
                proven: None,
                pv: Vec::new(),
            })
            .collect();
        Report {
            best: top.first().map(|m| m.mv),
            winrate: 0.5,
            proven: None,
            iterations,
            nodes: iterations,
            seconds: 0.0,
            iterations_per_second: 0.0,
            pv: Vec::new(),
            top,
            threads: 1,
        }
    }

    #[test]
    fn a_move_is_settled_when_the_time_left_cannot_change_it() {
        let ms = Duration::from_millis;
        let limit = Some(ms(100));
        // 10,000 iterations in 60 ms: about 6,667 more to come.
        assert!(settled(&report(10_000, &[9_000, 800, 200]), limit, ms(60)));
        assert!(!settled(
            &report(10_000, &[6_000, 3_000, 1_000]),
            limit,
            ms(60)
        ));
        assert!(!settled(&report(10_000, &[9_000, 800, 200]), limit, ms(40)));
        // Later on, less can change.
        assert!(settled(
            &report(18_000, &[12_000, 5_000, 1_000]),
            limit,
            ms(90)
        ));
        // Unvisited moves may still come up: one visited move is not
        // settled early on. Without a time limit nothing is.
        assert!(!settled(&report(100, &[100]), limit, ms(1)));
        assert!(settled(&report(100, &[100]), limit, ms(99)));
        assert!(!settled(&report(10_000, &[9_000, 800]), None, ms(50)));
        // When the move to play is not the most visited (a proven one),
        // the search goes on.
        let mut r = report(10_000, &[9_000, 800]);
        r.best = Some(r.top[1].mv);
        assert!(!settled(&r, limit, ms(50)));
    }
}
