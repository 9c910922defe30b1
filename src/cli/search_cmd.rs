//! `cabra search`: search a position and print the report.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use cabra::game::record::read_game;
use cabra::game::{Player, Position};
use cabra::search::{Limits, SearchConfig, Searcher, Uct};

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
    let config = SearchConfig {
        uct: Uct {
            c: args.c,
            ..Uct::default()
        },
        threads,
        seed: args.seed,
        ..SearchConfig::default()
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

/// Parses a humane duration: a number with an optional unit `ms`, `s`,
/// `m` or `us` (seconds when there is none), e.g. `250ms`, `2.5s`, `1m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a duration like 1s, 250ms or 2.5s"))?;
    let seconds = match unit.trim() {
        "" | "s" | "sec" | "secs" => value,
        "ms" => value / 1e3,
        "us" | "µs" => value / 1e6,
        "m" | "min" => value * 60.0,
        other => return Err(format!("unknown time unit '{other}' (use ms, s or m)")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("'{text}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration(" 1m "), Ok(Duration::from_secs(60)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("5 parsecs").is_err());
        assert!(parse_duration("").is_err());
    }
}
