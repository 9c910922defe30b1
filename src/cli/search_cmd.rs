//! `cabra search`: search a position and print the report.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use cabra::engine::EngineConfig;
use cabra::game::record::read_game;
use cabra::game::{Player, Position};
use cabra::search::{Limits, SearchConfig, Searcher, Uct};

use super::duration::parse_duration;

/// Used when no limit is given, so that the command always ends.
const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Arguments of `cabra search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// A `.caminos` game record: the search starts from its final position
    /// (the empty board when omitted).
    pub file: Option<PathBuf>,
    /// Time budget, e.g. `1s`, `250ms`, `2.5s`, `1m`. When no limit at all
    /// is given the search runs for 1s.
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Stop after this many iterations (playouts), all threads together.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop once the trees hold this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Independent trees searched in parallel (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random seed; with one thread and an iteration limit the result is
    /// reproducible.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// UCT exploration constant.
    #[arg(long, default_value_t = Uct::default().c)]
    pub c: f32,
    /// An engine configuration (see docs/STRENGTH.md), e.g. `baseline` or
    /// `rave=300`; replaces --c.
    #[arg(long)]
    pub engine: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `cabra search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<()> {
    let pos = match &args.file {
        Some(path) => read_game(path)?,
        None => Position::new(),
    };
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let config = match &args.engine {
        Some(text) => SearchConfig {
            threads,
            ..EngineConfig::parse(text)
                .context("--engine")?
                .search_config(args.seed)
        },
        None => SearchConfig {
            uct: Uct {
                c: args.c,
                ..Uct::default()
            },
            threads,
            seed: args.seed,
            ..SearchConfig::default()
        },
    };
    let mut limits = Limits {
        iterations: args.iterations,
        time: args.time,
        nodes: args.nodes,
        stop: None,
    };
    if limits.iterations.is_none() && limits.time.is_none() && limits.nodes.is_none() {
        limits.time = Some(DEFAULT_TIME);
    }
    let report = Searcher::new(pos, config)
        .search(&limits)
        .map_moves(|m| m.to_string());
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).context("writing JSON")?
        );
    } else {
        let side = if pos.to_move() == Player::One { 1 } else { 2 };
        println!(
            "position after {} placements, player {side} to move",
            pos.plies()
        );
        print!("{}", report.to_table());
    }
    Ok(())
}
