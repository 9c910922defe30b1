//! How fast the engine searches a tree kept from move to move: a game of
//! self-play from the empty board, the engine thinking the given time for
//! each placement, printing the iterations per second of each search and
//! the tree's size. Run with `reuse=off` beside it to compare searches
//! that start afresh at every move:
//! `cargo run --release --example kept_tree_speed -- ENGINE MILLISECONDS SEED`,
//! e.g. `default 1000 1` and `default,reuse=off 1000 1`.

use std::process::ExitCode;
use std::time::Duration;

use cabra::engine::{Budget, EngineConfig, EngineHandle, Request};
use cabra::game::Position;

/// Placements searched: the opening and the middle game.
const PLACEMENTS: usize = 16;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [engine, ms, seed] => EngineConfig::parse(engine)
            .ok()
            .zip(ms.parse::<u64>().ok())
            .zip(seed.parse::<u64>().ok()),
        _ => None,
    };
    let Some(((config, ms), seed)) = parsed else {
        eprintln!("usage: kept_tree_speed ENGINE MILLISECONDS SEED");
        return ExitCode::from(2);
    };
    let config = EngineConfig {
        seed: Some(seed),
        threads: config.threads.or(Some(1)),
        ..config
    };
    let engine = EngineHandle::new(config);
    let mut pos = Position::default();
    let budget = Budget::time(Duration::from_millis(ms));
    let mut speeds = Vec::new();
    for placement in 1..=PLACEMENTS {
        if pos.status().is_over() {
            break;
        }
        let request = Request::new(pos).limits(budget);
        let Ok(thought) = engine.search(request) else {
            eprintln!("the engine failed");
            return ExitCode::FAILURE;
        };
        let report = thought.report;
        let Some(best) = report.best else { break };
        println!(
            "{placement:2} {best:<10} {:>7.0} iterations/s, {:>9} nodes",
            report.iterations_per_second, report.nodes
        );
        // A position proven at once (no iterations) says nothing of speed.
        if report.iterations > 0 {
            speeds.push(report.iterations_per_second);
        }
        pos.play_move_unchecked(best);
    }
    speeds.sort_by(f64::total_cmp);
    if let (Some(low), Some(high)) = (speeds.first(), speeds.last()) {
        let median = speeds[speeds.len() / 2];
        println!("iterations/s: {low:.0} to {high:.0}, median {median:.0}");
    }
    ExitCode::SUCCESS
}
