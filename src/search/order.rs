//! The order in which a node tries its untried moves.
//!
//! Each node walks a pseudo-random permutation of the move ids
//! `0..MOVE_SPACE`: the affine map `k -> (a*k + b) mod p` for a prime
//! `p >= MOVE_SPACE`, skipping ids that are out of range or illegal. The
//! multiplier and offset come from a per-node salt that is recomputed on the
//! way down from the root (it is a hash of the path), so a node stores only
//! its cursor `k`, and no move list is kept.
//! Where moves have ranks, the walk goes round once per rank and takes on
//! its `r`th round only the moves of rank `r`: the best-ranked moves come
//! first, shuffled among themselves.

/// The largest move space a tree supports: the cursor and move ids are `u16`.
pub const MAX_MOVE_SPACE: usize = 65_521;

/// Walks per-node permutations of `0..space`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveOrder {
    /// A prime `>= space`: the length of the walk.
    p: u32,
    space: u32,
    /// Rounds of the walk: one per rank.
    rounds: u32,
}

impl MoveOrder {
    /// The order for a game with `space` move ids and `ranks` move ranks.
    pub fn new(space: usize, ranks: usize) -> Self {
        assert!(
            (1..=MAX_MOVE_SPACE).contains(&space),
            "move space {space} outside 1..={MAX_MOVE_SPACE}"
        );
        let mut p = space.max(2) as u32;
        while !is_prime(p) {
            p += 1;
        }
        assert!(
            ranks >= 1 && ranks as u64 * u64::from(p) <= u64::from(u16::MAX),
            "{ranks} ranks of {space} moves do not fit a node's cursor"
        );
        MoveOrder {
            p,
            space: space as u32,
            rounds: ranks as u32,
        }
    }

    /// Whether the walk goes by rank (more than one round).
    #[inline]
    pub fn ranked(&self) -> bool {
        self.rounds > 1
    }

    /// The rank whose round a node's walk is in at `cursor`.
    #[inline]
    pub fn round(&self, cursor: u32) -> u32 {
        cursor / self.p
    }

    /// The cursor value of a node whose moves have all been tried.
    #[inline]
    pub fn end(&self) -> u32 {
        self.p * self.rounds
    }

    /// Advances `cursor` to just past the next id that is in range, of the
    /// current round's rank (`rank`) and accepted by `legal`, and returns
    /// that id; `None` (with the cursor at [`MoveOrder::end`]) once every
    /// round is used up. `rank` is only asked about legal ids.
    #[inline]
    pub fn next(
        &self,
        salt: u64,
        cursor: &mut u32,
        mut legal: impl FnMut(usize) -> bool,
        mut rank: impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        let p = self.p;
        let a = 1 + (salt % u64::from(p - 1)) as u32;
        let b = ((salt >> 32) % u64::from(p)) as u32;
        let mut k = *cursor;
        while k < self.end() {
            let round = (k / p) as usize;
            let round_end = (k / p + 1) * p;
            // One modulo to resume, then the walk only adds `a` and wraps.
            let mut id = ((u64::from(a) * u64::from(k % p) + u64::from(b)) % u64::from(p)) as u32;
            while k < round_end {
                k += 1;
                let this = id;
                id += a;
                if id >= p {
                    id -= p;
                }
                if this < self.space
                    && legal(this as usize)
                    && (self.rounds == 1 || rank(this as usize) == round)
                {
                    *cursor = k;
                    return Some(this as usize);
                }
            }
        }
        *cursor = self.end();
        None
    }
}

/// The salt of a child, from its parent's salt and the move into it.
#[inline]
pub(crate) fn child_salt(parent: u64, move_id: usize) -> u64 {
    mix(parent ^ (move_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// SplitMix64's finaliser: a cheap, well-spread 64-bit hash.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn is_prime(n: u32) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(order: &MoveOrder, salt: u64, legal: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut cursor = 0;
        let mut out = Vec::new();
        while let Some(id) = order.next(salt, &mut cursor, &legal, |id| id % order.rounds as usize)
        {
            out.push(id);
        }
        assert_eq!(cursor, order.end());
        out
    }

    #[test]
    fn every_id_once_in_a_salted_order() {
        for space in [1, 2, 9, 100, 2497] {
            let order = MoveOrder::new(space, 1);
            for salt in [0, 1, 12345, u64::MAX, mix(7)] {
                let mut seen = walk(&order, salt, |_| true);
                seen.sort_unstable();
                assert_eq!(seen, (0..space).collect::<Vec<_>>());
            }
        }
        let order = MoveOrder::new(2497, 1);
        assert_ne!(walk(&order, 1, |_| true), walk(&order, 2, |_| true));
    }

    #[test]
    fn resumes_from_cursor_and_skips_illegal() {
        let order = MoveOrder::new(50, 1);
        let full = walk(&order, 99, |id| id % 3 == 0);
        assert_eq!(full.len(), 17);
        let mut cursor = 0;
        let mut resumed = Vec::new();
        while let Some(id) = order.next(99, &mut cursor, |id| id % 3 == 0, |_| 0) {
            resumed.push(id);
        }
        assert_eq!(full, resumed);
    }

    #[test]
    fn ranked_moves_come_rank_by_rank_each_once() {
        let order = MoveOrder::new(100, 3);
        let ids = walk(&order, 7, |id| id % 2 == 0);
        assert_eq!(ids.len(), 50);
        let ranks: Vec<usize> = ids.iter().map(|id| id % 3).collect();
        assert!(ranks.is_sorted(), "{ranks:?}");
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).step_by(2).collect::<Vec<_>>());
        assert_eq!(order.end(), 3 * 101);
    }
}
