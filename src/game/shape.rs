//! The 51 distinct shapes: every piece in every orientation, deduplicated,
//! each with its canonical orientation name.

use std::fmt;

use super::orientation::{Face, Orientation};
use super::piece::Piece;

/// Number of distinct shapes (L 24, T 12, Z 12, O 3).
pub const SHAPE_COUNT: usize = 51;

/// A piece in one orientation, normalised so its smallest x, y and z are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The piece.
    pub piece: Piece,
    /// The canonical name, as listed in RULES.md section 3.
    pub orientation: Orientation,
    /// The four cells `(x, y, z)`, sorted.
    pub cells: [[u8; 3]; 4],
    /// Bounding box extent along x, y and z (each 1..=3).
    pub extent: [u8; 3],
}

impl Shape {
    fn new(piece: Piece, orientation: Orientation) -> Shape {
        let cells = orientation.apply(piece).map(|c| c.map(|v| v as u8));
        let extent = [0, 1, 2].map(|a| cells.iter().map(|c| c[a]).max().unwrap_or(0) + 1);
        Shape {
            piece,
            orientation,
            cells,
            extent,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.piece, self.orientation)
    }
}

/// The canonical orientation names of each piece, from RULES.md section 3.
/// Every other name gives the same shape as one of these.
pub const CANONICAL_NAMES: [(Piece, &str); 4] = [
    (
        Piece::L,
        "T0 T90 T180 T270 B0 B90 B180 B270 N0 N90 N180 N270 \
         S0 S90 S180 S270 E0 E90 E180 E270 W0 W90 W180 W270",
    ),
    (Piece::T, "T0 T90 T180 T270 N0 N90 S0 S90 E0 E90 E180 E270"),
    (Piece::Z, "T0 T90 B0 B90 N0 N90 S0 S90 E0 E90 W0 W90"),
    (Piece::O, "T0 N0 E0"),
];

/// Reads an orientation name such as `E180` (the constant list above is well formed).
fn name(s: &str) -> Orientation {
    let face = s.chars().next().and_then(Face::from_letter);
    let degrees = s[1..].parse().ok();
    face.zip(degrees)
        .and_then(|(f, d)| Orientation::from_degrees(f, d))
        .expect("canonical names are well formed")
}

/// All distinct shapes, grouped by piece (L, T, Z, O), each group in the
/// order of [`CANONICAL_NAMES`].
pub fn all_shapes() -> Vec<Shape> {
    CANONICAL_NAMES
        .iter()
        .flat_map(|&(piece, names)| {
            names
                .split_whitespace()
                .map(move |n| Shape::new(piece, name(n)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canonical_names_give_51_distinct_shapes_covering_all_24_names() {
        let shapes = all_shapes();
        assert_eq!(shapes.len(), SHAPE_COUNT);
        for (i, a) in shapes.iter().enumerate() {
            for b in &shapes[i + 1..] {
                assert!(
                    a.piece != b.piece || a.cells != b.cells,
                    "{a} and {b} are the same shape"
                );
            }
        }
        for piece in Piece::ALL {
            let distinct: Vec<_> = shapes.iter().filter(|s| s.piece == piece).collect();
            for o in Orientation::all() {
                let cells = Shape::new(piece, o).cells;
                assert!(
                    distinct.iter().any(|s| s.cells == cells),
                    "{piece} {o} is none of the canonical shapes"
                );
            }
        }
    }

    #[test]
    fn every_shape_is_four_connected_distinct_cells() {
        for s in all_shapes() {
            for (i, a) in s.cells.iter().enumerate() {
                for b in &s.cells[i + 1..] {
                    assert_ne!(a, b, "{s}");
                }
                let touching = s
                    .cells
                    .iter()
                    .any(|b| a.iter().zip(b).map(|(p, q)| p.abs_diff(*q)).sum::<u8>() == 1);
                assert!(touching, "{s}: a cube touches no other by a face");
            }
        }
    }
}
