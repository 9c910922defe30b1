//! Caminos for the search, and the one engine every front end drives.
//!
//! - [`adapter`]: a [`crate::game::Position`] as a [`crate::search::Game`];
//! - [`playout`]: the playout policies, one small file each, chained;
//! - [`config`]: the one configuration type and its table of keys;
//! - [`Engine`] (`thinking.rs`): the search kept along the game, sliced
//!   with progress, stoppable, within a [`Budget`];
//! - [`clock`]: time controls and the time a placement gets on a clock;
//! - [`analysis`]: the engine's review of a whole game;
//! - [`matches`], [`elo`]: games between engines and their score;
//! - [`tactics`]: the tactical test suite;
//! - [`units`]: durations and counts as people type them.

pub mod adapter;
pub mod analysis;
mod budget;
pub mod clock;
pub mod config;
pub mod elo;
pub mod endgame;
pub mod matches;
pub mod playout;
pub mod prior;
mod swindle;
pub mod tactics;
mod thinking;
pub mod units;

pub use budget::Budget;
pub use config::{EngineConfig, KEYS, MAX_THREADS, parse_threads};
pub use thinking::{DEFAULT_SLICE, Engine, Progress, Thought};
pub use units::{MAX_COUNT, format_duration, group, parse_count, parse_duration, plural};

#[cfg(test)]
pub(crate) mod tests {
    //! Helpers for the engine's unit tests.

    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::playout::Policy;
    use super::tactics::SUITE;
    use crate::game::record::parse_game;
    use crate::game::{PLACEMENT_COUNT, Placement, Position};
    use crate::search::Replies;

    /// The position of the tactical test `name` (e.g. `win1-1`).
    pub fn tactic(name: &str) -> Position {
        let (_, text) = SUITE
            .iter()
            .find(|(n, _)| n.trim_end_matches(".caminos") == name)
            .expect("a test of the suite");
        parse_game(text).expect("a valid test")
    }

    /// The first placement of each of `n` playouts from `pos` (with an
    /// empty reply table: the uniform playout without one records nothing).
    pub fn first_moves(pos: &Position, policy: Policy, n: usize) -> Vec<Placement> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let replies = Replies::new(PLACEMENT_COUNT);
        (0..n)
            .map(|_| {
                let mut first = None;
                policy.run(&mut pos.clone(), &mut rng, Some(&replies), None, |p| {
                    first.get_or_insert(p);
                });
                first.expect("a playout from an ongoing game places a piece")
            })
            .collect()
    }
}
