//! The inputs of the learnt evaluation: which of its [`INPUTS`] are on in a
//! position, seen from the side to move. A position turns on one input per
//! cube (by owner, whether it is still visible, and cell) and one per
//! piece count and perimeter count of each side, at most 138 in all.

use crate::game::bridge::visible;
use crate::game::{Piece, Position, Volume};

/// Cells of the board: 8 x 8 columns, 3 levels.
const CELLS: usize = 192;
/// The first input of the piece counts: after the four planes of cubes
/// (own visible, opponent visible, own hidden, opponent hidden).
const PIECES: usize = 4 * CELLS;
/// The first input of the perimeter counts: after 2 sides x 4 piece types
/// x 5 counts (0 to 4 left).
const PERIMETER: usize = PIECES + 2 * 4 * 5;
/// Perimeter counts from 0 to 7 and up, per side.
const PERIMETER_BUCKETS: usize = 8;

/// How many inputs the evaluation has.
pub const INPUTS: usize = PERIMETER + 2 * PERIMETER_BUCKETS;

/// The most inputs one position turns on: 28 pieces of 4 cubes, 8 piece
/// counts and 2 perimeter counts.
pub const MAX_ACTIVE: usize = 28 * 4 + 8 + 2;

/// The board's eight symmetries (turns and mirrors): both players may join
/// either pair of opposite edges, so each maps a position to one of equal
/// value. `t` in 0..8: bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps x
/// and y (after the mirrors).
#[inline]
fn map_square(sq: usize, t: usize) -> usize {
    let (mut x, mut y) = (sq % 8, sq / 8);
    if t & 1 != 0 {
        x = 7 - x;
    }
    if t & 2 != 0 {
        y = 7 - y;
    }
    if t & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    y * 8 + x
}

/// Calls `on` with every input that `pos` turns on, seen from its side to
/// move, under symmetry `t` (0: as it stands; see [`map_square`]).
/// Allocation-free: it walks the bits of the position's volumes.
#[inline]
pub fn for_each_active(pos: &Position, t: usize, mut on: impl FnMut(usize)) {
    let me = pos.to_move();
    let them = me.other();
    let (own, opp) = (pos.cubes(me), pos.cubes(them));
    let own_vis = visible(own, opp);
    let opp_vis = visible(opp, own);
    let planes: [Volume; 4] = [
        own_vis,
        opp_vis,
        Volume([0, 1, 2].map(|z| own.0[z] & !own_vis.0[z])),
        Volume([0, 1, 2].map(|z| opp.0[z] & !opp_vis.0[z])),
    ];
    for (p, plane) in planes.iter().enumerate() {
        for (z, &layer) in plane.0.iter().enumerate() {
            let mut bits = layer;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let sq = if t == 0 { sq } else { map_square(sq, t) };
                on(p * CELLS + z * 64 + sq);
            }
        }
    }
    for (s, side) in [me, them].into_iter().enumerate() {
        for piece in Piece::ALL {
            let n = (pos.pieces_left(side, piece) as usize).min(4);
            on(PIECES + (s * 4 + piece.index()) * 5 + n);
        }
        let per = (pos.perimeter_count(side) as usize).min(PERIMETER_BUCKETS - 1);
        on(PERIMETER + s * PERIMETER_BUCKETS + per);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_placement_or_cells;

    #[test]
    fn symmetries_are_a_group_of_eight_distinct_maps() {
        let images: std::collections::HashSet<Vec<usize>> = (0..8)
            .map(|t| (0..64).map(|sq| map_square(sq, t)).collect())
            .collect();
        assert_eq!(images.len(), 8);
        for t in 0..8 {
            let mut seen = [false; 64];
            for sq in 0..64 {
                seen[map_square(sq, t)] = true;
            }
            assert!(seen.iter().all(|&s| s), "symmetry {t} is a permutation");
        }
    }

    #[test]
    fn inputs_follow_the_side_to_move() {
        let mut pos = Position::new();
        pos.play(parse_placement_or_cells("000 100 010 110").unwrap());
        // Player 2 to move: player 1's O is the opponent's, visible, at z = 0.
        let mut on = Vec::new();
        for_each_active(&pos, 0, |i| on.push(i));
        for sq in [0, 1, 8, 9] {
            assert!(on.contains(&(CELLS + sq)), "opponent cube at square {sq}");
        }
        assert!(on.iter().all(|&i| i >= CELLS), "no cube of the mover");
        assert!(on.iter().all(|&i| i < INPUTS));
        // 4 cubes, 8 piece counts, 2 perimeter counts.
        assert_eq!(on.len(), 14);
        // The opponent holds one O fewer: 1 left of 2.
        let o = Piece::ALL.iter().position(|&p| p == Piece::O).unwrap();
        assert!(on.contains(&(PIECES + (4 + o) * 5 + 1)));
        // Mirrored in x, the O sits at x = 6 and 7.
        let mut mirrored = Vec::new();
        for_each_active(&pos, 1, |i| mirrored.push(i));
        assert!(mirrored.contains(&(CELLS + 7)) && mirrored.contains(&(CELLS + 6)));
    }
}
