//! Several threads growing one tree behind a lock ([`Worker::run_shared`]).
//!
//! Each thread runs [`LANES`] iterations at a time, one per lane (a
//! [`Walk`] of its own). At each turn with the lock it backs up what its
//! lanes brought back and descends once in each idle lane; then, without
//! the lock, it plans their expansions (`expand.rs`), plays them out and
//! runs the exact searches they asked for. Meanwhile a virtual loss on
//! each path steers the other descents elsewhere, and a node being
//! expanded is left to the lane expanding it.
//!
//! Most of the locked work is reading the nodes near the root, which the
//! other thread wrote a moment ago: taking the lock for several iterations
//! at once reads them into this core's cache once for all of them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use super::expand::{Expander, Plan, Planned};
use super::run::cap;
use super::{Deferred, Leaf, Worker};
use crate::search::game::Game;
use crate::search::limits::{CHECK_INTERVAL, Stopper};
use crate::search::outcome::Reward;
use crate::search::walk::{Proved, Walk};

/// Iterations each thread of a shared tree runs at a time: its walks.
/// Measured from the empty board with 2 threads against 1 (same sitting,
/// 2026-11-28): 1 lane 1.41x, 2 lanes 1.48x, 4 lanes 1.57x, 8 lanes 1.57x.
pub(crate) const LANES: usize = 4;

/// Iterations that need no playout a thread runs in one turn with the
/// lock before it lets a waiting thread in.
const HOLD_ENDED: u32 = 4;

/// How long [`Shared::let_in`] waits at most, in spin-loop hints: some
/// microseconds, far beyond the time a spinning thread takes to see the
/// lock free.
const LET_IN_SPINS: u32 = 1000;

/// A tree that several threads grow, behind one lock.
pub(crate) struct Shared<'a, G: Game> {
    worker: Mutex<&'a mut Worker<G>>,
    /// Threads spinning for the lock.
    waiting: AtomicUsize,
}

type Guard<'s, 'a, G> = MutexGuard<'s, &'a mut Worker<G>>;

impl<'a, G: Game> Shared<'a, G> {
    /// The tree behind a lock for one search.
    pub fn new(worker: &'a mut Worker<G>) -> Self {
        worker.started = 0;
        Shared {
            worker: Mutex::new(worker),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Takes the lock. It is held for some microseconds at a time:
    /// spinning costs less than sleeping and being woken.
    fn lock(&self) -> Guard<'_, 'a, G> {
        let mut counted = false;
        let w = loop {
            match self.worker.try_lock() {
                Ok(w) => break w,
                Err(TryLockError::WouldBlock) => {
                    if !counted {
                        self.waiting.fetch_add(1, Ordering::Relaxed);
                        counted = true;
                    }
                    std::hint::spin_loop();
                }
                Err(TryLockError::Poisoned(_)) => panic!("a search thread panicked"),
            }
        };
        if counted {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
        }
        w
    }

    /// Lets go of the lock, which `waiting` threads were waiting for, and
    /// takes it again once one of them has had it: taking it again at once
    /// would shut them out. With none waiting, waits a (short) while.
    fn let_in(&self, w: Guard<'_, 'a, G>) -> Guard<'_, 'a, G> {
        let before = self.waiting.load(Ordering::Relaxed);
        drop(w);
        for _ in 0..LET_IN_SPINS {
            if self.waiting.load(Ordering::Relaxed) < before {
                break;
            }
            std::hint::spin_loop();
        }
        self.lock()
    }
}

/// What a lane does between its thread's turns with the lock.
enum Lane<G: Game> {
    /// Nothing in flight: it descends at the next turn.
    Idle,
    /// Nothing in flight: its descent stopped at a node another lane is
    /// expanding ([`Leaf::Busy`]), and it descends again at the next turn.
    Waiting,
    /// Its descent stopped at a node to expand: the expansion is planned
    /// (and its new leaf played out) without the lock.
    Plan(Deferred<G>),
    /// Its descent reached a leaf to play out, or an ended game with an
    /// exact search to run.
    Play(Leaf<G>),
    /// It planned an expansion that adds no leaf to play out: carried out
    /// at the next turn, which descends on from the node.
    Resume(Deferred<G>, Plan<G>),
    /// Played out: backed up at the next turn.
    Done(Pending<G>),
}

/// An iteration a lane finishes at its thread's next turn with the lock.
struct Pending<G: Game> {
    reward: Reward,
    proved: Option<Proved<G>>,
    /// The expansion to carry out first, whose new leaf was played out.
    planned: Option<Planned<G>>,
}

/// A thread's count of its iterations.
struct Count {
    /// Iterations backed up.
    done: u64,
    /// Lanes not idle: iterations that will be backed up.
    in_flight: u64,
}

impl<G: Game> Worker<G> {
    /// [`Worker::run`] for one of several threads growing the tree behind
    /// `shared`, with `lanes` walks (see the module's text), until the
    /// threads together have run `max_iterations`. Returns the number of
    /// iterations this thread ran.
    pub fn run_shared(
        shared: &Shared<'_, G>,
        lanes: &mut [Walk<G>],
        root: &G,
        max_iterations: u64,
        max_nodes: u64,
        stop: &Stopper,
    ) -> u64 {
        // Once per search, not per iteration.
        let mut states: Vec<Lane<G>> = lanes.iter().map(|_| Lane::Idle).collect();
        let mut count = Count {
            done: 0,
            in_flight: 0,
        };
        let mut next_check = 0;
        let mut stopping = false;
        let mut w = shared.lock();
        w.grow_cap = w.node_cap.min(cap(max_nodes));
        loop {
            for (walk, state) in lanes.iter_mut().zip(states.iter_mut()) {
                w.bring_back(walk, state, &mut count);
            }
            // A descent in each idle lane, unless the search is over.
            let mut held = 0;
            let mut blocked = false;
            'lanes: for (walk, state) in lanes.iter_mut().zip(states.iter_mut()) {
                while matches!(state, Lane::Idle) {
                    if !stopping && count.done >= next_check {
                        next_check = count.done + CHECK_INTERVAL;
                        stopping = stop.should_stop();
                    }
                    stopping = stopping || !w.open(max_nodes);
                    // Not for good: a lane of this thread may yet give
                    // back an iteration begun (`bring_back`).
                    if stopping || w.started >= max_iterations {
                        break 'lanes;
                    }
                    let leaf = w.descend(walk, root, true);
                    *state = w.lay(walk, leaf);
                    match state {
                        Lane::Idle => w.started += 1,
                        Lane::Waiting => {
                            blocked = true;
                            continue 'lanes;
                        }
                        _ => {
                            w.started += 1;
                            count.in_flight += 1;
                            continue;
                        }
                    }
                    count.done += 1;
                    // Such iterations need no playout, so this thread
                    // would hold on to the lock through them: after a
                    // few, a thread waiting to finish its iterations (and
                    // let the others expand the nodes it is expanding)
                    // gets its turn.
                    held += 1;
                    if held >= HOLD_ENDED && shared.waiting.load(Ordering::Relaxed) > 0 {
                        blocked = true;
                        break 'lanes;
                    }
                }
            }
            if count.in_flight == 0 {
                if stopping || w.started >= max_iterations {
                    break;
                }
                if blocked {
                    w = shared.let_in(w);
                }
                continue;
            }
            let expander = w.expander;
            drop(w);
            for (i, state) in states.iter_mut().enumerate() {
                let taken = std::mem::replace(state, Lane::Idle);
                *state = play_lane(lanes, i, taken, &expander, stop);
            }
            w = shared.lock();
        }
        if w.solved() {
            stop.solved.store(true, Ordering::Relaxed);
        }
        count.done
    }

    /// At a turn with the lock: backs up the iteration a lane finished, or
    /// carries out the expansion it planned that added no leaf (and
    /// descends on from there).
    fn bring_back(&mut self, walk: &mut Walk<G>, state: &mut Lane<G>, count: &mut Count) {
        match std::mem::replace(state, Lane::Idle) {
            Lane::Done(p) => {
                // Another thread may have moved the blocks of the path's nodes.
                self.resolve(walk);
                if let Some(planned) = p.planned {
                    self.adopt(walk, planned);
                }
                self.backup(walk, p.reward);
                if let Some(proved) = p.proved {
                    self.settle(walk, proved);
                }
            }
            Lane::Resume(deferred, plan) => {
                self.resolve(walk);
                let leaf = self.resume(walk, deferred, plan);
                *state = self.lay(walk, leaf);
                match state {
                    Lane::Idle => {}
                    Lane::Waiting => {
                        count.in_flight -= 1;
                        self.started -= 1;
                        return;
                    }
                    _ => return,
                }
            }
            Lane::Waiting => return,
            other => {
                *state = other;
                return;
            }
        }
        count.done += 1;
        count.in_flight -= 1;
    }

    /// What a lane does with the leaf its descent reached: an ended game
    /// that asks for no exact search is backed up at once (the lane is
    /// idle again); any other leaf takes a virtual loss on the path and
    /// waits to be planned or played out without the lock.
    fn lay(&mut self, walk: &mut Walk<G>, leaf: Leaf<G>) -> Lane<G> {
        if let Leaf::Busy = leaf {
            self.remove_virtual_loss(walk);
            walk.job = None;
            return Lane::Waiting;
        }
        self.note_path(walk);
        match leaf {
            Leaf::Ended(o) if walk.job.is_none() => {
                walk.learn_replies(o);
                self.backup(walk, Reward::plain(o));
                Lane::Idle
            }
            Leaf::Expand(deferred) => {
                self.add_virtual_loss(walk);
                Lane::Plan(deferred)
            }
            leaf => {
                self.add_virtual_loss(walk);
                Lane::Play(leaf)
            }
        }
    }
}

/// Without the lock: plans lane `i`'s expansion or plays out its leaf, and
/// runs the exact search its descent asked for.
fn play_lane<G: Game>(
    lanes: &mut [Walk<G>],
    i: usize,
    state: Lane<G>,
    expander: &Expander,
    stop: &Stopper,
) -> Lane<G> {
    let walk = &mut lanes[i];
    let (reward, planned) = match state {
        Lane::Plan(deferred) => {
            let plan = deferred.plan(expander, walk.path.len() == 1);
            let Some(id) = plan.leaf_move() else {
                return Lane::Resume(deferred, plan);
            };
            // The usual case: the new leaf is played out at once and joins
            // the tree when the iteration is backed up.
            let Deferred { mut game, node, .. } = deferred;
            let side = game.side_to_move();
            game.play(G::move_from_id(id));
            let ended = game.outcome();
            walk.note_leaf(id, side);
            let reward = match ended {
                Some(o) => Reward::plain(o),
                None => walk.playout(&mut game),
            };
            let planned = Planned {
                node,
                plan,
                side,
                ended,
            };
            (reward, Some(planned))
        }
        Lane::Play(Leaf::Open(mut game)) => (walk.playout(&mut game), None),
        Lane::Play(Leaf::Ended(o)) => (Reward::plain(o), None),
        other => return other,
    };
    // The reply table needs no lock: its updates, which miss the cache,
    // run outside the tree's lock.
    walk.learn_replies(reward.scored);
    Lane::Done(Pending {
        reward,
        proved: solve_lane_job(lanes, i, stop),
        planned,
    })
}

/// Runs the exact search lane `i`'s descent asked for, if any, with the
/// exact search state (the transposition table) of the thread's first
/// lane, which all its lanes share.
fn solve_lane_job<G: Game>(lanes: &mut [Walk<G>], i: usize, stop: &Stopper) -> Option<Proved<G>> {
    let stop = || stop.should_stop();
    if i == 0 || lanes[i].job.is_none() {
        return lanes[i].solve_job(&stop);
    }
    let (first, rest) = lanes.split_at_mut(1);
    let walk = &mut rest[i - 1];
    std::mem::swap(&mut first[0].exact, &mut walk.exact);
    let proved = walk.solve_job(&stop);
    std::mem::swap(&mut first[0].exact, &mut walk.exact);
    proved
}
