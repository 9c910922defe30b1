//! The placement table: every shape at every position where it fits inside
//! the volume and touches the board (2,497 entries), built once.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use super::bitboard::{RIM, Volume, bit};
use super::cell::Cell;
use super::error::RangeError;
use super::piece::Piece;
use super::shape::{SHAPE_COUNT, Shape, all_shapes};

/// Number of entries in the table.
pub const PLACEMENT_COUNT: usize = 2497;

/// A placement: one of the 2,497 ways a piece fits in the volume, an
/// index into the placement table. Read one from notation
/// (`"L E180 110".parse()`), or make one from its index with
/// [`Placement::try_from`]; whether it is legal depends on the position.
///
/// ```
/// use cabra::game::Placement;
/// let p: Placement = "L E180 110".parse().unwrap();
/// assert_eq!(Placement::try_from(p.index()), Ok(p));
/// assert!(Placement::try_from(2497_usize).is_err());
/// assert_eq!(Placement::all().count(), 2497);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement(pub(crate) u16);

impl TryFrom<usize> for Placement {
    type Error = RangeError;
    /// The placement with table index `index`, below [`PLACEMENT_COUNT`].
    fn try_from(index: usize) -> Result<Placement, RangeError> {
        if index < PLACEMENT_COUNT {
            Ok(Placement(index as u16))
        } else {
            Err(RangeError::Placement(index))
        }
    }
}

impl TryFrom<u16> for Placement {
    type Error = RangeError;
    /// As `Placement::try_from(usize)`.
    fn try_from(index: u16) -> Result<Placement, RangeError> {
        Placement::try_from(usize::from(index))
    }
}

impl Placement {
    /// Every placement, in table order.
    pub fn all() -> impl Iterator<Item = Placement> {
        (0..PLACEMENT_COUNT as u16).map(Placement)
    }

    /// The table entry of this placement.
    #[inline(always)]
    pub fn entry(self) -> &'static Entry {
        &table().entries[self.0 as usize]
    }

    /// Index into the table.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Placement {
    /// Canonical notation, e.g. `L E180 110`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.entry();
        write!(f, "{} {}{}0", table().shapes[e.shape as usize], e.x, e.y)
    }
}

/// One placement: a shape at a position, with the masks that decide legality.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The four cells.
    pub cells: Volume,
    /// Cells (layers 0 and 1) that must already be occupied: the cell under
    /// each cube at z > 0 that is not part of the piece itself.
    pub(crate) support: [u64; 2],
    /// The piece type.
    pub piece: Piece,
    /// Index into [`Table::shapes`].
    pub shape: u8,
    /// Position: smallest x of the bounding box.
    pub x: u8,
    /// Position: smallest y of the bounding box.
    pub y: u8,
    /// Whether a cube lies on the bottom perimeter (z = 0, on the rim).
    pub on_perimeter: bool,
}

impl Entry {
    /// The cells that must be occupied before this placement is legal: the
    /// cell under each cube above the board that the piece does not fill
    /// itself (empty for a piece lying flat).
    pub fn support_cells(&self) -> Volume {
        Volume([self.support[0], self.support[1], 0])
    }

    /// Whether the cells are free and every support cell is occupied in a
    /// volume occupied as `occ` (legality but for the piece being available).
    #[inline(always)]
    pub fn fits(&self, occ: &[u64; 3]) -> bool {
        let c = &self.cells.0;
        ((c[0] & occ[0]) | (c[1] & occ[1]) | (c[2] & occ[2])) == 0
            && ((self.support[0] & !occ[0]) | (self.support[1] & !occ[1])) == 0
    }
}

impl std::fmt::Debug for Table {
    /// The counts, not the 2,497 entries.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("entries", &self.entries.len())
            .field("shapes", &self.shapes.len())
            .finish_non_exhaustive()
    }
}

/// The table, the shapes, and the lookups built with them ([`table`]).
///
/// ```
/// use cabra::game::{Piece, table};
/// let t = table();
/// assert_eq!(t.entries().len(), 2497);
/// assert_eq!(t.shapes().len(), 51);
/// assert_eq!(t.shapes_of(Piece::O).len(), 3);
/// assert!(t.placements_of(Piece::O).all(|p| p.entry().piece == Piece::O));
/// ```
pub struct Table {
    /// All 2,497 placements, grouped by piece (L, T, Z, O), then shape, then position.
    pub(crate) entries: Vec<Entry>,
    /// The 51 shapes.
    pub(crate) shapes: Vec<Shape>,
    /// Range of shape indices of each piece.
    pub(crate) piece_shapes: [std::ops::Range<usize>; 4],
    /// Range of entry indices of each piece.
    pub(crate) piece_entries: [std::ops::Range<usize>; 4],
    /// For each set of available piece types (bit `i` = piece `i`), how to
    /// map a uniform draw to an entry of those pieces.
    pub(crate) draw_maps: [DrawMap; 16],
    /// The entry of each shape at each position (`u16::MAX` when it does not fit).
    pub(crate) id_at: [[u16; 64]; SHAPE_COUNT],
    shape_by_cells: HashMap<[[u8; 3]; 4], u8>,
}

/// Maps a number in `0..span` to the table entries of a set of piece types,
/// whose index ranges are concatenated in table order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DrawMap {
    /// Total number of entries of the available pieces.
    pub span: u32,
    /// Where the second, third and fourth range start (`u32::MAX` when unused).
    pub starts: [u32; 3],
    /// What to add to a draw in each range to get the entry index.
    pub offsets: [u32; 4],
}

impl DrawMap {
    fn new(avail: usize, piece_entries: &[std::ops::Range<usize>; 4]) -> DrawMap {
        let mut m = DrawMap {
            starts: [u32::MAX; 3],
            ..DrawMap::default()
        };
        let mut seg = 0;
        for (piece, range) in piece_entries.iter().enumerate() {
            if avail & (1 << piece) == 0 {
                continue;
            }
            if seg > 0 {
                m.starts[seg - 1] = m.span;
            }
            m.offsets[seg] = range.start as u32 - m.span;
            m.span += range.len() as u32;
            seg += 1;
        }
        m
    }

    /// The entry index of draw `r` (`r < span`), without branches.
    #[inline(always)]
    pub fn entry_index(&self, r: u32) -> usize {
        let seg = (r >= self.starts[0]) as usize
            + (r >= self.starts[1]) as usize
            + (r >= self.starts[2]) as usize;
        (r + self.offsets[seg]) as usize
    }
}

static TABLE: LazyLock<Table> = LazyLock::new(Table::build);

/// The placement table (built on first use).
#[inline(always)]
pub fn table() -> &'static Table {
    &TABLE
}

impl Table {
    fn build() -> Table {
        let shapes = all_shapes();
        let mut entries = Vec::with_capacity(PLACEMENT_COUNT);
        let mut id_at = [[u16::MAX; 64]; SHAPE_COUNT];
        let mut piece_shapes = [0..0, 0..0, 0..0, 0..0];
        let mut piece_entries = [0..0, 0..0, 0..0, 0..0];
        for (si, s) in shapes.iter().enumerate() {
            let p = s.piece.index();
            if piece_shapes[p].is_empty() {
                piece_shapes[p] = si..si;
                piece_entries[p] = entries.len()..entries.len();
            }
            for y in 0..=8 - s.extent[1] {
                for x in 0..=8 - s.extent[0] {
                    id_at[si][(y * 8 + x) as usize] = entries.len() as u16;
                    entries.push(entry(si, s, x, y));
                }
            }
            piece_shapes[p].end = si + 1;
            piece_entries[p].end = entries.len();
        }
        let shape_by_cells = shapes
            .iter()
            .enumerate()
            .map(|(i, s)| (s.cells, i as u8))
            .collect();
        let draw_maps = std::array::from_fn(|avail| DrawMap::new(avail, &piece_entries));
        Table {
            draw_maps,
            entries,
            shapes,
            piece_shapes,
            piece_entries,
            id_at,
            shape_by_cells,
        }
    }

    /// All 2,497 entries in table order, grouped by piece (L, T, Z, O),
    /// then shape, then position: `entries()[p.index()]` is `p.entry()`.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The 51 shapes, grouped by piece; [`Entry::shape`] indexes them.
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// The indices into [`Table::shapes`] of the shapes of `piece`.
    pub fn shapes_of(&self, piece: Piece) -> std::ops::Range<usize> {
        self.piece_shapes[piece.index()].clone()
    }

    /// Every placement of `piece`, in table order.
    pub fn placements_of(&self, piece: Piece) -> impl Iterator<Item = Placement> + use<> {
        self.piece_entries[piece.index()]
            .clone()
            .map(|i| Placement(i as u16))
    }

    /// The placement of shape `shape` with its bounding box's smallest corner
    /// at `(x, y, 0)`, if it fits on the board.
    pub fn placement_at(&self, shape: usize, x: u8, y: u8) -> Option<Placement> {
        if x > 7 || y > 7 || shape >= SHAPE_COUNT {
            return None;
        }
        let id = self.id_at[shape][(y * 8 + x) as usize];
        (id != u16::MAX).then_some(Placement(id))
    }

    /// The shape index of four cells already normalised (smallest x, y, z = 0), sorted.
    pub fn shape_of_cells(&self, cells: &[[u8; 3]; 4]) -> Option<usize> {
        self.shape_by_cells.get(cells).map(|&i| i as usize)
    }

    /// The shape with the given piece and orientation name (any of the 24).
    pub fn shape_of(&self, piece: Piece, o: super::orientation::Orientation) -> usize {
        let cells = o.apply(piece).map(|c| c.map(|v| v as u8));
        self.shape_of_cells(&cells)
            .expect("every orientation of a piece is one of the 51 shapes")
    }
}

fn entry(si: usize, s: &Shape, x: u8, y: u8) -> Entry {
    let mut cells = Volume::EMPTY;
    for &[dx, dy, dz] in &s.cells {
        cells.insert(Cell::at(x + dx, y + dy, dz));
    }
    let mut support = [0u64; 2];
    for &[dx, dy, dz] in &s.cells {
        if dz > 0 && !s.cells.contains(&[dx, dy, dz - 1]) {
            support[dz as usize - 1] |= bit(x + dx, y + dy);
        }
    }
    Entry {
        cells,
        support,
        piece: s.piece,
        shape: si as u8,
        x,
        y,
        on_perimeter: cells.0[0] & RIM != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_2497_entries_split_as_the_rules_say() {
        let t = table();
        assert_eq!(t.entries.len(), PLACEMENT_COUNT);
        let per_piece: Vec<usize> = t.piece_entries.iter().map(|r| r.len()).collect();
        assert_eq!(per_piece, [1168, 584, 584, 161]);
        for (p, r) in t.piece_entries.iter().enumerate() {
            assert!(t.entries[r.clone()].iter().all(|e| e.piece.index() == p));
        }
    }

    #[test]
    fn l_e180_110_has_the_cells_of_the_rules_example() {
        let t = table();
        let shape = t.shape_of(
            Piece::L,
            crate::game::Orientation::from_degrees(crate::game::Face::E, 180).unwrap(),
        );
        let p = t.placement_at(shape, 1, 1).unwrap();
        let cells: Vec<String> = p.entry().cells.cells().map(|c| c.to_string()).collect();
        assert_eq!(cells, ["110", "120", "121", "122"]);
        assert_eq!(p.to_string(), "L E180 110");
        // 121 stands on 120 (own cube), 122 on 121: no outside support.
        assert_eq!(p.entry().support, [0, 0]);
    }

    #[test]
    fn draw_maps_cover_exactly_the_entries_of_the_available_pieces() {
        let t = table();
        for avail in 0..16 {
            let m = &t.draw_maps[avail];
            let got: Vec<usize> = (0..m.span).map(|r| m.entry_index(r)).collect();
            let want: Vec<usize> = (0..4)
                .filter(|p| avail & (1 << p) != 0)
                .flat_map(|p| t.piece_entries[p].clone())
                .collect();
            assert_eq!(got, want, "pieces {avail:04b}");
        }
    }

    #[test]
    fn entries_are_distinct_and_inside_the_volume() {
        let t = table();
        let mut seen = std::collections::HashSet::new();
        for e in &t.entries {
            assert_eq!(e.cells.count(), 4);
            assert!(e.cells.0[0] != 0, "every entry touches the board");
            assert!(seen.insert(e.cells), "duplicate entry");
        }
    }
}
