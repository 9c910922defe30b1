//! The bridge test of RULES.md section 6, as a flood fill over three layers.

use super::bitboard::{EAST, NORTH, SOUTH, Volume, WEST, spread};
use super::cell::Cell;

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
        // Compared as integers: the array comparison went through memory
        // and vector registers and was the slowest step of the loop.
        let grew = (next.0[0] ^ f.0[0]) | (next.0[1] ^ f.0[1]) | (next.0[2] ^ f.0[2]);
        if grew == 0 {
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

/// Whether the cubes could hold a bridge at all: a north-south chain needs a
/// cube in every row, a west-east chain one in every column.
#[inline(always)]
fn could_span(v: Volume) -> bool {
    let c = v.columns();
    // Fold each row onto its x = 0 bit: all eight set means every row is used.
    let mut rows = c | (c >> 4);
    rows |= rows >> 2;
    rows |= rows >> 1;
    // Fold the rows onto y = 0: all eight bits set means every column is used.
    let mut cols = c | (c >> 32);
    cols |= cols >> 16;
    cols |= cols >> 8;
    rows & WEST == WEST || cols & NORTH == NORTH
}

/// Whether the columns linked to `seed` through `cols` (seen from above,
/// ignoring heights) reach two opposite edges. Links between cubes are a
/// subset of links between their columns, so a 3D bridge needs this; it is
/// one shift-spread per step instead of three.
#[inline(always)]
fn spans_in_plan(cols: u64, seed: u64) -> bool {
    let mut f = seed & cols;
    loop {
        let next = spread(f) & cols;
        if next == f {
            return (f & NORTH != 0 && f & SOUTH != 0) || (f & WEST != 0 && f & EAST != 0);
        }
        f = next;
    }
}

/// Whether the columns of `cols` linked to edge `from` reach edge `to`, in
/// plan view (a necessary condition for a 3D chain, as for [`spans_in_plan`]).
#[inline(always)]
fn reaches_in_plan(cols: u64, from: u64, to: u64) -> bool {
    flood_plan(cols, from) & to != 0
}

/// The columns of `cols` linked to `seed` through `cols`, seen from above.
#[inline(always)]
pub(crate) fn flood_plan(cols: u64, seed: u64) -> u64 {
    let mut f = cols & seed;
    loop {
        let next = spread(f) & cols;
        if next == f {
            return f;
        }
        f = next;
    }
}

/// Whether `own` (the player whose cubes these are, against `opp`) has a bridge.
pub fn has_bridge(own: Volume, opp: Volume) -> bool {
    let vis = visible(own, opp);
    if !could_span(vis) {
        return false;
    }
    let cols = vis.columns();
    let north = Volume(vis.0.map(|l| l & NORTH));
    if reaches_in_plan(cols, NORTH, SOUTH) && flood(vis, north).columns() & SOUTH != 0 {
        return true;
    }
    let west = Volume(vis.0.map(|l| l & WEST));
    reaches_in_plan(cols, WEST, EAST) && flood(vis, west).columns() & EAST != 0
}

/// The cubes of `own` that lie on a bridge: every visible cube linked to
/// both the north and the south edge, or to both the west and the east
/// edge (empty when `own` has no bridge). For showing a won game.
pub fn bridge_cubes(own: Volume, opp: Volume) -> Volume {
    let vis = visible(own, opp);
    let edge = |mask: u64| flood(vis, Volume(vis.0.map(|l| l & mask)));
    (edge(NORTH) & edge(SOUTH)) | (edge(WEST) & edge(EAST))
}

/// A shortest chain of linked visible cubes of `own` (against `opp`)
/// between two opposite edges, in order from one edge to the other; empty
/// when `own` has no bridge. For showing a won game one path at a time.
pub fn shortest_bridge(own: Volume, opp: Volume) -> Vec<Cell> {
    let cubes: Vec<Cell> = bridge_cubes(own, opp).cells().collect();
    let linked = |a: Cell, b: Cell| {
        let (dx, dy, dz) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y), a.z.abs_diff(b.z));
        (dx + dy == 0 && dz == 1) || (dx + dy == 1 && dz <= 1)
    };
    let mut best: Vec<Cell> = Vec::new();
    let axes: [fn(Cell) -> u8; 2] = [|c| c.y, |c| c.x];
    for coord in axes {
        // Breadth-first from every cube on the first edge.
        let mut from: Vec<Option<usize>> = vec![None; cubes.len()];
        let mut seen: Vec<bool> = cubes.iter().map(|&c| coord(c) == 0).collect();
        let mut queue: std::collections::VecDeque<usize> =
            (0..cubes.len()).filter(|&i| seen[i]).collect();
        let mut end = None;
        while let Some(i) = queue.pop_front() {
            if coord(cubes[i]) == 7 {
                end = Some(i);
                break;
            }
            for j in 0..cubes.len() {
                if !seen[j] && linked(cubes[i], cubes[j]) {
                    seen[j] = true;
                    from[j] = Some(i);
                    queue.push_back(j);
                }
            }
        }
        let mut path = Vec::new();
        let mut at = end;
        while let Some(i) = at {
            path.push(cubes[i]);
            at = from[i];
        }
        if !path.is_empty() && (best.is_empty() || path.len() < best.len()) {
            best = path;
        }
    }
    best
}

/// Whether the mover, having just added the cubes `placed` (already in `own`),
/// now has a bridge. Before the placement the mover had none (the opponent's
/// placements only hide cubes), so a new bridge runs through the new piece.
#[inline(always)]
pub fn completes_bridge(own: Volume, opp: Volume, placed: Volume) -> bool {
    let vis = visible(own, opp);
    could_span(vis) && spans_in_plan(vis.columns(), placed.columns()) && spans(flood(vis, placed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::bit;

    fn layer0(cells: &[(u8, u8)]) -> Volume {
        Volume([
            cells.iter().map(|&(x, y)| bit(x, y)).fold(0, |a, b| a | b),
            0,
            0,
        ])
    }

    #[test]
    fn could_span_needs_every_row_or_every_column() {
        let column: Vec<(u8, u8)> = (0..8).map(|y| (3, y)).collect();
        assert!(could_span(layer0(&column)));
        // One row missing: no north-south chain is possible.
        assert!(!could_span(layer0(&column[..7])));
        let row: Vec<(u8, u8)> = (0..8).map(|x| (x, 5)).collect();
        assert!(could_span(layer0(&row)));
        assert!(!could_span(layer0(&row[1..])));
        // A diagonal uses every row and column but links nothing: the flood decides.
        let diag: Vec<(u8, u8)> = (0..8).map(|i| (i, i)).collect();
        assert!(could_span(layer0(&diag)));
        assert!(!has_bridge(layer0(&diag), Volume::EMPTY));
        assert!(has_bridge(layer0(&column), Volume::EMPTY));
    }

    #[test]
    fn bridge_cubes_are_those_linked_to_both_opposite_edges() {
        // A north-south column at x = 3 and a stub at (5, 2): only the
        // column is on the bridge.
        let mut cells: Vec<(u8, u8)> = (0..8).map(|y| (3, y)).collect();
        cells.push((5, 2));
        let own = layer0(&cells);
        let column = layer0(&cells[..8]);
        assert_eq!(bridge_cubes(own, Volume::EMPTY), column);
        // No bridge, no bridge cubes.
        assert!(bridge_cubes(layer0(&cells[..7]), Volume::EMPTY).is_empty());
        // The shortest chain is the column itself, north to south.
        let path = shortest_bridge(own, Volume::EMPTY);
        assert_eq!(path.len(), 8);
        assert!(path.iter().all(|c| c.x == 3));
        assert!(shortest_bridge(layer0(&cells[..7]), Volume::EMPTY).is_empty());
    }
}
