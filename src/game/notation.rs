//! Piece notation (RULES.md section 4): `L E180 110`, read forgivingly and
//! printed canonically; and placements given as four cells.

use thiserror::Error;

use super::cell::Cell;
use super::orientation::{Face, Orientation};
use super::piece::Piece;
use super::rules::{Move, special_move};
use super::table::{Placement, table};

/// Why a piece notation could not be read. The message says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct NotationError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(msg.into()))
}

/// Reads `<piece> <orientation> <position>`, e.g. `L E180 110`, `l e180 110`
/// or `LE180110`. Any of the 24 orientation names is accepted.
pub fn parse_placement(text: &str) -> Result<Placement, NotationError> {
    // Spaces may be left out, but where they are written they show where
    // the position starts: `L E180 20` has a short position, not angle 18.
    let words: Vec<&str> = text.split_whitespace().collect();
    if let [piece, orientation, position] = words[..] {
        if position.bytes().all(|b| b.is_ascii_digit()) && position.len() != 3 {
            return err(format!(
                "expected a position of three digits XYZ after '{piece} {orientation}', found '{position}'"
            ));
        }
    }
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return err("expected a placement such as `L E180 110` (piece, orientation, position)");
    };
    let Some(piece) = Piece::from_letter(first) else {
        return err(format!(
            "expected a piece letter L, T, Z or O at the start, found '{first}'"
        ));
    };
    let face = match chars.next() {
        Some(c) => Face::from_letter(c).ok_or_else(|| {
            NotationError(format!(
                "expected an orientation face T, B, N, S, E or W after the piece, found '{c}'"
            ))
        })?,
        None => {
            return err(format!(
                "expected an orientation after '{piece}', e.g. `{piece} T0 000`"
            ));
        }
    };
    let rest: &str = chars.as_str();
    if let Some(bad) = rest.chars().find(|c| !c.is_ascii_digit()) {
        return err(format!(
            "expected only digits after the face letter (angle, then position XYZ), found '{bad}'"
        ));
    }
    if rest.len() < 4 {
        return err(short_after_face(piece, face.letter(), rest));
    }
    let (angle, pos) = rest.split_at(rest.len() - 3);
    // The angle as written, not as a number: `000` or `0090` is a typo
    // (a digit too many), not the angle 0 or 90.
    let orientation = ["0", "90", "180", "270"]
        .contains(&angle)
        .then(|| angle.parse::<u32>().ok())
        .flatten()
        .and_then(|a| Orientation::from_degrees(face, a))
        .ok_or_else(|| {
            NotationError(format!(
                "expected an angle of 0, 90, 180 or 270 and then the three digits of the position XYZ, found '{rest}'"
            ))
        })?;
    let d: Vec<u8> = pos.bytes().map(|b| b - b'0').collect();
    let (x, y, z) = (d[0], d[1], d[2]);
    if x > 7 || y > 7 {
        return err(format!(
            "position {pos} is off the board: {}",
            beyond([(x.into(), x.into()), (y.into(), y.into())])
        ));
    }
    if z != 0 {
        return err(format!(
            "position {pos} must have z = 0: every piece touches the board, so its lowest cube is at z = 0"
        ));
    }
    let t = table();
    let shape = t.shape_of(piece, orientation);
    t.placement_at(shape, x, y).ok_or_else(|| {
        let ext = t.shapes[shape].extent;
        let (fx, fy) = (x + ext[0] - 1, y + ext[1] - 1);
        NotationError(format!(
            "{piece} {orientation} {pos} does not fit on the board: placed at x = {x}, y = {y}, \
             it would reach x = {fx}, y = {fy}; {}",
            beyond([(x.into(), fx.into()), (y.into(), fy.into())])
        ))
    })
}

/// What is wrong with what follows the face letter when it is too short
/// to hold an angle and a position (`rest`: its digits).
fn short_after_face(piece: Piece, face: char, rest: &str) -> String {
    if rest.is_empty() {
        format!(
            "expected an angle (0, 90, 180 or 270) and a position XYZ after '{piece} {face}', e.g. `{piece} {face}0 110`"
        )
    } else if ["0", "90", "180", "270"].contains(&rest) {
        // The angle is there: only the position is missing.
        format!(
            "expected a position XYZ after '{piece} {face}{rest}', e.g. `{piece} {face}{rest} 110`"
        )
    } else if rest.len() == 3 {
        // Three digits are a position: the angle is missing.
        format!(
            "expected an angle (0, 90, 180 or 270) between '{piece} {face}' and the position {rest}, e.g. `{piece} {face}0 {rest}`"
        )
    } else {
        format!(
            "expected an angle of 0, 90, 180 or 270 and then the three digits of the position XYZ after '{piece} {face}', found '{rest}'"
        )
    }
}

/// The coordinates of a span that leave the board, with the edge each is
/// past: `spans` holds the smallest and largest x, then y. Only those out
/// of range are named: `x = 9 is past the east edge (x and y run from 0
/// to 7)`.
pub fn beyond(spans: [(i32, i32); 2]) -> String {
    let mut out: Vec<String> = Vec::new();
    for ((lo, hi), (axis, low, high)) in spans
        .into_iter()
        .zip([("x", "west", "east"), ("y", "north", "south")])
    {
        if lo < 0 {
            out.push(format!("{axis} = {lo} past the {low} edge"));
        }
        if hi > 7 {
            out.push(format!("{axis} = {hi} past the {high} edge"));
        }
    }
    let list = match out.as_mut_slice() {
        [] => "nothing is past an edge".to_string(),
        [one] => one.replacen(" past", " is past", 1),
        [first, rest @ ..] => {
            let first = first.replacen(" past", " is past", 1);
            format!("{first} and {}", rest.join(" and "))
        }
    };
    format!("{list} (x and y run from 0 to 7)")
}

/// The placement made of these four cells, whatever their order.
/// Errors say why they are not a placement: a cube off the board, a
/// repeated cube, not a piece shape, or not touching the board.
pub fn placement_from_cells(cells: [Cell; 4]) -> Result<Placement, NotationError> {
    // `Cell`'s fields are public: cells may come from anywhere.
    if let Some(c) = cells
        .iter()
        .find(|c| c.x >= 8 || c.y >= 8 || usize::from(c.z) >= super::bitboard::LAYERS)
    {
        // (`XYZ` digits would run together: 12, 3, 0 and 1, 23, 0.)
        return err(format!("cube ({}, {}, {}) is off the board", c.x, c.y, c.z));
    }
    for (i, a) in cells.iter().enumerate() {
        if cells[..i].contains(a) {
            return err(format!("cube {a} is listed twice"));
        }
    }
    let min = |f: fn(&Cell) -> u8| cells.iter().map(f).min().unwrap_or(0);
    let (mx, my, mz) = (min(|c| c.x), min(|c| c.y), min(|c| c.z));
    let mut rel = cells.map(|c| [c.x - mx, c.y - my, c.z - mz]);
    rel.sort();
    let t = table();
    let Some(shape) = t.shape_of_cells(&rel) else {
        let mut sorted = cells;
        sorted.sort();
        let list: Vec<String> = sorted.iter().map(|c| c.to_string()).collect();
        return err(format!(
            "cubes {} do not form an L, T, Z or O piece",
            list.join(" ")
        ));
    };
    if mz > 0 {
        return err(format!(
            "the piece does not touch the board: its lowest cube is at z = {mz}"
        ));
    }
    Ok(t.placement_at(shape, mx, my)
        .expect("cells on the board make a placement that fits"))
}

/// Reads four cells from exactly twelve digits `XYZXYZXYZXYZ`.
pub fn cells_from_digits(digits: &[u8]) -> Result<[Cell; 4], NotationError> {
    if digits.len() != 12 {
        let n = digits.len();
        let noun = if n == 1 { "digit" } else { "digits" };
        return err(format!("found {n} {noun}, expected 12"));
    }
    let mut cells = [Cell::new(0, 0, 0); 4];
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
            return err(format!(
                "expected twelve digits (four cells XYZ), found '{bad}'"
            ));
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
    fn cells_off_the_board_are_an_error_not_a_panic() {
        let c = |x, y, z| Cell { x, y, z };
        for cells in [
            [c(6, 0, 0), c(7, 0, 0), c(8, 0, 0), c(6, 1, 0)],
            [c(0, 0, 3), c(0, 0, 4), c(0, 0, 5), c(0, 0, 6)],
            [
                c(200, 200, 0),
                c(201, 200, 0),
                c(202, 200, 0),
                c(201, 201, 0),
            ],
        ] {
            let e = placement_from_cells(cells).unwrap_err();
            assert!(e.to_string().contains("off the board"), "{e}");
        }
        let ok = [c(6, 0, 0), c(7, 0, 0), c(5, 0, 0), c(6, 1, 0)];
        assert!(placement_from_cells(ok).is_ok());
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
        let e = |s: &str| parse_placement(s).unwrap_err().0;
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
                .0
                .contains("found 9 digits")
        );
        assert!(
            parse_move("110 110 121 122")
                .unwrap_err()
                .0
                .contains("twice")
        );
        assert!(
            parse_move("000 200 400 600")
                .unwrap_err()
                .0
                .contains("do not form")
        );
        assert!(
            parse_move("111 121 122 112")
                .unwrap_err()
                .0
                .contains("does not touch")
        );
        assert!(
            parse_move("810 120 121 122")
                .unwrap_err()
                .0
                .contains("x must be 0 to 7")
        );
    }
}
