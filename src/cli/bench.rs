//! `cabra bench`: random games from the empty board, for a fixed number of
//! games (a reproducible signature) or a fixed time; with `--threads`, the
//! search's speed at 1, 2, 4, ... threads, and the count to use.

use std::time::{Duration, Instant};

use cabra::engine::{Budget, EngineConfig, Request, parse_count, parse_duration};
use cabra::game::Position;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

use crate::cli::defaults;

/// Arguments of `cabra bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Number of games to play, e.g. 200k (ignored when --seconds is given).
    #[arg(long, default_value = "200000", value_parser = parse_count)]
    pub games: u64,
    /// Play for this long instead of a fixed number of games, e.g. 5 or 500ms.
    #[arg(long, value_parser = parse_duration)]
    pub seconds: Option<Duration>,
    /// Seed of the random generator.
    #[arg(long, default_value_t = 1, value_parser = super::options::parse_seed)]
    pub seed: u64,
    /// Measure the search from the empty board at 1, 2, 4, ... threads up
    /// to N (default: this machine's cores), for --seconds each (default
    /// 3), twice, and say how many threads to use.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "0",
          value_parser = parse_bench_threads)]
    pub threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: super::options::RulesOptions,
}

/// What a bench run measured.
#[derive(Serialize, Debug)]
pub struct BenchResult {
    /// Random games played to the end.
    pub playouts: u64,
    /// Placements played in all games: with a fixed seed and game count, a signature.
    pub placements: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub playouts_per_second: f64,
    /// The seed used.
    pub seed: u64,
}

/// Plays random games on one thread.
pub fn measure(
    start_pos: Position,
    games: u64,
    deadline: Option<Duration>,
    seed: u64,
) -> BenchResult {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = Instant::now();
    let (mut playouts, mut placements) = (0u64, 0u64);
    loop {
        if let Some(d) = deadline {
            // Check the clock every 256 games, not every game.
            if playouts % 256 == 0 && start.elapsed() >= d {
                break;
            }
        } else if playouts >= games {
            break;
        }
        let mut pos = start_pos;
        pos.random_playout(&mut rng);
        placements += pos.plies() as u64;
        playouts += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    BenchResult {
        playouts,
        placements,
        seconds: secs,
        playouts_per_second: playouts as f64 / secs.max(1e-9),
        seed,
    }
}

/// Parses `--threads N` (0 stands for all cores).
fn parse_bench_threads(text: &str) -> Result<usize, String> {
    if text.trim() == "0" {
        return Ok(0);
    }
    cabra::engine::parse_threads(text).map_err(|e| e.to_string())
}

/// Runs the bench and prints the result; the speed is the last line.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(max) = args.threads {
        return run_threads(args, max);
    }
    let start = Position::with_rules(args.rules.rules());
    let r = measure(start, args.games, args.seconds, args.seed);
    let text = if args.json {
        format!("{}\n", serde_json::to_string(&r)?)
    } else {
        // Only a fixed number of games makes the count a signature: on
        // the clock it depends on the machine.
        let note = if args.seconds.is_some() {
            "on the clock, not a signature".to_string()
        } else {
            format!("signature of seed {}", r.seed)
        };
        format!(
            "games played: {}\nplacements:   {} ({note})\nseconds:      {:.3}\nplayouts per second: {:.0}\n",
            r.playouts, r.placements, r.seconds, r.playouts_per_second
        )
    };
    super::style::print(&text)
}

/// One thread count's speed.
#[derive(Serialize, Debug, Clone, Copy)]
pub struct ScalingRow {
    /// Threads sharing the tree.
    pub threads: usize,
    /// The best of the runs, in iterations per second.
    pub iterations_per_second: f64,
    /// Against one thread.
    pub speedup: f64,
}

/// What `cabra bench --threads` measured.
#[derive(Serialize, Debug)]
pub struct Scaling {
    /// Seconds each run searched.
    pub seconds: f64,
    /// Runs of each count (alternated: 1, 2, 4, ..., then again).
    pub runs: usize,
    pub rows: Vec<ScalingRow>,
    /// The fewest threads within 5% of the fastest count.
    pub recommended: usize,
    /// This machine's cores.
    pub cores: usize,
}

/// Runs of each thread count.
const SCALING_RUNS: usize = 2;

/// A count within this fraction of the fastest is as good.
const SCALING_TOLERANCE: f64 = 0.05;

/// The thread counts measured up to `max`: powers of two, and `max`.
pub fn thread_counts(max: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = (0..).map(|k| 1 << k).take_while(|&n| n < max).collect();
    counts.push(max.max(1));
    counts
}

/// The fewest threads within [`SCALING_TOLERANCE`] of the fastest row.
pub fn recommend(rows: &[ScalingRow]) -> usize {
    let best = rows
        .iter()
        .map(|r| r.iterations_per_second)
        .fold(0.0, f64::max);
    rows.iter()
        .find(|r| r.iterations_per_second >= best * (1.0 - SCALING_TOLERANCE))
        .map_or(1, |r| r.threads)
}

/// `cabra bench --threads`: searches from the empty board at each count.
fn run_threads(args: &BenchArgs, max: usize) -> anyhow::Result<()> {
    let cores = defaults::all_cores();
    let max = if max == 0 { cores } else { max };
    let seconds = args.seconds.unwrap_or(Duration::from_secs(3));
    let start = Position::with_rules(args.rules.rules());
    let counts = thread_counts(max);
    let mut best = vec![0.0f64; counts.len()];
    for _ in 0..SCALING_RUNS {
        for (k, &threads) in counts.iter().enumerate() {
            let config = EngineConfig {
                threads: Some(threads),
                seed: Some(args.seed),
                ..EngineConfig::default()
            };
            let engine = defaults::SEARCH.handle(config);
            let request = Request::new(start).limits(Budget::time(seconds)).fresh();
            let thought = engine
                .search(request)
                .map_err(|_| anyhow::anyhow!("the search at {threads} threads failed"))?;
            best[k] = best[k].max(thought.report.iterations_per_second);
        }
    }
    let one = best[0].max(1e-9);
    let rows: Vec<ScalingRow> = (counts.iter().zip(&best))
        .map(|(&threads, &ips)| ScalingRow {
            threads,
            iterations_per_second: ips,
            speedup: ips / one,
        })
        .collect();
    let result = Scaling {
        seconds: seconds.as_secs_f64(),
        runs: SCALING_RUNS,
        recommended: recommend(&rows),
        rows,
        cores,
    };
    let text = if args.json {
        format!("{}\n", serde_json::to_string(&result)?)
    } else {
        scaling_table(&result)
    };
    super::style::print(&text)
}

/// The table of a scaling run, and the advice.
fn scaling_table(s: &Scaling) -> String {
    let mut out = format!(
        "search from the empty board, best of {} runs of {} s each\n\
         threads  iterations/s  speedup  efficiency\n",
        s.runs, s.seconds
    );
    for r in &s.rows {
        out.push_str(&format!(
            "{:>7}  {:>12}  {:>6.2}x  {:>9.0}%\n",
            r.threads,
            cabra::engine::group(r.iterations_per_second.round() as u64),
            r.speedup,
            100.0 * r.speedup / r.threads as f64
        ));
    }
    out.push_str(&format!(
        "use --threads {}: the fewest threads within 5% of the fastest (this machine has {} cores; \
         play, serve and search use them all by default)\n",
        s.recommended, s.cores
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_double_up_to_the_cores() {
        assert_eq!(thread_counts(1), [1]);
        assert_eq!(thread_counts(2), [1, 2]);
        assert_eq!(thread_counts(6), [1, 2, 4, 6]);
        assert_eq!(thread_counts(16), [1, 2, 4, 8, 16]);
    }

    #[test]
    fn the_advice_is_the_fewest_threads_near_the_fastest() {
        let row = |threads, ips| ScalingRow {
            threads,
            iterations_per_second: ips,
            speedup: 0.0,
        };
        let rows = [row(1, 100.0), row(2, 190.0), row(4, 350.0), row(8, 360.0)];
        assert_eq!(recommend(&rows), 4);
        assert_eq!(recommend(&rows[..2]), 2);
        assert_eq!(recommend(&[row(1, 100.0), row(2, 97.0)]), 1);
    }
}
