//! Max-trees: the best child of a wide node in `O(log k)` instead of a scan.
//!
//! A node with many children (the root of Caminos has 1,345) would otherwise
//! compute every child's UCB value on every visit. A max-tree keeps each
//! child's UCB key in a leaf of an implicit binary tree whose inner entries
//! hold the maximum of their two halves. The exploration scale
//! `c * sqrt(ln N)` is frozen in the max-tree and refreshed (full rebuild)
//! once the parent's visits have grown by 1/[`REFRESH_FRACTION`], so a
//! child's key only changes when that child is visited: one leaf update and
//! `log2 k` comparisons. The drift of the frozen scale is below 0.3% of the
//! exploration term, and the amortised rebuild cost is small because a node
//! has at most as many children as visits.

/// Rebuild when the parent's visits have grown by this fraction (1/32).
pub(crate) const REFRESH_FRACTION: u32 = 32;

/// Size classes of key blocks: `2 * cap` keys for `cap = 1, 2, ... 65,536`.
const CLASSES: usize = 17;

#[derive(Clone, Copy, Debug)]
struct Meta {
    /// Start of this tree's `2 * cap` keys; entry 1 is the maximum, leaves
    /// start at `cap`.
    offset: u32,
    cap_log2: u8,
    /// The exploration scale the keys were computed with.
    scale: f32,
    /// Parent visits at which the keys must be recomputed.
    refresh_at: u32,
}

/// All max-trees of one search tree.
#[derive(Clone, Debug, Default)]
pub(crate) struct MaxTrees {
    keys: Vec<f32>,
    metas: Vec<Meta>,
    free: [Vec<u32>; CLASSES],
}

impl MaxTrees {
    /// Bytes held by the keys and their bookkeeping.
    pub fn bytes(&self) -> usize {
        let free: usize = self.free.iter().map(|f| f.capacity() * 4).sum();
        self.keys.len() * 4 + self.metas.capacity() * std::mem::size_of::<Meta>() + free
    }

    /// Creates a max-tree with room for `cap` children (a power of two),
    /// every key at minus infinity.
    pub fn create(&mut self, cap: usize) -> u32 {
        let cap_log2 = cap.trailing_zeros() as u8;
        let offset = self.alloc(cap_log2);
        self.metas.push(Meta {
            offset,
            cap_log2,
            scale: 0.0,
            refresh_at: 0,
        });
        (self.metas.len() - 1) as u32
    }

    /// Number of children the tree has room for.
    #[inline]
    pub fn capacity(&self, id: u32) -> usize {
        1 << self.metas[id as usize].cap_log2
    }

    /// Doubles the room of tree `id` until it holds `cap` children; keys are
    /// reset to minus infinity and must be rebuilt.
    pub fn grow(&mut self, id: u32, cap: usize) {
        let m = self.metas[id as usize];
        self.free[m.cap_log2 as usize].push(m.offset);
        let cap_log2 = cap.trailing_zeros() as u8;
        let offset = self.alloc(cap_log2);
        let m = &mut self.metas[id as usize];
        m.offset = offset;
        m.cap_log2 = cap_log2;
    }

    fn alloc(&mut self, cap_log2: u8) -> u32 {
        let size = 2usize << cap_log2;
        let offset = match self.free[cap_log2 as usize].pop() {
            Some(o) => o as usize,
            None => {
                self.keys.resize(self.keys.len() + size, f32::NEG_INFINITY);
                self.keys.len() - size
            }
        };
        self.keys[offset..offset + size].fill(f32::NEG_INFINITY);
        offset as u32
    }

    /// The frozen exploration scale of tree `id`.
    #[inline]
    pub fn scale(&self, id: u32) -> f32 {
        self.metas[id as usize].scale
    }

    /// Whether the parent, now at `visits`, needs its keys recomputed.
    #[inline]
    pub fn stale(&self, id: u32, visits: u32) -> bool {
        visits >= self.metas[id as usize].refresh_at
    }

    /// Recomputes every key from `key(slot)` for slots `0..len` with a new
    /// scale, for a parent with `visits` visits.
    pub fn rebuild(
        &mut self,
        id: u32,
        scale: f32,
        visits: u32,
        len: usize,
        mut key: impl FnMut(usize) -> f32,
    ) {
        let m = &mut self.metas[id as usize];
        m.scale = scale;
        m.refresh_at = visits.saturating_add(visits / REFRESH_FRACTION + 1);
        let cap = 1usize << m.cap_log2;
        let keys = &mut self.keys[m.offset as usize..m.offset as usize + 2 * cap];
        for (slot, k) in keys[cap..].iter_mut().enumerate() {
            *k = if slot < len {
                key(slot)
            } else {
                f32::NEG_INFINITY
            };
        }
        for i in (1..cap).rev() {
            keys[i] = keys[2 * i].max(keys[2 * i + 1]);
        }
    }

    /// Sets the key of `slot` and updates the maxima above it.
    #[inline]
    pub fn set(&mut self, id: u32, slot: usize, key: f32) {
        let m = self.metas[id as usize];
        let cap = 1usize << m.cap_log2;
        let keys = &mut self.keys[m.offset as usize..m.offset as usize + 2 * cap];
        let mut i = cap + slot;
        keys[i] = key;
        while i > 1 {
            i /= 2;
            let best = keys[2 * i].max(keys[2 * i + 1]);
            if keys[i] == best {
                break;
            }
            keys[i] = best;
        }
    }

    /// The slot with the highest key (the lowest slot among equals) and that
    /// key; the key is minus infinity if no slot is selectable.
    #[inline]
    pub fn best(&self, id: u32) -> (usize, f32) {
        let m = self.metas[id as usize];
        let cap = 1usize << m.cap_log2;
        let keys = &self.keys[m.offset as usize..m.offset as usize + 2 * cap];
        let mut i = 1;
        while i < cap {
            i = if keys[2 * i] >= keys[2 * i + 1] {
                2 * i
            } else {
                2 * i + 1
            };
        }
        (i - cap, keys[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_the_maximum_through_updates_and_growth() {
        let mut m = MaxTrees::default();
        let id = m.create(4);
        assert_eq!(m.best(id).1, f32::NEG_INFINITY);
        let vals = [0.3, 0.9, 0.1];
        m.rebuild(id, 1.0, 100, 3, |s| vals[s]);
        assert_eq!(m.best(id), (1, 0.9));
        m.set(id, 1, 0.2);
        assert_eq!(m.best(id), (0, 0.3));
        m.set(id, 3, 0.25);
        m.set(id, 0, 0.25);
        // Ties go to the lowest slot.
        assert_eq!(m.best(id), (0, 0.25));
        m.grow(id, 8);
        assert_eq!(m.capacity(id), 8);
        let vals = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.05];
        m.rebuild(id, 1.0, 100, 7, |s| vals[s]);
        assert_eq!(m.best(id), (5, 0.6));
        assert!(!m.stale(id, 103));
        assert!(m.stale(id, 104));
        // A second tree reuses the freed block of 4.
        let before = m.keys.len();
        let other = m.create(4);
        assert_eq!(m.keys.len(), before);
        assert_eq!(m.best(other).1, f32::NEG_INFINITY);
    }
}
