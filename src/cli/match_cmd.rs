//! `cabra match` and `cabra selfplay`: games between two engine
//! configurations, several at once, with a score and an Elo difference.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cabra::engine::elo::Summary;
use cabra::engine::matches::{GameRecord, play_engines, random_opening};
use cabra::engine::{Budget, EngineConfig, parse_count};
use cabra::game::record::write_game;
use rayon::prelude::*;
use serde::Serialize;

use super::files::save_atomically;
use super::options::{BudgetOptions, all_cores, parse_engine};

/// The budget per move when none is given.
const DEFAULT_TIME: Duration = Duration::from_millis(100);

/// The longest random opening allowed (a game lasts at most 28 placements).
const MAX_OPENING: usize = 20;

/// Per-move limits and scheduling shared by `match` and `selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayOptions {
    /// Number of games (played in pairs: each opening once with each colour).
    #[arg(long, default_value = "100", value_parser = parse_count)]
    pub games: u64,
    #[command(flatten)]
    pub budget: BudgetOptions,
    /// Games played at once [default: cores / threads per engine].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: Option<u16>,
    /// Shortest random opening (placements before the engines take over;
    /// none ends the game or leaves the next player a win in one).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=MAX_OPENING as i64))]
    pub opening_min: u8,
    /// Longest random opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(0..=MAX_OPENING as i64))]
    pub opening_max: u8,
    /// Replace game files already in the --out directory.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub rules: super::options::RulesOptions,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `cabra match`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a limit each move gets 100ms; --threads (per engine) defaults to 1, \
                  --seed (openings and engines) to 1. A limit in an engine configuration wins over \
                  the options. Ctrl-C prints the summary of the games finished."
)]
pub struct MatchArgs {
    /// Engine A: a named configuration (default, baseline) and/or
    /// key=value pairs, e.g. "default,c=0.5" (`cabra engines` lists them).
    #[arg(long, default_value = "default", value_parser = parse_engine)]
    pub a: EngineConfig,
    /// Engine B, as for --a.
    #[arg(long, default_value = "baseline", value_parser = parse_engine)]
    pub b: EngineConfig,
    #[command(flatten)]
    pub play: PlayOptions,
    /// Write every game as DIR/game-NNNN.caminos (the directory is created
    /// if needed; existing game files are refused without --force).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the summary as one JSON object (progress still goes to stderr).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `cabra selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The engine playing both sides.
    #[arg(long, default_value = "default", value_parser = parse_engine)]
    pub engine: EngineConfig,
    #[command(flatten)]
    pub play: PlayOptions,
    /// Write every game as DIR/game-NNNN.caminos.
    #[arg(long, value_name = "DIR", required = true)]
    pub out: PathBuf,
}

/// The JSON summary of a match.
#[derive(Serialize)]
struct MatchJson<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    summary: Summary,
    /// Whether a signal ended the match early (the summary counts the
    /// games finished).
    interrupted: bool,
    seconds: f64,
    /// Average placements per game (opening included).
    average_length: f64,
}

/// Runs `cabra match`.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let (records, interrupted) =
        play_all([&args.a, &args.b], &args.play, args.out.as_deref(), true)?;
    let scores: Vec<Option<f64>> = records
        .iter()
        .map(|r| r.as_ref().map(|r| r.score))
        .collect();
    let summary = Summary::from_scores(&scores, true);
    let records: Vec<GameRecord> = records.into_iter().flatten().collect();
    let average_length = records
        .iter()
        .map(|r| r.position.plies() as f64)
        .sum::<f64>()
        / records.len().max(1) as f64;
    if args.json {
        let j = MatchJson {
            a: &args.a.name,
            b: &args.b.name,
            summary,
            interrupted,
            seconds: start.elapsed().as_secs_f64(),
            average_length,
        };
        println!("{}", serde_json::to_string(&j)?);
    } else {
        let mut text = format!("A = {}\nB = {}\n", args.a.name, args.b.name);
        if interrupted {
            text.push_str("interrupted: the summary counts the games finished\n");
        }
        text.push_str(&format!(
            "games {}  A wins {}  draws {}  losses {}  score {:.1}%\n{}\n{:.1} placements a game, {:.0}s\n",
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score,
            summary.elo_text(),
            average_length,
            start.elapsed().as_secs_f64()
        ));
        super::style::print(&text);
    }
    Ok(())
}

/// Runs `cabra selfplay`.
pub fn run_selfplay(args: &SelfplayArgs) -> anyhow::Result<()> {
    let (records, interrupted) = play_all(
        [&args.engine, &args.engine],
        &args.play,
        Some(&args.out),
        false,
    )?;
    let records: Vec<GameRecord> = records.into_iter().flatten().collect();
    let count = |code: &str| {
        records
            .iter()
            .filter(|r| r.position.status().code() == code)
            .count()
    };
    println!(
        "{} games written to {}{}: player 1 won {}, player 2 won {}, drawn {}",
        records.len(),
        args.out.display(),
        if interrupted { " (interrupted)" } else { "" },
        count("p1"),
        count("p2"),
        count("draw")
    );
    Ok(())
}

/// The file of game `g` (from 0) in `dir`.
fn game_file(dir: &Path, g: usize) -> PathBuf {
    dir.join(format!("game-{:04}.caminos", g + 1))
}

/// Plays the games, `concurrency` at a time, showing progress on stderr;
/// returns them in game order (`None` for a game a signal stopped), and
/// whether a signal stopped the match.
fn play_all(
    configs: [&EngineConfig; 2],
    opts: &PlayOptions,
    out: Option<&Path>,
    score_a: bool,
) -> anyhow::Result<(Vec<Option<GameRecord>>, bool)> {
    if opts.opening_min > opts.opening_max {
        super::options::usage_error(format!(
            "--opening-min {} is above --opening-max {}",
            opts.opening_min, opts.opening_max
        ));
    }
    let games = usize::try_from(opts.games).context("--games")?;
    let threads = opts.budget.threads.unwrap_or(1);
    let configs = configs.map(|c| opts.budget.complete(c, threads, Budget::time(DEFAULT_TIME)));
    let concurrency = opts
        .concurrency
        .map_or((all_cores() / threads).max(1), usize::from)
        .clamp(1, games.max(1));
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        if !opts.force {
            if let Some(f) = (0..games).map(|g| game_file(dir, g)).find(|f| f.exists()) {
                bail!(
                    "{} already exists: choose another --out directory, or --force to replace its games",
                    f.display()
                );
            }
        }
    }
    let seed = opts.budget.seed.unwrap_or(1);
    let start = cabra::game::Position::with_rules(opts.rules.rules());
    let stop = Arc::new(AtomicBool::new(false));
    super::signals::stop_on_signal(stop.clone())?;
    let bar = if opts.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(games as u64)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games, {elapsed}  {msg}")
            .expect("a valid template"),
    );
    let tally = std::sync::Mutex::new([0u32; 3]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency)
        .thread_name(|i| format!("cabra-game-{i}"))
        .build()?;
    let results: Vec<anyhow::Result<Option<GameRecord>>> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .with_max_len(1)
            .map(|g| {
                if stop.load(Ordering::SeqCst) {
                    return Ok(None);
                }
                let pair = (g / 2) as u64;
                let opening = random_opening(
                    &start,
                    seed.wrapping_mul(0x9E37_79B9).wrapping_add(pair),
                    usize::from(opts.opening_min),
                    usize::from(opts.opening_max),
                );
                let game_seed = seed ^ (g as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                let Some(r) =
                    play_engines(configs.each_ref(), g % 2, start, &opening, game_seed, &stop)
                else {
                    return Ok(None);
                };
                if let Some(dir) = out {
                    save(&game_file(dir, g), g, &r, &configs)?;
                }
                let mut t = tally.lock().expect("lock");
                t[(2.0 * r.score) as usize] += 1;
                let [l, d, w] = *t;
                drop(t);
                if score_a {
                    let done = f64::from(w + d + l);
                    bar.set_message(format!(
                        "A {w}-{d}-{l} {:.1}%",
                        100.0 * (f64::from(w) + 0.5 * f64::from(d)) / done
                    ));
                } else {
                    bar.set_message(format!("last: {}", r.position.status()));
                }
                bar.inc(1);
                Ok(Some(r))
            })
            .collect()
    });
    bar.finish_and_clear();
    let records = results.into_iter().collect::<anyhow::Result<_>>()?;
    Ok((records, stop.load(Ordering::SeqCst)))
}

/// Writes one game with a header of comments.
fn save(path: &Path, g: usize, r: &GameRecord, configs: &[EngineConfig; 2]) -> anyhow::Result<()> {
    let (p1, p2) = if r.player_one() == 0 {
        (&configs[0].name, &configs[1].name)
    } else {
        (&configs[1].name, &configs[0].name)
    };
    let text = format!(
        "# cabra game {}: player 1 = {p1}, player 2 = {p2}\n# opening: {} random placements\n# result: {}\n{}",
        g + 1,
        r.opening,
        super::render::status_line(&r.position),
        write_game(&r.position)
    );
    save_atomically(path, text.as_bytes())
}
