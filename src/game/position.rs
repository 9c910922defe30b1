//! A game in progress: whose cubes are where, what is left, whose turn it
//! is, and how the game stands. Copyable and allocation-free.

use super::bitboard::Volume;
use super::bridge;
use super::cell::Cell;
use super::error::PlacementError;
use super::piece::Piece;
use super::player::{Player, Status, WinReason};
use super::table::{Entry, Placement};

/// The longest possible game: 14 pieces each.
pub const MAX_PLIES: usize = 28;

/// A position: the board, pieces left, side to move, result and history.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    cubes: [Volume; 2],
    occupied: Volume,
    left: [[u8; 4]; 2],
    perimeter: [u8; 2],
    to_move: Player,
    status: Status,
    history: [Placement; MAX_PLIES],
    plies: u8,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The empty board, player 1 to move, 4 L, 4 T, 4 Z and 2 O each.
    pub fn new() -> Position {
        let start = Piece::ALL.map(Piece::start_count);
        Position {
            cubes: [Volume::EMPTY; 2],
            occupied: Volume::EMPTY,
            left: [start; 2],
            perimeter: [0; 2],
            to_move: Player::One,
            status: Status::Ongoing,
            history: [Placement(0); MAX_PLIES],
            plies: 0,
        }
    }

    /// The player whose turn it is (after the game ends: the one who could not move,
    /// or the loser of a bridge).
    #[inline(always)]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// How the game stands.
    #[inline(always)]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The cubes of `player`.
    #[inline(always)]
    pub fn cubes(&self, player: Player) -> Volume {
        self.cubes[player.index()]
    }

    /// All cubes on the board.
    #[inline(always)]
    pub fn occupied(&self) -> Volume {
        self.occupied
    }

    /// Who owns the cube at `cell`, if anyone.
    pub fn owner(&self, cell: Cell) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| self.cubes[p.index()].contains(cell))
    }

    /// The topmost cube of column `(x, y)`: its owner and height (0 to 2),
    /// or `None` for an empty column.
    pub fn top(&self, x: u8, y: u8) -> Option<(Player, u8)> {
        (0..3u8).rev().find_map(|z| {
            let c = Cell::new(x, y, z);
            self.owner(c).map(|p| (p, z))
        })
    }

    /// How many pieces of type `piece` `player` still holds.
    #[inline(always)]
    pub fn pieces_left(&self, player: Player, piece: Piece) -> u8 {
        self.left[player.index()][piece.index()]
    }

    /// Bit `i` is set when the side to move still holds piece type `i`.
    #[inline(always)]
    pub(crate) fn available_mask(&self) -> usize {
        let l = &self.left[self.to_move.index()];
        (l[0] != 0) as usize
            | ((l[1] != 0) as usize) << 1
            | ((l[2] != 0) as usize) << 2
            | ((l[3] != 0) as usize) << 3
    }

    /// The same position with the other player to move (a "pass"), for
    /// asking what the opponent could do now. The status is unchanged.
    #[inline]
    pub(crate) fn with_turn_passed(&self) -> Position {
        Position {
            to_move: self.to_move.other(),
            ..*self
        }
    }

    /// How many of `player`'s pieces have a cube on the bottom perimeter.
    #[inline(always)]
    pub fn perimeter_count(&self, player: Player) -> u8 {
        self.perimeter[player.index()]
    }

    /// The placements played so far, in order.
    #[inline(always)]
    pub fn history(&self) -> &[Placement] {
        &self.history[..self.plies as usize]
    }

    /// Number of placements played.
    #[inline(always)]
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// Why `p` is not legal here, or `Ok` if it is.
    pub fn check(&self, p: Placement) -> Result<(), PlacementError> {
        if self.status.is_over() {
            return Err(PlacementError::GameOver(self.status));
        }
        let e = p.entry();
        if self.pieces_left(self.to_move, e.piece) == 0 {
            return Err(PlacementError::NoPieceLeft {
                player: self.to_move,
                piece: e.piece,
            });
        }
        if let Some(c) = (e.cells & self.occupied).cells().next() {
            return Err(PlacementError::Occupied(c));
        }
        let unsupported = Volume([
            e.support[0] & !self.occupied.0[0],
            e.support[1] & !self.occupied.0[1],
            0,
        ]);
        if let Some(c) = unsupported.cells().next() {
            let cube = c.above().expect("support cells lie below z = 2");
            return Err(PlacementError::Floating(cube));
        }
        Ok(())
    }

    /// Plays `p` if it is legal, otherwise says why not and changes nothing.
    pub fn try_play(&mut self, p: Placement) -> Result<(), PlacementError> {
        self.check(p)?;
        self.play(p);
        Ok(())
    }

    /// Plays a legal placement for the side to move and updates the status:
    /// a bridge wins for the mover; otherwise, if the next player has no legal
    /// placement, the game ends on perimeter counts.
    #[inline]
    pub fn play(&mut self, p: Placement) {
        debug_assert!(self.is_legal(p), "illegal placement {p}");
        let mover = self.to_move;
        let e = self.place(p);
        if bridge::completes_bridge(
            self.cubes[mover.index()],
            self.cubes[mover.other().index()],
            e.cells,
        ) {
            self.status = Status::Won {
                winner: mover,
                by: WinReason::Bridge,
            };
        } else if !self.has_legal_move() {
            self.status = self.perimeter_result();
        }
    }

    /// Puts the cubes of `p` on the board for the side to move and passes the
    /// turn, without judging the result.
    #[inline(always)]
    pub(crate) fn place(&mut self, p: Placement) -> &'static Entry {
        let e = p.entry();
        let me = self.to_move.index();
        self.cubes[me] |= e.cells;
        self.occupied |= e.cells;
        self.left[me][e.piece.index()] -= 1;
        self.perimeter[me] += e.on_perimeter as u8;
        self.history[self.plies as usize] = p;
        self.plies += 1;
        self.to_move = self.to_move.other();
        e
    }

    /// The perimeter verdict of RULES.md section 7: fewer perimeter pieces wins.
    pub(crate) fn perimeter_result(&self) -> Status {
        let [a, b] = self.perimeter;
        match a.cmp(&b) {
            std::cmp::Ordering::Less => Status::Won {
                winner: Player::One,
                by: WinReason::Perimeter,
            },
            std::cmp::Ordering::Greater => Status::Won {
                winner: Player::Two,
                by: WinReason::Perimeter,
            },
            std::cmp::Ordering::Equal => Status::Draw,
        }
    }

    /// Sets the result; used by the playout, which finds the end of the game itself.
    #[inline(always)]
    pub(crate) fn set_status(&mut self, s: Status) {
        self.status = s;
    }

    /// Takes back the last placement, restoring the exact previous state.
    /// Returns it, or `None` on the empty board.
    pub fn undo(&mut self) -> Option<Placement> {
        if self.plies == 0 {
            return None;
        }
        self.plies -= 1;
        let p = self.history[self.plies as usize];
        self.history[self.plies as usize] = Placement(0);
        let e = p.entry();
        let mover = self.to_move.other();
        let me = mover.index();
        self.cubes[me] = self.cubes[me] & !e.cells;
        self.occupied = self.occupied & !e.cells;
        self.left[me][e.piece.index()] += 1;
        self.perimeter[me] -= e.on_perimeter as u8;
        self.to_move = mover;
        // A placement is only ever made in an ongoing game.
        self.status = Status::Ongoing;
        Some(p)
    }

    /// Whether `player` has a bridge now (a full check from the edges).
    pub fn has_bridge(&self, player: Player) -> bool {
        bridge::has_bridge(
            self.cubes[player.index()],
            self.cubes[player.other().index()],
        )
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let moves: Vec<String> = self.history().iter().map(|p| p.to_string()).collect();
        f.debug_struct("Position")
            .field("history", &moves)
            .field("to_move", &self.to_move)
            .field("status", &self.status)
            .finish()
    }
}
