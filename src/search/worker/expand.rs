//! Expansion in two steps: a plan, which only reads the node's position
//! and a copy of the node (the costly part: the win-in-one and threat
//! tests and the move order's walk, which ranks the moves it meets), and
//! the tree changes that carry it out. One thread makes both at once;
//! threads sharing a tree make the plan outside the tree's lock
//! ([`super::Worker::run_shared`]) and carry it out only if no other
//! thread has changed the node meanwhile.

use super::{Deferred, Expansion, Worker};
use crate::search::game::Game;
use crate::search::order::MoveOrder;
use crate::search::outcome::{Outcome, Side};
use crate::search::solver;
use crate::search::tree::{Node, Proof, ROOT};
use crate::search::walk::Walk;

/// What a plan needs of the search's configuration (copied out of the
/// worker, so that a thread can plan without the tree's lock).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expander {
    pub win_check: bool,
    /// At nodes where the opponent threatens to win at once, search only
    /// the moves that stop every threat.
    pub threats: bool,
    /// Visits a node needs before it is checked for threats.
    pub threat_visits: u32,
    pub order: MoveOrder,
    pub fpu_drop: f32,
}

/// What expanding a node will do, decided from a copy of the node.
pub(crate) enum Plan<G: Game> {
    /// The node's first expansion: this move wins at once.
    Win(usize),
    /// The next move of the node's order, if any.
    Next {
        /// The opponent's threat the move must stop.
        threat: Option<G::Threat>,
        /// Whether this plan tested the node for threats (and found one).
        checked: Option<bool>,
        /// The move, and the cursor just past it (past every move when
        /// there is none).
        found: Option<usize>,
        cursor: u32,
        /// The move opens a worse rank: stop just before it.
        next_rank: bool,
        /// A root move that lets the opponent win at once.
        loses: bool,
    },
}

/// Whether `mv` (legal for the side to move in `game`, which faces the
/// opponent's winning `threat`) leaves the opponent no win in one.
#[inline]
pub(crate) fn stops<G: Game>(game: &G, threat: &G::Threat, mv: G::Move) -> bool {
    if !game.may_stop(threat, mv) {
        return false;
    }
    let mut after = game.clone();
    after.play(mv);
    // A move after which the same side moves again (Caminos' time machine)
    // is judged by the search of what follows.
    after.outcome().is_some()
        || after.side_to_move() == game.side_to_move()
        || after.winning_move().is_none()
}

impl Expander {
    /// The plan for expanding the node `n` (the root if `at_root`), whose
    /// position is `game` and move-order salt `salt`.
    pub fn plan<G: Game>(&self, game: &G, n: &Node, at_root: bool, salt: u64) -> Plan<G> {
        // First expansion: an immediate win settles the node at once.
        if self.win_check && n.len == 0 && n.cursor == 0 {
            if let Some(m) = game.winning_move() {
                return Plan::Win(G::move_id(m));
            }
        }
        // Facing a threat, a move that leaves the opponent a win in one is
        // lost: below the root it never becomes a child (no node, no
        // misleading playout); the root keeps it as a proven loss, so a
        // lost root still has moves to report.
        let mut checked = None;
        let threat = if n.threatened() {
            game.threat()
        } else if self.threats
            && !n.threats_checked()
            && (n.visits >= self.threat_visits || at_root)
        {
            // Only at the root and nodes visited this often: the test costs
            // about as much as a playout, and most nodes are seldom visited.
            let threat = game.threat();
            checked = Some(threat.is_some());
            threat
        } else {
            None
        };
        let admissible = |id: usize| {
            let mv = G::move_from_id(id);
            game.is_legal(mv)
                && match threat {
                    Some(t) if !at_root => stops(game, &t, mv),
                    _ => true,
                }
        };
        let mut cursor = u32::from(n.cursor);
        let ranker = if self.order.ranked() {
            game.ranker()
        } else {
            None
        };
        let found = self.order.next(salt, &mut cursor, admissible, |id| {
            ranker.map_or(0, |r| game.rank(&r, G::move_from_id(id)))
        });
        // The first move of a worse rank is weighed at that rank's
        // urgency, like the rest of it.
        let next_rank = found.is_some()
            && self.fpu_drop > 0.0
            && !at_root
            && self.order.round(cursor - 1) > self.order.round(u32::from(n.cursor));
        let loses = match (found, threat) {
            (Some(id), Some(t)) if at_root && !next_rank => !stops(game, &t, G::move_from_id(id)),
            _ => false,
        };
        Plan::Next {
            threat,
            checked,
            found,
            cursor,
            next_rank,
            loses,
        }
    }
}

impl<G: Game> Plan<G> {
    /// The move this plan adds as a child to play out from, when that is
    /// all it does to the tree (no next rank, no root move proven lost,
    /// and a move was found).
    pub fn leaf_move(&self) -> Option<usize> {
        match *self {
            Plan::Win(id) => Some(id),
            Plan::Next {
                found: Some(id),
                next_rank: false,
                loses: false,
                ..
            } => Some(id),
            Plan::Next { .. } => None,
        }
    }
}

impl<G: Game> Deferred<G> {
    /// The plan for the node a deferred descent stopped at (the root if
    /// `at_root`).
    pub fn plan(&self, expander: &Expander, at_root: bool) -> Plan<G> {
        expander.plan(&self.game, &self.node, at_root, self.salt)
    }
}

impl<G: Game> Worker<G> {
    /// Tries to add one child to `node` (the last node of the path) and
    /// plays the move into it.
    pub(super) fn expand(
        &mut self,
        walk: &mut Walk<G>,
        node: u32,
        salt: u64,
        game: &mut G,
        side: Side,
    ) -> Expansion {
        let n = *self.tree.node(node);
        let plan = self.expander.plan(game, &n, node == ROOT, salt);
        self.carry_out(walk, node, game, side, plan)
    }

    /// Carries out `plan` for `node` (the last node of the path), whose
    /// position is `game`, where `side` moves.
    pub(super) fn carry_out(
        &mut self,
        walk: &mut Walk<G>,
        node: u32,
        game: &mut G,
        side: Side,
        plan: Plan<G>,
    ) -> Expansion {
        let id = match self.apply(walk, node, side, plan) {
            Applied::Added(id) => id,
            Applied::Other(e) => return e,
        };
        game.play(G::move_from_id(id));
        match game.outcome() {
            Some(o) => {
                self.leaf_ended(walk, side, o);
                Expansion::Done(o)
            }
            None => Expansion::Open,
        }
    }

    /// Carries out an expansion that a thread planned and played out
    /// without the tree's lock ([`Planned`]), now that it holds the lock
    /// again: unless another thread has changed the node meanwhile, the
    /// move joins the tree (and the path) as it would have before the
    /// playout. Otherwise the playout's result counts for the node alone.
    pub(super) fn adopt(&mut self, walk: &mut Walk<G>, planned: Planned<G>) {
        let Planned {
            node: then,
            plan,
            side,
            ended,
        } = planned;
        let node = walk.path[walk.path.len() - 1];
        if !self.still(node, &then) {
            return;
        }
        if let Applied::Added(_) = self.apply(walk, node, side, plan) {
            if let Some(o) = ended {
                self.leaf_ended(walk, side, o);
            }
        }
    }

    /// Clears the mark of an expansion planned for `node` and says whether
    /// the node is as it was when chosen (`then`), with room to grow: only
    /// then does the plan still hold.
    pub(super) fn still(&mut self, node: u32, then: &Node) -> bool {
        self.tree.node_mut(node).set_expanding(false);
        let now = *self.tree.node(node);
        now.cursor == then.cursor
            && now.len == then.len
            && now.proof == then.proof
            && now.threatened() == then.threatened()
            && now.threats_checked() == then.threats_checked()
            && self.tree.count() < self.grow_cap
    }

    /// The new last node of the path, moved into by `side`, ended the game
    /// with `o`: it is proven so.
    fn leaf_ended(&mut self, walk: &mut Walk<G>, side: Side, o: Outcome) {
        if self.solver {
            let child = walk.path[walk.path.len() - 1];
            self.tree.node_mut(child).proof = solver::terminal(o, side);
            self.propagate(walk);
        }
    }

    /// The tree changes of `plan` for `node` (the last node of the path),
    /// where `side` moves: a new child pushed on the path, whose move the
    /// caller plays, or what else the plan came to.
    fn apply(&mut self, walk: &mut Walk<G>, node: u32, side: Side, plan: Plan<G>) -> Applied {
        let (threat, found, loses) = match plan {
            Plan::Win(id) => {
                let slot = usize::from(self.tree.node(node).len);
                let child = self.add_child(node, id);
                self.tree.node_mut(child).proof = Proof::Win;
                walk.push(child, slot, side);
                self.propagate(walk);
                return Applied::Other(Expansion::Done(Outcome::Win(side)));
            }
            Plan::Next {
                threat,
                checked,
                found,
                cursor,
                next_rank,
                loses,
            } => {
                if let Some(threatened) = checked {
                    self.tree.node_mut(node).set_threats_checked(threatened);
                }
                if next_rank {
                    self.tree.node_mut(node).cursor = (cursor - 1) as u16;
                    return Applied::Other(Expansion::NextRank);
                }
                self.tree.node_mut(node).cursor = cursor as u16;
                (threat, found, loses)
            }
        };
        let Some(id) = found else {
            if self.solver {
                let mover = walk.movers[walk.movers.len() - 1];
                let same_side = mover == side;
                let mut p = solver::settle(&self.tree, node, true, same_side);
                if threat.is_some() && self.tree.node(node).len == 0 {
                    // Every legal move lets the opponent win at once.
                    p = if same_side { Proof::Loss } else { Proof::Win };
                }
                if p != Proof::Unknown {
                    self.tree.node_mut(node).proof = p;
                    self.propagate(walk);
                }
            }
            return Applied::Other(Expansion::Exhausted);
        };
        let child = self.add_child(node, id);
        let slot = child - self.tree.node(node).first;
        walk.push(child, slot as usize, side);
        if loses {
            self.tree.node_mut(child).proof = Proof::Loss;
            self.propagate(walk);
            walk.pop();
            return Applied::Other(Expansion::Pruned);
        }
        Applied::Added(id)
    }
}

/// What [`Worker::apply`] did.
enum Applied {
    /// Added the child with this move id, to be played into.
    Added(usize),
    /// Anything else.
    Other(Expansion),
}

/// An expansion planned without the tree's lock whose new leaf the thread
/// played out before the leaf joined the tree: [`Worker::adopt`] carries
/// it out with the backup, at the thread's next turn with the lock, so
/// that an iteration takes the lock once.
pub(crate) struct Planned<G: Game> {
    /// The node as it was when chosen.
    pub node: Node,
    pub plan: Plan<G>,
    /// The side to move at the node.
    pub side: Side,
    /// How the game ended with the move, if it did.
    pub ended: Option<Outcome>,
}
