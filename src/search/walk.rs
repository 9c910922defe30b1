//! What one search thread (or one lane of a thread, when threads share a
//! tree) carries through its iterations: its random stream, the path of
//! its descent, its playouts and its handle on the reply table that the
//! threads share.
//! The tree it walks is the [`super::worker::Worker`]'s, shared when
//! several threads search it.

use std::sync::Arc;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::Game;
use super::outcome::{Outcome, Reward, Side};
use super::replies::Replies;

/// A node of the current descent due for the game's exact search
/// ([`Game::solve`]), which runs once the descent is over: outside the
/// tree's lock when threads share the tree.
#[derive(Clone, Debug)]
pub(crate) struct ExactJob<G> {
    /// The node's depth in the path.
    pub depth: usize,
    /// The node's position.
    pub game: G,
    /// The exact search's node budget.
    pub budget: u64,
}

/// What an exact search proved about the path's node at `depth`: the
/// outcome of best play from there and a move that achieves it for
/// `side`, the side to move there.
pub(crate) struct Proved<G: Game> {
    pub depth: usize,
    pub side: Side,
    pub outcome: Outcome,
    pub mv: G::Move,
}

/// A reply table for the walks of one search of `G`, if `on`.
pub(crate) fn reply_table<G: Game>(on: bool) -> Option<Arc<Replies>> {
    on.then(|| Arc::new(Replies::new(G::MOVE_SPACE)))
}

/// One thread's side of the search.
///
/// Aligned to 128 bytes so that two walks side by side in a `Vec` never
/// share a cache line (or an adjacent-line prefetch pair): each thread
/// writes its walk's fields (random state, path) all the time.
#[derive(Clone, Debug)]
#[repr(align(128))]
pub(crate) struct Walk<G: Game> {
    rng: Xoshiro256PlusPlus,
    playout: G::Playout,
    /// Last good replies (when configured), one table that every thread
    /// of the search reads and teaches.
    pub replies: Option<Arc<Replies>>,
    /// Nodes of the current descent, root first.
    pub path: Vec<u32>,
    /// The slot of each node of `path` among its parent's children, to
    /// find it again after another thread has moved the block.
    pub slots: Vec<u16>,
    /// The player who moved into each node of `path`.
    pub movers: Vec<Side>,
    /// How many nodes of `path`, from the root, carry a virtual loss.
    pub virtual_losses: usize,
    /// The move into the leaf, which the playout's first reply answers.
    pub last: Option<usize>,
    /// Move ids of the current playout (when the replies need them).
    played: Vec<u16>,
    /// The side to move where the current playout started.
    leaf_side: Side,
    /// The moves of the current iteration, tree and playout, for
    /// `replies`, and the side that made each.
    line: Vec<u16>,
    sides: Vec<Side>,
    /// This thread's exact search state (its transposition table), kept
    /// from search to search; a thread's first lane holds it for all its
    /// lanes.
    pub exact: G::Exact,
    /// The exact search the current descent asks for, if any.
    pub job: Option<ExactJob<G>>,
}

impl<G: Game> Walk<G> {
    /// A walk with its own random stream, sharing the reply table `replies`
    /// (from [`reply_table`]) if there is one.
    pub fn new(playout: &G::Playout, seed: u64, replies: Option<Arc<Replies>>) -> Self {
        Walk {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            playout: playout.clone(),
            replies,
            path: Vec::with_capacity(64),
            slots: Vec::with_capacity(64),
            movers: Vec::with_capacity(64),
            virtual_losses: 0,
            last: None,
            played: Vec::with_capacity(128),
            leaf_side: 0,
            line: Vec::with_capacity(128),
            sides: Vec::with_capacity(128),
            exact: G::Exact::default(),
            job: None,
        }
    }

    /// Runs the exact search the descent asked for, if any: what it proved.
    /// It gives up when `stop` says so.
    pub fn solve_job(&mut self, stop: &dyn Fn() -> bool) -> Option<Proved<G>> {
        let job = self.job.take()?;
        let (outcome, mv) = job.game.solve(&mut self.exact, job.budget, stop)?;
        Some(Proved {
            depth: job.depth,
            side: job.game.side_to_move(),
            outcome,
            mv,
        })
    }

    /// Starts a descent at the root, where `to_move` moves.
    pub fn start(&mut self, to_move: Side) {
        self.played.clear();
        self.path.clear();
        self.slots.clear();
        self.movers.clear();
        self.virtual_losses = 0;
        self.last = None;
        self.job = None;
        self.path.push(super::tree::ROOT);
        self.slots.push(0);
        self.movers.push(1 - to_move);
    }

    /// Steps down to `child`, in `slot` of its parent's children, moved
    /// into by `mover`.
    #[inline]
    pub fn push(&mut self, child: u32, slot: usize, mover: Side) {
        self.path.push(child);
        self.slots.push(slot as u16);
        self.movers.push(mover);
    }

    /// Steps back up one node.
    #[inline]
    pub fn pop(&mut self) {
        self.path.pop();
        self.slots.pop();
        self.movers.pop();
    }

    /// Plays `game` out by the configured policy, recording the moves when
    /// the reply table needs them, and scores the result.
    #[inline]
    pub fn playout(&mut self, game: &mut G) -> Reward {
        self.leaf_side = game.side_to_move();
        if let Some(result) = game.evaluate(&self.playout, &mut self.rng) {
            return Reward::plain(result);
        }
        let played = &mut self.played;
        let record = self.replies.is_some();
        let result = game.playout(
            &self.playout,
            &mut self.rng,
            self.replies.as_deref(),
            self.last,
            &mut |id| {
                if record {
                    played.push(id as u16);
                }
            },
        );
        let scored = game.rescore(&self.playout, &mut self.rng, result);
        Reward { result, scored }
    }

    /// Notes the moves into the path's nodes below the root (`move_into`
    /// gives a node's), which the reply table learns after the playout.
    /// With threads this runs under the tree's lock, [`Walk::learn_replies`]
    /// outside it.
    pub fn note_path(&mut self, move_into: impl Fn(u32) -> u16) {
        if self.replies.is_none() {
            return;
        }
        self.line.clear();
        self.sides.clear();
        for (&i, &side) in self.path[1..].iter().zip(&self.movers[1..]) {
            self.line.push(move_into(i));
            self.sides.push(side);
        }
    }

    /// Notes a new leaf's move `id`, made by `mover`, below the path
    /// noted: the move the playout's first reply answers, and the last of
    /// the line the reply table learns.
    pub fn note_leaf(&mut self, id: usize, mover: Side) {
        self.last = Some(id);
        if self.replies.is_some() {
            self.line.push(id as u16);
            self.sides.push(mover);
        }
    }

    /// Teaches the reply table the moves of this iteration: those of the
    /// path ([`Walk::note_path`]), then the playout's.
    pub fn learn_replies(&mut self, outcome: Outcome) {
        let Some(replies) = self.replies.as_deref() else {
            return;
        };
        // Playout moves alternate from the side to move at the leaf.
        let mut side = self.leaf_side;
        for &id in &self.played {
            self.line.push(id);
            self.sides.push(side);
            side = 1 - side;
        }
        replies.learn(&self.line, &self.sides, outcome);
    }
}
