//! The one engine every front end drives: it holds a search kept in step
//! with the game (tree reuse), thinks within a [`Budget`] in short slices
//! so that progress can be shown, and can be stopped from another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::budget::Budget;
use super::config::EngineConfig;
use super::swindle;
use crate::game::{Move, Position};
use crate::search::{Limits, Proven, Report, Searcher};

/// How long one slice of a search lasts: short enough for a lively
/// progress display and a prompt reaction to a stop.
pub const DEFAULT_SLICE: Duration = Duration::from_millis(100);

/// Iterations in the first slice of a search with an iteration budget; later
/// slices are sized from the measured speed to last about one slice.
const FIRST_SLICE_ITERATIONS: u64 = 2_000;

/// The shortest slice of a search that may stop early ([`Budget::early_stop`]).
const MIN_SETTLE_SLICE: Duration = Duration::from_millis(2);

/// Iterations of the short search that answers when a search is stopped
/// before its first iteration (a millisecond or two).
const BLIND_ANSWER_ITERATIONS: u64 = 500;

/// What the progress callback is told after each slice but the last.
#[derive(Debug)]
pub struct Progress<'a> {
    /// Time since the search started.
    pub elapsed: Duration,
    /// How far through the budget, 0 to 1 (0 for an unlimited search).
    pub fraction: f64,
    /// The search so far (iterations and seconds are totals of this search).
    pub report: &'a Report<Move>,
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The report of the whole search (iterations and time are totals).
    pub report: Report<Move>,
    /// Whether the search was ended by the stop flag.
    pub interrupted: bool,
}

/// The engine: a configuration, a seed, and the search tree of the game
/// it follows.
pub struct Engine {
    config: EngineConfig,
    threads: usize,
    seed: u64,
    slice: Duration,
    searcher: Option<Searcher<Position>>,
    stop: Arc<AtomicBool>,
}

impl Engine {
    /// An engine with this configuration and seed; threads as the
    /// configuration says (1 when it leaves them open).
    pub fn new(config: EngineConfig, seed: u64) -> Engine {
        Engine {
            threads: config.threads.unwrap_or(1),
            config,
            seed,
            slice: DEFAULT_SLICE,
            searcher: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Changes the configuration (the tree is dropped).
    pub fn set_config(&mut self, config: EngineConfig) {
        self.threads = config.threads.unwrap_or(self.threads);
        self.config = config;
        self.searcher = None;
    }

    /// Threads searching the tree together.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Changes the number of threads (the tree is dropped).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.config.threads = Some(self.threads);
        self.searcher = None;
    }

    /// The base seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Changes the seed (the tree is dropped).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.searcher = None;
    }

    /// Reports list this many root moves (all of them with a large number).
    pub fn set_top_moves(&mut self, n: usize) {
        self.config.search.top_moves = n.max(1);
        if let Some(s) = &mut self.searcher {
            s.set_top_moves(n.max(1));
        }
    }

    /// How often a search reports progress.
    pub fn set_slice(&mut self, slice: Duration) {
        self.slice = slice.max(Duration::from_millis(1));
    }

    /// The budget of the configuration (its `time`, `iterations` and
    /// `nodes` keys).
    pub fn budget(&self) -> Budget {
        Budget {
            time: self.config.time,
            iterations: self.config.iterations,
            nodes: self.config.nodes,
            ..Budget::UNLIMITED
        }
    }

    /// The flag that stops a search: raise it from any thread. The engine
    /// never lowers it; lower it before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Makes `flag` the stop flag (shared with whoever raises it).
    pub fn share_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Drops the tree: the next search starts from scratch.
    pub fn forget(&mut self) {
        self.searcher = None;
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.searcher.as_ref().map_or(0, |s| s.nodes())
    }

    /// The searcher at `pos`: the tree is kept when `pos` continues the
    /// game it was grown for (and the configuration reuses trees),
    /// dropped otherwise.
    fn searcher_at(&mut self, pos: &Position) -> &mut Searcher<Position> {
        let reuse = self.config.reuse;
        let s = self.searcher.get_or_insert_with(|| {
            let mut config = self.config.search.clone();
            config.threads = self.threads;
            config.seed = self.seed;
            Searcher::with_playout(*pos, config, self.config.playout)
        });
        let root = *s.position();
        if root != *pos {
            let (old, new) = (root.moves(), pos.moves());
            let continues =
                root.rules() == pos.rules() && new.len() >= old.len() && new[..old.len()] == *old;
            if reuse && continues {
                for &p in &new[old.len()..] {
                    s.advance(p);
                }
            } else {
                s.set_position(*pos);
            }
        }
        s
    }

    /// Searches `pos` within `budget`, calling `progress` after each slice
    /// but the last. Stops early when the stop flag is raised or the
    /// position is solved. With a finished game the report has no move.
    ///
    /// A position proven lost or drawn is searched on, with the `swindle`
    /// key, for the move that gives the opponent the most chances to go
    /// wrong (among those that keep a draw): see [`super::swindle`].
    pub fn think(
        &mut self,
        pos: &Position,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress),
    ) -> Thought {
        let stop = self.stop.clone();
        let slice = match budget.time {
            // Short slices, to see soon when the move is settled.
            Some(t) if budget.early_stop => self.slice.min((t / 10).max(MIN_SETTLE_SLICE)),
            _ => self.slice,
        };
        // The clock starts before the tree is carried over to `pos`: that
        // copy is part of the move's time.
        let start = Instant::now();
        let searcher = self.searcher_at(pos);
        let sliced = Sliced {
            budget,
            slice,
            stop: &stop,
            start,
        };
        let (mut report, mut interrupted) = sliced.run(searcher, 0, progress, &|r| r);
        if interrupted && blind(&report) && !pos.status().is_over() {
            // Stopped before its first iteration (the stop came first):
            // its choice would be the first legal placement, so a short
            // search, deaf to the stop flag, names a searched one.
            let limits = Limits::none().iterations(BLIND_ANSWER_ITERATIONS);
            report = searcher.search(&limits);
            report.seconds = start.elapsed().as_secs_f64();
        }
        if self.config.swindle && !interrupted && swindle::applies(&report, &budget, start) {
            let mut config = swindle::search_config(&self.config.search);
            config.threads = self.threads;
            config.seed = swindle::seed(self.seed, pos);
            let mut searcher = Searcher::with_playout(*pos, config, self.config.playout);
            let first = report.clone();
            let (second, stopped) = sliced.run(&mut searcher, first.iterations, progress, &|r| {
                swindle::present(r, &first)
            });
            let deadline = budget.time.map(|t| start + t);
            let out_of_time =
                || stop.load(Ordering::SeqCst) || deadline.is_some_and(|d| Instant::now() >= d);
            report = swindle::conclude(pos, first, second, &out_of_time);
            interrupted = stopped;
        }
        if report.proven == Some(Proven::Loss) {
            // Lost against best play: never let the opponent win at once
            // where a placement avoids it (a swindle search did this too).
            report = swindle::avoid_loss_in_one(pos, report);
        }
        report.iterations_per_second = if report.seconds > 0.0 {
            report.iterations as f64 / report.seconds
        } else {
            0.0
        };
        Thought {
            report,
            interrupted,
        }
    }

    /// Chooses a move for `pos` within the configuration's budget (1 s when
    /// it sets none), without progress: how matches and tests use it.
    pub fn choose(&mut self, pos: &Position) -> Report<Move> {
        let budget = self.budget().or(Budget::time(Duration::from_secs(1)));
        self.think(pos, budget, &mut |_| {}).report
    }
}

/// Whether a report says nothing a move could be chosen by: no iteration
/// run, no proof, no visit kept from an earlier search.
fn blind(report: &Report<Move>) -> bool {
    report.iterations == 0 && report.proven.is_none() && report.top.iter().all(|s| s.visits == 0)
}

/// One search's limits, cut into slices.
struct Sliced<'a> {
    budget: Budget,
    slice: Duration,
    stop: &'a Arc<AtomicBool>,
    /// When the search (all its phases) began.
    start: Instant,
}

impl Sliced<'_> {
    /// Runs `searcher` slice by slice until the budget, of which `done`
    /// iterations were spent already, is used up, the stop flag is raised
    /// or the position is solved; `present` makes of each report what
    /// progress shows. Returns the last report (iterations and time are
    /// totals of the whole search) and whether it was stopped.
    fn run(
        &self,
        searcher: &mut Searcher<Position>,
        done: u64,
        progress: &mut dyn FnMut(&Progress),
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
            let mut limits = Limits::none().stop_flag(self.stop.clone());
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
            let mut report = searcher.search(&limits);
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
            if budget.early_stop && settled(&report, budget.time, elapsed) {
                return (report, false);
            }
            progress(&Progress {
                elapsed,
                fraction,
                report: &present(report.clone()),
            });
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

    #[test]
    fn a_search_stopped_before_it_starts_still_names_a_searched_move() {
        let mut engine = Engine::new(EngineConfig::default(), 1);
        engine.stop_flag().store(true, Ordering::SeqCst);
        let budget = Budget::time(Duration::from_secs(60));
        let t = engine.think(&Position::default(), budget, &mut |_| {});
        assert!(t.interrupted);
        let r = &t.report;
        assert!(r.iterations > 0 && !blind(r), "{r:?}");
        assert_eq!(r.best, r.top.first().map(|m| m.mv));
        assert!(r.top[0].visits > 0);
        // The stop flag stays raised for whoever raised it.
        assert!(engine.stop_flag().load(Ordering::SeqCst));
        assert!(blind(&report(0, &[0, 0])));
        assert!(!blind(&report(0, &[3, 0])), "visits kept from before");
    }

    #[test]
    fn a_node_limit_the_tree_cannot_reach_still_ends_the_search() {
        // Two placements before the end of a drawn game: the whole tree has
        // a few dozen nodes, and the baseline (no solver) never proves the
        // root, so only the tree's end can stop a search of 500 nodes.
        let game =
            crate::game::record::parse_game(include_str!("../../games/selfplay-draw.caminos"))
                .unwrap();
        let all = game.placements();
        let mut pos = Position::new();
        for &p in &all[..all.len() - 2] {
            pos.play(p);
        }
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let config = EngineConfig::parse("baseline").unwrap();
            let mut engine = Engine::new(config, 1);
            let budget = Budget {
                nodes: Some(500),
                ..Budget::UNLIMITED
            };
            let _ = done.send(engine.think(&pos, budget, &mut |_| {}));
        });
        let t = ended
            .recv_timeout(Duration::from_secs(60))
            .expect("the search ends");
        assert!(!t.interrupted && t.report.best.is_some());
        assert!(t.report.nodes < 500, "{}", t.report.nodes);
    }
}
