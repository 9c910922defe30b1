//! Cabra: an engine for the 3D connection game Caminos.
//!
//! - [`game`]: the rules: bitboards, pieces, the placement table, positions,
//!   notation and `.caminos` files.
//! - [`engine`]: Caminos for the search: engine configurations and
//!   levels, the engine handle (a search with a budget, its reports, a
//!   stop), analysis, games between engines and the tactical suite.
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
//! A game loop: every legal move (placements, and `swap` or `tm` where
//! the rules have them) comes from one list; the checked
//! [`game::Position::play`] refuses an illegal move and changes nothing,
//! and [`game::Position::play_unchecked`] is the fast call for moves the
//! list gave.
//!
//! ```
//! use cabra::game::{MoveList, Position};
//! let mut pos = Position::new();
//! let mut moves = MoveList::new();
//! while !pos.status().is_over() {
//!     pos.legal_moves(&mut moves);
//!     // Always the first move: a game of a few dozen moves at most.
//!     pos.play(moves[0]).unwrap();
//! }
//! assert!(pos.plies() <= cabra::game::MAX_MOVES);
//! println!("{}", cabra::game::board_text(&pos, 100));
//! ```
//!
//! A game file (`.caminos`, RULES.md section 8): an error names the line
//! and keeps what went wrong.
//!
//! ```
//! use cabra::game::record::parse_record;
//! use cabra::game::{LineError, PlacementError};
//! let game = parse_record(b"# rules: caminos\n110 120 121 122\n").unwrap();
//! assert_eq!(game.position.plies(), 1);
//! let e = parse_record(b"110 120 121 122\n110 120 121 122\n").unwrap_err();
//! assert_eq!(e.line, 2);
//! assert!(matches!(e.kind, LineError::Illegal(PlacementError::Occupied(_))));
//! ```
//!
//! A search: [`engine::EngineHandle`] starts every search, with its limits,
//! reports and stop (its page shows the whole of it). With one thread, a
//! seed and a fresh tree (the engine otherwise goes on growing the tree it
//! kept from its last search), a search to an iteration limit is
//! reproducible.
//!
//! ```
//! use cabra::engine::{Budget, EngineConfig, EngineHandle, Request};
//! use cabra::game::Position;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let engine = EngineHandle::new(EngineConfig::parse("threads=1,seed=7")?);
//! let request = Request::new(Position::new())
//!     .limits(Budget::iterations(2_000))
//!     .fresh();
//! let thought = engine.search(request.clone())?;
//! let best = thought.report.best.expect("a move on the empty board");
//! assert!(Position::new().is_legal(best));
//! assert_eq!(engine.search(request)?.report.best, Some(best));
//! # Ok(())
//! # }
//! ```
//!
//! The examples (`cargo run --example game_loop`, `read_game`, `search`)
//! do the same as programs.

#![warn(missing_docs)]

pub mod engine;
pub mod game;
pub mod search;

/// The random-number traits of [`game::Position::random_move`]'s
/// generator (`RngCore`, `SeedableRng`), re-exported so that a caller
/// needs no `rand_core` of the same version in its own manifest.
pub use rand::rand_core;
