//! `cabra play`: an interactive session on one game (see docs/PLAY.md).
//!
//! - [`session`]: the game, the commands and the engine turns, one line at
//!   a time ([`session::Session::handle`]), free of terminal I/O;
//! - [`commands`]: command names and telling commands from placements;
//! - [`help`]: the help texts, and the pieces drawn in every orientation;
//! - [`term`]: reading lines (rustyline on a terminal), the progress line, Ctrl-C.

pub mod commands;
pub mod help;
pub mod session;
pub mod term;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use super::options::{EngineOptions, LevelOptions, RulesOptions};
use session::You;

/// Arguments of `cabra play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a limit the engine thinks 2 s a placement on all cores; \
                  the seed is new each session unless --seed is given (`set` shows it)."
)]
pub struct PlayArgs {
    /// Start from this saved game (a .caminos file).
    pub file: Option<PathBuf>,
    /// Which side you play: 1, 2, both (a board for two people) or none
    /// (watch the engine play itself).
    #[arg(long, default_value = "1", value_parser = You::parse)]
    pub you: You,
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(flatten)]
    pub level: LevelOptions,
    /// Think on your time: while you are to move, the engine searches
    /// your position and keeps the tree for its reply (off by default; a
    /// level below the top never does).
    #[arg(long)]
    pub ponder: bool,
    #[command(flatten)]
    pub rules: RulesOptions,
}

/// Runs `cabra play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    term::run(args)
}
