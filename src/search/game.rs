//! The small interface the search needs from a game.
//!
//! The search knows nothing about Caminos: it sees moves, a side to move,
//! a way to play a move, a result, and a random playout. Any two-player,
//! zero-sum, perfect-information game with a bounded length fits.

use std::fmt::Debug;

use rand::RngCore;

use super::outcome::{Outcome, Side};
use super::replies::Replies;

/// A game the search can play.
///
/// `play` must leave `outcome` up to date, so that the search can tell a
/// finished game at once. Moves are small `Copy` values (Caminos uses a
/// `u16` placement id) so that tree nodes stay compact.
pub trait Game: Clone + Send + Sync {
    /// A move: small, copyable and comparable.
    type Move: Copy + Eq + Debug + Send + Sync;

    /// What [`Game::threat`] reports (`()` for games without threat tests).
    type Threat: Copy + Send + Sync;

    /// How playouts choose moves: a value the engine configures, passed to
    /// every [`Game::playout`] (`()` for games with one playout). The
    /// default value is the one [`crate::search::Searcher::new`] uses.
    type Playout: Clone + Debug + Default + Send + Sync;

    /// What an exact search ([`Game::solve`]) keeps from call to call,
    /// such as a transposition table (`()` for games without one).
    type Exact: Clone + Debug + Default + Send + Sync;

    /// What [`Game::rank`] needs to know of a position, computed once per
    /// expansion (`()` for games without move ranks).
    type Ranker: Copy;

    /// How many ranks [`Game::rank`] gives (1: all moves alike).
    const RANKS: usize = 1;

    /// Every move has an id below this bound (Caminos: 2,497 placements).
    /// Lets the search keep per-move statistics in flat arrays and walk the
    /// untried moves of a node in a shuffled id order instead of storing them.
    const MOVE_SPACE: usize;

    /// The id of a move, below [`Game::MOVE_SPACE`].
    fn move_id(mv: Self::Move) -> usize;

    /// The move with id `id` (`id < MOVE_SPACE`).
    fn move_from_id(id: usize) -> Self::Move;

    /// Whether `mv` is legal for the side to move (false once the game is over).
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Side to move (0 or 1).
    fn side_to_move(&self) -> Side;

    /// Appends every legal move to `buf` (after clearing it).
    /// A finished game has no legal moves.
    fn legal_moves(&self, buf: &mut Vec<Self::Move>);

    /// Plays a legal move for the side to move.
    fn play(&mut self, mv: Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Plays a legal move that the search has played before from this
    /// position and found not to end the game, so that [`Game::outcome`]
    /// may be left as it is except for a win: a game whose test for its
    /// end costs can skip it here. The default is [`Game::play`].
    fn replay(&mut self, mv: Self::Move) {
        self.play(mv);
    }

    /// Plays the game to its end by `policy` and returns the outcome,
    /// calling `record` with the id of every move played (for the reply
    /// table). With `replies` (the search's last good replies), a policy
    /// may play the stored reply to the previous move (`last` for the first
    /// move: the id of the move that led here). Hot path: the games of the
    /// engine must not allocate here; [`uniform_playout`] is a simple
    /// (allocating) choice for small games.
    fn playout<R: RngCore>(
        &mut self,
        policy: &Self::Playout,
        rng: &mut R,
        replies: Option<&Replies>,
        last: Option<usize>,
        record: &mut dyn FnMut(usize),
    ) -> Outcome;

    /// A learnt estimate of how the game goes from here, drawn as an
    /// outcome, to back up in place of a playout's ([`Game::playout`] is
    /// then not called). `None`, the default: play it out.
    fn evaluate<R: RngCore>(&self, policy: &Self::Playout, rng: &mut R) -> Option<Outcome> {
        let _ = (policy, rng);
        None
    }

    /// The reward to back up for a playout that ended here with `result`
    /// (the default: the result itself). A game may score more than the
    /// result, as Caminos adds a share of its final counts; the reported
    /// win rates stay those of the results.
    fn rescore<R: RngCore>(&self, policy: &Self::Playout, rng: &mut R, result: Outcome) -> Outcome {
        let _ = (policy, rng);
        result
    }

    /// A move that wins at once for the side to move, if there is one.
    /// The default says "don't know"; games with a cheap test override it.
    fn winning_move(&self) -> Option<Self::Move> {
        None
    }

    /// What ranking this position's moves needs (`None`: no ranks).
    fn ranker(&self) -> Option<Self::Ranker> {
        None
    }

    /// The rank of a legal move, below [`Game::RANKS`]: a node tries the
    /// moves of rank 0 first, then those of rank 1, and so on.
    fn rank(&self, ranker: &Self::Ranker, mv: Self::Move) -> usize {
        let _ = (ranker, mv);
        0
    }

    /// The exact result of best play from here and a move that achieves
    /// it, if an exact search within about `budget` nodes finds them
    /// (`None`: unknown, or the game has no exact search, the default).
    /// The search asks about nodes as their visits grow, with budgets that
    /// grow with them, so a game should decline positions far from the
    /// end at once. A search that can run long asks `stop` now and then
    /// and gives up (`None`) when it says so: it is the search's clock.
    fn solve(
        &self,
        exact: &mut Self::Exact,
        budget: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Outcome, Self::Move)> {
        let _ = (exact, budget, stop);
        None
    }

    /// Bytes that an exact search's state holds (for a search's memory
    /// budget; 0 by default).
    fn exact_bytes(exact: &Self::Exact) -> usize {
        let _ = exact;
        0
    }

    /// If the opponent of the side to move could win at once were it their
    /// turn, what the side to move must answer (a game-defined summary, for
    /// [`Game::may_stop`]). The default says "don't know" (no threat-aware
    /// search).
    fn threat(&self) -> Option<Self::Threat> {
        None
    }

    /// A cheap filter for moves against `threat` (from [`Game::threat`]):
    /// false only when `mv` surely leaves the opponent a win. The search
    /// plays the moves that pass it and checks for an immediate win.
    fn may_stop(&self, threat: &Self::Threat, mv: Self::Move) -> bool {
        let _ = (threat, mv);
        true
    }
}

/// Plays uniformly random legal moves until the game ends, recording each
/// (a simple [`Game::playout`] for small games; it allocates a move list).
pub fn uniform_playout<G: Game, R: RngCore>(
    game: &mut G,
    rng: &mut R,
    record: &mut dyn FnMut(usize),
) -> Outcome {
    let mut buf = Vec::new();
    loop {
        if let Some(o) = game.outcome() {
            return o;
        }
        game.legal_moves(&mut buf);
        let k = (rng.next_u64() % buf.len() as u64) as usize;
        record(G::move_id(buf[k]));
        game.play(buf[k]);
    }
}
