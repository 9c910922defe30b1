//! Small games implementing [`Game`], for tests, examples and benchmarks.
//!
//! - [`TicTacToe`]: has draws and overrides [`Game::winning_move`].
//! - [`Hex`]: Hex on an `N x N` rhombus (`N <= 8`); no draws; keeps the
//!   default `winning_move`, so the solver must find wins from terminal
//!   children alone.
//! - [`DrawnHex`]: Hex whose playouts are all rewarded as draws.

use rand::{Rng, RngCore};

use super::game::{Game, uniform_playout};
use super::outcome::{Outcome, Side};
use super::replies::Replies;

/// Tic-tac-toe. Cells are numbered 0..9 row by row; side 0 (X) moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    boards: [u16; 2],
    to_move: Side,
    outcome: Option<Outcome>,
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

impl TicTacToe {
    /// The empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// The position after playing `cells` in order from the empty board.
    /// Panics on an illegal move.
    pub fn from_moves(cells: &[u8]) -> Self {
        let mut g = Self::new();
        for &c in cells {
            assert!(g.is_legal(c), "illegal tic-tac-toe move {c}");
            g.play(c);
        }
        g
    }

    fn empty(&self) -> u16 {
        !(self.boards[0] | self.boards[1]) & FULL
    }

    /// Plays uniformly random moves to the end.
    pub fn random_playout<R: RngCore>(&mut self, rng: &mut R) -> Outcome {
        while self.outcome.is_none() {
            let empty = self.empty();
            let k = rng.random_range(0..empty.count_ones());
            self.play(nth_set_bit(u64::from(empty), k) as u8);
        }
        self.outcome.expect("loop ends with an outcome")
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Threat = ();
    type Playout = ();
    type Exact = ();
    type Ranker = ();
    const MOVE_SPACE: usize = 9;

    fn move_id(mv: u8) -> usize {
        mv as usize
    }

    fn move_from_id(id: usize) -> u8 {
        id as u8
    }

    fn is_legal(&self, mv: u8) -> bool {
        self.outcome.is_none() && mv < 9 && self.empty() & (1 << mv) != 0
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self, buf: &mut Vec<u8>) {
        buf.clear();
        if self.outcome.is_none() {
            buf.extend((0..9).filter(|&c| self.empty() & (1 << c) != 0));
        }
    }

    fn play(&mut self, mv: u8) {
        let me = self.to_move;
        let b = &mut self.boards[me as usize];
        *b |= 1 << mv;
        let b = *b;
        if LINES.iter().any(|&l| (b & l) ^ l == 0) {
            self.outcome = Some(Outcome::Win(me));
        } else if self.empty() == 0 {
            self.outcome = Some(Outcome::Draw);
        }
        self.to_move = 1 - me;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn playout<R: RngCore>(
        &mut self,
        _: &(),
        rng: &mut R,
        replies: Option<&Replies>,
        _: Option<usize>,
        record: &mut dyn FnMut(usize),
    ) -> Outcome {
        match replies {
            Some(_) => uniform_playout(self, rng, record),
            None => self.random_playout(rng),
        }
    }

    fn winning_move(&self) -> Option<u8> {
        if self.outcome.is_some() {
            return None;
        }
        let mine = self.boards[self.to_move as usize];
        let empty = self.empty();
        (0..9).find(|&c| empty & (1 << c) != 0 && LINES.iter().any(|&l| (mine | (1 << c)) & l == l))
    }
}

/// Hex on an `N x N` rhombus, `N <= 8`. Cell `r * N + c`; side 0 joins row
/// 0 to row `N - 1`, side 1 joins column 0 to column `N - 1`. Side 0
/// moves first; there is no swap rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hex<const N: usize> {
    stones: [u64; 2],
    to_move: Side,
    outcome: Option<Outcome>,
}

impl<const N: usize> Hex<N> {
    const CELLS: usize = N * N;
    const ALL: u64 = if N * N == 64 {
        u64::MAX
    } else {
        (1 << (N * N)) - 1
    };

    /// The empty board.
    pub fn new() -> Self {
        assert!((1..=8).contains(&N), "Hex size must be 1..=8");
        Self::default()
    }

    /// The position after playing `cells` in order. Panics on an illegal move.
    pub fn from_moves(cells: &[u8]) -> Self {
        let mut g = Self::new();
        for &c in cells {
            assert!(g.is_legal(c), "illegal Hex move {c}");
            g.play(c);
        }
        g
    }

    fn empty(&self) -> u64 {
        !(self.stones[0] | self.stones[1]) & Self::ALL
    }

    /// Fills the board at random; in Hex the full board has exactly one
    /// winner, the same as if play had stopped at the first connection.
    pub fn random_playout<R: RngCore>(&mut self, rng: &mut R) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        let mut cells = [0u8; 64];
        let mut n = 0;
        let mut e = self.empty();
        while e != 0 {
            cells[n] = e.trailing_zeros() as u8;
            e &= e - 1;
            n += 1;
        }
        let mut side = self.to_move;
        let mut stones = self.stones;
        for i in (1..n).rev() {
            cells.swap(i, rng.random_range(0..=i));
        }
        for &c in &cells[..n] {
            stones[side as usize] |= 1 << c;
            side = 1 - side;
        }
        let w = if Self::connected(stones[0], 0) { 0 } else { 1 };
        Outcome::Win(w)
    }

    fn col(c: usize) -> u64 {
        (0..N).fold(0, |m, r| m | (1 << (r * N + c)))
    }

    fn row(r: usize) -> u64 {
        ((1u64 << N) - 1) << (r * N)
    }

    /// Whether `side`'s stones join its two edges.
    fn connected(stones: u64, side: Side) -> bool {
        let (from, to) = if side == 0 {
            (Self::row(0), Self::row(N - 1))
        } else {
            (Self::col(0), Self::col(N - 1))
        };
        let (first, last) = (Self::col(0), Self::col(N - 1));
        let mut reach = stones & from;
        loop {
            let grown = reach
                | ((reach << 1) & !first)
                | ((reach >> 1) & !last)
                | (reach << N)
                | (reach >> N)
                | ((reach >> (N - 1)) & !first)
                | ((reach << (N - 1)) & !last);
            let grown = grown & stones;
            if grown & to != 0 {
                return true;
            }
            if grown == reach {
                return reach & to != 0;
            }
            reach = grown;
        }
    }
}

impl<const N: usize> Game for Hex<N> {
    type Move = u8;
    type Threat = ();
    type Playout = ();
    type Exact = ();
    type Ranker = ();
    const MOVE_SPACE: usize = N * N;

    fn move_id(mv: u8) -> usize {
        mv as usize
    }

    fn move_from_id(id: usize) -> u8 {
        id as u8
    }

    fn is_legal(&self, mv: u8) -> bool {
        self.outcome.is_none() && (mv as usize) < Self::CELLS && self.empty() & (1 << mv) != 0
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self, buf: &mut Vec<u8>) {
        buf.clear();
        if self.outcome.is_none() {
            let e = self.empty();
            buf.extend((0..Self::CELLS as u8).filter(|&c| e & (1 << c) != 0));
        }
    }

    fn play(&mut self, mv: u8) {
        let me = self.to_move;
        self.stones[me as usize] |= 1 << mv;
        if Self::connected(self.stones[me as usize], me) {
            self.outcome = Some(Outcome::Win(me));
        }
        self.to_move = 1 - me;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn playout<R: RngCore>(
        &mut self,
        _: &(),
        rng: &mut R,
        replies: Option<&Replies>,
        _: Option<usize>,
        record: &mut dyn FnMut(usize),
    ) -> Outcome {
        match replies {
            Some(_) => uniform_playout(self, rng, record),
            None => self.random_playout(rng),
        }
    }
}

/// Index of the `k`-th set bit of `x` (k from 0).
fn nth_set_bit(mut x: u64, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

/// The [`Game`] items of a wrapper whose `.0` is a `Hex<$n>` and that
/// plays exactly as it; the wrapper adds the items it changes after them.
macro_rules! hex_wrapper_items {
    ($n:expr) => {
        type Move = u8;
        type Threat = ();
        type Playout = ();
        type Exact = ();
        type Ranker = ();
        const MOVE_SPACE: usize = $n * $n;

        fn move_id(mv: u8) -> usize {
            mv as usize
        }
        fn move_from_id(id: usize) -> u8 {
            id as u8
        }
        fn is_legal(&self, mv: u8) -> bool {
            self.0.is_legal(mv)
        }
        fn side_to_move(&self) -> $crate::search::Side {
            self.0.side_to_move()
        }
        fn legal_moves(&self, buf: &mut Vec<u8>) {
            self.0.legal_moves(buf)
        }
        fn play(&mut self, mv: u8) {
            self.0.play(mv)
        }
        fn outcome(&self) -> Option<$crate::search::Outcome> {
            self.0.outcome()
        }
        fn playout<R: rand::RngCore>(
            &mut self,
            _: &(),
            rng: &mut R,
            replies: Option<&$crate::search::Replies>,
            last: Option<usize>,
            record: &mut dyn FnMut(usize),
        ) -> $crate::search::Outcome {
            self.0.playout(&(), rng, replies, last, record)
        }
    };
}
#[cfg(test)] // for the search's own tests' wrappers
pub(crate) use hex_wrapper_items;

/// Hex whose every playout is rewarded as a draw, whatever its result
/// ([`Game::rescore`]), for tests of rewards that differ from results.
#[derive(Clone, Copy, Debug)]
pub struct DrawnHex<const N: usize>(pub Hex<N>);

impl<const N: usize> Game for DrawnHex<N> {
    hex_wrapper_items!(N);

    fn rescore<R: RngCore>(&self, _: &(), _: &mut R, _: Outcome) -> Outcome {
        Outcome::Draw
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn tic_tac_toe_rules() {
        let g = TicTacToe::from_moves(&[0, 3, 1, 4]);
        assert_eq!(g.winning_move(), Some(2));
        let mut won = g;
        won.play(2);
        assert_eq!(won.outcome(), Some(Outcome::Win(0)));
        assert!(!won.is_legal(5));
        let draw = TicTacToe::from_moves(&[0, 1, 2, 4, 3, 5, 7, 6, 8]);
        assert_eq!(draw.outcome(), Some(Outcome::Draw));
        let mut buf = Vec::new();
        TicTacToe::from_moves(&[4]).legal_moves(&mut buf);
        assert_eq!(buf, [0, 1, 2, 3, 5, 6, 7, 8]);
    }

    #[test]
    fn hex_rules() {
        // Side 0 joins top to bottom down column 1 of a 3x3 board.
        let g = Hex::<3>::from_moves(&[1, 0, 4, 3]);
        assert_eq!(g.outcome(), None);
        let mut w = g;
        w.play(7);
        assert_eq!(w.outcome(), Some(Outcome::Win(0)));
        // Cells 2 -> 4 -> 6 are linked (the rhombus's short diagonal).
        let g = Hex::<3>::from_moves(&[2, 0, 4, 1]);
        let mut w = g;
        w.play(6);
        assert_eq!(w.outcome(), Some(Outcome::Win(0)));
        // Cells 0 -> 4 are not linked (the long diagonal).
        let g = Hex::<3>::from_moves(&[0, 1, 4, 2]);
        let mut w = g;
        w.play(8);
        assert_eq!(w.outcome(), None);
        // Side 1 joins left to right across row 1.
        let g = Hex::<3>::from_moves(&[0, 3, 1, 4, 6, 5]);
        assert_eq!(g.outcome(), Some(Outcome::Win(1)));
    }

    #[test]
    fn playouts_end_with_a_result() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut wins = [0; 2];
        for _ in 0..200 {
            match Hex::<5>::new().random_playout(&mut rng) {
                Outcome::Win(w) => wins[w as usize] += 1,
                Outcome::Draw => panic!("Hex has no draws"),
            }
            let o = TicTacToe::new().random_playout(&mut rng);
            assert!(matches!(o, Outcome::Win(_) | Outcome::Draw));
        }
        assert!(wins[0] > 0 && wins[1] > 0);
    }
}
