//! MCTS-Solver: game-theoretic values proven inside the tree.
//!
//! Proofs are stored from the point of view of the player who moved into a
//! node. A finished game is proven by its outcome; a node whose side to move
//! has an immediate win (a child proven won for it) is proven lost for the
//! player who moved into it; a node is proven won (or drawn) for the player
//! who moved into it only when *all* its legal moves have been expanded —
//! its move order is exhausted — and every child is proven lost (or lost or
//! drawn, at least one drawn). Proofs only ever flow from a node to its
//! parent, so after a change we walk up the current path.

use super::outcome::{Outcome, Side};
use super::tree::{Proof, Tree};

/// The proof of a finished game for `mover`, the player who made the last move.
pub(crate) fn terminal(outcome: Outcome, mover: Side) -> Proof {
    match outcome {
        Outcome::Draw => Proof::Draw,
        Outcome::Win(w) if w == mover => Proof::Win,
        Outcome::Win(_) => Proof::Loss,
    }
}

/// The outcome a proof stands for, given the player who moved into the node.
pub(crate) fn outcome(proof: Proof, mover: Side) -> Option<Outcome> {
    match proof {
        Proof::Unknown => None,
        Proof::Win => Some(Outcome::Win(mover)),
        Proof::Loss => Some(Outcome::Win(1 - mover)),
        Proof::Draw => Some(Outcome::Draw),
    }
}

/// What the children of node `i` prove about it (`exhausted`: all its legal
/// moves are children; `same_side`: the side to move at `i` is the player
/// who moved into it, as after a move that does not pass the turn).
pub(crate) fn settle(tree: &Tree, i: u32, exhausted: bool, same_side: bool) -> Proof {
    let p = settle_for_chooser(tree, i, exhausted);
    if same_side { flip(p) } else { p }
}

/// A proof for the player who moved into a node, seen by the other player.
fn flip(p: Proof) -> Proof {
    match p {
        Proof::Win => Proof::Loss,
        Proof::Loss => Proof::Win,
        other => other,
    }
}

/// [`settle`] when the side to move at `i` is the opponent of the player
/// who moved into it.
fn settle_for_chooser(tree: &Tree, i: u32, exhausted: bool) -> Proof {
    let mut all_lost = true;
    let mut all_proven = true;
    for c in tree.children(i) {
        match c.proof {
            Proof::Win => return Proof::Loss,
            Proof::Loss => {}
            Proof::Draw => all_lost = false,
            Proof::Unknown => all_proven = false,
        }
    }
    if !exhausted || !all_proven || tree.node(i).len == 0 {
        Proof::Unknown
    } else if all_lost {
        Proof::Win
    } else {
        Proof::Draw
    }
}

/// After `path[from]` was proven, proves what follows for its ancestors on
/// `path` (root first; `movers[j]` moved into `path[j]`). `exhausted(node)`
/// tells whether a node has tried all its moves.
pub(crate) fn propagate(
    tree: &mut Tree,
    path: &[u32],
    movers: &[Side],
    from: usize,
    exhausted: impl Fn(&Tree, u32) -> bool,
) {
    for j in (0..from).rev() {
        let i = path[j];
        if tree.node(i).proof != Proof::Unknown {
            break;
        }
        let p = settle(tree, i, exhausted(tree, i), movers[j] == movers[j + 1]);
        if p == Proof::Unknown {
            break;
        }
        tree.node_mut(i).proof = p;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::ROOT;
    use super::*;

    #[test]
    fn won_child_proves_parent_lost_at_once() {
        let mut t = Tree::new(0);
        t.add_child(ROOT, 0);
        t.add_child(ROOT, 1);
        // The first child moved when the block grew.
        let a = t.node(ROOT).first;
        t.node_mut(a).proof = Proof::Win;
        assert_eq!(settle(&t, ROOT, false, false), Proof::Loss);
        // The same side moves twice: a child won for it wins the node too.
        assert_eq!(settle(&t, ROOT, false, true), Proof::Win);
    }

    #[test]
    fn all_lost_needs_exhaustion() {
        let mut t = Tree::new(0);
        t.add_child(ROOT, 0);
        t.add_child(ROOT, 1);
        let f = t.node(ROOT).first;
        t.node_mut(f).proof = Proof::Loss;
        assert_eq!(settle(&t, ROOT, true, false), Proof::Unknown);
        t.node_mut(f + 1).proof = Proof::Loss;
        assert_eq!(settle(&t, ROOT, false, false), Proof::Unknown);
        assert_eq!(settle(&t, ROOT, true, false), Proof::Win);
        t.node_mut(f + 1).proof = Proof::Draw;
        assert_eq!(settle(&t, ROOT, true, false), Proof::Draw);
    }

    #[test]
    fn propagates_up_the_path() {
        // root -> a -> b, b won for its mover: a lost, root won if exhausted.
        let mut t = Tree::new(0);
        let a = t.add_child(ROOT, 0);
        let b = t.add_child(a, 1);
        t.node_mut(b).proof = Proof::Win;
        propagate(&mut t, &[ROOT, a, b], &[1, 0, 1], 2, |_, _| true);
        assert_eq!(t.node(a).proof, Proof::Loss);
        assert_eq!(t.node(ROOT).proof, Proof::Win);
        assert_eq!(terminal(Outcome::Win(1), 1), Proof::Win);
        assert_eq!(terminal(Outcome::Win(0), 1), Proof::Loss);
        assert_eq!(outcome(Proof::Loss, 1), Some(Outcome::Win(0)));
    }
}
