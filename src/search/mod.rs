//! Monte Carlo Tree Search, generic over [`Game`].

pub mod game;

pub use game::{Game, Outcome, Side};
