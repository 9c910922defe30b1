//! 8x8 layers as `u64` bitboards and the three-layer volume built from them.
//!
//! Bit `y * 8 + x` of a layer is the cell at column `(x, y)`. Shifts that
//! move cells sideways mask off the file they would wrap into, so nothing
//! ever crosses the board's edge.

/// Cells with x = 0 (the west edge).
pub(crate) const WEST: u64 = 0x0101_0101_0101_0101;
/// Cells with x = 7 (the east edge).
pub(crate) const EAST: u64 = WEST << 7;
/// Cells with y = 0 (the north edge).
pub(crate) const NORTH: u64 = 0xFF;
/// Cells with y = 7 (the south edge).
pub(crate) const SOUTH: u64 = NORTH << 56;
/// The board's rim: the cells of the bottom perimeter when taken at z = 0.
pub(crate) const RIM: u64 = WEST | EAST | NORTH | SOUTH;

/// Number of layers (heights 0, 1, 2).
pub(crate) const LAYERS: usize = 3;

/// A layer plus its four orthogonal neighbours, without wrapping.
#[inline(always)]
pub(crate) fn spread(b: u64) -> u64 {
    b | ((b << 1) & !WEST) | ((b >> 1) & !EAST) | (b << 8) | (b >> 8)
}

/// The bit of column `(x, y)` in a layer (`x` and `y` below 8).
#[inline(always)]
pub(crate) const fn bit(x: u8, y: u8) -> u64 {
    1u64 << (y * 8 + x)
}

/// A set of cells of the 8x8x3 volume: one `u64` per layer (z = 0, 1,
/// 2), bit `y * 8 + x` for column `(x, y)`.
///
/// ```
/// use cabra::game::{Cell, Volume};
///
/// let mut v = Volume::EMPTY;
/// v.insert(Cell::new(0, 3, 1).unwrap());
/// assert_eq!(v.count(), 1);
/// assert_ne!(v.columns() & Volume::WEST, 0);
/// assert_eq!(v.layers()[1], 1 << (3 * 8));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Volume(pub(crate) [u64; LAYERS]);

impl Volume {
    /// The set whose layer `z` is `layers[z]` (every bit is a cell).
    pub const fn from_layers(layers: [u64; 3]) -> Volume {
        Volume(layers)
    }

    /// The three layers, bottom first.
    pub const fn layers(self) -> [u64; 3] {
        self.0
    }

    /// The empty set.
    pub const EMPTY: Volume = Volume([0; LAYERS]);

    /// The columns with x = 0 (the west edge), as bits of
    /// [`Volume::columns`].
    pub const WEST: u64 = WEST;
    /// The columns with x = 7 (the east edge).
    pub const EAST: u64 = EAST;
    /// The columns with y = 0 (the north edge).
    pub const NORTH: u64 = NORTH;
    /// The columns with y = 7 (the south edge).
    pub const SOUTH: u64 = SOUTH;
    /// The columns of the board's rim: all four edges.
    pub const RIM: u64 = RIM;

    /// Whether no cell is set.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    /// Number of cells set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub fn intersects(self, other: Volume) -> bool {
        ((self.0[0] & other.0[0]) | (self.0[1] & other.0[1]) | (self.0[2] & other.0[2])) != 0
    }

    /// Whether every cell of `self` is in `other`.
    #[inline(always)]
    pub fn is_subset(self, other: Volume) -> bool {
        ((self.0[0] & !other.0[0]) | (self.0[1] & !other.0[1]) | (self.0[2] & !other.0[2])) == 0
    }

    /// The columns that hold a cell at any height.
    #[inline(always)]
    pub fn columns(self) -> u64 {
        self.0[0] | self.0[1] | self.0[2]
    }

    /// Whether the cell `(x, y, z)` is set.
    #[inline]
    pub fn contains(self, c: crate::game::Cell) -> bool {
        self.0[c.z as usize] & bit(c.x, c.y) != 0
    }

    /// Adds the cell `(x, y, z)`.
    #[inline]
    pub fn insert(&mut self, c: crate::game::Cell) {
        self.0[c.z as usize] |= bit(c.x, c.y);
    }

    /// The cells in ascending `XYZ` order (x first, then y, then z).
    pub fn cells(self) -> impl Iterator<Item = crate::game::Cell> {
        (0..8u8).flat_map(move |x| {
            (0..8u8).flat_map(move |y| {
                (0..LAYERS as u8)
                    .map(move |z| crate::game::Cell { x, y, z })
                    .filter(move |&c| self.contains(c))
            })
        })
    }
}

impl std::ops::BitOr for Volume {
    type Output = Volume;
    #[inline(always)]
    fn bitor(self, o: Volume) -> Volume {
        Volume([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
}

impl std::ops::BitAnd for Volume {
    type Output = Volume;
    #[inline(always)]
    fn bitand(self, o: Volume) -> Volume {
        Volume([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}

impl std::ops::BitOrAssign for Volume {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Volume) {
        *self = *self | o;
    }
}

impl std::ops::Not for Volume {
    type Output = Volume;
    #[inline(always)]
    fn not(self) -> Volume {
        Volume([!self.0[0], !self.0[1], !self.0[2]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_does_not_wrap_across_edges() {
        // A cube on the east edge must not leak to x = 0 of the next row.
        let east = bit(7, 3);
        let s = spread(east);
        assert_eq!(s, east | bit(6, 3) | bit(7, 2) | bit(7, 4));
        // A cube on the west edge must not leak to x = 7 of the previous row.
        let west = bit(0, 3);
        assert_eq!(spread(west), west | bit(1, 3) | bit(0, 2) | bit(0, 4));
        // Corners lose the neighbours that would be off the board.
        assert_eq!(spread(bit(0, 0)), bit(0, 0) | bit(1, 0) | bit(0, 1));
        assert_eq!(spread(bit(7, 7)), bit(7, 7) | bit(6, 7) | bit(7, 6));
    }

    #[test]
    fn edge_masks_hold_eight_cells_each() {
        for m in [WEST, EAST, NORTH, SOUTH] {
            assert_eq!(m.count_ones(), 8);
        }
        assert_eq!(RIM.count_ones(), 28);
    }
}
