//! The search: generic MCTS on toy games, on Caminos positions, and its
//! limits.

#[path = "../common/mod.rs"]
mod common;

mod caminos;
mod endgame;
mod limits;
mod toy;
mod variants;
