//! The inputs of the learnt evaluation: which of its [`INPUTS`] are on in a
//! position, seen from the side to move. A position turns on one input per
//! cube (by owner, whether it is still visible, and cell), one more per
//! visible cube for each edge its chain of visible cubes reaches (what a
//! bridge is made of), and one per piece count and perimeter count of
//! each side.

use crate::game::bitboard::{EAST, NORTH, SOUTH, WEST};
use crate::game::bridge::{flood, visible};
use crate::game::{Piece, Position, Volume};

/// Cells of the board: 8 x 8 columns, 3 levels.
const CELLS: usize = 192;
/// Planes of cells: own visible, opponent visible, own hidden, opponent
/// hidden, then own visible cubes joined to the north, south, west and
/// east edges, then the opponent's.
const PLANES: usize = 12;
/// The first input of the piece counts.
const PIECES: usize = PLANES * CELLS;
/// The first input of the perimeter counts: after 2 sides x 4 piece types
/// x 5 counts (0 to 4 left).
const PERIMETER: usize = PIECES + 2 * 4 * 5;
/// Perimeter counts from 0 to 7 and up, per side.
const PERIMETER_BUCKETS: usize = 8;

/// How many inputs the evaluation has.
pub const INPUTS: usize = PERIMETER + 2 * PERIMETER_BUCKETS;

/// The most inputs one position turns on: 28 pieces of 4 cubes, each in
/// its owner's plane and up to four edge planes, 8 piece counts and 2
/// perimeter counts.
pub const MAX_ACTIVE: usize = 28 * 4 * 5 + 8 + 2;

/// The edges in the order of their planes.
const EDGES: [u64; 4] = [NORTH, SOUTH, WEST, EAST];

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

/// Edge `e` (north, south, west, east) under symmetry `t`, as
/// [`map_square`] maps the squares.
#[inline]
fn map_edge(mut e: usize, t: usize) -> usize {
    if t & 1 != 0 && e >= 2 {
        e ^= 1;
    }
    if t & 2 != 0 && e < 2 {
        e ^= 1;
    }
    if t & 4 != 0 {
        e ^= 2;
    }
    e
}

/// The cubes of `vis` joined to each edge through chains of `vis`.
#[inline]
fn joined(vis: Volume) -> [Volume; 4] {
    EDGES.map(|edge| {
        let seed = Volume(vis.0.map(|l| l & edge));
        if seed.is_empty() {
            Volume::EMPTY
        } else {
            flood(vis, seed)
        }
    })
}

/// Calls `on` with every input that `pos` turns on, seen from its side to
/// move, under symmetry `t` of the board's eight turns and mirrors (0: as
/// it stands). Allocation-free: it walks the bits of the position's
/// volumes.
#[inline]
pub fn for_each_active(pos: &Position, t: usize, mut on: impl FnMut(usize)) {
    let me = pos.to_move();
    let them = me.other();
    let (own, opp) = (pos.cubes(me), pos.cubes(them));
    let own_vis = visible(own, opp);
    let opp_vis = visible(opp, own);
    let own_joined = joined(own_vis);
    let opp_joined = joined(opp_vis);
    let mut planes = [Volume::EMPTY; PLANES];
    planes[0] = own_vis;
    planes[1] = opp_vis;
    planes[2] = Volume([0, 1, 2].map(|z| own.0[z] & !own_vis.0[z]));
    planes[3] = Volume([0, 1, 2].map(|z| opp.0[z] & !opp_vis.0[z]));
    for e in 0..4 {
        let m = map_edge(e, t);
        planes[4 + m] = own_joined[e];
        planes[8 + m] = opp_joined[e];
    }
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
        pos.play_unchecked(parse_placement_or_cells("000 100 010 110").unwrap());
        // Player 2 to move: player 1's O is the opponent's, visible, at z = 0.
        let mut on = Vec::new();
        for_each_active(&pos, 0, |i| on.push(i));
        for sq in [0, 1, 8, 9] {
            assert!(on.contains(&(CELLS + sq)), "opponent cube at square {sq}");
        }
        assert!(on.iter().all(|&i| i >= CELLS), "no cube of the mover");
        assert!(on.iter().all(|&i| i < INPUTS));
        // 4 cubes, each joined to the north and west edges (the O is in
        // the corner), 8 piece counts, 2 perimeter counts.
        assert_eq!(on.len(), 4 * 3 + 8 + 2);
        for (edge, plane) in [(0, 8), (2, 10)] {
            assert!(on.contains(&(plane * CELLS)), "edge {edge}");
        }
        assert!(!on.contains(&(9 * CELLS)) && !on.contains(&(11 * CELLS)));
        // The opponent holds one O fewer: 1 left of 2.
        let o = Piece::ALL.iter().position(|&p| p == Piece::O).unwrap();
        assert!(on.contains(&(PIECES + (4 + o) * 5 + 1)));
        // Mirrored in x, the O sits at x = 6 and 7.
        let mut mirrored = Vec::new();
        for_each_active(&pos, 1, |i| mirrored.push(i));
        assert!(mirrored.contains(&(CELLS + 7)) && mirrored.contains(&(CELLS + 6)));
        // ... and joined to the east edge instead of the west.
        assert!(mirrored.contains(&(11 * CELLS + 7)) && !mirrored.contains(&(10 * CELLS + 7)));
    }

    #[test]
    fn edges_map_with_the_squares() {
        // The square at the middle of each edge's row or column.
        let on_edge = [3usize, 7 * 8 + 3, 3 * 8, 3 * 8 + 7];
        for t in 0..8 {
            for (e, &sq) in on_edge.iter().enumerate() {
                let mapped = map_square(sq, t);
                let m = map_edge(e, t);
                assert!(EDGES[m] & (1u64 << mapped) != 0, "edge {e} under {t}");
            }
        }
    }
}
