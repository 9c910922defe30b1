//! A search with the engine: the best placement from a position, with
//! its win rate, the most searched moves and the expected line, first to
//! an iteration limit (reproducible with a seed), then on a timer with a
//! progress report.
//!
//! `cargo run --release --example search [ITERATIONS]`

use std::time::Duration;

use cabra::engine::{Budget, EngineConfig, EngineHandle, Request};
use cabra::game::{Move, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let iterations = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(20_000);
    let mut pos = Position::new();
    pos.play("L E180 110".parse::<Move>()?)?;
    // One thread and a seed: the same search every time.
    let config = EngineConfig::parse("threads=1,seed=7")?;
    let engine = EngineHandle::new(config);
    let thought = engine.search(Request::new(pos).limits(Budget::iterations(iterations)))?;
    let r = &thought.report;
    let best = r.best.ok_or("the game is over")?;
    println!(
        "best: {best} ({:.1}% for {})",
        100.0 * r.winrate,
        pos.to_move()
    );
    for m in r.top.iter().take(3) {
        println!(
            "  {:<12} {:>7} visits {:5.1}%",
            m.mv.to_string(),
            m.visits,
            100.0 * m.winrate
        );
    }
    let line: Vec<String> = r.pv.iter().map(Move::to_string).collect();
    println!("expected line: {}", line.join(", "));

    // On a timer, with a report every 100 ms from the search's thread.
    let job = engine.start(
        Request::new(pos)
            .limits(Budget::time(Duration::from_millis(500)))
            .report_every(Duration::from_millis(100)),
        |p| {
            let best = p.report.best.map(|m| m.to_string());
            eprintln!(
                "  ... {} iterations, best so far {}",
                p.report.iterations,
                best.unwrap_or_default()
            );
        },
    )?;
    let thought = job.wait()?;
    if let Some(best) = thought.report.best {
        println!(
            "after 0.5 s: {best}, {} iterations",
            thought.report.iterations
        );
    }
    Ok(())
}
