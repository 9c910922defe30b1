//! The sides of a game and how a game ends.

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

/// What one iteration backs up: how its game ended, and the reward the
/// game made of that ([`super::Game::rescore`]; the result itself for a
/// game that ended in the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reward {
    /// How the game ended.
    pub result: Outcome,
    /// The game's reward for it.
    pub scored: Outcome,
}

impl Reward {
    /// A result that is its own reward.
    #[inline]
    pub fn plain(result: Outcome) -> Reward {
        Reward {
            result,
            scored: result,
        }
    }
}

impl Outcome {
    /// Twice the reward of this outcome for `side`, as the tree sums it:
    /// 2 for a win, 1 for a draw, 0 for a loss.
    #[inline]
    pub fn doubled_for(self, side: Side) -> u32 {
        match self {
            Outcome::Win(w) if w == side => 2,
            Outcome::Win(_) => 0,
            Outcome::Draw => 1,
        }
    }

    /// The reward of this outcome for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[inline]
    pub fn reward_for(self, side: Side) -> f32 {
        self.doubled_for(side) as f32 / 2.0
    }
}
