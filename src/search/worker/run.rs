//! The loop that grows a tree on one thread ([`Worker::run`]), and the
//! steps it shares with the threads that grow one tree together
//! (`shared.rs`).

use std::sync::atomic::Ordering;

use super::expand::Plan;
use super::{Deferred, Expansion, Leaf, MAX_ROOT_VISITS, Worker};
use crate::search::game::Game;
use crate::search::limits::{CHECK_INTERVAL, Stopper};
use crate::search::outcome::Reward;
use crate::search::tree::ROOT;
use crate::search::walk::Walk;

impl<G: Game> Worker<G> {
    /// Whether the tree may grow on: below `max_nodes` nodes and the
    /// root's visit limit, and not solved.
    pub(super) fn open(&self, max_nodes: u64) -> bool {
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

    /// One iteration: descend, expand at most one node, play out, back up;
    /// an exact search on the way gives up when `stop` says so.
    pub fn iterate(&mut self, walk: &mut Walk<G>, root: &G, stop: &dyn Fn() -> bool) {
        let leaf = self.descend(walk, root, false);
        self.note_path(walk);
        let outcome = match leaf {
            Leaf::Ended(o) => Reward::plain(o),
            Leaf::Open(mut game) => walk.playout(&mut game),
            Leaf::Expand(_) | Leaf::Busy => unreachable!("only a deferred descent stops"),
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
    pub(super) fn add_virtual_loss(&mut self, walk: &mut Walk<G>) {
        for j in walk.virtual_losses..walk.path.len() {
            self.tree.node_mut(walk.path[j]).visits += 1;
            self.update_key(walk, j);
        }
        walk.virtual_losses = walk.path.len();
    }

    /// Takes back the virtual loss of a descent that stopped at a node
    /// another lane is expanding ([`Leaf::Busy`]).
    pub(super) fn remove_virtual_loss(&mut self, walk: &mut Walk<G>) {
        for j in 0..walk.virtual_losses {
            self.tree.node_mut(walk.path[j]).visits -= 1;
            self.update_key(walk, j);
        }
        walk.virtual_losses = 0;
    }

    /// Carries out the expansion a deferred descent planned, unless another
    /// thread has changed the node since (then the descent chooses again
    /// from it), and descends on (deferring again) where the expansion
    /// added no child to play out from.
    pub(super) fn resume(
        &mut self,
        walk: &mut Walk<G>,
        deferred: Deferred<G>,
        plan: Plan<G>,
    ) -> Leaf<G> {
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
    pub(super) fn resolve(&self, walk: &mut Walk<G>) {
        for j in 1..walk.path.len() {
            walk.path[j] = self.tree.node(walk.path[j - 1]).first + u32::from(walk.slots[j]);
        }
    }
}

/// A node limit as a tree size.
pub(super) fn cap(max_nodes: u64) -> usize {
    usize::try_from(max_nodes).unwrap_or(usize::MAX)
}
