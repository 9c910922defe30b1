//! Perft: counting legal placement sequences, the standard move-generator check.

use super::movegen::MoveList;
use super::position::Position;
use super::table::Placement;

/// Number of legal placement sequences of length `depth` from `pos`. A
/// sequence that ends the game early counts as one leaf; from a finished
/// game no placement is legal, so every count above depth 0 is 0.
///
/// ```
/// use cabra::game::Position;
/// use cabra::game::perft::perft;
/// let mut start = Position::new();
/// assert_eq!(perft(&mut start, 1), 1_345);
/// assert_eq!(perft(&mut start, 2), 1_591_832);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.status().is_over() {
        return 0;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut n = 0;
    for &p in list.iter() {
        pos.play(p);
        n += if pos.status().is_over() {
            1
        } else {
            perft(pos, depth - 1)
        };
        pos.undo();
    }
    n
}

/// The perft count under each first placement, in table order (empty for
/// a finished game).
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Placement, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&p| {
            pos.play(p);
            let n = if pos.status().is_over() {
                1
            } else {
                perft(pos, depth.saturating_sub(1))
            };
            pos.undo();
            (p, n)
        })
        .collect()
}
