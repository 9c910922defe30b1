//! Monte Carlo Tree Search, generic over [`Game`].
//!
//! Create a [`Searcher`] for a position with a [`SearchConfig`], call
//! [`Searcher::search`] with [`Limits`], read the [`Report`], and call
//! [`Searcher::advance`] with each move played to keep the relevant part of
//! the tree. The search is UCT with first-play urgency ([`Uct`]), lazy
//! expansion through a per-node shuffled move order, MCTS-Solver proofs, and
//! root parallelism (one independent tree per thread).

pub mod driver;
pub mod game;
pub mod limits;
mod maxtree;
pub mod order;
pub mod policy;
pub mod report;
mod solver;
pub mod toy;
mod tree;
mod worker;

pub use driver::{DEFAULT_NODE_CAP, SearchConfig, Searcher};
pub use game::{Game, Outcome, Side};
pub use limits::Limits;
pub use policy::Uct;
pub use report::{MoveStats, Proven, Report};
