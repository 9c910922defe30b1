//! The small interface the search needs from a game.
//!
//! The search knows nothing about Caminos: it sees moves, a side to move,
//! a way to play a move, a result, and a random playout. Any two-player,
//! zero-sum, perfect-information game with a bounded length fits.

use std::fmt::Debug;

use rand::RngCore;

use super::replies::Replies;

/// One of the two players, as an index: 0 moves first.
pub type Side = u8;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The reward of this outcome for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[inline]
    pub fn reward_for(self, side: Side) -> f32 {
        match self {
            Outcome::Win(w) if w == side => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// How playouts choose moves (see [`Game::policy_playout`]); the default
/// is uniformly random.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Take an immediate win when there is one.
    pub win: bool,
    /// Redraw a move that lets the opponent win at once, up to this many
    /// draws in all (0: off).
    pub block: u8,
    /// Percent chance of redrawing (once) a move the game marks as
    /// usually poor ([`Game::policy_playout`] decides which; 0: off).
    pub shun: u8,
    /// Play the last good reply to the opponent's previous move when it is
    /// legal ([`Replies`]), instead of a random move.
    pub reply: bool,
    /// Percent chance that a playout won outright is scored by the game's
    /// tie-break at that moment instead ([`Game::policy_playout`] decides
    /// what that is; 0: off). Steers the search, among moves that win as
    /// often, toward those that would also win the tie-break.
    pub score: u8,
}

impl Playout {
    /// The playouts of the engine as shipped (measured in docs/STRENGTH.md):
    /// take immediate wins, play the last good reply to the previous move,
    /// and redraw half of the placements the game marks as usually poor
    /// (Caminos: those adding a bottom-perimeter piece, which count
    /// against their owner when nobody bridges).
    pub const SHIPPED: Playout = Playout {
        win: true,
        block: 0,
        shun: 50,
        reply: true,
        score: 0,
    };

    /// Whether this is the plain uniform playout.
    pub fn is_uniform(&self) -> bool {
        !self.win && self.block == 0 && self.shun == 0 && !self.reply && self.score == 0
    }
}

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

    /// Plays uniformly random legal moves until the game ends and returns
    /// the outcome. Must not allocate.
    fn random_playout<R: RngCore>(&mut self, rng: &mut R) -> Outcome;

    /// A playout by a (possibly) smarter policy, calling `record` with the
    /// id of every move played (for all-moves-as-first statistics and the
    /// reply table). `policy.win`: take an immediate win; `policy.block`:
    /// redraw moves that allow the opponent an immediate win, up to that
    /// many draws; with `replies`, play the stored reply to the previous
    /// move (`last` for the first move: the id of the move that led here)
    /// when it is legal. The default plays uniformly random moves (and
    /// allocates).
    fn policy_playout<R: RngCore>(
        &mut self,
        rng: &mut R,
        policy: Playout,
        replies: Option<&Replies>,
        last: Option<usize>,
        record: &mut dyn FnMut(usize),
    ) -> Outcome {
        let _ = (policy, replies, last);
        let mut buf = Vec::new();
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            self.legal_moves(&mut buf);
            let k = (rng.next_u64() % buf.len() as u64) as usize;
            record(Self::move_id(buf[k]));
            self.play(buf[k]);
        }
    }

    /// A move that wins at once for the side to move, if there is one.
    /// The default says "don't know"; games with a cheap test override it.
    fn winning_move(&self) -> Option<Self::Move> {
        None
    }

    /// Whether the search should try `mv` before the moves for which this
    /// is false, at every node (with [`crate::search::SearchConfig::early_first`]).
    /// The default: every move is early (one plain pass).
    fn expand_early(mv: Self::Move) -> bool {
        let _ = mv;
        true
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
