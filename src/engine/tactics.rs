//! Tactical test positions: win in one, must-block, win in two.
//!
//! A test is a `.caminos` file whose comment lines include
//! `# tactic: KIND` with KIND one of `win1`, `block`, `win2`. The answer is
//! checked by the rules, not against a stored move, so every correct move
//! counts:
//!
//! - `win1`: the move wins at once;
//! - `block`: after the move the opponent has no immediate win (or the
//!   mover has won);
//! - `win2`: after the move, whatever the opponent replies, the mover wins
//!   at once (or the game is already won for the mover). A move that
//!   forces a win within three moves instead is accepted too (checked
//!   exhaustively), since the solver may prove a longer win first.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::game::{Placement, Player, Position, Status};

/// The built-in suite (`tests/data/tactics`), embedded so that `cabra
/// tactics` works wherever the binary is: `(file name, file text)`.
pub const SUITE: &[(&str, &str)] = &[
    (
        "block-1.caminos",
        include_str!("../../tests/data/tactics/block-1.caminos"),
    ),
    (
        "block-2.caminos",
        include_str!("../../tests/data/tactics/block-2.caminos"),
    ),
    (
        "block-3.caminos",
        include_str!("../../tests/data/tactics/block-3.caminos"),
    ),
    (
        "block-4.caminos",
        include_str!("../../tests/data/tactics/block-4.caminos"),
    ),
    (
        "block-5.caminos",
        include_str!("../../tests/data/tactics/block-5.caminos"),
    ),
    (
        "block-6.caminos",
        include_str!("../../tests/data/tactics/block-6.caminos"),
    ),
    (
        "win1-1.caminos",
        include_str!("../../tests/data/tactics/win1-1.caminos"),
    ),
    (
        "win1-2.caminos",
        include_str!("../../tests/data/tactics/win1-2.caminos"),
    ),
    (
        "win1-3.caminos",
        include_str!("../../tests/data/tactics/win1-3.caminos"),
    ),
    (
        "win1-4.caminos",
        include_str!("../../tests/data/tactics/win1-4.caminos"),
    ),
    (
        "win1-5.caminos",
        include_str!("../../tests/data/tactics/win1-5.caminos"),
    ),
    (
        "win1-6.caminos",
        include_str!("../../tests/data/tactics/win1-6.caminos"),
    ),
    (
        "win2-1.caminos",
        include_str!("../../tests/data/tactics/win2-1.caminos"),
    ),
    (
        "win2-2.caminos",
        include_str!("../../tests/data/tactics/win2-2.caminos"),
    ),
    (
        "win2-3.caminos",
        include_str!("../../tests/data/tactics/win2-3.caminos"),
    ),
    (
        "win2-4.caminos",
        include_str!("../../tests/data/tactics/win2-4.caminos"),
    ),
    (
        "win2-5.caminos",
        include_str!("../../tests/data/tactics/win2-5.caminos"),
    ),
    (
        "win2-6.caminos",
        include_str!("../../tests/data/tactics/win2-6.caminos"),
    ),
];

/// What a tactical position asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The side to move wins with one placement.
    Win1,
    /// The opponent threatens a win in one; one placement stops it.
    Block,
    /// The side to move forces a win in two of its placements.
    Win2,
}

/// A tactic kind other than win1, block and win2.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown tactic kind '{0}' (win1, block, win2)")]
pub struct UnknownKind(pub String);

impl FromStr for Kind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Self, UnknownKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "win1" => Ok(Kind::Win1),
            "block" => Ok(Kind::Block),
            "win2" => Ok(Kind::Win2),
            o => Err(UnknownKind(o.to_string())),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Win1 => "win1",
            Kind::Block => "block",
            Kind::Win2 => "win2",
        })
    }
}

/// The kind named by a `# tactic: KIND` comment in a game file's text.
pub fn kind_in(text: &str) -> Option<Result<Kind, UnknownKind>> {
    text.lines().find_map(|l| {
        let c = l.split_once('#')?.1.trim();
        let rest = c.strip_prefix("tactic:")?;
        Some(rest.split_whitespace().next().unwrap_or("").parse())
    })
}

fn won_by(pos: &Position, p: Player) -> bool {
    matches!(pos.status(), Status::Won { winner, .. } if winner == p)
}

/// Whether `mv` answers the position.
pub fn solves(pos: &Position, kind: Kind, mv: Placement) -> bool {
    if !pos.is_legal(mv) {
        return false;
    }
    let me = pos.to_move();
    let mut after = *pos;
    after.play_unchecked(mv);
    if won_by(&after, me) {
        return true;
    }
    match kind {
        Kind::Win1 => false,
        Kind::Block => !after.status().is_over() && after.winning_move().is_none(),
        Kind::Win2 => forces_win_within(pos, mv, 2) || forces_win_within(pos, mv, 3),
    }
}

/// Whether `mv` forces a win within `moves` moves of the mover (this one
/// included) against every defence: exhaustive, so only for small `moves`
/// (3 takes up to seconds). Used to accept a longer forced win than asked.
pub fn forces_win_within(pos: &Position, mv: Placement, moves: u32) -> bool {
    if moves == 0 || !pos.is_legal(mv) {
        return false;
    }
    let me = pos.to_move();
    let mut after = *pos;
    after.play_unchecked(mv);
    if won_by(&after, me) {
        return true;
    }
    if moves == 1 || after.status().is_over() || after.winning_move().is_some() {
        return false;
    }
    let mut ok = true;
    after.for_each_legal_placement(|r| {
        if !ok {
            return;
        }
        let mut next = after;
        next.play_unchecked(r);
        ok = if next.status().is_over() {
            won_by(&next, me)
        } else if moves == 2 {
            next.winning_move().is_some()
        } else {
            let mut any = false;
            next.for_each_legal_placement(|m| {
                any = any || forces_win_within(&next, m, moves - 1);
            });
            any
        };
    });
    ok
}

/// The moves that answer the position (all legal moves checked); for
/// `win2` only wins in exactly two moves.
pub fn solutions(pos: &Position, kind: Kind) -> Vec<Placement> {
    let mut out = Vec::new();
    pos.for_each_legal_placement(|m| {
        let ok = match kind {
            Kind::Win2 => forces_win_within(pos, m, 2),
            _ => solves(pos, kind, m),
        };
        if ok {
            out.push(m);
        }
    });
    out
}
