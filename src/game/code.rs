//! The position code: one short line of letters and digits that gives back
//! a whole game (its rules and every move, in order), as `cabra play`'s
//! `pos` prints it and the board in the browser shows it.
//!
//! Format (documented in docs/PLAY.md):
//!
//! - the prefix `c1` for a game under the default rules (`caminos`), or
//!   `c2` and one rules digit for the others: `1` bridget, `2` caminos
//!   swap, `3` bridget swap;
//! - two characters per move, in playing order: the number
//!   `shape * 64 + y * 8 + x` written in base 62 with the digits
//!   `0-9 A-Z a-z` (most significant first), where `shape` numbers the 51
//!   shapes in the order RULES.md section 3 lists their canonical names
//!   (L T0 T90 T180 T270 B0 ... W270 = 0..23, then T, Z, O), and `(x, y)` is
//!   the placement's position; `swap` is 3264 and `tm` 3265;
//! - two check characters: `h` in base 62, where `h` starts at 1 (for `c2`:
//!   at the rules digit plus 1) and for each move value `v` becomes
//!   `(h * 67 + v + 1) mod 3843`.
//!
//! Only letters and digits, so a double click selects the whole code. The
//! empty game is `c101`.

use thiserror::Error;

use super::error::PlacementError;
use super::position::Position;
use super::rules::{Move, Rules, Variant};
use super::table::{Placement, table};

/// Why a position code does not give back a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CodeError {
    /// Neither `c1` nor `c2` at the start.
    #[error("a position code starts with `{PREFIX}` or `{PREFIX2}`")]
    Prefix,
    /// `c2` without a rules digit 1, 2 or 3.
    #[error("a `c2` position code goes on with a rules digit 1, 2 or 3")]
    RulesDigit,
    /// A character other than a letter or a digit.
    #[error("a position code has only letters and digits, found '{0}'")]
    Character(char),
    /// An odd number of characters, or no check characters.
    #[error("this position code is cut short or has a character too many")]
    Length,
    /// The check characters do not match the moves.
    #[error("this position code does not check out: a character is wrong or missing")]
    Check,
    /// A pair of characters that names no move.
    #[error("move {0} of the code is not a move")]
    NotAMove(usize),
    /// A move that is not legal where it stands.
    #[error("move {index} of the code ({mv}): {why}")]
    Illegal {
        /// Its number, from 1.
        index: usize,
        /// The move.
        mv: Move,
        /// Why it is not legal.
        why: PlacementError,
    },
}

const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PREFIX: &str = "c1";
const PREFIX2: &str = "c2";

fn digit_value(c: u8) -> Option<u32> {
    DIGITS.iter().position(|&d| d == c).map(|i| i as u32)
}

fn pair(v: u32) -> [char; 2] {
    [
        DIGITS[(v / 62) as usize] as char,
        DIGITS[(v % 62) as usize] as char,
    ]
}

fn check(start: u32, values: &[u32]) -> u32 {
    values.iter().fold(start, |h, &v| (h * 67 + v + 1) % 3843)
}

/// The value of `swap`; `tm` is one more.
const SWAP: u32 = 51 * 64;

fn value(m: Move) -> u32 {
    match m {
        Move::Place(p) => {
            let e = p.entry();
            u32::from(e.shape) * 64 + u32::from(e.y) * 8 + u32::from(e.x)
        }
        Move::Swap => SWAP,
        Move::TimeMachine => SWAP + 1,
    }
}

/// The rules digit of a `c2` code.
fn rules_digit(r: Rules) -> u32 {
    u32::from(r.variant == Variant::Bridget) + 2 * u32::from(r.swap)
}

/// The code of a game.
pub(super) fn encode(pos: &Position) -> String {
    let values: Vec<u32> = pos.moves().iter().map(|&m| value(m)).collect();
    let rules = pos.rules();
    let (mut s, start) = if rules.is_default() {
        (String::from(PREFIX), 1)
    } else {
        let d = rules_digit(rules);
        (format!("{PREFIX2}{d}"), d + 1)
    };
    for &v in &values {
        s.extend(pair(v));
    }
    s.extend(pair(check(start, &values)));
    s
}

/// The game of a code, or what is wrong with it.
pub(super) fn decode(code: &str) -> Result<Position, CodeError> {
    let code = code.trim();
    let (rules, start, body) = if let Some(body) = code.strip_prefix(PREFIX) {
        (Rules::CAMINOS, 1, body)
    } else if let Some(body) = code.strip_prefix(PREFIX2) {
        let d = body
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|&d| (1..=3).contains(&d));
        let Some(d) = d else {
            return Err(CodeError::RulesDigit);
        };
        let rules = Rules {
            variant: if d % 2 == 1 {
                Variant::Bridget
            } else {
                Variant::Caminos
            },
            swap: d >= 2,
        };
        (rules, d + 1, &body[1..])
    } else {
        return Err(CodeError::Prefix);
    };
    if let Some(bad) = body.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(CodeError::Character(bad));
    }
    let bytes = body.as_bytes();
    if bytes.len() % 2 != 0 || bytes.len() < 2 {
        return Err(CodeError::Length);
    }
    let values: Vec<u32> = bytes
        .chunks(2)
        .map(|c| {
            let hi = digit_value(c[0]).expect("alphanumeric");
            let lo = digit_value(c[1]).expect("alphanumeric");
            hi * 62 + lo
        })
        .collect();
    let (moves, sum) = values.split_at(values.len() - 1);
    if check(start, moves) != sum[0] {
        return Err(CodeError::Check);
    }
    let t = table();
    let mut pos = Position::with_rules(rules);
    for (i, &v) in moves.iter().enumerate() {
        let m = match v {
            SWAP => Move::Swap,
            v if v == SWAP + 1 => Move::TimeMachine,
            v => {
                let (shape, y, x) = (v / 64, (v / 8) % 8, v % 8);
                let p: Option<Placement> = (shape < t.shapes.len() as u32)
                    .then(|| t.placement_at(shape as usize, x as u8, y as u8))
                    .flatten();
                Move::Place(p.ok_or(CodeError::NotAMove(i + 1))?)
            }
        };
        pos.play(m).map_err(|why| CodeError::Illegal {
            index: i + 1,
            mv: m,
            why,
        })?;
    }
    Ok(pos)
}

impl Position {
    /// The position code of this game: its rules and every move in one
    /// line of letters and digits (docs/PLAY.md), read back by
    /// [`Position::from_code`].
    ///
    /// ```
    /// use cabra::game::{Move, Position};
    /// assert_eq!(Position::new().to_code(), "c101");
    /// let mut pos = Position::new();
    /// pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
    /// assert_eq!(Position::from_code(&pos.to_code()), Ok(pos));
    /// assert!(Position::from_code("c1AB").is_err());
    /// ```
    pub fn to_code(&self) -> String {
        encode(self)
    }

    /// The game of a position code, replayed and checked move by move.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        decode(code)
    }
}

/// Reads a position code, as [`Position::from_code`]: `"c101".parse()`.
impl std::str::FromStr for Position {
    type Err = CodeError;
    fn from_str(code: &str) -> Result<Position, CodeError> {
        decode(code)
    }
}

/// Writes the position code, as [`Position::to_code`], which `parse`
/// reads back (for the board as text, see [`crate::game::board_text`]).
///
/// ```
/// use cabra::game::{Move, Position};
/// let mut pos = Position::new();
/// pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
/// let code = pos.to_string();
/// assert_eq!(code.parse::<Position>(), Ok(pos));
/// ```
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&encode(self))
    }
}
