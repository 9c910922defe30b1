//! How much search a reply inherits from thinking on the opponent's time
//! (`--ponder`): the engine plays a move, ponders the opponent's position
//! for each of the given times, the opponent answers with the move the
//! ponder ranked first (or second), and the engine's reply search reports
//! the visits already under its root.
//! `cargo run --release --example ponder_gain -- THREADS SECONDS...`,
//! e.g. `2 1 5 20`.

use std::process::ExitCode;
use std::time::Duration;

use cabra::engine::{Budget, EngineConfig, EngineHandle, Progress, Request};
use cabra::game::{MOVE_COUNT, Move, Position};

/// Placements of self-play before each measurement.
const STARTS: [usize; 3] = [2, 6, 10];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((threads, seconds)) = args.split_first().and_then(|(t, rest)| {
        let secs: Option<Vec<f64>> = rest.iter().map(|s| s.parse().ok()).collect();
        t.parse::<usize>().ok().zip(secs.filter(|s| !s.is_empty()))
    }) else {
        eprintln!("usage: ponder_gain THREADS SECONDS...");
        return ExitCode::from(2);
    };
    println!("| ponder | start | reply | inherited visits | ponder iterations |");
    println!("|---|---|---|---|---|");
    for &secs in &seconds {
        for &start in &STARTS {
            for rank in [0, 1] {
                let (inherited, pondered) = measure(threads, start, secs, rank);
                let reply = if rank == 0 {
                    "predicted"
                } else {
                    "second choice"
                };
                println!("| {secs} s | move {start} | {reply} | {inherited} | {pondered} |");
            }
        }
    }
    ExitCode::SUCCESS
}

/// Inherited visits and the ponder's iterations, pondering `secs` after
/// `start` placements of self-play, the opponent answering with the
/// ponder's move of `rank`.
fn measure(threads: usize, start: usize, secs: f64, rank: usize) -> (u64, u64) {
    let config = EngineConfig::parse(&format!("threads={threads},seed=1")).expect("a config");
    let engine = EngineHandle::new(config);
    let mut pos = Position::new();
    let play = |pos: &mut Position| {
        let t = engine
            .search(Request::new(*pos).limits(Budget::iterations(20_000)))
            .expect("a search");
        pos.play_move_unchecked(t.report.best.expect("a move"));
    };
    for _ in 0..start {
        play(&mut pos);
    }
    let request = Request::analysis(pos).until_stopped().top_moves(2);
    let job = engine.start(request, |_: &Progress| {}).expect("no limit");
    std::thread::sleep(Duration::from_secs_f64(secs));
    let pondered = job.stop_and_wait().expect("the ponder");
    let reply: Move = pondered.report.top[rank.min(pondered.report.top.len() - 1)].mv;
    pos.play_move_unchecked(reply);
    let request = Request::new(pos)
        .limits(Budget::iterations(1))
        .top_moves(MOVE_COUNT);
    let t = engine.search(request).expect("the reply");
    let visits: u64 = t.report.top.iter().map(|m| m.visits).sum();
    (visits.saturating_sub(1), pondered.report.iterations)
}
