//! Perft: counting legal placement sequences, the standard move-generator check.

use super::movegen::MoveList;
use super::position::Position;
use super::table::Placement;

/// Number of legal placement sequences of length `depth` from `pos`. A sequence
/// that ends the game early counts as one leaf.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 || pos.status().is_over() {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut n = 0;
    for &p in list.iter() {
        pos.play(p);
        n += perft(pos, depth - 1);
        pos.undo();
    }
    n
}

/// The perft count under each first placement, in table order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Placement, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&p| {
            pos.play(p);
            let n = perft(pos, depth.saturating_sub(1));
            pos.undo();
            (p, n)
        })
        .collect()
}
