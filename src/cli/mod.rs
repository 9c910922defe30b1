//! The command-line front end: one file per subcommand, plus rendering.

pub mod analyze;
pub mod bench;
pub mod check;
pub mod duration;
pub mod match_cmd;
pub mod perft_cmd;
pub mod play;
pub mod render;
pub mod search_cmd;
pub mod show;
pub mod tactics_cmd;
