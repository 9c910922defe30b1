//! Caminos for the search, and the one engine every front end drives.
//!
//! - [`adapter`]: a [`crate::game::Position`] as a [`crate::search::Game`];
//! - [`playout`]: the playout policies, one small file each, chained;
//! - [`EngineConfig`] (`config/`): the one configuration type and its
//!   table of keys, [`KEYS`] (the options a GUI lists);
//! - [`EngineHandle`] (`handle.rs`): the one way a search starts: it owns
//!   the engine and its threads, runs [`Request`]s as [`Job`]s that report,
//!   stop and keep their time ([`Budget::resolve`] settles the limits,
//!   which the engine never invents: without any a search runs until
//!   stopped);
//! - [`Engine`] (`engine.rs`): the search kept along the game, cut into
//!   slices (`sliced.rs`), with the swindle of lost positions
//!   (`swindle.rs`);
//! - [`TreeMemory`]: one memory budget for the trees of several engines;
//! - [`ReportView`]: the report as every front end shows it;
//! - [`clock`]: time controls and the time a placement gets on a clock;
//! - [`analysis`]: the engine's review of a whole game;
//! - [`matches`](mod@matches): games between engines;
//! - [`levels`]: the strength levels and their ratings;
//! - [`tactics`]: the tactical test suite;
//! - [`parse_duration`], [`parse_count`], [`parse_bytes`] and their
//!   `format_` pairs: durations, counts and memory as people type them.

pub mod adapter;
pub mod analysis;
mod budget;
pub mod clock;
mod config;
pub mod endgame;
#[allow(clippy::module_inception)]
mod engine;
mod handle;
pub mod levels;
pub mod matches;
mod memory;
pub mod playout;
pub mod prior;
mod sliced;
mod swindle;
pub mod tactics;
mod units;
pub mod value;
mod view;

pub use budget::{Budget, BudgetError};
pub use config::{
    ConfigError, EngineConfig, KEYS, Key, KeyValueError, MAX_THREADS, NAMES, parse_threads,
};
pub use engine::{DEFAULT_REPORT_EVERY, Engine, Progress, Purpose, Thought};
pub use handle::{
    DEFAULT_TOP_MOVES, EngineHandle, Failed, Job, Listener, Request, SearchError, Stopper, Thinker,
};
pub use memory::TreeMemory;
pub use units::{
    MAX_COUNT, MAX_DURATION, ValueError, format_bytes, format_duration, group, parse_bytes,
    parse_count, parse_duration,
};
pub use view::{MoveView, ReportView};

/// A search's report and its proven values, as the engine gives them to
/// front ends (which need not know the generic search below).
pub use crate::search::{MoveStats, Proven, Report};

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

    pub use super::engine::tests::think;

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
