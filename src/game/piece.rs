//! The four tetromino types and their canonical (`T0`) cells.

use std::fmt;

/// A tetromino type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// `###` over `#..`
    L,
    /// `###` over `.#.`
    T,
    /// `##.` over `.##`
    Z,
    /// `##` over `##`
    O,
}

impl Piece {
    /// All four, in table order.
    pub const ALL: [Piece; 4] = [Piece::L, Piece::T, Piece::Z, Piece::O];

    /// How many of this piece each player starts with.
    pub const fn start_count(self) -> u8 {
        match self {
            Piece::O => 2,
            _ => 4,
        }
    }

    /// Index 0..4 (L, T, Z, O).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with index `i` (0..4: L, T, Z, O), or `None`.
    pub const fn from_index(i: usize) -> Option<Piece> {
        match i {
            0 => Some(Piece::L),
            1 => Some(Piece::T),
            2 => Some(Piece::Z),
            3 => Some(Piece::O),
            _ => None,
        }
    }

    /// The letter used in notation.
    pub const fn letter(self) -> char {
        match self {
            Piece::L => 'L',
            Piece::T => 'T',
            Piece::Z => 'Z',
            Piece::O => 'O',
        }
    }

    /// Reads a piece letter, in either case.
    pub fn from_letter(c: char) -> Option<Piece> {
        match c.to_ascii_uppercase() {
            'L' => Some(Piece::L),
            'T' => Some(Piece::T),
            'Z' => Some(Piece::Z),
            'O' => Some(Piece::O),
            _ => None,
        }
    }

    /// The canonical cells `(x, y, z)`, lying flat at z = 0 (RULES.md section 2).
    pub const fn canonical_cells(self) -> [[i8; 3]; 4] {
        match self {
            Piece::L => [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
            Piece::T => [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
            Piece::Z => [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
            Piece::O => [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Reads a piece as its letter, in either case: `L`, `t`.
///
/// ```
/// use cabra::game::Piece;
/// assert_eq!("z".parse::<Piece>(), Ok(Piece::Z));
/// assert!("X".parse::<Piece>().is_err());
/// ```
impl std::str::FromStr for Piece {
    type Err = crate::game::NotationError;

    fn from_str(text: &str) -> Result<Piece, Self::Err> {
        let mut chars = text.trim().chars();
        match (chars.next().and_then(Piece::from_letter), chars.next()) {
            (Some(p), None) => Ok(p),
            _ => Err(crate::game::NotationError::Expected {
                expected: "a piece letter L, T, Z or O",
                found: text.to_string(),
            }),
        }
    }
}
