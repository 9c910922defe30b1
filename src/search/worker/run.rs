//! The loops that grow a tree: one thread alone ([`Worker::run`]), or
//! several sharing it behind a lock ([`Worker::run_shared`]).

use std::sync::Mutex;
use std::sync::atomic::Ordering;

use super::{Leaf, MAX_ROOT_VISITS, Worker};
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
        let mut done = 0;
        while done < max_iterations && self.open(max_nodes) {
            if done % CHECK_INTERVAL == 0 && stop.should_stop() {
                break;
            }
            self.iterate(walk, root);
            done += 1;
        }
        if self.solved() {
            stop.solved.store(true, Ordering::Relaxed);
        }
        done
    }

    /// [`Worker::run`] for one of several threads growing the tree behind
    /// `shared`: the lock is held for the descent and the backup, and a
    /// virtual loss on the path while the playout (and the exact search
    /// the descent asked for) runs steers the other threads elsewhere.
    /// Returns the number of iterations this thread ran.
    pub fn run_shared(
        shared: &Mutex<&mut Self>,
        walk: &mut Walk<G>,
        root: &G,
        max_iterations: u64,
        max_nodes: u64,
        stop: &Stopper,
    ) -> u64 {
        // The lock is held for about a microsecond at a time: spinning
        // costs less than sleeping and being woken.
        let lock = || loop {
            match shared.try_lock() {
                Ok(w) => break w,
                Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
                Err(std::sync::TryLockError::Poisoned(_)) => panic!("a search thread panicked"),
            }
        };
        let mut done = 0;
        // The result of this thread's last playout, backed up at its next
        // turn with the lock, together with its next descent.
        let mut pending: Option<(Reward, Option<Proved<G>>)> = None;
        let mut w = lock();
        loop {
            if let Some((o, proved)) = pending.take() {
                // Another thread may have moved the blocks of the path's nodes.
                w.resolve(walk);
                w.backup(walk, o, true);
                if let Some(p) = proved {
                    w.settle(walk, p);
                }
                done += 1;
            }
            if done >= max_iterations
                || (done % CHECK_INTERVAL == 0 && stop.should_stop())
                || !w.open(max_nodes)
            {
                break;
            }
            let leaf = w.descend(walk, root);
            w.note_path(walk);
            match leaf {
                Leaf::Ended(o) if walk.job.is_none() => {
                    walk.learn_replies(o);
                    w.backup(walk, Reward::plain(o), false);
                    done += 1;
                }
                leaf => {
                    w.add_virtual_loss(walk);
                    drop(w);
                    let o = match leaf {
                        Leaf::Ended(o) => Reward::plain(o),
                        Leaf::Open(mut game) => walk.playout(&mut game),
                    };
                    // The reply table needs no lock: its updates, which
                    // miss the cache, run outside the tree's lock.
                    walk.learn_replies(o.scored);
                    pending = Some((o, walk.solve_job()));
                    w = lock();
                }
            }
        }
        if w.solved() {
            stop.solved.store(true, Ordering::Relaxed);
        }
        done
    }

    /// One iteration: descend, expand at most one node, play out, back up.
    pub fn iterate(&mut self, walk: &mut Walk<G>, root: &G) {
        let leaf = self.descend(walk, root);
        self.note_path(walk);
        let outcome = match leaf {
            Leaf::Ended(o) => Reward::plain(o),
            Leaf::Open(mut game) => walk.playout(&mut game),
        };
        walk.learn_replies(outcome.scored);
        let proved = walk.solve_job();
        self.backup(walk, outcome, false);
        if let Some(p) = proved {
            self.settle(walk, p);
        }
    }

    /// Counts a visit without a reward on every node of the path, until
    /// the playout's result comes back.
    fn add_virtual_loss(&mut self, walk: &Walk<G>) {
        for j in 0..walk.path.len() {
            self.tree.node_mut(walk.path[j]).visits += 1;
            self.update_key(walk, j);
        }
    }

    /// Finds the path's nodes again from the root by their slots.
    fn resolve(&self, walk: &mut Walk<G>) {
        for j in 1..walk.path.len() {
            walk.path[j] = self.tree.node(walk.path[j - 1]).first + u32::from(walk.slots[j]);
        }
    }
}
