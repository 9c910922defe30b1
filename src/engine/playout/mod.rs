//! The engine's playouts: a chain of small policies, each in its own file,
//! asked in turn for the next placement, as Castro/morat chains its
//! policies in the agent's rollout:
//!
//! 1. `win.rs`: a player who can complete a bridge at once does so;
//! 2. `reply.rs`: else the last good reply to the opponent's previous
//!    placement, when the search keeps a reply table and the reply is
//!    legal;
//! 3. else a uniformly random placement;
//! 4. `block.rs`: where the opponent threatens to win at once, a placement
//!    (reply or random) that surely leaves the threat is redrawn.
//!
//! At the end, `score.rs` may move a share of the reward to the final
//! counts (in [`crate::engine::adapter`], which reports the outcome).
//!
//! With every policy off and no reply table the playout is the rules'
//! uniform [`Position::random_playout`]. Nothing here allocates.

pub(crate) mod block;
pub(crate) mod reply;
pub(crate) mod score;
pub(crate) mod win;

use rand::RngCore;

use super::value::Weights;
use crate::game::{Placement, Position, Status};
use crate::search::Replies;

/// Which policies of the chain are on (the reply table is the search's:
/// see [`crate::search::SearchConfig::reply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Take an immediate win (`win.rs`).
    pub pwin: bool,
    /// Redraws of a placement that surely leaves the opponent's win in one
    /// (`block.rs`; 0: off).
    pub pblock: u8,
    /// Percent of the reward taken from the final counts (`score.rs`).
    pub pscore: u8,
    /// Percent of new leaves valued by the learnt evaluation instead of a
    /// playout ([`crate::engine::value`]; 0: off).
    pub value: u8,
    /// The learnt evaluation's weights.
    pub weights: Weights,
}

impl Policy {
    /// Uniformly random placements.
    pub const UNIFORM: Policy = Policy {
        pwin: false,
        pblock: 0,
        pscore: 0,
        value: 0,
        weights: Weights::Builtin,
    };

    /// The playouts of the engine as shipped (measured in docs/STRENGTH.md).
    pub const SHIPPED: Policy = Policy {
        pwin: true,
        pblock: 4,
        pscore: 10,
        value: 50,
        weights: Weights::Builtin,
    };

    /// Plays `pos` to its end and returns the result, calling `record` with
    /// each placement played. `last` is the placement that led to `pos`,
    /// which the first reply answers.
    #[inline]
    pub fn run<R: RngCore + ?Sized>(
        &self,
        pos: &mut Position,
        rng: &mut R,
        replies: Option<&Replies>,
        mut last: Option<Placement>,
        mut record: impl FnMut(Placement),
    ) -> Status {
        if !self.pwin && self.pblock == 0 && self.pscore == 0 && replies.is_none() {
            return pos.random_playout(rng);
        }
        // The side to move's win in one, when the previous step already
        // looked for it (as the threat it answered): `Some(None)` for none.
        let mut known: Option<Option<Placement>> = None;
        loop {
            if pos.status().is_over() {
                return pos.status();
            }
            if self.pwin {
                let win = match known {
                    Some(w) => w,
                    None => win::choose(pos),
                };
                if let Some(p) = win {
                    pos.place_in_playout(p);
                    record(p);
                    return pos.status();
                }
            }
            let threat = if self.pblock > 0 { pos.threat() } else { None };
            let region = threat.map(|t| pos.defence_region(t));
            let p = match reply::choose(pos, replies, last) {
                Some(p) if region.is_none_or(|r| pos.may_stop(r, p)) => p,
                _ => match pos.random_placement(rng) {
                    Some(p) => p,
                    None => return pos.end_by_count(),
                },
            };
            let p = match region {
                Some(r) => block::choose(pos, rng, r, self.pblock, p),
                None => p,
            };
            let won = pos.place_in_playout(p);
            record(p);
            if won {
                return pos.status();
            }
            if self.pblock > 0 {
                known = Some(block::still_wins(pos, threat));
            }
            last = Some(p);
        }
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy::SHIPPED
    }
}
