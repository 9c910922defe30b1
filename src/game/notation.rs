//! Piece notation (RULES.md section 4): `L E180 110`, read forgivingly and
//! printed canonically; and placements given as four cells.

use super::cell::Cell;
use super::error::NotationError;
use super::orientation::{Face, Orientation};
use super::piece::Piece;
use super::rules::{Move, special_move};
use super::table::{Placement, table};

/// Reads `<piece> <orientation> <position>`, e.g. `L E180 110`, `l e180 110`
/// or `LE180110`. Any of the 24 orientation names is accepted. Piece
/// notation only: a placement written as its four cells (`110 120 121
/// 122`) is read by [`parse_placement_or_cells`], and by `str::parse`.
///
/// ```
/// use cabra::game::{Placement, parse_placement};
/// let p = parse_placement("L E180 110").unwrap();
/// assert!(parse_placement("110 120 121 122").is_err());
/// assert_eq!("110 120 121 122".parse::<Placement>().unwrap(), p);
/// ```
pub fn parse_placement(text: &str) -> Result<Placement, NotationError> {
    // Spaces may be left out, but where they are written they show where
    // the position starts: `L E180 20` has a short position, not angle 18.
    let words: Vec<&str> = text.split_whitespace().collect();
    // `L E180 110 extra`: the placement is whole, the rest is not its
    // (digits may be spaced out: `L T0 1 2 0`).
    if let [piece, orientation, position, ref rest @ ..] = words[..] {
        if rest.iter().any(|w| !w.bytes().all(|b| b.is_ascii_digit())) {
            if let Ok(p) = parse_placement(&format!("{piece} {orientation} {position}")) {
                return Err(NotationError::Trailing {
                    placement: p.to_string(),
                    rest: rest.join(" "),
                });
            }
        }
    }
    if let [piece, orientation, position] = words[..] {
        if position.bytes().all(|b| b.is_ascii_digit()) && position.len() != 3 {
            return Err(NotationError::PositionDigits {
                written: format!("{piece} {orientation}"),
                found: position.to_string(),
            });
        }
    }
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return Err(NotationError::Empty);
    };
    let Some(piece) = Piece::from_letter(first) else {
        return Err(NotationError::PieceLetter(first));
    };
    let face = match chars.next() {
        Some(c) => Face::from_letter(c).ok_or(NotationError::FaceLetter(c))?,
        None => return Err(NotationError::NoOrientation(piece)),
    };
    let rest: &str = chars.as_str();
    if let Some(bad) = rest.chars().find(|c| !c.is_ascii_digit()) {
        return Err(NotationError::NotADigit(bad));
    }
    let angle_and_position = || NotationError::AngleAndPosition {
        piece,
        face,
        digits: rest.to_string(),
    };
    if rest.len() < 4 {
        return Err(angle_and_position());
    }
    let (angle, pos) = rest.split_at(rest.len() - 3);
    // The angle as written, not as a number: `000` or `0090` is a typo
    // (a digit too many), not the angle 0 or 90.
    let orientation = ["0", "90", "180", "270"]
        .contains(&angle)
        .then(|| angle.parse::<u32>().ok())
        .flatten()
        .and_then(|a| Orientation::from_degrees(face, a))
        .ok_or_else(angle_and_position)?;
    let d: Vec<u8> = pos.bytes().map(|b| b - b'0').collect();
    let (x, y, z) = (d[0], d[1], d[2]);
    if x > 7 || y > 7 {
        return Err(NotationError::PositionOffBoard { x, y, z });
    }
    if z != 0 {
        return Err(NotationError::PositionAboveBoard { x, y, z });
    }
    let t = table();
    let shape = t.shape_of(piece, orientation);
    t.placement_at(shape, x, y).ok_or_else(|| {
        let ext = t.shapes[shape].extent;
        NotationError::DoesNotFit {
            piece,
            orientation,
            x,
            y,
            reach_x: x + ext[0] - 1,
            reach_y: y + ext[1] - 1,
        }
    })
}

/// The placement made of these four cells, whatever their order.
/// Errors say why they are not a placement: a repeated cube, not a
/// piece shape, or not touching the board.
pub fn placement_from_cells(cells: [Cell; 4]) -> Result<Placement, NotationError> {
    for (i, a) in cells.iter().enumerate() {
        if cells[..i].contains(a) {
            return Err(NotationError::RepeatedCube(*a));
        }
    }
    let min = |f: fn(&Cell) -> u8| cells.iter().map(f).min().unwrap_or(0);
    let (mx, my, mz) = (min(|c| c.x), min(|c| c.y), min(|c| c.z));
    let mut rel = cells.map(|c| [c.x - mx, c.y - my, c.z - mz]);
    rel.sort();
    let t = table();
    let Some(shape) = t.shape_of_cells(&rel) else {
        return Err(NotationError::NotAPiece(cells));
    };
    if mz > 0 {
        return Err(NotationError::AboveBoard { lowest: mz });
    }
    Ok(t.placement_at(shape, mx, my)
        .expect("cells on the board make a placement that fits"))
}

/// Reads four cells from exactly twelve digits `XYZXYZXYZXYZ`.
pub fn cells_from_digits(digits: &[u8]) -> Result<[Cell; 4], NotationError> {
    if digits.len() != 12 {
        return Err(NotationError::DigitCount {
            count: digits.len(),
        });
    }
    let mut cells = [Cell::at(0, 0, 0); 4];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = Cell::from_digits([digits[3 * i], digits[3 * i + 1], digits[3 * i + 2]])?;
    }
    Ok(cells)
}

/// Reads a move the way a person may type it: piece notation
/// (`L E180 110`), four cells as twelve digits (`110 120 121 122`), or a
/// special move (`swap`, `tm`, `time machine`).
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    if let Some(m) = special_move(text) {
        return Ok(m);
    }
    parse_placement_or_cells(text).map(Move::Place)
}

impl std::str::FromStr for Move {
    type Err = NotationError;
    /// As [`parse_move`]:
    ///
    /// ```
    /// use cabra::game::Move;
    /// let m: Move = "L E180 110".parse().unwrap();
    /// assert_eq!(m, "110 120 121 122".parse().unwrap());
    /// assert_eq!("tm".parse::<Move>().unwrap(), Move::TimeMachine);
    /// assert!("L E45 110".parse::<Move>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Move, NotationError> {
        parse_move(s)
    }
}

impl std::str::FromStr for Placement {
    type Err = NotationError;
    /// As [`parse_placement_or_cells`]: piece notation or twelve digits.
    fn from_str(s: &str) -> Result<Placement, NotationError> {
        parse_placement_or_cells(s)
    }
}

/// Reads a placement in piece notation or as twelve digits.
pub fn parse_placement_or_cells(text: &str) -> Result<Placement, NotationError> {
    let t = text.trim();
    if t.starts_with(|c: char| c.is_ascii_digit()) {
        let digits: Vec<u8> = t
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| b - b'0')
            .collect();
        if let Some(bad) = t
            .chars()
            .find(|c| !c.is_ascii_digit() && !c.is_whitespace())
        {
            return Err(NotationError::CellsNotDigit(bad));
        }
        let cells = cells_from_digits(&digits)?;
        return placement_from_cells(cells);
    }
    parse_placement(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_off_the_board_cannot_be_made() {
        assert!(Cell::new(8, 0, 0).is_err());
        assert!(Cell::new(0, 0, 3).is_err());
        assert!(Cell::new(200, 200, 0).is_err());
        let c = |x, y, z| Cell::new(x, y, z).unwrap();
        let ok = [c(6, 0, 0), c(7, 0, 0), c(5, 0, 0), c(6, 1, 0)];
        assert!(placement_from_cells(ok).is_ok());
    }

    #[test]
    fn words_after_a_whole_placement_are_named() {
        let e = parse_placement("L E180 110 extra").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unexpected 'extra' after the placement `L E180 110`"
        );
        assert!(matches!(
            parse_move("l e180 110 x y"),
            Err(NotationError::Trailing { .. })
        ));
    }

    #[test]
    fn forgiving_spellings_all_read_the_same() {
        let p = parse_placement("L E180 110").unwrap();
        for s in ["l e180 110", "LE180110", "  L  e 180   1 1 0 ", "le180110"] {
            assert_eq!(parse_placement(s).unwrap(), p, "{s}");
        }
        assert_eq!(p.to_string(), "L E180 110");
    }

    #[test]
    fn every_name_reads_and_prints_canonically() {
        // O has only 3 shapes: all 24 names fold onto T0, N0 and E0.
        for face in "TBNSEW".chars() {
            for a in [0, 90, 180, 270] {
                let p = parse_placement(&format!("O {face}{a} 330")).unwrap();
                let out = p.to_string();
                assert!(
                    ["O T0 330", "O N0 330", "O E0 330"].contains(&out.as_str()),
                    "{out}"
                );
                // The canonical spelling reads back to the same placement.
                assert_eq!(parse_placement(&out).unwrap(), p);
            }
        }
        // B0 of T is the same shape as T180 turned over: prints with its canonical name.
        let b0 = parse_placement("T B0 000").unwrap();
        assert_eq!(b0.to_string(), "T T180 000");
    }

    #[test]
    fn errors_say_what_was_expected() {
        let e = |s: &str| parse_placement(s).unwrap_err().to_string();
        assert!(e("").contains("expected a placement"));
        assert!(e("X T0 000").contains("piece letter"));
        assert!(e("L Q0 000").contains("face"));
        assert!(e("L T45 000").contains("angle of 0, 90, 180 or 270"));
        assert!(e("L T0 00").contains("position"));
        // A written space ends the angle: these positions have the wrong length.
        assert!(e("L E180 20").contains("position of three digits XYZ after 'L E180', found '20'"));
        assert!(e("L E180 2000").contains("found '2000'"));
        assert!(e("L T0 001").contains("z = 0"));
        assert!(e("L T0 900").contains("off the board"));
        assert!(e("L T0 700").contains("does not fit"));
        // Only the coordinate past an edge is named as such; both are named
        // for where the piece was placed and where it would reach.
        assert_eq!(
            e("L T0 670"),
            "L T0 670 does not fit on the board: placed at x = 6, y = 7, it would reach \
             x = 8, y = 8; x = 8 is past the east edge and y = 8 past the south edge \
             (x and y run from 0 to 7)"
        );
        let x_only = e("L T0 660");
        assert!(
            x_only.ends_with(
                "reach x = 8, y = 7; x = 8 is past the east edge (x and y run from 0 to 7)"
            ),
            "{x_only}"
        );
        assert!(e("L T90 170").contains("; y = 9 is past the south edge ("));
        assert!(
            e("L T0 980").contains("x = 9 is past the east edge and y = 8 past the south edge")
        );
        assert!(!e("L T0 900").contains("y = 0 is"));
        // A missing position after a given angle is not a missing angle.
        for (text, want) in [
            (
                "L E180",
                "expected a position XYZ after 'L E180', e.g. `L E180 110`",
            ),
            ("L E0", "expected a position XYZ after 'L E0'"),
            ("L E 180", "expected a position XYZ after 'L E180'"),
            (
                "L E",
                "expected an angle (0, 90, 180 or 270) and a position XYZ after 'L E'",
            ),
            (
                "L E 110",
                "expected an angle (0, 90, 180 or 270) between 'L E' and the position 110",
            ),
            ("LE18", "after 'L E', found '18'"),
        ] {
            assert!(e(text).contains(want), "{text}: {}", e(text));
        }
        // Digits beyond the angle and the position are a typo, not zeros
        // of the angle; spaces between the digits are fine.
        assert!(e("T T0 000 000").contains("found '0000000'"));
        assert!(e("L T0090120").contains("angle of 0, 90, 180 or 270"));
        assert_eq!(
            parse_placement("L T0 1 2 0").unwrap().to_string(),
            "L T0 120"
        );
    }

    #[test]
    fn cells_in_any_order_give_the_placement() {
        let p = parse_placement("L E180 110").unwrap();
        for s in ["110120121122", "122 121 120 110", "120 121 122 110"] {
            assert_eq!(parse_move(s).unwrap(), Move::Place(p), "{s}");
        }
        assert!(
            parse_move("110 120 121")
                .unwrap_err()
                .to_string()
                .contains("found 9 digits")
        );
        assert!(
            parse_move("110 110 121 122")
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
        assert!(
            parse_move("000 200 400 600")
                .unwrap_err()
                .to_string()
                .contains("do not form")
        );
        assert!(
            parse_move("111 121 122 112")
                .unwrap_err()
                .to_string()
                .contains("does not touch")
        );
        assert!(
            parse_move("810 120 121 122")
                .unwrap_err()
                .to_string()
                .contains("x must be 0 to 7")
        );
    }
}
