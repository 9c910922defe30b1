//! `cabra match` and `cabra selfplay`: games between two players (engine
//! configurations of this program, programs speaking the protocol, old
//! builds), several at once, with a score and an Elo difference.
//!
//! - `players.rs`: who plays (`--a`, `--b`) and the limits of programs;
//! - `games.rs`: playing the games and writing them;
//! - `openings.rs`: openings read from a file (`--openings`);
//! - `gtp_player.rs`, `legacy.rs`: other programs as players, through
//!   `process.rs` (a child process read with deadlines).

mod games;
mod gtp_player;
mod legacy;
mod openings;
mod players;
mod process;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use cabra::engine::clock::TimeControl;
use cabra::engine::elo::Summary;
use cabra::engine::matches::GameRecord;
use cabra::engine::{EngineConfig, defaults, format_duration, group, parse_count, parse_duration};
use serde::Serialize;

use super::options::{BudgetOptions, parse_engine};
use games::{play_all, result_text};
use players::{Limits, Spec, parse_spec};

/// The longest random opening allowed (a game lasts at most 28 placements).
const MAX_OPENING: usize = 20;

/// The most games one command plays (about two years at 100 ms a placement).
const MAX_GAMES: u64 = 1_000_000;

/// Reads `--games`: a count of at most [`MAX_GAMES`].
fn parse_games(text: &str) -> Result<u64, String> {
    match parse_count(text).map_err(|e| e.to_string())? {
        n if n > MAX_GAMES => Err(format!("at most {} games", group(MAX_GAMES))),
        n => Ok(n),
    }
}

/// Per-move limits and scheduling shared by `match` and `selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayOptions {
    /// Number of games (played in pairs: each opening once with each colour).
    #[arg(long, default_value = "100", value_parser = parse_games)]
    pub games: u64,
    #[command(flatten)]
    pub budget: BudgetOptions,
    /// Play on a game clock instead of a time per placement: each player's
    /// time for the game and the increment added after each of its
    /// placements, e.g. 10s or 5s+100ms. A player whose placement takes
    /// longer than its time left loses the game.
    #[arg(long, value_parser = TimeControl::parse, value_name = "MAIN[+INC]",
          conflicts_with_all = ["time", "iterations", "nodes"])]
    pub clock: Option<TimeControl>,
    /// Games played at once [default: cores / threads per player: only
    /// the player to move thinks].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: Option<u16>,
    /// Shortest random opening (placements before the engines take over;
    /// none ends the game or leaves the next player a win in one).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=MAX_OPENING as i64))]
    pub opening_min: u8,
    /// Longest random opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(0..=MAX_OPENING as i64))]
    pub opening_max: u8,
    /// Play the openings of FILE instead of random ones: one a line, its
    /// placements in piece notation or as twelve digits separated by
    /// commas (`#` starts a comment). Games 2k-1 and 2k play the file's
    /// k-th opening, once with each colour; past the file's end the
    /// openings come round again.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["opening_min", "opening_max"])]
    pub openings: Option<PathBuf>,
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
    after_help = "Without a limit each move gets 100ms; --threads (per player) defaults to 1, \
                  --seed (openings and engines) to 1. A limit in an engine configuration wins over \
                  the options. A program (gtp:, legacy:) gets the options' limits and loses a game \
                  by an illegal placement, a crash, an unreadable answer, a resignation, or a move \
                  slower than its time plus --margin. With --clock every player loses a game by \
                  a placement slower than its time left plus --margin. Ctrl-C prints the summary of the games finished."
)]
pub struct MatchArgs {
    /// Player A: an engine configuration (a name such as default or
    /// baseline and/or key=value pairs, e.g. "default,c=0.5"; `cabra
    /// engines` lists them), or 'gtp:COMMAND LINE' (a program speaking the
    /// protocol of `cabra gtp`), or 'legacy:PATH' (an old cabra build,
    /// through its `search --json`).
    #[arg(long, default_value = "default", value_parser = parse_spec)]
    pub a: Spec,
    /// Player B, as for --a.
    #[arg(long, default_value = "baseline", value_parser = parse_spec)]
    pub b: Spec,
    #[command(flatten)]
    pub play: PlayOptions,
    /// How much longer than its time per move a program (gtp:, legacy:)
    /// may take before it loses the game; with no time per move, the most
    /// it may take.
    #[arg(long, value_parser = parse_duration, default_value = "1s", value_name = "T")]
    pub margin: Duration,
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

/// A game lost by adjudication, in the JSON summary.
#[derive(Serialize)]
struct ForfeitJson {
    /// The game's number (its file is game-NNNN.caminos).
    game: usize,
    /// "A" or "B".
    loser: &'static str,
    /// `illegal`, `garbage`, `error`, `crash`, `timeout` or `resign`.
    kind: &'static str,
    /// The whole reason, as in the game file.
    reason: String,
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
    /// The limits programs played under (null without a program).
    program_limits: Option<String>,
    /// The game clock (`--clock`), null without one.
    clock: Option<String>,
    /// Average thinking time per placement of A and of B, in seconds, as
    /// the match measured it.
    seconds_per_placement: [f64; 2],
    /// The games lost by adjudication.
    forfeits: Vec<ForfeitJson>,
}

/// The players with their limits filled in: engine configurations from
/// the options (a limit of their own wins), programs with the options'
/// limits and the margin.
fn complete(specs: [&Spec; 2], opts: &PlayOptions, margin: Duration) -> ([Spec; 2], Limits) {
    let threads = opts.budget.threads.unwrap_or(1);
    let options = opts.budget.options();
    // On a clock, no limit per placement unless one is given (the engine
    // settles its limits the same way: Budget::resolve).
    let budget = match opts.clock {
        Some(_) => options.budget,
        None => options.budget.or(defaults::MATCH.budget),
    };
    let limits = Limits {
        time: budget.time,
        iterations: budget.iterations,
        nodes: budget.nodes,
        clock: opts.clock,
        threads,
        margin,
    };
    let specs = specs.map(|s| match s {
        // Each game seeds its engines itself (a seed of the configuration
        // is mixed in).
        Spec::Engine(c) => Spec::Engine(EngineConfig {
            seed: c.seed,
            ..options.complete(c, &defaults::MATCH)
        }),
        other => other.clone(),
    });
    (specs, limits)
}

/// Runs `cabra match`.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let (specs, limits) = complete([&args.a, &args.b], &args.play, args.margin);
    let (records, interrupted) = play_all(&specs, &limits, &args.play, args.out.as_deref(), true)?;
    let scores: Vec<Option<f64>> = records
        .iter()
        .map(|r| r.as_ref().map(|r| r.score))
        .collect();
    let summary = Summary::from_scores(&scores, true);
    let forfeits: Vec<ForfeitJson> = records
        .iter()
        .enumerate()
        .filter_map(|(g, r)| {
            let r = r.as_ref()?;
            let f = r.forfeit.as_ref()?;
            Some(ForfeitJson {
                game: g + 1,
                loser: ["A", "B"][f.loser],
                kind: f.fault.kind(),
                reason: result_text(r, &specs),
            })
        })
        .collect();
    let records: Vec<GameRecord> = records.into_iter().flatten().collect();
    let average_length = records
        .iter()
        .map(|r| r.position.plies() as f64)
        .sum::<f64>()
        / records.len().max(1) as f64
        + 0.0; // an empty sum is -0.0
    let program_limits = specs
        .iter()
        .any(Spec::is_program)
        .then(|| limits.describe());
    let per_placement = [0, 1].map(|i| {
        let (t, n) = records.iter().fold((0.0, 0u32), |(t, n), r| {
            (t + r.thought[i].as_secs_f64(), n + r.moves[i])
        });
        t / f64::from(n.max(1))
    });
    let clock = limits.clock.map(|c| c.to_string());
    if args.json {
        let j = MatchJson {
            a: specs[0].name(),
            b: specs[1].name(),
            summary,
            interrupted,
            seconds: start.elapsed().as_secs_f64(),
            average_length,
            program_limits,
            clock,
            seconds_per_placement: per_placement,
            forfeits,
        };
        // A closed pipe (e.g. `| head`) is not an error worth a message.
        super::style::print(&(serde_json::to_string(&j)? + "\n"))?;
    } else {
        let mut text = format!("A = {}\nB = {}\n", specs[0].name(), specs[1].name());
        if let Some(l) = &program_limits {
            text.push_str(&format!("programs: {l}\n"));
        }
        if let Some(c) = &clock {
            text.push_str(&format!("clock: {c} a game\n"));
        }
        if interrupted {
            text.push_str("interrupted: the summary counts the games finished\n");
        }
        text.push_str(&format!(
            "games {}  A wins {}  draws {}  losses {}  score {:.1}%\n{}\n{:.1} placements a game, {:.0}s\nthinking per placement: A {}, B {}\n",
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score,
            summary.elo_text(),
            average_length,
            start.elapsed().as_secs_f64(),
            format_duration(Duration::from_secs_f64(per_placement[0])),
            format_duration(Duration::from_secs_f64(per_placement[1]))
        ));
        for f in &forfeits {
            text.push_str(&format!("game {}: {}\n", f.game, f.reason));
        }
        super::style::print(&text)?;
    }
    Ok(())
}

/// Runs `cabra selfplay`.
pub fn run_selfplay(args: &SelfplayArgs) -> anyhow::Result<()> {
    let engine = Spec::Engine(args.engine.clone());
    let (specs, limits) = complete([&engine, &engine], &args.play, Duration::ZERO);
    let (records, interrupted) = play_all(&specs, &limits, &args.play, Some(&args.out), false)?;
    let records: Vec<GameRecord> = records.into_iter().flatten().collect();
    // A game lost off the board (on time, say) is won by the other colour.
    let result = |r: &GameRecord| match &r.forfeit {
        Some(f) if f.loser == r.player_one() => "p2",
        Some(_) => "p1",
        None => r.position.status().code(),
    };
    let count = |code: &str| records.iter().filter(|r| result(r) == code).count();
    let forfeits = records.iter().filter(|r| r.forfeit.is_some()).count();
    super::style::print(&format!(
        "{} {} written to {}{}: player 1 won {}, player 2 won {}, drawn {}{}\n",
        records.len(),
        if records.len() == 1 { "game" } else { "games" },
        args.out.display(),
        if interrupted { " (interrupted)" } else { "" },
        count("p1"),
        count("p2"),
        count("draw"),
        if forfeits > 0 {
            format!(" ({forfeits} lost by adjudication)")
        } else {
            String::new()
        }
    ))?;
    Ok(())
}
