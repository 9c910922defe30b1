//! `cabra match` and `cabra selfplay`: games between two engine
//! configurations, several at once, with a score and an Elo difference.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cabra::engine::elo::Summary;
use cabra::engine::{EngineConfig, GameRecord, play_game, random_opening};
use cabra::game::Status;
use cabra::game::record::{save_atomically, write_game};
use cabra::search::Limits;
use serde::Serialize;

use super::duration::parse_duration;

/// Per-move limits and scheduling shared by `match` and `selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayOptions {
    /// Number of games (played in pairs: each opening once with each colour).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Time per move, e.g. 200ms (the default when no limit is given: 100ms).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Iterations per move.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Tree size per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads per engine.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Games played at once (default: cores / threads).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Shortest random opening (placements before the engines take over;
    /// none ends the game or leaves the next player a win in one).
    #[arg(long, default_value_t = 2)]
    pub opening_min: usize,
    /// Longest random opening.
    #[arg(long, default_value_t = 4)]
    pub opening_max: usize,
    /// Seed of the openings and the engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game as DIR/game-NNNN.caminos.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Arguments of `cabra match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// Engine A: a named configuration (default, baseline) and/or
    /// key=value pairs, e.g. "default,c=0.5" (see docs/STRENGTH.md).
    #[arg(long, default_value = "default")]
    pub a: String,
    /// Engine B, as for --a.
    #[arg(long, default_value = "baseline")]
    pub b: String,
    #[command(flatten)]
    pub play: PlayOptions,
    /// Print the summary as one JSON object (progress still goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `cabra selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The engine playing both sides.
    #[arg(long, default_value = "default")]
    pub engine: String,
    #[command(flatten)]
    pub play: PlayOptions,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// The JSON summary of a match.
#[derive(Serialize)]
struct MatchJson<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    summary: Summary,
    seconds: f64,
    /// Average placements per game (opening included).
    average_length: f64,
}

/// Runs `cabra match`.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let a = EngineConfig::parse(&args.a).context("--a")?;
    let b = EngineConfig::parse(&args.b).context("--b")?;
    let start = Instant::now();
    let records = play_all([&a, &b], &args.play, args.quiet, true)?;
    let (mut w, mut d, mut l) = (0, 0, 0);
    for r in &records {
        match r.score {
            1.0 => w += 1,
            0.0 => l += 1,
            _ => d += 1,
        }
    }
    let summary = Summary::new(w, d, l);
    let average_length = records
        .iter()
        .map(|r| r.position.plies() as f64)
        .sum::<f64>()
        / records.len().max(1) as f64;
    if args.json {
        let j = MatchJson {
            a: &args.a,
            b: &args.b,
            summary,
            seconds: start.elapsed().as_secs_f64(),
            average_length,
        };
        println!("{}", serde_json::to_string(&j)?);
    } else {
        println!("A = {}\nB = {}", args.a, args.b);
        println!(
            "games {}  A wins {}  draws {}  losses {}  score {:.1}%",
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score
        );
        println!(
            "Elo A-B {:+.0} ± {:.0} (95%: {:+.0} to {:+.0}){}",
            summary.elo,
            summary.elo_ci95,
            summary.elo_low,
            summary.elo_high,
            if summary.clamped {
                "  [score clamped away from 0/1 by half a game: a bound, not an estimate]"
            } else {
                ""
            }
        );
        println!(
            "{:.1} placements a game, {:.0}s",
            average_length,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Runs `cabra selfplay`.
pub fn run_selfplay(args: &SelfplayArgs) -> anyhow::Result<()> {
    let e = EngineConfig::parse(&args.engine).context("--engine")?;
    if args.play.out.is_none() {
        bail!("selfplay needs --out DIR");
    }
    let records = play_all([&e, &e], &args.play, args.quiet, false)?;
    let (mut p1, mut p2, mut d) = (0, 0, 0);
    for r in &records {
        match r.position.status() {
            Status::Won { winner, .. } if winner.index() == 0 => p1 += 1,
            Status::Won { .. } => p2 += 1,
            _ => d += 1,
        }
    }
    println!(
        "{} games written to {}: player 1 won {p1}, player 2 won {p2}, drawn {d}",
        records.len(),
        args.play.out.as_ref().expect("checked").display()
    );
    Ok(())
}

/// Plays the games, `concurrency` at a time, printing progress to stderr;
/// returns them in game order.
fn play_all(
    configs: [&EngineConfig; 2],
    opts: &PlayOptions,
    quiet: bool,
    score_a: bool,
) -> anyhow::Result<Vec<GameRecord>> {
    if opts.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if opts.opening_min > opts.opening_max {
        bail!("--opening-min is above --opening-max");
    }
    let mut limits = Limits {
        time: opts.time,
        iterations: opts.iterations,
        nodes: opts.nodes,
        stop: None,
    };
    if limits.time.is_none() && limits.iterations.is_none() && limits.nodes.is_none() {
        limits.time = Some(Duration::from_millis(100));
    }
    let configs = configs.map(|c| c.clone().with_fallback(&limits, opts.threads));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = opts
        .concurrency
        .unwrap_or((cores / opts.threads).max(1))
        .clamp(1, opts.games.max(1));
    if let Some(dir) = &opts.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; opts.games]);
    let tally = Mutex::new((0u32, 0u32, 0u32));
    let error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..concurrency {
            s.spawn(|| {
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= opts.games || error.lock().expect("lock").is_some() {
                        break;
                    }
                    let pair = (g / 2) as u64;
                    let opening = random_opening(
                        opts.seed.wrapping_mul(0x9E37_79B9).wrapping_add(pair),
                        opts.opening_min,
                        opts.opening_max,
                    );
                    let seed = opts.seed ^ (g as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                    let r = play_game([&configs[0], &configs[1]], g % 2, &opening, seed);
                    if let Some(dir) = &opts.out {
                        if let Err(e) = save(dir, g, &r, &configs) {
                            *error.lock().expect("lock") = Some(e);
                            break;
                        }
                    }
                    let mut t = tally.lock().expect("lock");
                    match r.score {
                        1.0 => t.0 += 1,
                        0.0 => t.2 += 1,
                        _ => t.1 += 1,
                    }
                    if !quiet {
                        let done = t.0 + t.1 + t.2;
                        if score_a {
                            let sc = (f64::from(t.0) + 0.5 * f64::from(t.1)) / f64::from(done);
                            eprintln!(
                                "game {:>4}/{}: {:<4} ({} placements)  A {}-{}-{}  {:.1}%",
                                done,
                                opts.games,
                                match r.score {
                                    1.0 => "A",
                                    0.0 => "B",
                                    _ => "draw",
                                },
                                r.position.plies(),
                                t.0,
                                t.1,
                                t.2,
                                100.0 * sc
                            );
                        } else {
                            eprintln!(
                                "game {:>4}/{}: {} ({} placements)",
                                done,
                                opts.games,
                                result_text(&r),
                                r.position.plies()
                            );
                        }
                    }
                    drop(t);
                    results.lock().expect("lock")[g] = Some(r);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("lock") {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .expect("lock")
        .into_iter()
        .flatten()
        .collect())
}

fn result_text(r: &GameRecord) -> &'static str {
    match r.position.status() {
        Status::Won { winner, .. } if winner.index() == 0 => "player 1 won",
        Status::Won { .. } => "player 2 won",
        _ => "draw",
    }
}

/// Writes one game with a header of comments.
fn save(dir: &Path, g: usize, r: &GameRecord, configs: &[EngineConfig; 2]) -> anyhow::Result<()> {
    let first_colour = r.opening % 2;
    let a_player = if r.first == 0 {
        first_colour
    } else {
        1 - first_colour
    };
    let (p1, p2) = if a_player == 0 {
        (&configs[0].name, &configs[1].name)
    } else {
        (&configs[1].name, &configs[0].name)
    };
    let text = format!(
        "# cabra game {}: player 1 = {p1}, player 2 = {p2}\n# opening: {} random placements\n# result: {}\n{}",
        g + 1,
        r.opening,
        result_text(r),
        write_game(&r.position)
    );
    let path = dir.join(format!("game-{:04}.caminos", g + 1));
    save_atomically(&path, text.as_bytes())
}
