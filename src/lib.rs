//! Cabra: an engine for the 3D connection game Caminos.
//!
//! - [`game`]: the rules: bitboards, pieces, the placement table, positions,
//!   notation and `.caminos` files.
//! - [`engine`]: engine configurations, games between engines, Elo,
//!   tactical tests.
//! - [`search`]: Monte Carlo Tree Search, generic over a small [`search::Game`] trait.
//!
//! The library needs none of the program's front ends: with
//! `default-features = false` it builds without the features `cli` (the
//! `cabra` program) and `serve` (its web server), and so without clap,
//! the terminal stack, axum or tokio; the feature `serde` adds
//! `Serialize` and `Deserialize` to moves, positions and reports. Until
//! cabra is on crates.io, depend on it by git or path:
//! `cabra = { git = "https://github.com/OWNER/cabra", default-features = false }`
//! (or `path = "../cabra"`).
//!
//! The rules in a few lines: the empty board has 1,345 legal placements,
//! and five placements make a bridge.
//!
//! ```
//! use cabra::game::{Player, Position, Status, WinReason, parse_placement};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut pos = Position::new();
//! assert_eq!(pos.count_legal(), 1_345);
//! // Player 1 builds column x = 3 from the north edge to the south edge;
//! // player 2's two O pieces stay in a corner.
//! for text in ["L T90 200", "O T0 660", "L T90 230", "O T0 640", "O T0 260"] {
//!     pos.play(parse_placement(text)?)?;
//! }
//! assert_eq!(pos.status(), Status::Won { winner: Player::One, by: WinReason::Bridge });
//! // Nothing may be placed after the end.
//! assert!(pos.play(parse_placement("T T0 000")?).is_err());
//! # Ok(())
//! # }
//! ```
//!
//! A search: [`engine::EngineHandle`] starts every search, with its limits,
//! reports and stop; its page shows the whole of it.

#![warn(missing_docs)]

pub mod engine;
pub mod game;
pub mod search;

/// The random-number traits of [`game::Position::random_move`]'s
/// generator (`RngCore`, `SeedableRng`), re-exported so that a caller
/// needs no `rand_core` of the same version in its own manifest.
pub use rand::rand_core;
