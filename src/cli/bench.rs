//! `cabra bench`: random games from the empty board, for a fixed number of
//! games (a reproducible signature) or a fixed time.

use std::time::{Duration, Instant};

use cabra::engine::{parse_count, parse_duration};
use cabra::game::Position;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

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

/// Runs the bench and prints the result; the speed is the last line.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let start = Position::with_rules(args.rules.rules());
    let r = measure(start, args.games, args.seconds, args.seed);
    let text = if args.json {
        format!("{}\n", serde_json::to_string(&r)?)
    } else {
        format!(
            "games played: {}\nplacements:   {} (signature of seed {})\nseconds:      {:.3}\nplayouts per second: {:.0}\n",
            r.playouts, r.placements, r.seed, r.seconds, r.playouts_per_second
        )
    };
    super::style::print(&text)
}
