//! Immediate wins: placements that complete a bridge for the side to move.
//!
//! A new bridge must run through the new piece (the mover had none before),
//! so a winning placement has a cube linked to the mover's cubes connected to
//! one edge (or lies on that edge) and likewise for the opposite edge. Those
//! two "reach" regions are found with four flood fills; rows (or columns)
//! too far apart for one piece rule a direction out at once; otherwise each
//! shape's legal positions touching both regions are found with masks. Every
//! such position wins, so no candidate needs the full bridge test.

use super::bitboard::{EAST, NORTH, SOUTH, Volume, WEST, spread};
use super::bridge::{completes_bridge, flood, flood_plan, visible};
use super::position::Position;
use super::shape::SHAPE_COUNT;
use super::shape_masks::{GENS, PIECE_SHAPE_START, shape_positions};
use super::table::{Placement, table};

/// The cells a new visible cube could occupy and be linked to `f`, plus the
/// edge cells `edge` at every height.
#[inline]
fn reach(f: Volume, edge: u64) -> Volume {
    let [n0, n1, n2] = f.0.map(spread);
    Volume([n0 | n1 | edge, n0 | n1 | n2 | edge, n1 | n2 | edge])
}

/// Positions of shape `s` where some cube lies in `region`.
#[inline(always)]
fn touching(s: usize, region: &Volume) -> u64 {
    let g = &GENS[s];
    let mut m = 0;
    for &(src, shift) in &g.terms[..4] {
        m |= region.0[src as usize] >> shift;
    }
    m & g.fits
}

/// Bit `i` set when row `i` (`horizontal`) or column `i` holds a bit of `cols`.
#[inline(always)]
fn used_lines(cols: u64, horizontal: bool) -> u8 {
    if horizontal {
        // Each row's byte folded into its lowest bit, then the eight bits
        // gathered into the top byte by one multiplication (no carries:
        // every partial product lands on its own bit).
        let mut t = cols | (cols >> 4);
        t |= t >> 2;
        t |= t >> 1;
        ((t & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
    } else {
        let mut t = cols | (cols >> 32);
        t |= t >> 16;
        t |= t >> 8;
        t as u8
    }
}

/// The span of occupied rows (or columns) of a 64-bit layer mask, collapsed.
fn line_index_range(cols: u64, horizontal: bool) -> Option<(u32, u32)> {
    let lines = used_lines(cols, horizontal);
    (lines != 0).then(|| (lines.trailing_zeros(), 7 - lines.leading_zeros()))
}

impl Position {
    /// Calls `f` with every legal placement that wins at once by a bridge.
    pub fn for_each_winning_move(&self, mut f: impl FnMut(Placement)) {
        self.find_wins(|p| {
            f(p);
            true
        });
    }

    /// A placement that wins at once for the side to move, if there is one.
    pub fn winning_move(&self) -> Option<Placement> {
        let mut found = None;
        self.find_wins(|p| {
            found = Some(p);
            false
        });
        found
    }

    /// A placement with which the opponent would win at once if it were
    /// their turn (a threat the side to move must stop), if there is one.
    pub fn threat(&self) -> Option<Placement> {
        if self.status().is_over() {
            return None;
        }
        self.with_turn_passed().winning_move()
    }

    /// The cells a placement must occupy to have a chance of stopping
    /// the opponent's winning placement `threat` (from [`Position::threat`]):
    /// the threat's own cells, and every cell above an opponent cube linked
    /// to it. A placement that misses this region leaves the threat on the
    /// board: it stays legal (support only grows) and its bridge stays
    /// (a chain completed through `threat` runs through cubes linked to it,
    /// and none of them gets covered).
    pub fn defence_region(&self, threat: Placement) -> Volume {
        let me = self.to_move();
        let w = threat.entry().cells;
        let opp_visible = visible(self.cubes(me.other()), self.cubes(me));
        let chain = flood(opp_visible | w, w).0;
        Volume([w.0[0], w.0[1] | chain[0], w.0[2] | chain[0] | chain[1]])
    }

    /// False when placement `mv` surely leaves the threat whose
    /// [`Position::defence_region`] is `region` on the board. True does not
    /// mean `mv` stops it.
    #[inline(always)]
    pub fn may_stop(&self, region: Volume, mv: Placement) -> bool {
        mv.entry().cells.intersects(region)
    }

    /// Calls `f` with winning placements while it returns true.
    fn find_wins(&self, mut f: impl FnMut(Placement) -> bool) {
        if self.status().is_over() {
            return;
        }
        let me = self.to_move();
        let (own, opp) = (self.cubes(me), self.cubes(me.other()));
        let vis = visible(own, opp);
        let mut candidates = [0u64; SHAPE_COUNT];
        let mut any = false;
        let cols = vis.columns();
        for (a, b, horizontal) in [(NORTH, SOUTH, true), (WEST, EAST, false)] {
            // The new piece spans at most 3 lines: the lines without a
            // visible cube must fit in that window. Rejects most positions
            // before any flood fill.
            let lines = used_lines(cols, horizontal);
            let missing = !lines;
            if missing != 0 && missing.leading_zeros() + missing.trailing_zeros() < 5 {
                continue;
            }
            // The same test in plan view first (a superset of the 3D
            // regions, one layer instead of three).
            let free = !self.occupied().0[2];
            let (Some((_, a_far)), Some((b_near, _))) = (
                line_index_range((spread(flood_plan(cols, a)) | a) & free, horizontal),
                line_index_range((spread(flood_plan(cols, b)) | b) & free, horizontal),
            ) else {
                continue;
            };
            if b_near > a_far + 2 {
                continue;
            }
            let edge_a = Volume([vis.0[0] & a, vis.0[1] & a, vis.0[2] & a]);
            let edge_b = Volume([vis.0[0] & b, vis.0[1] & b, vis.0[2] & b]);
            let ra = reach(flood(vis, edge_a), a);
            let rb = reach(flood(vis, edge_b), b);
            // One piece spans at most 3 rows: the regions must come that close.
            let (Some((_, a_far)), Some((b_near, _))) = (
                line_index_range(ra.columns() & !self.occupied().0[2], horizontal),
                line_index_range(rb.columns() & !self.occupied().0[2], horizontal),
            ) else {
                continue;
            };
            if b_near > a_far + 2 {
                continue;
            }
            // Legality only for shapes with a position touching both
            // regions, by masks (a table lookup per candidate was the
            // slowest step).
            let avail = self.available_mask();
            let src = self.sources();
            for piece in (0..4).filter(|p| avail & (1 << p) != 0) {
                let shapes = PIECE_SHAPE_START[piece]..PIECE_SHAPE_START[piece + 1];
                for (s, c) in shapes.clone().zip(&mut candidates[shapes]) {
                    let ta = touching(s, &ra);
                    let m = if ta == 0 { 0 } else { ta & touching(s, &rb) };
                    if m != 0 {
                        // One candidate: a table check is cheaper than the masks.
                        let m = if m.is_power_of_two() {
                            let p = Placement(table().id_at[s][m.trailing_zeros() as usize]);
                            if p.entry().fits(&self.occupied().0) {
                                m
                            } else {
                                0
                            }
                        } else {
                            m & shape_positions(s, &src)
                        };
                        *c |= m;
                        any |= m != 0;
                    }
                }
            }
        }
        if !any {
            return;
        }
        // A legal piece with a cube linked to each edge's region joins them:
        // the mover's visible cubes stay visible and the piece's cubes are
        // linked to each other, so every candidate wins.
        let t = table();
        for (s, &mask) in candidates.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                let pos = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = Placement(t.id_at[s][pos]);
                debug_assert!(self.is_legal(p));
                debug_assert!(completes_bridge(
                    own | p.entry().cells,
                    opp,
                    p.entry().cells
                ));
                if !f(p) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{PlacementList, Status, WinReason};
    use rand::{RngCore, SeedableRng};

    /// Every legal placement after which the mover has won by bridge.
    fn brute_force(pos: &Position) -> Vec<Placement> {
        let mut list = PlacementList::new();
        pos.legal_placements(&mut list);
        list.iter()
            .copied()
            .filter(|&p| {
                let mut q = *pos;
                q.play_unchecked(p);
                matches!(q.status(), Status::Won { by: WinReason::Bridge, winner } if winner == pos.to_move())
            })
            .collect()
    }

    #[test]
    fn the_fast_finder_agrees_with_trying_every_placement() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut positions, mut with_wins) = (0, 0);
        for _ in 0..300 {
            let mut pos = Position::new();
            while !pos.status().is_over() {
                let mut fast = Vec::new();
                pos.for_each_winning_move(|p| fast.push(p));
                fast.sort();
                assert_eq!(fast, brute_force(&pos), "{pos:?}");
                positions += 1;
                with_wins += !fast.is_empty() as usize;
                let p = pos.random_move(&mut rng).unwrap();
                pos.play_unchecked(p);
            }
        }
        // The sample must include positions with a win in one, or the test proves little.
        assert!(
            positions > 3000 && with_wins > 100,
            "{positions} positions, {with_wins} with wins"
        );
    }

    #[test]
    fn threats_are_the_opponents_wins_and_the_filter_never_drops_a_defence() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut threatened, mut filtered) = (0, 0);
        for _ in 0..200 {
            let mut pos = Position::new();
            while !pos.status().is_over() {
                let passed = pos.with_turn_passed();
                let wins = brute_force(&passed);
                match pos.threat() {
                    None => assert!(wins.is_empty(), "{pos:?}"),
                    Some(t) => {
                        assert!(wins.contains(&t), "{pos:?}");
                        threatened += 1;
                        let mut list = PlacementList::new();
                        pos.legal_placements(&mut list);
                        let region = pos.defence_region(t);
                        for &m in list.iter().filter(|&&m| !pos.may_stop(region, m)) {
                            filtered += 1;
                            let mut after = pos;
                            after.play_unchecked(m);
                            // Either m won (the search checks wins first) or
                            // the opponent still wins at once.
                            assert!(
                                after.status().is_over() || after.winning_move().is_some(),
                                "{m} was filtered but stops {t} in {pos:?}"
                            );
                        }
                    }
                }
                let p = pos.random_move(&mut rng).unwrap();
                pos.play_unchecked(p);
            }
        }
        assert!(
            threatened > 100 && filtered > 10_000,
            "{threatened} / {filtered}"
        );
    }

    #[test]
    fn used_lines_marks_every_row_and_column_with_a_bit() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for k in 0..2000 {
            let cols = match k {
                0 => 0,
                1 => u64::MAX,
                _ => rng.next_u64() & rng.next_u64() & rng.next_u64(),
            };
            let (mut rows, mut columns) = (0u8, 0u8);
            for i in 0..8 {
                rows |= u8::from((cols >> (8 * i)) & 0xFF != 0) << i;
                columns |= u8::from(cols & (WEST << i) != 0) << i;
            }
            assert_eq!(used_lines(cols, true), rows, "{cols:#x}");
            assert_eq!(used_lines(cols, false), columns, "{cols:#x}");
        }
    }
}
