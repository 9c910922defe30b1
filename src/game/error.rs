//! Why a placement, a notation or a file line was refused.

use thiserror::Error;

use super::cell::Cell;
use super::piece::Piece;
use super::player::{Player, Status};
use super::rules::{Move, Rules};

/// Why a move is not legal in a position (RULES.md sections 5 and 9).
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

/// A line of a `.caminos` file that could not be read; nothing after it was applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {reason}")]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, in plain words.
    pub reason: String,
}
