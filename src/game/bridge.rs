//! The bridge test of RULES.md section 6, as a flood fill over three layers.

use super::bitboard::{EAST, NORTH, SOUTH, Volume, WEST, spread};

/// The cubes of `own` with no cube of `opp` anywhere above them.
#[inline(always)]
pub fn visible(own: Volume, opp: Volume) -> Volume {
    let [o0, o1, o2] = own.0;
    let [_, p1, p2] = opp.0;
    Volume([o0 & !(p1 | p2), o1 & !p2, o2])
}

/// Every cube of `vis` linked to `seed` through a chain of `vis` cubes:
/// same column one level apart, or orthogonal neighbours at most one level apart.
#[inline(always)]
pub fn flood(vis: Volume, seed: Volume) -> Volume {
    let [v0, v1, v2] = vis.0;
    let mut f = seed & vis;
    loop {
        let [n0, n1, n2] = f.0.map(spread);
        let next = Volume([v0 & (n0 | n1), v1 & (n0 | n1 | n2), v2 & (n1 | n2)]);
        if next == f {
            return f;
        }
        f = next;
    }
}

/// Whether a set of cubes reaches both north and south, or both west and east.
#[inline(always)]
fn spans(v: Volume) -> bool {
    let c = v.columns();
    (c & NORTH != 0 && c & SOUTH != 0) || (c & WEST != 0 && c & EAST != 0)
}

/// Whether `own` (the player whose cubes these are, against `opp`) has a bridge.
pub fn has_bridge(own: Volume, opp: Volume) -> bool {
    let vis = visible(own, opp);
    if !spans(vis) {
        return false;
    }
    let north = Volume(vis.0.map(|l| l & NORTH));
    if flood(vis, north).columns() & SOUTH != 0 {
        return true;
    }
    let west = Volume(vis.0.map(|l| l & WEST));
    flood(vis, west).columns() & EAST != 0
}

/// Whether the mover, having just added the cubes `placed` (already in `own`),
/// now has a bridge. Before the placement the mover had none (the opponent's
/// placements only hide cubes), so a new bridge runs through the new piece.
#[inline(always)]
pub fn completes_bridge(own: Volume, opp: Volume, placed: Volume) -> bool {
    let vis = visible(own, opp);
    spans(vis) && spans(flood(vis, placed))
}
