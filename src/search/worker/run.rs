//! The loops that grow a tree: one thread alone ([`Worker::run`]), or
//! several sharing it behind a lock ([`Worker::run_shared`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use super::expand::{Plan, Planned};
use super::{Deferred, Expansion, Leaf, MAX_ROOT_VISITS, Worker};
use crate::search::game::Game;
use crate::search::limits::{CHECK_INTERVAL, Stopper};
use crate::search::outcome::Reward;
use crate::search::tree::ROOT;
use crate::search::walk::{Proved, Walk};

impl<G: Game> Worker<G> {
    /// Whether the tree may grow on: below `max_nodes` nodes and the
    /// root's visit limit, and not solved.
    fn open(&self, max_nodes: u64) -> bool {
        (self.tree.count() as u64) < max_nodes
            && self.tree.node(ROOT).visits < MAX_ROOT_VISITS
            && !self.solved()
    }

    /// Runs iterations from `root` until this tree's shares of the limits
    /// are used up, the stopper says stop, or the root is solved. Returns the
    /// number of iterations run.
    pub fn run(
        &mut self,
        walk: &mut Walk<G>,
        root: &G,
        max_iterations: u64,
        max_nodes: u64,
        stop: &Stopper,
    ) -> u64 {
        self.grow_cap = self.node_cap.min(cap(max_nodes));
        let mut done = 0;
        while done < max_iterations && self.open(max_nodes) {
            if done % CHECK_INTERVAL == 0 && stop.should_stop() {
                break;
            }
            self.iterate(walk, root, &|| stop.should_stop());
            done += 1;
        }
        if self.solved() {
            stop.solved.store(true, Ordering::Relaxed);
        }
        done
    }

    /// [`Worker::run`] for one of several threads growing the tree behind
    /// `shared`: the lock is held for the descent and the backup, not to
    /// plan an expansion (`expand.rs`), play out or run the exact search
    /// the descent asked for; meanwhile a virtual loss on the path steers
    /// the other threads elsewhere, and the node being expanded is left to
    /// this thread. The new leaf is played out before it joins the tree,
    /// which it does with the backup, so that an iteration takes the lock
    /// once. Returns the number of iterations this thread ran.
    pub fn run_shared(
        shared: &Shared<'_, G>,
        walk: &mut Walk<G>,
        root: &G,
        max_iterations: u64,
        max_nodes: u64,
        stop: &Stopper,
    ) -> u64 {
        let lock = || shared.lock();
        let mut done = 0;
        // This thread's last iteration, finished at its next turn with the
        // lock, together with its next descent: the lock is taken once an
        // iteration.
        let mut pending: Option<Pending<G>> = None;
        // Iterations this thread ran through without letting go of the lock.
        let mut held = 0;
        let mut w = lock();
        w.grow_cap = w.node_cap.min(cap(max_nodes));
        'iterations: loop {
            if let Some(p) = pending.take() {
                // Another thread may have moved the blocks of the path's nodes.
                w.resolve(walk);
                if let Some(planned) = p.planned {
                    w.adopt(walk, planned);
                }
                w.backup(walk, p.reward);
                if let Some(proved) = p.proved {
                    w.settle(walk, proved);
                }
                done += 1;
            }
            if done >= max_iterations
                || (done % CHECK_INTERVAL == 0 && stop.should_stop())
                || !w.open(max_nodes)
            {
                break;
            }
            let mut leaf = w.descend(walk, root, true);
            if matches!(leaf, Leaf::Open(_))
                && walk.path.len() == 1
                && w.tree.node(ROOT).expanding()
            {
                // Another thread is adding the root's first move: a
                // playout from the root itself would count for no root
                // move. Let that thread finish, then descend again.
                let waiting = shared.waiting.load(Ordering::Relaxed);
                drop(w);
                shared.let_in(waiting);
                w = lock();
                continue 'iterations;
            }
            if !matches!(leaf, Leaf::Ended(_)) {
                held = 0;
            }
            while let Leaf::Expand(deferred) = leaf {
                // The expansion's plan is made without the lock, with a
                // virtual loss on the path meanwhile.
                w.add_virtual_loss(walk);
                w.note_path(walk);
                let expander = w.expander;
                drop(w);
                let plan = deferred.plan(&expander, walk.path.len() == 1);
                if let Some(id) = plan.leaf_move() {
                    // The usual case: the new leaf is played out at once
                    // and joins the tree at this thread's next turn.
                    let Deferred { mut game, node, .. } = deferred;
                    let side = game.side_to_move();
                    game.play(G::move_from_id(id));
                    let ended = game.outcome();
                    walk.note_leaf(id, side);
                    let reward = match ended {
                        Some(o) => Reward::plain(o),
                        None => walk.playout(&mut game),
                    };
                    walk.learn_replies(reward.scored);
                    pending = Some(Pending {
                        reward,
                        proved: walk.solve_job(&|| stop.should_stop()),
                        planned: Some(Planned {
                            node,
                            plan,
                            side,
                            ended,
                        }),
                    });
                    w = lock();
                    continue 'iterations;
                }
                w = lock();
                w.resolve(walk);
                leaf = w.resume(walk, deferred, plan);
            }
            w.note_path(walk);
            match leaf {
                Leaf::Ended(o) if walk.job.is_none() => {
                    walk.learn_replies(o);
                    w.backup(walk, Reward::plain(o));
                    done += 1;
                    // Such iterations need no playout, so this thread
                    // would hold on to the lock through them: after a few,
                    // a thread waiting to finish its iteration (and let
                    // the others expand the node it is expanding) gets
                    // its turn.
                    held += 1;
                    let waiting = shared.waiting.load(Ordering::Relaxed);
                    if held >= HOLD_ENDED && waiting > 0 {
                        drop(w);
                        shared.let_in(waiting);
                        w = lock();
                        held = 0;
                    }
                }
                leaf => {
                    w.add_virtual_loss(walk);
                    drop(w);
                    let reward = match leaf {
                        Leaf::Ended(o) => Reward::plain(o),
                        Leaf::Open(mut game) => walk.playout(&mut game),
                        Leaf::Expand(_) => unreachable!("expanded above"),
                    };
                    // The reply table needs no lock: its updates, which
                    // miss the cache, run outside the tree's lock.
                    walk.learn_replies(reward.scored);
                    pending = Some(Pending {
                        reward,
                        proved: walk.solve_job(&|| stop.should_stop()),
                        planned: None,
                    });
                    w = lock();
                }
            }
        }
        if w.solved() {
            stop.solved.store(true, Ordering::Relaxed);
        }
        done
    }

    /// One iteration: descend, expand at most one node, play out, back up;
    /// an exact search on the way gives up when `stop` says so.
    pub fn iterate(&mut self, walk: &mut Walk<G>, root: &G, stop: &dyn Fn() -> bool) {
        let leaf = self.descend(walk, root, false);
        self.note_path(walk);
        let outcome = match leaf {
            Leaf::Ended(o) => Reward::plain(o),
            Leaf::Open(mut game) => walk.playout(&mut game),
            Leaf::Expand(_) => unreachable!("a descent that does not defer expands"),
        };
        walk.learn_replies(outcome.scored);
        let proved = walk.solve_job(stop);
        self.backup(walk, outcome);
        if let Some(p) = proved {
            self.settle(walk, p);
        }
    }

    /// Counts a visit without a reward on every node of the path that has
    /// none yet, until the iteration's result comes back.
    fn add_virtual_loss(&mut self, walk: &mut Walk<G>) {
        for j in walk.virtual_losses..walk.path.len() {
            self.tree.node_mut(walk.path[j]).visits += 1;
            self.update_key(walk, j);
        }
        walk.virtual_losses = walk.path.len();
    }

    /// Carries out the expansion a deferred descent planned, unless another
    /// thread has changed the node since (then the descent chooses again
    /// from it), and descends on (deferring again) where the expansion
    /// added no child to play out from.
    fn resume(&mut self, walk: &mut Walk<G>, deferred: Deferred<G>, plan: Plan<G>) -> Leaf<G> {
        let Deferred {
            mut game,
            salt,
            node: then,
        } = deferred;
        let node = walk.path[walk.path.len() - 1];
        let unchanged = self.still(node, &then);
        if unchanged {
            let side = game.side_to_move();
            match self.carry_out(walk, node, &mut game, side, plan) {
                Expansion::Done(o) => return Leaf::Ended(o),
                Expansion::Open => return self.open_leaf(walk, game),
                Expansion::Exhausted | Expansion::Pruned | Expansion::NextRank => {}
            }
        }
        self.descend_from(walk, game, salt, true)
    }

    /// Finds the path's nodes again from the root by their slots.
    fn resolve(&self, walk: &mut Walk<G>) {
        for j in 1..walk.path.len() {
            walk.path[j] = self.tree.node(walk.path[j - 1]).first + u32::from(walk.slots[j]);
        }
    }
}

/// A tree that several threads grow, behind one lock.
pub(crate) struct Shared<'a, G: Game> {
    worker: Mutex<&'a mut Worker<G>>,
    /// Threads spinning for the lock.
    waiting: AtomicUsize,
}

impl<'a, G: Game> Shared<'a, G> {
    pub fn new(worker: &'a mut Worker<G>) -> Self {
        Shared {
            worker: Mutex::new(worker),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Takes the lock. It is held for about a microsecond at a time:
    /// spinning costs less than sleeping and being woken.
    fn lock(&self) -> MutexGuard<'_, &'a mut Worker<G>> {
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

    /// Called just after letting go of the lock, which `before` threads
    /// were waiting for: waits (briefly) until one of them has taken it,
    /// so that taking it again at once does not shut them out; with none
    /// waiting, waits the whole (short) while.
    fn let_in(&self, before: usize) {
        for _ in 0..LET_IN_SPINS {
            if self.waiting.load(Ordering::Relaxed) < before {
                break;
            }
            std::hint::spin_loop();
        }
    }
}

/// Iterations that need no playout a thread runs in one turn with the
/// lock before it lets a waiting thread in.
const HOLD_ENDED: u32 = 4;

/// How long [`Shared::let_in`] waits at most, in spin-loop hints: some
/// microseconds, far beyond the time a spinning thread takes to see the
/// lock free.
const LET_IN_SPINS: u32 = 1000;

/// An iteration a thread finishes at its next turn with the lock.
struct Pending<G: Game> {
    reward: Reward,
    proved: Option<Proved<G>>,
    /// The expansion to carry out first, whose new leaf was played out.
    planned: Option<Planned<G>>,
}

/// A node limit as a tree size.
fn cap(max_nodes: u64) -> usize {
    usize::try_from(max_nodes).unwrap_or(usize::MAX)
}
