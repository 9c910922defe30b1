//! A cell of the 8x8x3 volume, written `XYZ`.

use std::fmt;

use super::error::{NotationError, RangeError};

/// A cell of the volume: `x` west to east (0..7), `y` north to south
/// (0..7), `z` height (0..2). It is always on the board: the checked
/// [`Cell::new`] makes one.
///
/// ```
/// use cabra::game::Cell;
/// let c = Cell::new(1, 2, 0).unwrap();
/// assert_eq!((c.x(), c.y(), c.z()), (1, 2, 0));
/// assert_eq!(c.to_string(), "120");
/// assert!(Cell::new(8, 0, 0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub(crate) x: u8,
    pub(crate) y: u8,
    pub(crate) z: u8,
}

impl Cell {
    /// The cell at `(x, y, z)`, or an error when it is off the board.
    pub const fn new(x: u8, y: u8, z: u8) -> Result<Cell, RangeError> {
        if x > 7 || y > 7 || z > 2 {
            return Err(RangeError::Cell { x, y, z });
        }
        Ok(Cell { x, y, z })
    }

    /// A cell whose coordinates the caller knows are on the board.
    #[inline(always)]
    pub(crate) const fn at(x: u8, y: u8, z: u8) -> Cell {
        debug_assert!(x < 8 && y < 8 && z < 3);
        Cell { x, y, z }
    }

    /// West (0) to east (7).
    #[inline(always)]
    pub const fn x(self) -> u8 {
        self.x
    }

    /// North (0) to south (7).
    #[inline(always)]
    pub const fn y(self) -> u8 {
        self.y
    }

    /// Height: 0 rests on the board, 2 is the top.
    #[inline(always)]
    pub const fn z(self) -> u8 {
        self.z
    }

    /// The cell directly below (`None` at z = 0).
    pub fn below(self) -> Option<Cell> {
        (self.z > 0).then(|| Cell::at(self.x, self.y, self.z - 1))
    }

    /// The cell directly above (`None` at z = 2).
    pub fn above(self) -> Option<Cell> {
        (self.z < 2).then(|| Cell::at(self.x, self.y, self.z + 1))
    }

    /// Every cell of the volume, by height, then row, then column.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..3u8).flat_map(|z| (0..8u8).flat_map(move |y| (0..8u8).map(move |x| Cell::at(x, y, z))))
    }

    /// Reads three digits `XYZ`; the error says which coordinate is out of range.
    pub fn from_digits(digits: [u8; 3]) -> Result<Cell, NotationError> {
        let [x, y, z] = digits;
        Cell::new(x, y, z).map_err(|_| NotationError::CubeOffBoard { digits })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.x, self.y, self.z)
    }
}

/// Reads a cell as [`Cell`]'s `Display` writes it: three digits `XYZ`.
///
/// ```
/// use cabra::game::Cell;
/// let c: Cell = "121".parse().unwrap();
/// assert_eq!((c.x(), c.y(), c.z()), (1, 2, 1));
/// assert!("18".parse::<Cell>().is_err() && "183".parse::<Cell>().is_err());
/// ```
impl std::str::FromStr for Cell {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Cell, NotationError> {
        match text.trim().as_bytes() {
            &[x, y, z] if [x, y, z].iter().all(u8::is_ascii_digit) => {
                Cell::from_digits([x - b'0', y - b'0', z - b'0'])
            }
            _ => Err(NotationError::Expected {
                expected: "a cell of three digits XYZ, e.g. 110",
                found: text.to_string(),
            }),
        }
    }
}
