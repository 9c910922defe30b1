//! One test (at least) per rule of RULES.md, each on a small hand-built
//! position explained in its comments. Positions are built by playing
//! placements from notation (`L T90 200`) or from four cells
//! (`110 120 121 122`), exactly as a player would type them.
//!
//! Pictures of the floor in the comments use x to the right, y down.

use crate::common::*;

use std::collections::{BTreeSet, HashSet};

// The edges' columns, as bits of `Volume::columns`.
const EAST: u64 = Volume::EAST;
const NORTH: u64 = Volume::NORTH;
const RIM: u64 = Volume::RIM;
const SOUTH: u64 = Volume::SOUTH;
const WEST: u64 = Volume::WEST;

/// The bit of column `(x, y)` in a layer.
fn bit(x: u8, y: u8) -> u64 {
    1u64 << (y * 8 + x)
}
use cabra::game::bridge::{flood, has_bridge, visible};
use cabra::game::record::{parse_game, parse_record, placement_line, write_game};
use cabra::game::{
    Cell, MAX_PLIES, Move, PLACEMENT_COUNT, Piece, Placement, PlacementError, PlacementList,
    Player, Position, RecordError, SHAPE_COUNT, Status, Volume, WinReason, cells_from_digits,
    parse_move, parse_placement, parse_placement_or_cells, placement_from_cells, table,
};

mod bridges;
mod ending;
mod pieces;
mod placement;

// ---------------------------------------------------------------- helpers

/// A placement from notation or four cells; panics with the reason otherwise.
fn mv(s: &str) -> Placement {
    parse_placement_or_cells(s).unwrap_or_else(|e| panic!("`{s}`: {e}"))
}

/// Plays the placements in order from the empty board, each checked.
fn game(moves: &[&str]) -> Position {
    let mut pos = Position::new();
    for (i, s) in moves.iter().enumerate() {
        pos.play(mv(s))
            .unwrap_or_else(|e| panic!("move {} `{s}` refused: {e}", i + 1));
    }
    pos
}

/// Like [`game`], but checks that nobody has won before the last move, and
/// returns the position before the last move too.
fn game_until_last(moves: &[&str]) -> (Position, Position) {
    let before = game(&moves[..moves.len() - 1]);
    assert_eq!(before.status(), Status::Ongoing, "ended early: {before:?}");
    let mut after = before;
    after
        .play(mv(moves[moves.len() - 1]))
        .unwrap_or_else(|e| panic!("last move refused: {e}"));
    (before, after)
}

/// A cell from its three digits.
fn c(s: &str) -> Cell {
    let d: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
    Cell::from_digits([d[0], d[1], d[2]]).unwrap()
}

/// A volume from cells written `XYZ`, space separated.
fn vol(s: &str) -> Volume {
    let mut v = Volume::EMPTY;
    for t in s.split_whitespace() {
        v.insert(c(t));
    }
    v
}

/// The cells of a placement, ascending, space separated.
fn cells(p: Placement) -> String {
    let v: Vec<String> = p.entry().cells.cells().map(|c| c.to_string()).collect();
    v.join(" ")
}

fn load(name: &str) -> Position {
    let text = std::fs::read_to_string(data(&format!("games/{name}.caminos"))).unwrap();
    parse_game(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn bridge_win(p: Player) -> Status {
    Status::Won {
        winner: p,
        by: WinReason::Bridge,
    }
}

fn perimeter_win(p: Player) -> Status {
    Status::Won {
        winner: p,
        by: WinReason::Perimeter,
    }
}

const P1: Player = Player::One;
const P2: Player = Player::Two;

/// After a game-ending placement nobody may place anything.
fn assert_nothing_more(pos: &Position) {
    assert!(pos.status().is_over());
    assert_eq!(pos.count_legal_placements(), 0);
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    assert!(list.is_empty());
    assert_eq!(pos.winning_move(), None);
    for i in 0..PLACEMENT_COUNT {
        let p = Placement::try_from(i).unwrap();
        assert!(!pos.is_legal(p));
    }
    assert_eq!(
        pos.check(mv("O T0 330")),
        Err(PlacementError::GameOver(pos.status()))
    );
}

/// Whether some placement of `piece` would fit the board as it stands (for
/// whichever player), checked cell by cell: all four cells empty and every
/// cube at z > 0 on a cube or on a cube of the piece itself.
fn piece_fits_somewhere(pos: &Position, piece: Piece) -> bool {
    let occ = pos.occupied();
    table().entries().iter().any(|e| {
        e.piece == piece
            && !e.cells.intersects(occ)
            && e.cells.cells().all(|q| match q.below() {
                None => true,
                Some(b) => occ.contains(b) || e.cells.contains(b),
            })
    })
}

/// Player 1 plays four L's (moves 1, 3, 5, 7) in the north-west, player 2
/// four pieces (two of them O's) in the south-west; nobody spans the board.
const FOUR_LS: [&str; 8] = [
    "L T0 000", // P1: 000 100 200 010
    "L T0 050", // P2: 050 150 250 060
    "L T0 300", // P1: 300 400 500 310
    "L T0 350", // P2: 350 450 550 360
    "L T0 020", // P1: 020 120 220 030
    "O T0 160", // P2: 160 260 170 270
    "L T0 320", // P1: 320 420 520 330
    "O T0 460", // P2: 460 560 470 570
];
