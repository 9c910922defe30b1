//! Monte Carlo Tree Search, generic over [`Game`].
//!
//! Create a [`Searcher`] for a position with a [`SearchConfig`], call
//! [`Searcher::search`] with a [`Budget`], read the [`Report`], and call
//! [`Searcher::advance`] with each move played (by either side) to keep the
//! relevant part of the trees:
//!
//! ```
//! use cabra::search::toy::TicTacToe;
//! use cabra::search::{Budget, Proven, SearchConfig, Searcher};
//!
//! let position = TicTacToe::from_moves(&[0, 3, 1, 4]);
//! let mut searcher = Searcher::new(position, SearchConfig { seed: 1, ..Default::default() });
//! let report = searcher.search(&Budget::iterations(1_000));
//! assert_eq!(report.best, Some(2));
//! assert_eq!(report.proven, Some(Proven::Win));
//! searcher.advance(2); // keeps the subtree below the move
//! ```
//!
//! How it searches:
//!
//! - UCT with first-play urgency ([`Uct`]); one node added per iteration,
//!   untried moves taken from a per-node shuffled order of move ids
//!   (`order.rs`), so a node stores only a cursor; wide nodes pick their
//!   best child from a max-tree (`maxtree.rs`) instead of scanning.
//! - Rewards (win 1, draw 0.5, loss 0) count for the player who made the
//!   move into a node.
//! - MCTS-Solver (`solver.rs`): proven wins and losses, with
//!   [`Game::winning_move`] checked before a node's first expansion.
//! - Threat-aware expansion: once a node has a few visits it is checked for
//!   the opponent's win in one ([`Game::threat`]); there, only moves that
//!   stop it become children, and a node with none is proven lost.
//! - Playouts by [`Game::playout`] with the game's own policy
//!   (Caminos: take wins, play the last good reply to the previous move
//!   (`replies.rs`), answer threats, and take a
//!   share of the reward from the counts).
//! - Tree parallelism: the threads grow one tree, each holding its lock
//!   once an iteration, to back up and descend, not to plan an expansion
//!   or play out, with a virtual loss on its path meanwhile (`walk.rs`,
//!   `worker/run.rs`, [`Searcher`]).
//! - Memory: 24-byte nodes in `u32`-indexed arenas, about 36 bytes per node
//!   measured in all; a node cap ([`SearchConfig::node_cap`]) after which
//!   the trees stop growing but the search goes on.

mod config;
mod driver;
mod game;
mod limits;
mod maxtree;
mod order;
mod outcome;
mod policy;
mod replies;
mod report;
mod solver;
pub mod toy;
mod tree;
mod walk;
mod worker;

pub(crate) use config::MAX_THREADS;
pub use config::{DEFAULT_NODE_CAP, DEFAULT_THREAT_VISITS, SearchConfig};
pub use driver::Searcher;
pub use game::{Game, uniform_playout};
pub use limits::Budget;
pub use order::MAX_MOVE_SPACE;
pub use outcome::{Outcome, Side};
pub use policy::Uct;
pub use replies::Replies;
#[cfg(feature = "serde")]
pub(crate) use report::nan_if_null;
pub use report::{MoveStats, Proven, Report};
