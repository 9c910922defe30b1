//! `cabra play`: an interactive session on one game (see docs/PLAY.md).
//!
//! - [`session`]: the game, the commands and the engine turns, one line at
//!   a time ([`session::Session::handle`]), free of terminal I/O;
//! - [`commands`]: command names, help, and telling commands from placements;
//! - [`engine`]: the search budget, tree reuse and sliced searches with progress;
//! - [`code`]: the one-line position code;
//! - [`term`]: reading lines (rustyline on a terminal), the progress line, Ctrl-C.

pub mod code;
pub mod commands;
pub mod engine;
pub mod session;
pub mod term;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Duration;

use crate::cli::duration::parse_duration;
use engine::{Budget, parse_count};
use session::You;

/// The engine's time for a placement when neither --time nor --iterations is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// Arguments of `cabra play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Start from this saved game (a .caminos file).
    pub file: Option<PathBuf>,
    /// Which side you play: 1, 2, both (a board for two people) or none
    /// (watch the engine play itself).
    #[arg(long, default_value = "1", value_parser = You::parse)]
    pub you: You,
    /// The engine's thinking time per placement, e.g. 2s, 500ms, 1m [default: 2s].
    #[arg(long, value_parser = parse_duration, conflicts_with = "iterations")]
    pub time: Option<Duration>,
    /// Think a fixed number of iterations per placement instead, e.g. 20000
    /// or 50k (reproducible with --threads 1 and a --seed).
    #[arg(long, value_parser = parse_count)]
    pub iterations: Option<u64>,
    /// Search threads (independent trees) [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// The engine's random seed [default: a new one each session, shown by `set`].
    #[arg(long)]
    pub seed: Option<u64>,
}

impl PlayArgs {
    /// The budget these arguments ask for.
    pub fn budget(&self) -> Budget {
        match (self.iterations, self.time) {
            (Some(n), _) => Budget::Iterations(n),
            (None, Some(t)) if !t.is_zero() => Budget::Time(t),
            _ => Budget::Time(DEFAULT_TIME),
        }
    }
}

/// Runs `cabra play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    term::run(args)
}
