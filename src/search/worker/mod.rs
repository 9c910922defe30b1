//! One tree and the loop that grows it: select, expand one node, play out,
//! back up. Several threads may grow the same tree (`shared.rs`): each
//! brings its own [`Walk`]s and holds the tree's lock for the descents and
//! the backups only, not to plan an expansion (`expand.rs`), play out or
//! run the exact search.

mod expand;
mod run;
mod shared;

pub(crate) use shared::{LANES, Shared};

use std::marker::PhantomData;

use super::config::SearchConfig;
use super::game::Game;
use super::maxtree::MaxTrees;
use super::order::{MoveOrder, child_salt, mix};
use super::outcome::{Outcome, Reward, Side};
use super::policy::{Tables, Uct};
use super::solver;
use super::tree::{NONE, Node, Proof, ROOT, Tree};
use super::walk::{ExactJob, Proved, Walk};
use expand::Expander;

/// Nodes with at least this many children select through a max-tree
/// instead of a scan.
const ACCEL_MIN_CHILDREN: usize = 32;

/// A tree stops at this many root visits, so that no node's doubled reward
/// sum (at most twice its visits) can overflow a `u32`: about 1.5 hours of
/// Caminos search on one thread.
const MAX_ROOT_VISITS: u32 = u32::MAX / 2;

/// A node asks the game's exact search ([`Game::solve`]) for its value
/// when its visits reach this count, and again at each fourfold count.
const EXACT_VISITS: u32 = 64;

/// Whether a node with `visits` visits is due for an exact search: 64,
/// 256, 1024, ... visits.
#[inline(always)]
fn exact_due(visits: u32) -> bool {
    visits >= EXACT_VISITS && visits.is_power_of_two() && visits.trailing_zeros() % 2 == 0
}

/// The exact search's node budget for a node with `visits` visits: half
/// of them below the root (most calls fail, and must cost little beside
/// the iterations), as many at the root, whose proof ends the search.
#[inline(always)]
fn exact_budget(visits: u32, root: bool) -> u64 {
    if root {
        u64::from(visits)
    } else {
        u64::from(visits) / 2
    }
}

/// A descent that reaches a node another lane is expanding, with at least
/// this many visits, waits for the new child ([`Leaf::Busy`]); below it,
/// it descends into the best child already there, which keeps the threads
/// busy where expansions are frequent. Measured with 2 threads from the
/// empty board (2026-11-28): 1.6x the iterations of one thread, against
/// 1.2x waiting at every such node. `games/must-block-lost.caminos` with
/// the solver off then takes 60,000 to 64,000 iterations to grow 50,000
/// nodes, as with one thread; never waiting, up to 177,000.
const BUSY_VISITS: u32 = 1024;

/// What one expansion step did.
enum Expansion {
    /// A child was added (and pushed on the path); the game ended with this.
    Done(Outcome),
    /// A child was added (and pushed on the path) and its game, played
    /// into it, goes on: a playout follows.
    Open,
    /// The node has no untried legal move left.
    Exhausted,
    /// A root child was added and proven lost at once (it lets the
    /// opponent win in one); nothing to back up: choose again at the root.
    Pruned,
    /// The move order reached its next rank, whose first-play urgency is
    /// lower: nothing was added; choose again at this node.
    NextRank,
}

/// Where a descent ended.
pub(crate) enum Leaf<G> {
    /// In the tree: a proven node, a finished game or a win found.
    Ended(Outcome),
    /// At a new or capped leaf whose game goes on: to be played out.
    Open(G),
    /// At the path's last node, to be expanded (a deferred descent).
    Expand(Deferred<G>),
    /// At a node another lane is expanding (a deferred descent): to
    /// descend again once it has.
    Busy,
}

/// A descent stopped where the path's last node is to be expanded.
pub(crate) struct Deferred<G> {
    /// The node's position and move-order salt.
    game: G,
    salt: u64,
    /// The node as it was when chosen.
    node: Node,
}

/// A search tree and what grows it, shared by the threads that search it.
#[derive(Clone, Debug)]
pub(crate) struct Worker<G: Game> {
    pub tree: Tree,
    accel: MaxTrees,
    tables: Tables,
    uct: Uct,
    solver: bool,
    /// Ask the game's exact search about nodes (see [`exact_due`]).
    exact: bool,
    /// The expansion's configuration, the node's move order among it.
    expander: Expander,
    /// Salt of the root's move order; children's salts are derived from it.
    pub root_salt: u64,
    /// For each root child by slot, the visits and doubled wins (for the
    /// root's side) of this tree's iterations through it counted by their
    /// results alone, before any rescoring: the win rates reported.
    pub root_results: Vec<[u32; 2]>,
    node_cap: usize,
    /// The size the tree may grow to in this search: the node cap, or the
    /// search's node limit if smaller. Checked again when a thread carries
    /// out an expansion it planned without the lock, so that two threads
    /// planning at once never pass the limit together.
    grow_cap: usize,
    /// Iterations begun in the current search by all the threads sharing
    /// the tree (`shared.rs`): descents backed up or in flight. They end
    /// the search together at its iteration limit, so that no thread
    /// idles while another finishes a share of its own.
    started: u64,
    _game: PhantomData<fn(G)>,
}

impl<G: Game> Worker<G> {
    /// An empty tree for `root`; `seed` salts its move order.
    pub fn new(root: &G, config: &SearchConfig, seed: u64, node_cap: usize) -> Self {
        let uct: Uct = config.uct;
        let order = MoveOrder::new(G::MOVE_SPACE, if config.prior { G::RANKS } else { 1 });
        let win_check = config.solver && config.win_check;
        let mut w = Worker {
            tree: Tree::new(0),
            accel: MaxTrees::default(),
            tables: Tables::new(&uct),
            uct,
            solver: config.solver,
            exact: config.solver && config.endgame,
            expander: Expander {
                win_check,
                threats: win_check && config.threats,
                threat_visits: config.threat_visits,
                order,
                fpu_drop: uct.fpu_drop,
            },
            root_salt: mix(seed ^ 0x5EED),
            root_results: Vec::new(),
            node_cap: node_cap.max(1),
            grow_cap: node_cap.max(1),
            started: 0,
            _game: PhantomData,
        };
        w.reset(root, w.root_salt);
        w
    }

    /// Drops the tree and starts over at `root` with the given move-order salt.
    pub fn reset(&mut self, root: &G, salt: u64) {
        self.install(Tree::new(0), root, salt);
    }

    /// Makes `tree` (already rooted at `root`) the current tree.
    pub fn install(&mut self, tree: Tree, root: &G, salt: u64) {
        self.tree = tree;
        self.accel = MaxTrees::default();
        self.root_results.clear();
        self.root_salt = salt;
        if let Some(o) = root.outcome() {
            let mover = 1 - root.side_to_move();
            self.tree.node_mut(ROOT).proof = solver::terminal(o, mover);
        }
    }

    /// Bytes held by the tree and what the search keeps beside it.
    pub fn bytes(&self) -> usize {
        self.tree.bytes() + self.accel.bytes() + self.root_results.capacity() * 8
    }

    /// Sets the most nodes the tree may hold from the next search on.
    pub fn set_node_cap(&mut self, cap: usize) {
        self.node_cap = cap.max(1);
        self.grow_cap = self.node_cap;
    }

    /// Whether the root's value is proven.
    pub fn solved(&self) -> bool {
        self.tree.node(ROOT).proof != Proof::Unknown
    }

    /// Descends from the root by UCT, expanding at most one node, and
    /// leaves the path in `walk`. With `defer`, stops where a node is to be
    /// expanded instead ([`Leaf::Expand`]).
    fn descend(&mut self, walk: &mut Walk<G>, root: &G, defer: bool) -> Leaf<G> {
        walk.start(root.side_to_move());
        self.descend_from(walk, root.clone(), self.root_salt, defer)
    }

    /// [`Worker::descend`] on from the path's last node, whose position is
    /// `game` and move-order salt `salt`.
    fn descend_from(
        &mut self,
        walk: &mut Walk<G>,
        mut game: G,
        mut salt: u64,
        defer: bool,
    ) -> Leaf<G> {
        let mut node = walk.path[walk.path.len() - 1];
        let outcome = loop {
            let n = *self.tree.node(node);
            let depth = walk.path.len() - 1;
            if let Some(o) = solver::outcome(n.proof, walk.movers[depth]) {
                break o;
            }
            // At most one exact search an iteration, run after the descent
            // (outside the lock, when threads share the tree).
            if self.exact && walk.job.is_none() && exact_due(n.visits) {
                walk.job = Some(ExactJob {
                    depth,
                    game: game.clone(),
                    budget: exact_budget(n.visits, node == ROOT),
                });
            }
            if !self.solver {
                if let Some(o) = game.outcome() {
                    break o;
                }
            }
            let side = game.side_to_move();
            let (slot, key) = self.best_child(node, &n);
            let exhausted = u32::from(n.cursor) == self.expander.order.end();
            let can_grow = !exhausted && !n.expanding() && self.tree.count() < self.grow_cap;
            // Below the root, worse ranks wait while the better ones do well.
            // The root tries every move in time: a move the ranks put last
            // can be the one that wins.
            let fpu = if node == ROOT {
                self.uct.fpu
            } else {
                self.uct.fpu
                    - self.expander.order.round(u32::from(n.cursor)) as f32 * self.uct.fpu_drop
            };
            let wants_child = key == f32::NEG_INFINITY || fpu > key;
            if defer
                && wants_child
                && n.expanding()
                && !exhausted
                && (node == ROOT || n.visits >= BUSY_VISITS)
            {
                // Another lane is adding the child this descent would play
                // out from. At the root, a playout from the root itself
                // would count for no root move; at a node this visited,
                // descending into an older child could pour cheap
                // iterations into a line that the new child refutes.
                // Descend again once the child is there.
                return Leaf::Busy;
            }
            if can_grow && wants_child {
                if defer {
                    self.tree.node_mut(node).set_expanding(true);
                    return Leaf::Expand(Deferred {
                        game,
                        salt,
                        node: n,
                    });
                }
                match self.expand(walk, node, salt, &mut game, side) {
                    Expansion::Done(o) => break o,
                    Expansion::Open => return self.open_leaf(walk, game),
                    // Now exhausted (and perhaps proven): choose again.
                    Expansion::Exhausted => continue,
                    // A losing move is not a sample of this node's value:
                    // backing its loss up would credit the opponent with a
                    // mistake best play never makes.
                    Expansion::Pruned => continue,
                    Expansion::NextRank => continue,
                }
            }
            if key == f32::NEG_INFINITY {
                // No child to descend into and no room to grow: a leaf at
                // the node cap. Play out from here.
                return self.open_leaf(walk, game);
            }
            let child = n.first + slot as u32;
            let mv = usize::from(self.tree.node(child).mv);
            if self.solver {
                // A child whose game ended is proven: the descent stops
                // there and never asks this game how it ended.
                game.replay(G::move_from_id(mv));
            } else {
                game.play(G::move_from_id(mv));
            }
            salt = child_salt(salt, mv);
            walk.push(child, slot, side);
            node = child;
        };
        Leaf::Ended(outcome)
    }

    /// A leaf whose game goes on: remembers the move into it, which the
    /// playout's first reply answers.
    fn open_leaf(&self, walk: &mut Walk<G>, game: G) -> Leaf<G> {
        let len = walk.path.len();
        walk.last = (len > 1).then(|| usize::from(self.tree.node(walk.path[len - 1]).mv));
        Leaf::Open(game)
    }

    /// Keeps the max-tree of the parent of the path's node `j` (if any) in
    /// step with that node's statistics.
    #[inline]
    fn update_key(&mut self, walk: &Walk<G>, j: usize) {
        if j == 0 {
            return;
        }
        let i = walk.path[j];
        let parent = *self.tree.node(walk.path[j - 1]);
        if parent.accel != NONE {
            let scale = self.accel.scale(parent.accel);
            let key = self.tables.key(self.tree.node(i), scale);
            self.accel
                .set(parent.accel, (i - parent.first) as usize, key);
        }
    }

    /// Marks `node`'s move `mv` proven to achieve `outcome` (from the exact
    /// search of `node`), adding it as a child if needed. Every node the
    /// exact search proves thus names its move: once the game reaches it
    /// (the tree kept from move to move), that is the move to play, not
    /// the most visited one, which may only draw or lose.
    fn prove_move(&mut self, node: u32, side: Side, outcome: Outcome, mv: G::Move) {
        let id = G::move_id(mv);
        let slot = self
            .tree
            .children(node)
            .iter()
            .position(|c| usize::from(c.mv) == id);
        let child = match slot {
            Some(s) => self.tree.node(node).first + s as u32,
            // The node is proven at once, so its move order never comes
            // to this move again.
            None => self.add_child(node, id),
        };
        self.tree.node_mut(child).proof = solver::terminal(outcome, side);
    }

    /// The best visited child of `node` by UCB: its slot and key (minus
    /// infinity when there is none to choose).
    #[inline]
    fn best_child(&mut self, node: u32, n: &Node) -> (usize, f32) {
        if n.accel == NONE {
            if usize::from(n.len) < ACCEL_MIN_CHILDREN {
                let scale = self.tables.scale(n.visits);
                return self.tables.scan(self.tree.children(node), scale);
            }
            // A wide node of a kept tree, whose max-tree was dropped with
            // the old tree (`Tree::extract`): without one again, every
            // visit would scan all its children.
            self.create_accel(node);
            return self.accel.best(self.tree.node(node).accel);
        }
        if self.accel.stale(n.accel, n.visits) {
            self.rebuild_accel(node);
        }
        self.accel.best(n.accel)
    }

    /// Recomputes all keys of `node`'s max-tree with a fresh scale.
    fn rebuild_accel(&mut self, node: u32) {
        let n = *self.tree.node(node);
        let scale = self.tables.scale(n.visits);
        let children = self.tree.children(node);
        let tables = &self.tables;
        self.accel
            .rebuild(n.accel, scale, n.visits, children.len(), |s| {
                tables.key(&children[s], scale)
            });
    }

    /// Records what the exact search proved about a node of the path,
    /// unless another thread has proven it meanwhile.
    fn settle(&mut self, walk: &Walk<G>, proved: Proved<G>) {
        let Proved {
            depth,
            side,
            outcome,
            mv,
        } = proved;
        let node = walk.path[depth];
        if self.tree.node(node).proof != Proof::Unknown {
            return;
        }
        self.prove_move(node, side, outcome, mv);
        self.tree.node_mut(node).proof = solver::terminal(outcome, walk.movers[depth]);
        self.propagate_from(walk, depth);
    }

    /// Proves what follows from the proof of the last node of the path.
    fn propagate(&mut self, walk: &Walk<G>) {
        self.propagate_from(walk, walk.path.len() - 1);
    }

    /// Proves what follows from the proof of the path's node at `last`.
    fn propagate_from(&mut self, walk: &Walk<G>, last: usize) {
        let end = self.expander.order.end();
        solver::propagate(&mut self.tree, &walk.path, &walk.movers, last, |t, i| {
            u32::from(t.node(i).cursor) == end
        });
    }

    /// Adds a child and keeps `node`'s max-tree (if any) in step.
    fn add_child(&mut self, node: u32, id: usize) -> u32 {
        let child = self.tree.add_child(node, id as u16);
        let n = *self.tree.node(node);
        let len = usize::from(n.len);
        if n.accel != NONE {
            if len > self.accel.capacity(n.accel) {
                self.accel.grow(n.accel, 2 * self.accel.capacity(n.accel));
                self.rebuild_accel(node);
            }
        } else if len >= ACCEL_MIN_CHILDREN {
            self.create_accel(node);
        }
        child
    }

    /// Gives `node` (which has none) a max-tree over its children.
    fn create_accel(&mut self, node: u32) {
        let len = usize::from(self.tree.node(node).len);
        let id = self.accel.create(2 * len.next_power_of_two());
        self.tree.node_mut(node).accel = id;
        self.rebuild_accel(node);
    }

    /// Notes the moves of the path for the reply table.
    fn note_path(&self, walk: &mut Walk<G>) {
        let tree = &self.tree;
        walk.note_path(|i| tree.node(i).mv);
    }

    /// Counts `result` for the root child in `slot`, moved into by `mover`.
    #[inline]
    fn note_root_result(&mut self, slot: usize, mover: Side, result: Outcome) {
        if self.root_results.len() <= slot {
            // Grows with the root's children: a few times per search.
            self.root_results.resize(slot + 1, [0, 0]);
        }
        let r = &mut self.root_results[slot];
        r[0] += 1;
        r[1] += result.doubled_for(mover);
    }

    /// Adds the iteration's reward to every node of the path, each from the
    /// point of view of the player who moved into it, and its result to
    /// the root's child ([`Worker::root_results`]); the visit too, but on
    /// the nodes whose visit a virtual loss counted already
    /// ([`Worker::add_virtual_loss`]).
    fn backup(&mut self, walk: &mut Walk<G>, reward: Reward) {
        for j in (0..walk.path.len()).rev() {
            let mover = walk.movers[j];
            if j == 1 {
                self.note_root_result(usize::from(walk.slots[1]), mover, reward.result);
            }
            let n = self.tree.node_mut(walk.path[j]);
            n.visits += u32::from(j >= walk.virtual_losses);
            n.wins2 += reward.scored.doubled_for(mover);
            self.update_key(walk, j);
        }
    }
}

#[cfg(test)]
mod stress;
#[cfg(test)]
mod tests;
