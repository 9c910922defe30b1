//! Legal placements: testing one, listing all, and drawing one at random.
//!
//! Listing uses one mask per shape: a shape's legal positions are the
//! positions where its bounding box fits, ANDed with each cube's layer of
//! free cells and each support cell's layer of occupied cells, each shifted
//! by the cube's offset. That is eight shifts and ANDs per shape.

use rand::RngCore;

use super::position::Position;
use super::table::{PLACEMENT_COUNT, Placement, ShapeGen, Sources, table};

/// A fixed-capacity list of placements, filled without allocating.
#[derive(Clone)]
pub struct MoveList {
    moves: [Placement; PLACEMENT_COUNT],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Placement(0); PLACEMENT_COUNT],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, p: Placement) {
        self.moves[self.len] = p;
        self.len += 1;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Placement];
    fn deref(&self) -> &[Placement] {
        &self.moves[..self.len]
    }
}

/// The positions (bits `y * 8 + x`) where shape `g` can be placed legally.
#[inline(always)]
fn legal_positions(g: &ShapeGen, src: &Sources) -> u64 {
    let mut m = g.fits;
    for &(s, shift) in &g.terms {
        m &= src[s as usize] >> shift;
    }
    m
}

/// The index of the `k`-th set bit of `m` (counting from 0); `k < m.count_ones()`.
#[inline(always)]
fn select_bit(mut m: u64, mut k: u32) -> u32 {
    let mut base = 0;
    loop {
        let c = (m & 0xFFFF).count_ones();
        if k < c {
            break;
        }
        k -= c;
        m >>= 16;
        base += 16;
    }
    for _ in 0..k {
        m &= m - 1;
    }
    base + m.trailing_zeros()
}

/// A uniform integer in `0..n` (`n > 0`), exactly unbiased (Lemire's method).
#[inline(always)]
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Random draws from the table before falling back to full enumeration.
const REJECTION_TRIES: u32 = 8;

impl Position {
    /// The layers the shape masks read.
    #[inline(always)]
    fn sources(&self) -> Sources {
        let [o0, o1, o2] = self.occupied().0;
        [!o0, !o1, !o2, o0, o1, !0]
    }

    /// Calls `f` with every legal placement, in table order. Nothing when the game is over.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(Placement)) {
        if self.status().is_over() {
            return;
        }
        let t = table();
        let src = self.sources();
        let avail = self.available_mask();
        for piece in 0..4 {
            if avail & (1 << piece) == 0 {
                continue;
            }
            for s in t.piece_shapes[piece].clone() {
                let mut m = legal_positions(&t.gens[s], &src);
                while m != 0 {
                    let pos = m.trailing_zeros() as usize;
                    m &= m - 1;
                    f(Placement(t.id_at[s][pos]));
                }
            }
        }
    }

    /// Fills `out` with every legal placement, in table order.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.len = 0;
        self.for_each_legal(|p| out.push(p));
    }

    /// Number of legal placements.
    pub fn count_legal(&self) -> usize {
        if self.status().is_over() {
            return 0;
        }
        let t = table();
        let src = self.sources();
        let avail = self.available_mask();
        let mut n = 0;
        for piece in 0..4 {
            if avail & (1 << piece) != 0 {
                for s in t.piece_shapes[piece].clone() {
                    n += legal_positions(&t.gens[s], &src).count_ones() as usize;
                }
            }
        }
        n
    }

    /// Whether the side to move has any legal placement (ignores the status).
    #[inline]
    pub(crate) fn has_legal_move(&self) -> bool {
        let t = table();
        let src = self.sources();
        let avail = self.available_mask();
        (0..4).any(|piece| {
            avail & (1 << piece) != 0
                && t.piece_shapes[piece]
                    .clone()
                    .any(|s| legal_positions(&t.gens[s], &src) != 0)
        })
    }

    /// Whether `p` is legal for the side to move.
    #[inline(always)]
    pub fn is_legal(&self, p: Placement) -> bool {
        !self.status().is_over() && self.fits(p)
    }

    /// Whether `p` fits: piece available, no overlap, supported (status not checked).
    #[inline(always)]
    fn fits(&self, p: Placement) -> bool {
        let e = p.entry();
        let occ = self.occupied().0;
        self.available_mask() & (1 << e.piece.index()) != 0
            && ((e.cells.0[0] & occ[0]) | (e.cells.0[1] & occ[1]) | (e.cells.0[2] & occ[2])) == 0
            && ((e.support[0] & !occ[0]) | (e.support[1] & !occ[1])) == 0
    }

    /// A legal placement drawn uniformly at random among all legal placements
    /// of every piece type the mover still has, or `None` if there is none.
    /// Ignores the status: the caller knows the game is not over.
    ///
    /// A few draws from the table entries of the available pieces come first
    /// (exactly uniform over the legal ones); when they keep missing, all legal
    /// placements are counted and one is picked by rank.
    #[inline]
    pub fn random_move<R: RngCore + ?Sized>(&self, rng: &mut R) -> Option<Placement> {
        let t = table();
        let avail = self.available_mask();
        let mut span = 0u32;
        for piece in 0..4 {
            if avail & (1 << piece) != 0 {
                span += t.piece_entries[piece].len() as u32;
            }
        }
        if span == 0 {
            return None;
        }
        let occ = self.occupied().0;
        for _ in 0..REJECTION_TRIES {
            let mut r = below(rng, span) as usize;
            let mut id = 0;
            for piece in 0..4 {
                if avail & (1 << piece) != 0 {
                    let range = &t.piece_entries[piece];
                    if r < range.len() {
                        id = range.start + r;
                        break;
                    }
                    r -= range.len();
                }
            }
            let e = &t.entries[id];
            if ((e.cells.0[0] & occ[0]) | (e.cells.0[1] & occ[1]) | (e.cells.0[2] & occ[2])) == 0
                && ((e.support[0] & !occ[0]) | (e.support[1] & !occ[1])) == 0
            {
                return Some(Placement(id as u16));
            }
        }
        self.random_move_by_rank(rng)
    }

    /// Counts every legal placement and picks one uniformly by rank.
    fn random_move_by_rank<R: RngCore + ?Sized>(&self, rng: &mut R) -> Option<Placement> {
        let t = table();
        let src = self.sources();
        let avail = self.available_mask();
        let mut masks = [0u64; super::shape::SHAPE_COUNT];
        let mut total = 0u32;
        for piece in 0..4 {
            if avail & (1 << piece) != 0 {
                for s in t.piece_shapes[piece].clone() {
                    masks[s] = legal_positions(&t.gens[s], &src);
                    total += masks[s].count_ones();
                }
            }
        }
        if total == 0 {
            return None;
        }
        let mut r = below(rng, total);
        for (s, &m) in masks.iter().enumerate() {
            let c = m.count_ones();
            if r < c {
                return Some(Placement(t.id_at[s][select_bit(m, r) as usize]));
            }
            r -= c;
        }
        unreachable!("rank below the total count")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_bit_finds_each_set_bit() {
        let m: u64 = 0x8000_0001_0010_0F05;
        let bits: Vec<u32> = (0..64).filter(|i| m >> i & 1 == 1).collect();
        for (k, &b) in bits.iter().enumerate() {
            assert_eq!(select_bit(m, k as u32), b);
        }
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut rng, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }
}
