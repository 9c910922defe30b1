//! A cell of the 8x8x3 volume, written `XYZ`.

use std::fmt;

use super::notation::NotationError;

/// A cell: `x` west to east (0..7), `y` north to south (0..7), `z` height (0..2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// West (0) to east (7).
    pub x: u8,
    /// North (0) to south (7).
    pub y: u8,
    /// Height: 0 rests on the board, 2 is the top.
    pub z: u8,
}

impl Cell {
    /// A cell; the caller guarantees the coordinates are in range.
    pub const fn new(x: u8, y: u8, z: u8) -> Cell {
        Cell { x, y, z }
    }

    /// The cell directly below (`None` at z = 0).
    pub fn below(self) -> Option<Cell> {
        (self.z > 0).then(|| Cell::new(self.x, self.y, self.z - 1))
    }

    /// The cell directly above (`None` at z = 2).
    pub fn above(self) -> Option<Cell> {
        (self.z < 2).then(|| Cell::new(self.x, self.y, self.z + 1))
    }

    /// Parses three digits `XYZ`; the error says which coordinate is out of range.
    pub fn from_digits(d: [u8; 3]) -> Result<Cell, NotationError> {
        let [x, y, z] = d;
        let text = format!("{x}{y}{z}");
        if x > 7 {
            return Err(NotationError(format!(
                "cube {text} is off the board: x must be 0 to 7"
            )));
        }
        if y > 7 {
            return Err(NotationError(format!(
                "cube {text} is off the board: y must be 0 to 7"
            )));
        }
        if z > 2 {
            return Err(NotationError(format!(
                "cube {text} is off the board: z must be 0 to 2"
            )));
        }
        Ok(Cell::new(x, y, z))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.x, self.y, self.z)
    }
}
