//! The engine itself: a configuration and the search tree of the game it
//! follows (kept from move to move), searching one position at a time
//! within a [`Budget`]. Front ends never call it directly: the
//! [`super::EngineHandle`] owns it, runs it on its own thread and stops it.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::budget::Budget;
use super::config::EngineConfig;
use super::levels;
use super::sliced::Sliced;
use super::swindle;
use crate::game::{Move, Position};
use crate::search::{DEFAULT_NODE_CAP, Proven, Report, Searcher};

/// How often a search reports progress unless asked otherwise: often
/// enough for a lively display and a prompt reaction to a stop.
pub const DEFAULT_REPORT_EVERY: Duration = Duration::from_millis(100);

/// The shortest slice of a search that may stop early ([`Plan::early_stop`]).
const MIN_SETTLE_SLICE: Duration = Duration::from_millis(2);

/// Iterations of the short search that answers when a move's search is
/// stopped before its first iteration (a millisecond or two).
const BLIND_ANSWER_ITERATIONS: u64 = 500;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Purpose {
    /// A move to play: on a clock it may stop once its move is settled, a
    /// position proven lost or drawn is searched on for the best try
    /// (`swindle`), and a search stopped before it began still names a
    /// searched move.
    #[default]
    Move,
    /// The engine's view of a position: the search as it stands when the
    /// budget ends or it is stopped.
    Analysis,
}

/// One search, its limits settled: what [`Engine::think`] is asked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The position.
    pub pos: Position,
    /// Its limits.
    pub budget: Budget,
    /// With a time limit: stop as soon as the move to play can no longer
    /// change, that is when the most visited move leads every other by more
    /// visits than the rest of the time can give (searches on a game
    /// clock, whose time saved is spent later).
    pub early_stop: bool,
    /// What it is for.
    pub purpose: Purpose,
    /// How often progress is reported.
    pub report_every: Duration,
    /// Root moves the report lists.
    pub top_moves: usize,
}

/// What a listener is told after each slice of a search but the last.
#[derive(Debug)]
#[non_exhaustive]
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
#[non_exhaustive]
pub struct Thought {
    /// The report of the whole search (iterations and time are totals).
    pub report: Report<Move>,
    /// Whether the search was stopped before its budget ended.
    pub interrupted: bool,
}

/// The engine: a configuration and the search tree of the game it follows.
pub struct Engine {
    config: EngineConfig,
    searcher: Option<Searcher<Position>>,
    /// The most nodes a tree may hold (set by a memory budget).
    node_cap: usize,
    /// The exact search that checks a drawn position's move keeps the
    /// draw, kept from move to move: its table, allocated afresh for each
    /// move, took up to 200 ms of a 1 s move on a busy machine.
    draw_checks: super::endgame::Endgame,
}

impl Engine {
    /// An engine with this configuration (its threads and seed: 1 and 0
    /// where it leaves them open).
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            node_cap: config.search.node_cap,
            config,
            searcher: None,
            draw_checks: super::endgame::Endgame::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Changes the configuration; the tree is dropped unless only the
    /// limits changed.
    pub fn set_config(&mut self, config: EngineConfig) {
        let same_search = EngineConfig {
            budget: self.config.budget,
            name: self.config.name.clone(),
            ..config.clone()
        } == self.config;
        if !same_search {
            self.searcher = None;
        }
        self.config = config;
    }

    /// Threads searching the tree together.
    pub fn threads(&self) -> usize {
        threads_of(&self.config)
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.config.seed.unwrap_or(0)
    }

    /// Drops the tree: the next search starts from scratch.
    pub fn forget(&mut self) {
        self.searcher = None;
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.searcher.as_ref().map_or(0, |s| s.nodes())
    }

    /// Bytes the tree and its searcher hold.
    pub fn tree_bytes(&self) -> usize {
        self.searcher.as_ref().map_or(0, |s| s.memory())
    }

    /// Bytes a search holds beside its tree, whatever its size: each
    /// thread's exact endgame table, and the draw checks' table.
    pub fn fixed_bytes(&self) -> usize {
        let search = &self.config.search;
        let tables = if search.solver && search.endgame {
            self.threads()
        } else {
            0
        } + usize::from(self.config.swindle);
        tables * super::endgame::TABLE_BYTES
    }

    /// The most nodes the tree may hold from the next search on.
    pub fn set_node_cap(&mut self, nodes: usize) {
        self.node_cap = nodes.clamp(1, DEFAULT_NODE_CAP);
        if let Some(s) = &mut self.searcher {
            s.set_node_cap(self.node_cap);
        }
    }

    /// The searcher at `pos`: the tree is kept when `pos` continues the
    /// game it was grown for (and the configuration reuses trees),
    /// dropped otherwise.
    fn searcher_at(&mut self, pos: &Position, top_moves: usize) -> &mut Searcher<Position> {
        let reuse = self.config.reuse;
        let node_cap = self.node_cap;
        let (threads, seed) = (self.threads(), self.seed());
        let s = self.searcher.get_or_insert_with(|| {
            let mut config = self.config.search.clone();
            config.threads = threads;
            config.seed = seed;
            config.node_cap = node_cap;
            Searcher::with_playout(*pos, config, self.config.playout)
        });
        s.set_top_moves(top_moves.max(1));
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

    /// Searches the plan's position within its budget for its purpose,
    /// reporting progress to `progress` about every `report_every` (after
    /// each slice but the last; `Break` stops the search). Stops early
    /// when `stop` is raised or the position is solved. With a finished
    /// game the report has no move.
    ///
    /// For a move, a position proven lost or drawn is searched on, with the
    /// `swindle` key, for the move that gives the opponent the most chances
    /// to go wrong (among those that keep a draw): see [`super::swindle`].
    /// Whatever the purpose, a proven loss never leaves the opponent a win
    /// in one where a placement avoids it.
    pub(crate) fn think(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
    ) -> Thought {
        let Plan {
            pos,
            budget,
            early_stop,
            purpose,
            report_every,
            top_moves,
        } = *plan;
        let pos = &pos;
        if purpose == Purpose::Move && self.config.fixed_level().is_some_and(|l| l.is_random()) {
            return self.random_move(pos);
        }
        // A choice among the moves searched needs them all in the report.
        let choice = levels::Choice {
            temperature: self.config.temperature,
            randomness: self.config.randomness,
        };
        let choosing =
            purpose == Purpose::Move && (choice.temperature > 0.0 || choice.randomness > 0);
        let listed = if choosing {
            crate::game::MOVE_COUNT
        } else {
            top_moves
        };
        let report_every = report_every.max(Duration::from_millis(1));
        let slice = match budget.time {
            // Short slices, to see soon when the move is settled.
            Some(t) if early_stop => report_every.min((t / 10).max(MIN_SETTLE_SLICE)),
            _ => report_every,
        };
        // The clock starts before the tree is carried over to `pos`: that
        // copy is part of the move's time.
        let start = Instant::now();
        let (threads, seed) = (self.threads(), self.seed());
        let playout = self.config.playout;
        let swindle_on = self.config.swindle && purpose == Purpose::Move;
        let searcher = self.searcher_at(pos, listed);
        let sliced = Sliced {
            budget,
            early_stop,
            slice,
            report_every,
            reported: std::cell::Cell::new(start),
            stop,
            start,
        };
        let (mut report, mut interrupted) = sliced.run(searcher, 0, progress, &|r| r);
        if purpose == Purpose::Move && blind(&report) && !pos.status().is_over() {
            // No iteration ran (the stop came first, or a node limit the
            // tree already reached): its choice would be the first legal
            // placement, so a short search, deaf to the stop, names a
            // searched one.
            report = searcher.search(&Budget::iterations(BLIND_ANSWER_ITERATIONS));
            report.seconds = start.elapsed().as_secs_f64();
        }
        if swindle_on && !interrupted && swindle::applies(&report, &budget, start) {
            let mut config = swindle::search_config(&self.config.search);
            config.threads = threads;
            config.seed = swindle::seed(seed, pos);
            // A tree of at most 2^20 nodes: a proven position needs no
            // more to rank its tries, and a bigger one only costs memory
            // (and time to grow its arena).
            config.node_cap = self.node_cap.min(swindle::MAX_NODES);
            config.top_moves = top_moves.max(1);
            let mut searcher = Searcher::with_playout(*pos, config, playout);
            let first = report.clone();
            let second_sliced = Sliced {
                budget: swindle::second_budget(budget, &first),
                ..sliced
            };
            let (mut second, stopped) =
                second_sliced.run(&mut searcher, first.iterations, progress, &|r| {
                    swindle::present(r, &first)
                });
            if first.proven == Some(Proven::Loss) {
                // The try is chosen among every move, with its statistics.
                second = with_every_move(&mut searcher, &second);
            }
            let deadline = budget
                .time
                .and_then(|t| start.checked_add(swindle::checks_end(t)));
            let out_of_time =
                || stop.load(Ordering::SeqCst) || deadline.is_some_and(|d| Instant::now() >= d);
            report = swindle::conclude(pos, first, second, &mut self.draw_checks, &out_of_time);
            interrupted = stopped;
        } else if report.proven == Some(Proven::Loss) {
            // Lost against best play: never let the opponent win at once
            // where a placement avoids it (a swindle search does this too),
            // choosing among every move with its statistics.
            let searcher = self.searcher.as_mut().expect("searched");
            report = swindle::avoid_loss_in_one(pos, with_every_move(searcher, &report));
        }
        if choosing {
            let mut rng = levels::choice_rng(seed, pos);
            if let Some(mv) = levels::choose(&report, pos, choice, &mut rng) {
                report = levels::with_move(report, mv);
            }
        }
        report.top.truncate(top_moves.max(1));
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
}

impl Engine {
    /// The random reference's move ([`levels::random_move`]), searched by
    /// no one.
    fn random_move(&self, pos: &Position) -> Thought {
        let best = levels::random_move(pos, self.seed());
        Thought {
            report: Report {
                best,
                winrate: 0.5,
                proven: None,
                iterations: 0,
                nodes: 0,
                seconds: 0.0,
                iterations_per_second: 0.0,
                pv: best.into_iter().collect(),
                top: Vec::new(),
                threads: 1,
            },
            interrupted: false,
        }
    }
}

/// `report` (made by `searcher`) with every root move listed.
fn with_every_move(searcher: &mut Searcher<Position>, report: &Report<Move>) -> Report<Move> {
    let keep = searcher.config().top_moves;
    searcher.set_top_moves(crate::game::MOVE_COUNT);
    let all = searcher.search(&Budget::iterations(0));
    searcher.set_top_moves(keep);
    Report {
        top: all.top,
        ..report.clone()
    }
}

/// Whether a report says nothing a move could be chosen by: no iteration
/// run, no proof, no visit kept from an earlier search.
fn blind(report: &Report<Move>) -> bool {
    report.iterations == 0 && report.proven.is_none() && report.top.iter().all(|s| s.visits == 0)
}

/// The threads of a search configured as `config`: 1 where it sets none,
/// and at most [`super::MAX_THREADS`], whatever its public field says.
pub(crate) fn threads_of(config: &EngineConfig) -> usize {
    config.threads.unwrap_or(1).clamp(1, super::MAX_THREADS)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::search::MoveStats;

    /// Searches `pos` once with `config`, as a move, until `budget`.
    pub fn think(config: &str, pos: &Position, budget: Budget) -> Thought {
        let mut engine = Engine::new(EngineConfig::parse(config).unwrap());
        let stop = Arc::new(AtomicBool::new(false));
        engine.think(
            &Plan {
                pos: *pos,
                budget,
                early_stop: false,
                purpose: Purpose::Move,
                report_every: DEFAULT_REPORT_EVERY,
                top_moves: 10,
            },
            &stop,
            &mut |_| ControlFlow::Continue(()),
        )
    }

    #[test]
    fn a_search_stopped_before_it_starts_still_names_a_searched_move() {
        let mut engine = Engine::new(EngineConfig::parse("seed=1").unwrap());
        let stop = Arc::new(AtomicBool::new(true));
        let budget = Budget::time(Duration::from_secs(60));
        let t = engine.think(
            &Plan {
                pos: Position::default(),
                budget,
                early_stop: false,
                purpose: Purpose::Move,
                report_every: DEFAULT_REPORT_EVERY,
                top_moves: 10,
            },
            &stop,
            &mut |_| ControlFlow::Continue(()),
        );
        assert!(t.interrupted);
        let r = &t.report;
        assert!(r.iterations > 0 && !blind(r), "{r:?}");
        assert_eq!(r.best, r.top.first().map(|m| m.mv));
        assert!(r.top[0].visits > 0);
        // The stop stays raised for whoever raised it.
        assert!(stop.load(Ordering::SeqCst));
        let zero = |visits: u64| MoveStats {
            mv: r.top[0].mv,
            visits,
            winrate: 0.5,
            proven: None,
            pv: Vec::new(),
        };
        let mut b = r.clone();
        (b.iterations, b.proven, b.top) = (0, None, vec![zero(0), zero(0)]);
        assert!(blind(&b));
        b.top[0].visits = 3;
        assert!(!blind(&b), "visits kept from before");
    }

    #[test]
    fn a_listener_that_breaks_stops_the_search() {
        let mut engine = Engine::new(EngineConfig::default());
        let stop = Arc::new(AtomicBool::new(false));
        let mut calls = 0;
        let t = engine.think(
            &Plan {
                pos: Position::default(),
                budget: Budget::time(Duration::from_secs(60)),
                early_stop: false,
                purpose: Purpose::Analysis,
                report_every: Duration::from_millis(5),
                top_moves: 10,
            },
            &stop,
            &mut |_| {
                calls += 1;
                if calls == 2 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert!(t.interrupted && calls == 2);
        assert!(t.report.seconds < 5.0, "{}", t.report.seconds);
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
            pos.play_unchecked(p);
        }
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let budget = Budget::nodes(500);
            let _ = done.send(think("baseline,seed=1", &pos, budget));
        });
        let t = ended
            .recv_timeout(Duration::from_secs(60))
            .expect("the search ends");
        assert!(!t.interrupted && t.report.best.is_some());
        assert!(t.report.nodes < 500, "{}", t.report.nodes);
    }
}
