//! A game in progress: whose cubes are where, what is left, whose turn it
//! is, the rules, the moves made, and how the game stands. Copyable and
//! allocation-free. The special moves of section 9 are in `special.rs`.

mod special;

use super::bitboard::{RIM, Volume};
use super::bridge;
use super::cell::Cell;
use super::error::{MoveError, PlacementError, RangeError};
use super::piece::Piece;
use super::player::{Player, Status, WinReason};
use super::rules::{Move, Rules, Variant};
use super::table::{Entry, Placement};

/// The most pieces on the board: 14 each. It bounds the placements on the
/// board ([`Position::placements`]), not [`Position::plies`], which counts
/// swaps and time machines too and is bounded by [`MAX_MOVES`].
pub const MAX_PLIES: usize = 28;

/// The longest game record: 28 placements on the board, up to 4 more taken
/// back by the two time machines, the two time machines and a swap.
pub const MAX_MOVES: usize = MAX_PLIES + 4 + 2 + 1;

/// A position: the board, pieces left, side to move, result, rules and
/// the moves that led here.
///
/// Two positions are equal when their rules and moves are (the same cubes
/// reached by other moves are another position). `Display` writes the
/// position code ([`Position::to_code`]); [`super::board_text`] draws the
/// board. With the feature `serde`, a position is written as its rules and
/// its moves in notation, `{"rules":"caminos","moves":["L E180 110"]}`,
/// and read back by replaying them: an illegal game, unknown rules or an
/// unknown field is an error.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    cubes: [Volume; 2],
    occupied: Volume,
    left: [[u8; 4]; 2],
    perimeter: [u8; 2],
    to_move: Player,
    status: Status,
    /// The placements on the board, in the order they were made.
    board: [Placement; MAX_PLIES],
    on_board: u8,
    /// Every move of the game record, in order.
    moves: [Move; MAX_MOVES],
    made: u8,
    rules: Rules,
    /// Whether each player has used the time machine.
    tm_used: [bool; 2],
    /// Whether player 2 swapped: the first piece on the board is theirs.
    swapped: bool,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The empty board under the default rules (`caminos`), player 1 to
    /// move, 4 L, 4 T, 4 Z and 2 O each.
    pub fn new() -> Position {
        Position::with_rules(Rules::CAMINOS)
    }

    /// The empty board under `rules`.
    pub fn with_rules(rules: Rules) -> Position {
        let start = Piece::ALL.map(Piece::start_count);
        Position {
            cubes: [Volume::EMPTY; 2],
            occupied: Volume::EMPTY,
            left: [start; 2],
            perimeter: [0; 2],
            to_move: Player::One,
            status: Status::Ongoing,
            board: [Placement(0); MAX_PLIES],
            on_board: 0,
            // Unused record slots hold `swap`, as undo leaves them.
            moves: [Move::Swap; MAX_MOVES],
            made: 0,
            rules,
            tm_used: [false; 2],
            swapped: false,
        }
    }

    /// The position after `moves` from the empty board under `rules`, or the
    /// first illegal move, its index and why.
    pub fn from_moves(rules: Rules, moves: &[Move]) -> Result<Position, MoveError> {
        let mut pos = Position::with_rules(rules);
        for (index, &mv) in moves.iter().enumerate() {
            pos.play(mv).map_err(|why| MoveError { index, mv, why })?;
        }
        Ok(pos)
    }

    /// The rules of this game.
    #[inline(always)]
    pub fn rules(&self) -> Rules {
        self.rules
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
    /// or `None` for an empty column; an error for a column off the board.
    pub fn top(&self, x: u8, y: u8) -> Result<Option<(Player, u8)>, RangeError> {
        if x > 7 || y > 7 {
            return Err(RangeError::Column { x, y });
        }
        Ok((0..3u8).rev().find_map(|z| {
            let c = Cell::at(x, y, z);
            self.owner(c).map(|p| (p, z))
        }))
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
            | (((l[1] != 0) as usize) << 1)
            | (((l[2] != 0) as usize) << 2)
            | (((l[3] != 0) as usize) << 3)
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

    /// How many of `player`'s pieces have a cube on the bottom perimeter
    /// (section 7).
    #[inline(always)]
    pub fn perimeter_count(&self, player: Player) -> u8 {
        self.perimeter[player.index()]
    }

    /// How many of the 28 edge columns have `player`'s cube on top
    /// (section 9.1).
    pub fn edge_count(&self, player: Player) -> u8 {
        let [_, o1, o2] = self.occupied.0;
        let [c0, c1, c2] = self.cubes[player.index()].0;
        let on_top = c2 | (c1 & !o2) | (c0 & !o1 & !o2);
        (on_top & RIM).count_ones() as u8
    }

    /// The count that decides a game without a bridge under this game's
    /// rules: perimeter pieces (fewer wins) or edge columns (more wins).
    pub fn count(&self, player: Player) -> u8 {
        match self.rules.variant {
            Variant::Caminos => self.perimeter_count(player),
            Variant::Bridget => self.edge_count(player),
        }
    }

    /// Whether `player` has used the time machine.
    #[inline(always)]
    pub fn time_machine_used(&self, player: Player) -> bool {
        self.tm_used[player.index()]
    }

    /// Whether player 2 swapped (the first piece on the board is theirs).
    #[inline(always)]
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The placements on the board, in the order they were made (a time
    /// machine takes its two off).
    #[inline(always)]
    pub fn placements(&self) -> &[Placement] {
        &self.board[..self.on_board as usize]
    }

    /// Every move of the game, in order: what a game record holds.
    #[inline(always)]
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.made as usize]
    }

    /// Number of moves made (placements, swaps and time machines): at
    /// most [`MAX_MOVES`].
    #[inline(always)]
    pub fn plies(&self) -> usize {
        self.made as usize
    }

    /// The owner of the `i`-th placement on the board (the swap gave the
    /// first one to player 2).
    pub(super) fn owner_of(&self, i: usize) -> Player {
        Player::of_parity(i + usize::from(self.swapped))
    }

    /// Why `m` (a placement or a special move) is not legal here, or `Ok`
    /// if it is.
    #[inline]
    pub fn check(&self, m: impl Into<Move>) -> Result<(), PlacementError> {
        match m.into() {
            Move::Place(p) => self.check_placement(p),
            special => self.check_special(special),
        }
    }

    /// Why placement `p` is not legal here.
    fn check_placement(&self, p: Placement) -> Result<(), PlacementError> {
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

    /// Whether `m` (a placement or a special move) is legal here.
    #[inline(always)]
    pub fn is_legal(&self, m: impl Into<Move>) -> bool {
        match m.into() {
            Move::Place(p) => self.is_legal_placement(p),
            special => self.check_special(special).is_ok(),
        }
    }

    /// Plays `m` (a placement or a special move) if it is legal; otherwise
    /// says why not and changes nothing.
    ///
    /// ```
    /// use cabra::game::{Move, Position};
    /// let mut pos = Position::new();
    /// pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
    /// // The same cubes again: refused, and the position is unchanged.
    /// assert!(pos.play("L E180 110".parse::<Move>().unwrap()).is_err());
    /// assert_eq!(pos.plies(), 1);
    /// ```
    pub fn play(&mut self, m: impl Into<Move>) -> Result<(), PlacementError> {
        let m = m.into();
        self.check(m)?;
        self.play_move_unchecked(m);
        Ok(())
    }

    /// Plays a legal move for the side to move, unchecked: the fast call
    /// for a search that plays only moves it generated. A move of unknown
    /// origin goes through [`Position::play`]: an illegal one here panics
    /// in a debug build and, in a release build, leaves a position no game
    /// can reach or panics (a time machine with fewer than two placements
    /// on the board).
    #[inline]
    pub fn play_move_unchecked(&mut self, m: Move) {
        match m {
            Move::Place(p) => self.play_unchecked(p),
            Move::Swap => self.swap(),
            Move::TimeMachine => self.time_machine(),
        }
    }

    /// Plays a legal placement for the side to move and updates the status:
    /// a bridge wins for the mover; otherwise, if the next player has no legal
    /// placement, the game ends by the count of the rules. Unchecked, as
    /// [`Position::play_move_unchecked`]: a placement of unknown origin goes
    /// through [`Position::play`].
    #[inline]
    pub fn play_unchecked(&mut self, p: Placement) {
        debug_assert!(self.is_legal_placement(p), "illegal placement {p}");
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
            self.status = self.count_result();
        }
    }

    /// Records `m` in the game record.
    #[inline(always)]
    pub(super) fn record(&mut self, m: Move) {
        self.moves[self.made as usize] = m;
        self.made += 1;
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
        self.board[self.on_board as usize] = p;
        self.on_board += 1;
        self.record(Move::Place(p));
        self.to_move = self.to_move.other();
        e
    }

    /// Takes the piece of `p` (owned by `owner`) off the board into its
    /// owner's stock.
    pub(super) fn lift(&mut self, p: Placement, owner: Player) {
        let e = p.entry();
        let o = owner.index();
        self.cubes[o] = self.cubes[o] & !e.cells;
        self.occupied = self.occupied & !e.cells;
        self.left[o][e.piece.index()] += 1;
        self.perimeter[o] -= e.on_perimeter as u8;
    }

    /// The verdict of a game that ends without a bridge: sections 7 and 9.1.
    pub(crate) fn count_result(&self) -> Status {
        let [a, b] = Player::BOTH.map(|p| self.count(p));
        let (by, fewer_wins) = match self.rules.variant {
            Variant::Caminos => (WinReason::Perimeter, true),
            Variant::Bridget => (WinReason::Edge, false),
        };
        match (a.cmp(&b), fewer_wins) {
            (std::cmp::Ordering::Equal, _) => Status::Draw { by },
            (std::cmp::Ordering::Less, true) | (std::cmp::Ordering::Greater, false) => {
                Status::Won {
                    winner: Player::One,
                    by,
                }
            }
            _ => Status::Won {
                winner: Player::Two,
                by,
            },
        }
    }

    /// Sets the result; used by the playout, which finds the end of the game itself.
    #[inline(always)]
    pub(crate) fn set_status(&mut self, s: Status) {
        self.status = s;
    }

    /// Takes back the last move, restoring the exact previous state.
    /// Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let last = *self.moves().last()?;
        match last {
            Move::Place(p) => {
                self.made -= 1;
                self.moves[self.made as usize] = Move::Swap;
                self.on_board -= 1;
                self.board[self.on_board as usize] = Placement(0);
                let mover = self.owner_of(self.on_board as usize);
                self.lift(p, mover);
                self.to_move = mover;
                // A placement is only ever made in an ongoing game.
                self.status = Status::Ongoing;
            }
            Move::Swap => {
                self.made -= 1;
                // (`Move::Swap` is also the value of unused record slots.)
                self.recolour(self.board[0], Player::Two);
                self.swapped = false;
                self.to_move = Player::Two;
            }
            Move::TimeMachine => {
                // Replaying the record is exact and simpler than keeping what
                // the time machine took off; undo is not a hot path.
                let moves = self.moves;
                let n = self.plies() - 1;
                *self = Position::from_moves(self.rules, &moves[..n])
                    .expect("a prefix of a legal game is legal");
            }
        }
        Some(last)
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
        let moves: Vec<String> = self.moves().iter().map(|p| p.to_string()).collect();
        f.debug_struct("Position")
            .field("rules", &self.rules.to_string())
            .field("moves", &moves)
            .field("to_move", &self.to_move)
            .field("status", &self.status)
            .finish()
    }
}
