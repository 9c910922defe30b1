//! Last good reply with forgetting (LGRF-1, Baier and Drake 2010): for
//! each side and each move of the opponent, the reply that side last
//! played to it in a simulation it won. Playouts play the stored reply when
//! it is legal; a side that loses a simulation forgets the replies it
//! played in it, so stale answers do not linger.
//!
//! The threads of one search share one table, so each learns from every
//! thread's simulations. Its slots are atomics read and written with
//! relaxed ordering: a slot is a hint that the playout checks for
//! legality, so a reply another thread overwrites a moment later does no
//! harm.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use super::outcome::{Outcome, Side};

/// No reply stored.
const NONE: u16 = u16::MAX;

/// The reply table of one search tree.
#[derive(Debug)]
pub struct Replies {
    /// `best[side * space + previous]`: the reply of `side` to `previous`.
    best: Vec<AtomicU16>,
    space: usize,
}

impl Replies {
    /// An empty table for move ids below `space`.
    pub fn new(space: usize) -> Self {
        Replies {
            best: (0..2 * space).map(|_| AtomicU16::new(NONE)).collect(),
            space,
        }
    }

    /// The reply of `side` to the opponent's move `previous`, if one is
    /// stored (`None` for a move or side outside the table).
    #[inline(always)]
    pub fn get(&self, side: Side, previous: usize) -> Option<usize> {
        if previous >= self.space {
            return None;
        }
        let r = self
            .best
            .get(usize::from(side) * self.space + previous)?
            .load(Relaxed);
        (r != NONE).then_some(usize::from(r))
    }

    /// Learns from one simulation: `moves` (ids), made by `sides[i]`,
    /// ended with `outcome`. Each move that answers the opponent's move
    /// before it is a reply to that move: the winner stores each of its
    /// replies; the loser forgets each of its replies that is stored. A draw teaches
    /// nothing; a move that follows its own side's move answers nothing.
    pub fn learn(&self, moves: &[u16], sides: &[Side], outcome: Outcome) {
        let Outcome::Win(winner) = outcome else {
            return;
        };
        for i in 1..moves.len().min(sides.len()) {
            let side = sides[i];
            if side == sides[i - 1] {
                continue;
            }
            let won = side == winner;
            let slot = &self.best[usize::from(side) * self.space + usize::from(moves[i - 1])];
            if let Some(v) = updated(slot.load(Relaxed), moves[i], won) {
                slot.store(v, Relaxed);
            }
        }
    }
}

/// What a slot holding `now` must become after a simulation that played
/// `entry`: `entry` after a win (`won`), [`NONE`] after a loss if it held
/// `entry`; `None` when it is right already. Such a slot is not written,
/// so that threads sharing the table do not take its cache lines from
/// each other for nothing.
#[inline(always)]
fn updated(now: u16, entry: u16, won: bool) -> Option<u16> {
    match (won, now == entry) {
        (true, false) => Some(entry),
        (false, true) => Some(NONE),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_learns_its_replies_and_the_loser_forgets_them() {
        let r = Replies::new(10);
        // Side 0 plays 1, side 1 answers 2, side 0 answers 3; side 0 wins.
        r.learn(&[1, 2, 3], &[0, 1, 0], Outcome::Win(0));
        assert_eq!(r.get(0, 2), Some(3), "the winner's reply to 2");
        assert_eq!(r.get(1, 1), None, "the loser learns nothing");
        // Side 1 now wins a game in which it answered 1 with 2.
        r.learn(&[1, 2, 4], &[0, 1, 0], Outcome::Win(1));
        assert_eq!(r.get(1, 1), Some(2));
        // Side 0 played 4 against 2 and lost: nothing stored for 4, and its
        // stored reply 3 to 2 stays (it did not play it).
        assert_eq!(r.get(0, 2), Some(3));
        // Side 0 loses after answering 2 with 3: forgotten.
        r.learn(&[5, 2, 3], &[0, 1, 0], Outcome::Win(1));
        assert_eq!(r.get(0, 2), None);
        // Side 1 (the winner) stored its reply 2 to 5.
        assert_eq!(r.get(1, 5), Some(2));
    }

    #[test]
    fn a_draw_teaches_nothing_and_the_first_mover_sets_the_sides() {
        let r = Replies::new(4);
        r.learn(&[0, 1, 2, 3], &[1, 0, 1, 0], Outcome::Draw);
        assert!((0..4).all(|m| r.get(0, m).is_none() && r.get(1, m).is_none()));
        // Side 1 moved first: side 0 played 1 and 3, side 1 played 2.
        r.learn(&[0, 1, 2, 3], &[1, 0, 1, 0], Outcome::Win(0));
        assert_eq!(r.get(0, 0), Some(1));
        assert_eq!(r.get(0, 2), Some(3));
        assert_eq!(r.get(1, 1), None);
        // A move after the same side's own move (a time machine, then a
        // placement) is no reply.
        let r = Replies::new(4);
        r.learn(&[0, 1, 2], &[0, 1, 1], Outcome::Win(1));
        assert_eq!(r.get(1, 0), Some(1));
        assert_eq!(r.get(1, 1), None);
    }
}
