//! Why a placement, a notation, a number or a file line was refused.
//! Every error is typed: a caller can match on what went wrong, and the
//! messages (their `Display`) say it in plain words.

use thiserror::Error;

use super::cell::Cell;
use super::orientation::{Face, Orientation};
use super::piece::Piece;
use super::player::{Player, Status};
use super::rules::{Move, Rules, RulesError};
use super::table::{PLACEMENT_COUNT, Placement};

/// Why a move is not legal in a position (RULES.md sections 5 and 9).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlacementError {
    /// Nothing may be placed once the game has ended.
    #[error("the game is already over ({0})")]
    GameOver(Status),
    /// The mover has used up this piece type.
    #[error("{player} has no {piece} left")]
    NoPieceLeft {
        /// The mover.
        player: Player,
        /// The piece type asked for.
        piece: Piece,
    },
    /// A cube would overlap one already on the board.
    #[error("cube {0} is already taken")]
    Occupied(Cell),
    /// A cube at z > 0 would have nothing under it.
    #[error("cube {0} has nothing below it")]
    Floating(Cell),
    /// A special move that the rules of this game do not have.
    #[error("{what}: {} is not part of the {rules} rules", if *what == Move::Swap { "the swap" } else { "the time machine" })]
    NotInRules {
        /// `swap` or `tm`.
        what: Move,
        /// The rules of the game.
        rules: Rules,
    },
    /// A swap anywhere but on the second turn of the game.
    #[error(
        "swap: swap is only allowed as the second turn of the game (player 2's first turn, right after player 1's first placement)"
    )]
    SwapTurn,
    /// A second time machine.
    #[error("tm: {0} has already used the time machine")]
    TimeMachineUsed(Player),
    /// A time machine without the caller's placement and then the
    /// opponent's as the last two on the board.
    #[error(
        "tm: the time machine needs the last placement on the board to be the opponent's and the one before it your own"
    )]
    TimeMachineOrder,
    /// A time machine that would take back the piece a swap recoloured.
    #[error(
        "tm: the time machine cannot take back the piece the swap recoloured (its owner did not place it)"
    )]
    TimeMachineRecoloured,
}

/// A number that names nothing: a placement index, a move id, a cell or
/// a column outside the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RangeError {
    /// A placement index of [`PLACEMENT_COUNT`] or more.
    #[error("placement {0} does not exist: placements are numbered 0 to {max}", max = PLACEMENT_COUNT - 1)]
    Placement(usize),
    /// A move id of [`MOVE_COUNT`](super::MOVE_COUNT) or more.
    #[error("move id {0} does not exist: move ids run from 0 to {max}", max = PLACEMENT_COUNT + 1)]
    MoveId(usize),
    /// A cell outside the 8x8x3 volume.
    #[error("cube ({x}, {y}, {z}) is off the board: x and y run from 0 to 7, z from 0 to 2")]
    Cell {
        /// West to east.
        x: u8,
        /// North to south.
        y: u8,
        /// Height.
        z: u8,
    },
    /// A column outside the 8x8 board.
    #[error("column ({x}, {y}) is off the board: x and y run from 0 to 7")]
    Column {
        /// West to east.
        x: u8,
        /// North to south.
        y: u8,
    },
}

/// Why a piece notation or a list of cells could not be read as a
/// placement. The message says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NotationError {
    /// Text that is not the one item asked for (a cell, a piece, a player
    /// or an orientation): what was expected, and the text.
    #[error("expected {expected}, found '{found}'")]
    Expected {
        /// What the text should have been, e.g. "a cell of three digits XYZ".
        expected: &'static str,
        /// The text as given.
        found: String,
    },
    /// Nothing was written.
    #[error("expected a placement such as `L E180 110` (piece, orientation, position)")]
    Empty,
    /// A whole placement, then more words.
    #[error("unexpected '{rest}' after the placement `{placement}`")]
    Trailing {
        /// The placement read, in canonical notation.
        placement: String,
        /// What came after it.
        rest: String,
    },
    /// The first letter is not a piece.
    #[error("expected a piece letter L, T, Z or O at the start, found '{0}'")]
    PieceLetter(char),
    /// The letter after the piece is not a face.
    #[error("expected an orientation face T, B, N, S, E or W after the piece, found '{0}'")]
    FaceLetter(char),
    /// A piece letter and nothing else.
    #[error("expected an orientation after '{0}', e.g. `{0} T0 000`")]
    NoOrientation(Piece),
    /// Something other than a digit after the face letter.
    #[error("expected only digits after the face letter (angle, then position XYZ), found '{0}'")]
    NotADigit(char),
    /// The digits after the face letter are not an angle (0, 90, 180 or
    /// 270) followed by a position XYZ.
    #[error("{}", angle_and_position(*piece, *face, digits))]
    AngleAndPosition {
        /// The piece.
        piece: Piece,
        /// The face.
        face: Face,
        /// The digits after the face letter.
        digits: String,
    },
    /// A position written apart with a number of digits other than three.
    #[error("expected a position of three digits XYZ after '{written}', found '{found}'")]
    PositionDigits {
        /// The piece and orientation, as written.
        written: String,
        /// The position, as written.
        found: String,
    },
    /// A position whose x or y is 8 or 9.
    #[error("position {x}{y}{z} is off the board: {}", beyond([(i32::from(*x), i32::from(*x)), (i32::from(*y), i32::from(*y))]))]
    PositionOffBoard {
        /// West to east.
        x: u8,
        /// North to south.
        y: u8,
        /// Height.
        z: u8,
    },
    /// A position above the board.
    #[error(
        "position {x}{y}{z} must have z = 0: every piece touches the board, so its lowest cube is at z = 0"
    )]
    PositionAboveBoard {
        /// West to east.
        x: u8,
        /// North to south.
        y: u8,
        /// Height.
        z: u8,
    },
    /// A piece that would stick out past an edge.
    #[error(
        "{piece} {orientation} {x}{y}0 does not fit on the board: placed at x = {x}, y = {y}, \
         it would reach x = {reach_x}, y = {reach_y}; {}",
        beyond([(i32::from(*x), i32::from(*reach_x)), (i32::from(*y), i32::from(*reach_y))])
    )]
    DoesNotFit {
        /// The piece.
        piece: Piece,
        /// Its orientation, as named.
        orientation: Orientation,
        /// Where its bounding box starts.
        x: u8,
        /// Where its bounding box starts.
        y: u8,
        /// The largest x it would cover.
        reach_x: u8,
        /// The largest y it would cover.
        reach_y: u8,
    },
    /// A cube `XYZ` with a digit out of range.
    #[error("cube {}{}{} is off the board: {}", digits[0], digits[1], digits[2], off_axis(*digits))]
    CubeOffBoard {
        /// The three digits.
        digits: [u8; 3],
    },
    /// The same cube twice among the four.
    #[error("cube {0} is listed twice")]
    RepeatedCube(Cell),
    /// Four cubes that are not one of the pieces' shapes.
    #[error("cubes {} do not form an L, T, Z or O piece", cell_list(.0))]
    NotAPiece([Cell; 4]),
    /// Four cubes of a piece that does not reach down to the board.
    #[error("the piece does not touch the board: its lowest cube is at z = {lowest}")]
    AboveBoard {
        /// The height of its lowest cube.
        lowest: u8,
    },
    /// Cells given as a number of digits other than twelve.
    #[error("found {count} {}, expected 12", if *.count == 1 { "digit" } else { "digits" })]
    DigitCount {
        /// How many digits were found.
        count: usize,
    },
    /// Something other than digits among the twelve of four cells.
    #[error("expected twelve digits (four cells XYZ), found '{0}'")]
    CellsNotDigit(char),
}

/// What follows the face letter, when it is not an angle and a position.
fn angle_and_position(piece: Piece, face: Face, rest: &str) -> String {
    let face = face.letter();
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

/// Which coordinate of the digits `XYZ` is out of range.
fn off_axis([x, y, _]: [u8; 3]) -> &'static str {
    if x > 7 {
        "x must be 0 to 7"
    } else if y > 7 {
        "y must be 0 to 7"
    } else {
        "z must be 0 to 2"
    }
}

/// The cells in ascending order, separated by spaces.
fn cell_list(cells: &[Cell; 4]) -> String {
    let mut sorted = *cells;
    sorted.sort();
    let list: Vec<String> = sorted.iter().map(Cell::to_string).collect();
    list.join(" ")
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

/// A move of a list that could not be played ([`crate::game::Position::from_moves`]):
/// its index, the move, and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {} ({mv}): {why}", .index + 1)]
#[non_exhaustive]
pub struct MoveError {
    /// 0-based index of the move in the list (the message counts from 1).
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal there (its message is part of this error's, as
    /// [`RecordError`]'s kind is).
    pub why: PlacementError,
}

/// A line of a `.caminos` file that could not be read; nothing after it
/// was applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
#[non_exhaustive]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it (its message is part of this error's, so it
    /// is a field rather than the error's `source`).
    pub kind: LineError,
}

/// What is wrong with one line of a `.caminos` file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LineError {
    /// Bytes that are not UTF-8 outside a comment.
    #[error("byte 0x{0:02X} is not UTF-8 text (only comments may hold other bytes)")]
    NotUtf8(u8),
    /// A line that is not four cells, `swap` or `tm`.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A placement in piece notation, where a file holds four cells.
    #[error(
        "{cells}: a file holds the four cells of each placement, and `{placement}` is written `{}`",
        super::record::cells_text(*placement)
    )]
    PieceNotation {
        /// Why the line is not four cells.
        cells: NotationError,
        /// The placement it names.
        placement: Placement,
    },
    /// A `# rules:` line that does not read.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A rules line after the first move.
    #[error("a rules line must come before the first move: the rules cannot change during a game")]
    RulesAfterMoves,
    /// A second rules line with other rules.
    #[error("the rules were already given as '{0}': a second rules line may not change them")]
    RulesChanged(Rules),
    /// A move that is not legal where it stands.
    #[error(transparent)]
    Illegal(#[from] PlacementError),
}
