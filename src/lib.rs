//! Cabra: an engine for the 3D connection game Caminos.
//!
//! - [`game`]: the rules: bitboards, pieces, the placement table, positions,
//!   notation and `.caminos` files.
//! - [`engine`]: engine configurations, games between engines, Elo,
//!   tactical tests.
//! - [`search`]: Monte Carlo Tree Search, generic over a small [`search::Game`] trait.

pub mod engine;
pub mod game;
pub mod search;
