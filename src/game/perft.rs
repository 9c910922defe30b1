//! Perft: counting legal move sequences, the standard move-generator check.

use super::movegen::PlacementList;
use super::position::Position;
use super::rules::Move;

/// Number of legal move sequences of length `depth` from `pos`: every
/// placement, and `swap` and `tm` where the rules allow them (each is a ply
/// of its own). A sequence that ends the game early counts as one leaf;
/// from a finished game no move is legal, so every count above depth 0 is 0.
///
/// ```
/// use cabra::game::Position;
/// use cabra::game::perft::perft;
/// let start = Position::new();
/// assert_eq!(perft(&start, 1), 1_345);
/// assert_eq!(perft(&start, 2), 1_591_832);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.status().is_over() {
        return 0;
    }
    let mut n = 0;
    for_each_child(pos, |next| {
        n += if next.status().is_over() {
            1
        } else {
            perft(next, depth - 1)
        };
    });
    n
}

/// Calls `f` with the position after each legal move.
fn for_each_child(pos: &Position, mut f: impl FnMut(&Position)) {
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    let mut next = *pos;
    for &p in list.iter() {
        next.play_unchecked(p);
        f(&next);
        next.undo();
    }
    pos.for_each_special(|m| {
        let mut next = *pos;
        next.play_move_unchecked(m);
        f(&next);
    });
}

/// The perft count under each first move (placements in table order, then
/// the special moves; empty for a finished game).
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    let moves = list.iter().map(|&p| Move::Place(p)).chain(
        [Move::Swap, Move::TimeMachine]
            .into_iter()
            .filter(|&m| pos.check(m).is_ok()),
    );
    for m in moves {
        let mut next = *pos;
        next.play_move_unchecked(m);
        let n = if next.status().is_over() {
            1
        } else {
            perft(&next, depth.saturating_sub(1))
        };
        out.push((m, n));
    }
    out
}
