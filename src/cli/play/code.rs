//! The position code: one short line of letters and digits that gives back
//! a whole game (every placement, in order), for `pos` and `pos CODE`.
//!
//! Format (documented in docs/PLAY.md):
//!
//! - the prefix `c1` (format version 1);
//! - two characters per placement, in playing order: the number
//!   `shape * 64 + y * 8 + x` written in base 62 with the digits
//!   `0-9 A-Z a-z` (most significant first), where `shape` numbers the 51
//!   shapes in the order RULES.md section 3 lists their canonical names
//!   (L T0 T90 T180 T270 B0 ... W270 = 0..23, then T, Z, O), and `(x, y)` is
//!   the placement's position;
//! - two check characters: `h` in base 62, where `h` starts at 1 and for
//!   each placement value `v` becomes `(h * 67 + v + 1) mod 3843`.
//!
//! Only letters and digits, so a double click selects the whole code. The
//! empty game is `c101`.

use cabra::game::{Placement, Position, table};

const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PREFIX: &str = "c1";

fn digit_value(c: u8) -> Option<u32> {
    DIGITS.iter().position(|&d| d == c).map(|i| i as u32)
}

fn pair(v: u32) -> [char; 2] {
    [
        DIGITS[(v / 62) as usize] as char,
        DIGITS[(v % 62) as usize] as char,
    ]
}

fn check(values: &[u32]) -> u32 {
    values.iter().fold(1, |h, &v| (h * 67 + v + 1) % 3843)
}

fn value(p: Placement) -> u32 {
    let e = p.entry();
    u32::from(e.shape) * 64 + u32::from(e.y) * 8 + u32::from(e.x)
}

/// The code of a game.
pub fn encode(pos: &Position) -> String {
    let values: Vec<u32> = pos.history().iter().map(|&p| value(p)).collect();
    let mut s = String::from(PREFIX);
    for &v in &values {
        s.extend(pair(v));
    }
    s.extend(pair(check(&values)));
    s
}

/// The game of a code, or one line saying what is wrong with it.
pub fn decode(code: &str) -> Result<Position, String> {
    let code = code.trim();
    let Some(body) = code.strip_prefix(PREFIX) else {
        return Err(format!(
            "a position code starts with `{PREFIX}` (type `pos` to see the code of this game)"
        ));
    };
    if let Some(bad) = body.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(format!(
            "a position code has only letters and digits, found '{bad}'"
        ));
    }
    let bytes = body.as_bytes();
    if bytes.len() % 2 != 0 || bytes.len() < 2 {
        return Err("this position code is cut short or has a character too many".to_string());
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
    if check(moves) != sum[0] {
        return Err(
            "this position code does not check out: a character is wrong or missing".to_string(),
        );
    }
    let t = table();
    let mut pos = Position::new();
    for (i, &v) in moves.iter().enumerate() {
        let (shape, y, x) = (v / 64, (v / 8) % 8, v % 8);
        let p = (shape < t.shapes.len() as u32)
            .then(|| t.placement_at(shape as usize, x as u8, y as u8))
            .flatten()
            .ok_or_else(|| format!("placement {} of the code is not a placement", i + 1))?;
        pos.try_play(p)
            .map_err(|e| format!("placement {} of the code ({p}): {e}", i + 1))?;
    }
    Ok(pos)
}
