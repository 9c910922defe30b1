//! Orientation names (`T0`, `E180`, ...) and how they turn a piece (RULES.md section 3).

use std::fmt;

use super::piece::Piece;

/// The face the piece is turned onto before the turn about z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// Top: unchanged.
    T,
    /// Bottom.
    B,
    /// North.
    N,
    /// South.
    S,
    /// East.
    E,
    /// West.
    W,
}

impl Face {
    /// All six, in the order canonical names are chosen by.
    pub const ALL: [Face; 6] = [Face::T, Face::B, Face::N, Face::S, Face::E, Face::W];

    /// The face letter.
    pub const fn letter(self) -> char {
        match self {
            Face::T => 'T',
            Face::B => 'B',
            Face::N => 'N',
            Face::S => 'S',
            Face::E => 'E',
            Face::W => 'W',
        }
    }

    /// Reads a face letter, in either case.
    pub fn from_letter(c: char) -> Option<Face> {
        Face::ALL
            .into_iter()
            .find(|f| f.letter() == c.to_ascii_uppercase())
    }

    /// Step 1 of RULES.md section 3: the face map.
    const fn map(self, [x, y, z]: [i8; 3]) -> [i8; 3] {
        match self {
            Face::T => [x, y, z],
            Face::B => [x, -y, -z],
            Face::N => [x, z, -y],
            Face::S => [x, -z, y],
            Face::E => [-z, y, x],
            Face::W => [z, y, -x],
        }
    }
}

/// An orientation name: a face and a turn of 0, 90, 180 or 270 degrees about z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Orientation {
    /// The face map applied first.
    face: Face,
    /// Quarter turns about z (0..4), applied second.
    quarter_turns: u8,
}

impl Orientation {
    /// The face the piece is turned onto.
    pub const fn face(self) -> Face {
        self.face
    }

    /// All 24 names, faces in the order T B N S E W, angles ascending.
    /// The canonical name of a shape is the first name in this order that makes it.
    pub fn all() -> impl Iterator<Item = Orientation> {
        Face::ALL.into_iter().flat_map(|face| {
            (0..4).map(move |quarter_turns| Orientation {
                face,
                quarter_turns,
            })
        })
    }

    /// The angle in degrees.
    pub const fn degrees(self) -> u16 {
        self.quarter_turns as u16 * 90
    }

    /// Builds an orientation from a face and an angle in degrees (0, 90, 180, 270).
    pub fn from_degrees(face: Face, degrees: u32) -> Option<Orientation> {
        (degrees % 90 == 0 && degrees < 360).then_some(Orientation {
            face,
            quarter_turns: (degrees / 90) as u8,
        })
    }

    /// The cells of `piece` in this orientation, shifted so the smallest x, y
    /// and z are 0, sorted.
    pub fn apply(self, piece: Piece) -> [[i8; 3]; 4] {
        let mut cells = piece.canonical_cells().map(|c| {
            let [x, y, z] = self.face.map(c);
            match self.quarter_turns {
                0 => [x, y, z],
                1 => [-y, x, z],
                2 => [-x, -y, z],
                _ => [y, -x, z],
            }
        });
        for axis in 0..3 {
            let min = cells.iter().map(|c| c[axis]).min().unwrap_or(0);
            for c in &mut cells {
                c[axis] -= min;
            }
        }
        cells.sort();
        cells
    }
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.face.letter(), self.degrees())
    }
}

/// Prints the face letter: `T`, `B`, `N`, `S`, `E` or `W`.
impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Reads a face as its letter, in either case: `T`, `b`, `N`, `S`, `E`, `W`.
impl std::str::FromStr for Face {
    type Err = crate::game::NotationError;

    fn from_str(text: &str) -> Result<Face, Self::Err> {
        let mut chars = text.trim().chars();
        match (chars.next().and_then(Face::from_letter), chars.next()) {
            (Some(f), None) => Ok(f),
            _ => Err(crate::game::NotationError::Expected {
                expected: "a face letter T, B, N, S, E or W",
                found: text.to_string(),
            }),
        }
    }
}

/// Reads an orientation as `Display` writes it: a face letter and an
/// angle of 0, 90, 180 or 270 (`E180`, `t0`).
///
/// ```
/// use cabra::game::{Face, Orientation};
/// let o: Orientation = "E180".parse().unwrap();
/// assert_eq!(o, Orientation::from_degrees(Face::E, 180).unwrap());
/// assert_eq!(o.to_string(), "E180");
/// assert!("E45".parse::<Orientation>().is_err());
/// ```
impl std::str::FromStr for Orientation {
    type Err = crate::game::NotationError;

    fn from_str(text: &str) -> Result<Orientation, Self::Err> {
        let t = text.trim();
        let bad = || crate::game::NotationError::Expected {
            expected: "an orientation: a face letter and 0, 90, 180 or 270, e.g. E180",
            found: text.to_string(),
        };
        let mut chars = t.chars();
        let face = chars.next().and_then(Face::from_letter).ok_or_else(bad)?;
        let angle = chars.as_str();
        if !["0", "90", "180", "270"].contains(&angle) {
            return Err(bad());
        }
        angle
            .parse()
            .ok()
            .and_then(|a| Orientation::from_degrees(face, a))
            .ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l_e180_matches_the_rules_example() {
        // RULES.md section 4: `L E180 110` occupies 110 120 121 122, so the
        // shape itself is 000 010 011 012.
        let o = Orientation::from_degrees(Face::E, 180).unwrap();
        assert_eq!(
            o.apply(Piece::L),
            [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 1, 2]]
        );
    }

    #[test]
    fn t0_is_the_canonical_shape() {
        let t0 = Orientation::from_degrees(Face::T, 0).unwrap();
        for p in Piece::ALL {
            let mut c = p.canonical_cells();
            c.sort();
            assert_eq!(t0.apply(p), c);
        }
    }

    #[test]
    fn there_are_24_names() {
        assert_eq!(Orientation::all().count(), 24);
        assert!(Orientation::from_degrees(Face::N, 45).is_none());
        assert!(Orientation::from_degrees(Face::N, 360).is_none());
    }
}
