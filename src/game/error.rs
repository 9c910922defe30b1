//! Why a placement, a notation or a file line was refused.

use thiserror::Error;

use super::cell::Cell;
use super::piece::Piece;
use super::player::{Player, Status};

/// Why a placement is not legal in a position (RULES.md section 5).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
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
}

/// A line of a `.caminos` file that could not be read; nothing after it was applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {reason}")]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, in plain words.
    pub reason: String,
}
