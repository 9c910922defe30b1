//! The rules of Caminos (see `docs/RULES.md`): the 8x8x3 bitboard volume,
//! pieces and orientations, the placement table, positions with legal
//! moves, play/undo, the game line with its redo list, the bridge test and
//! results, notation and files.

pub(crate) mod bitboard;
pub mod bridge;
mod cell;
mod code;
mod error;
mod line;
mod movegen;
mod notation;
mod orientation;
pub mod perft;
mod piece;
mod player;
mod playout;
mod position;
pub mod record;
mod rules;
#[cfg(feature = "serde")]
mod serialize;
mod shape;
mod shape_masks;
mod table;
mod text;
mod threats;

pub use bitboard::Volume;
pub use cell::Cell;
pub use code::CodeError;
pub use error::{
    LineError, MoveError, NotationError, PlacementError, RangeError, RecordError, beyond,
};
pub use line::{GameLine, PastTheEnd};
pub(crate) use movegen::below;
pub use movegen::{FixedList, MoveList, PlacementList};
pub use notation::{
    cells_from_digits, parse_move, parse_placement, parse_placement_or_cells, placement_from_cells,
};
pub use orientation::{Face, Orientation};
pub use piece::Piece;
pub use player::{Player, Status, WinReason};
pub use position::{MAX_MOVES, MAX_PLIES, Position};
pub use rules::{MOVE_COUNT, Move, Rules, RulesError, Variant, special_move};
pub use shape::{SHAPE_COUNT, Shape};
pub use table::{Entry, PLACEMENT_COUNT, Placement, Table, table};
pub use text::{WIDE_BOARD, board_text, board_text_painted, cube_symbol, marked_cubes};
