//! The command-line front end: one file per subcommand, plus rendering.

pub mod bench;
pub mod check;
pub mod duration;
pub mod perft_cmd;
pub mod render;
pub mod search_cmd;
pub mod show;
