//! `cabra match` and `cabra selfplay`: games between two players (engine
//! configurations of this program, programs speaking the protocol, old
//! builds), several at once, with a score and an Elo difference.
//!
//! - `players.rs`: who plays (`--a`, `--b`) and the limits of programs;
//! - `games.rs`: playing the games and writing them;
//! - `openings.rs`: openings read from a file (`--openings`);
//! - `records.rs`, `merge.rs`, `summary.rs` (with `super::shards`): a
//!   match cut into shards (`--shard`), each game's record (`results.jsonl`), the shards
//!   merged (`--merge`), and the summary from the records;
//! - `gtp_player.rs`, `legacy.rs`: other programs as players, through
//!   `process.rs` (a child process read with deadlines).

mod elo;
mod games;
mod gtp_player;
mod legacy;
mod merge;
mod openings;
mod players;
mod process;
pub mod records;
mod sprt;
mod summary;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cabra::engine::clock::TimeControl;
use cabra::engine::{EngineConfig, group, parse_count, parse_duration};
use sprt::Sprt;

use super::options::{BudgetOptions, parse_engine};
use super::shards::lock::lock_records;
use super::shards::{Shard, check_shard, engine_identity, fnv64};
use crate::cli::defaults;
use games::{Plan, play_all};
use players::{Limits, Spec, parse_spec};
use records::{MatchHeader, Recorder, ResultRecord, check_same, read_records, records_file};
use summary::{Report, match_summary, selfplay_summary};

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

/// Reads `--clock`, with the cause of a refusal (`increment: 'x' is not
/// a duration ...`): clap would print the error's own message only.
fn parse_clock(text: &str) -> Result<TimeControl, String> {
    TimeControl::parse(text).map_err(|e| crate::cli::chain(&e))
}

/// The options of [`PlayOptions`] that say what a run plays: a merge,
/// which reads that from the records, refuses them.
const PLAY_OPTIONS: [&str; 12] = [
    "games",
    "time",
    "iterations",
    "nodes",
    "threads",
    "seed",
    "clock",
    "opening_min",
    "opening_max",
    "openings",
    "rules",
    "swap",
];

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
    #[arg(long, value_parser = parse_clock, value_name = "MAIN[+INC]",
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
    /// Start the --out directory afresh: its records (results.jsonl) are
    /// emptied and its game files (game-NNNN.caminos) removed, so that
    /// none of an earlier run stays beside the new records (other files
    /// are left as they are).
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
    /// Write every game as DIR/game-NNNN.caminos and its record as a line
    /// of DIR/results.jsonl (the directory is created if needed; existing
    /// game files are refused without --force, or resumed with --shard).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the summary as one JSON object (progress still goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Play only shard INDEX of COUNT (INDEX from 0): the games of the
    /// whole match, with the same openings, colours and seeds, whose pair
    /// falls to it (pair p to shard p mod COUNT), recorded in
    /// --out/results.jsonl. Rerun into the same --out, it plays only the
    /// games not yet recorded. With --iterations or --nodes and --threads 1
    /// the games are those of the whole match played in one process; with
    /// a time limit the searches stop on the clock and the games may
    /// differ. See docs/CLUSTER.md.
    #[arg(long, value_parser = Shard::parse, value_name = "INDEX/COUNT", requires = "out")]
    pub shard: Option<Shard>,
    /// Read the records of the shards' --out folders and print the summary
    /// of the whole match, as a run in one process prints it; records of
    /// another match are refused, missing games are listed.
    /// The options of a run (the players, games, limits, rules) are
    /// refused with it: the records say what was played.
    #[arg(long, value_name = "DIR", num_args = 1..,
          conflicts_with_all = ["out", "shard", "a", "b", "margin", "force", "concurrency"],
          conflicts_with_all = PLAY_OPTIONS)]
    pub merge: Vec<PathBuf>,
    /// Add a sequential probability ratio test: elo0,elo1[,alpha,beta]
    /// (alpha and beta default to 0.05), as fishtest runs one; the summary
    /// says H0 or H1 accepted, or continue.
    #[arg(
        long,
        value_parser = Sprt::parse,
        value_name = "ELO0,ELO1[,A,B]",
        allow_hyphen_values = true
    )]
    pub sprt: Option<Sprt>,
}

/// Arguments of `cabra selfplay`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "cabra selfplay --out DIR [OPTIONS]\n       cabra selfplay --merge DIR...",
    after_help = "Without a limit each move gets 100ms; --threads defaults to 1, --seed (openings \
                  and engines) to 1. A limit in the engine configuration wins over the options. \
                  Ctrl-C stops at once, keeping the games finished."
)]
pub struct SelfplayArgs {
    /// The engine playing both sides: a name (default, baseline) and/or
    /// key=value pairs, e.g. "default,c=0.3" (`cabra engines` lists them).
    #[arg(long, default_value = "default", value_parser = parse_engine, value_name = "CONFIG")]
    pub engine: EngineConfig,
    #[command(flatten)]
    pub play: PlayOptions,
    /// Write every game as DIR/game-NNNN.caminos, and its record in
    /// DIR/results.jsonl.
    #[arg(long, value_name = "DIR", required_unless_present = "merge")]
    pub out: Option<PathBuf>,
    /// Play only shard INDEX of COUNT (INDEX from 0), as `match --shard`.
    #[arg(long, value_parser = Shard::parse, value_name = "INDEX/COUNT")]
    pub shard: Option<Shard>,
    /// Count the games recorded in the shards' --out folders (the
    /// options of a run are refused with it).
    #[arg(long, value_name = "DIR", num_args = 1..,
          conflicts_with_all = ["out", "shard", "engine", "force", "concurrency"],
          conflicts_with_all = PLAY_OPTIONS)]
    pub merge: Vec<PathBuf>,
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
    // The margin times programs, and every player on a clock; engines
    // between themselves are not timed, and a margin there would only
    // keep runs of other margins from resuming or merging.
    let timed = opts.clock.is_some() || specs.iter().any(|s| s.is_program());
    let limits = Limits {
        time: budget.time,
        iterations: budget.iterations,
        nodes: budget.nodes,
        clock: opts.clock,
        threads,
        margin: if timed { margin } else { Duration::ZERO },
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

/// The identity of the match these players play under these options.
fn header(
    kind: &str,
    specs: &[Spec; 2],
    limits: &Limits,
    opts: &PlayOptions,
) -> anyhow::Result<MatchHeader> {
    let config = |s: &Spec| match s {
        Spec::Engine(c) => engine_identity(c),
        other => other.name().to_string(),
    };
    let openings = match &opts.openings {
        Some(path) => {
            let bytes = super::files::read_input(path)
                .map_err(|e| crate::cli::files::io_error("read the openings", path, &e))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            format!("file {name} (fnv64 {:016x})", fnv64(&bytes))
        }
        None => format!("random {}-{}", opts.opening_min, opts.opening_max),
    };
    Ok(MatchHeader {
        kind: kind.into(),
        format: records::FORMAT,
        version: env!("CARGO_PKG_VERSION").into(),
        a: specs[0].name().into(),
        b: specs[1].name().into(),
        a_config: config(&specs[0]),
        b_config: config(&specs[1]),
        limits: limits.describe(),
        seed: opts.budget.seed.unwrap_or(1),
        rules: opts.rules.rules().to_string(),
        openings,
        clock: limits
            .clock
            .map_or_else(|| "none".into(), |c| c.to_string()),
        games: opts.games,
    })
}

/// The games of a run: those already recorded in `out` (a shard rerun)
/// and those played now, by game number from 0; and whether a signal
/// stopped it.
fn play_recorded(
    kind: &str,
    specs: &[Spec; 2],
    limits: &Limits,
    opts: &PlayOptions,
    out: Option<&std::path::Path>,
    shard: Option<Shard>,
) -> anyhow::Result<(Vec<Option<ResultRecord>>, bool)> {
    let header = header(kind, specs, limits, opts)?;
    let total = usize::try_from(opts.games).context("--games")?;
    let mut games: Vec<Option<ResultRecord>> = (0..total).map(|_| None).collect();
    let part = shard.unwrap_or(Shard::WHOLE);
    let mut recorder = None;
    let mut _lock = None;
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| crate::cli::files::io_error("create", dir, &e))?;
        let path = records_file(dir);
        _lock = Some(lock_records(&path)?);
        let (lines, keep) = if opts.force {
            (Vec::new(), 0)
        } else {
            read_records(&path)?
        };
        if let (None, Some(first)) = (shard, lines.first()) {
            bail!(
                "{} already holds the records of a {kind} run (shard {}): choose another --out \
                 directory, --force to start it afresh, or --shard {} to finish that run",
                dir.display(),
                first.shard,
                first.shard
            );
        }
        check_same(
            &header,
            &lines,
            &path,
            "here (use another --out, or --force)",
        )?;
        check_shard(lines.iter().map(|l| l.shard.as_str()), part, dir)?;
        for line in lines {
            let g = line.game.wrapping_sub(1);
            if g < total && part.owns(g) {
                games[g] = Some(line);
            }
        }
        recorder = Some(Recorder::open(&path, keep)?);
    }
    let todo: Vec<usize> = part
        .games(total)
        .into_iter()
        .filter(|&g| games[g].is_none())
        .collect();
    if part.games(total).is_empty() {
        eprintln!(
            "shard {part} holds no games: a match of {total} games has {} pair{}, one shard each at most",
            total.div_ceil(2),
            if total.div_ceil(2) == 1 { "" } else { "s" }
        );
    }
    let done = part.games(total).len() - todo.len();
    if done > 0 && !opts.quiet {
        eprintln!(
            "shard {part}: {done} games already recorded, {} to play",
            todo.len()
        );
    }
    let plan = Plan {
        todo,
        out,
        recorder: recorder.as_ref(),
        resume: shard.is_some(),
        header: &header,
        shard: part,
    };
    let (played, interrupted) = play_all(specs, limits, opts, &plan, kind == "match")?;
    for line in played {
        let g = line.game - 1;
        games[g] = Some(line);
    }
    Ok((games, interrupted))
}

/// Whether a player named so is another program.
fn is_program(name: &str) -> bool {
    name.starts_with("gtp:") || name.starts_with("legacy:")
}

/// Runs `cabra match`.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    if !args.merge.is_empty() {
        let m = merge::merge(&args.merge, "match")?;
        let h = &m.header;
        let seconds = m.games.iter().flatten().map(|r| r.seconds).sum();
        let report = Report {
            names: [&h.a, &h.b],
            program_limits: (is_program(&h.a) || is_program(&h.b)).then(|| h.limits.clone()),
            clock: (h.clock != "none").then(|| h.clock.clone()),
            interrupted: false,
            seconds,
            shard: None,
            merged: Some(m.notes.clone()),
            sprt: args.sprt,
            json: args.json,
        };
        if !m.notes.missing.is_empty() && !args.json {
            eprintln!("{}", summary::merge_lines(&m.notes).trim_end());
        }
        return super::style::print(&match_summary(&m.games, report)?);
    }
    let (specs, limits) = complete([&args.a, &args.b], &args.play, args.margin);
    let (games, interrupted) = play_recorded(
        "match",
        &specs,
        &limits,
        &args.play,
        args.out.as_deref(),
        args.shard,
    )?;
    let report = Report {
        names: [specs[0].name(), specs[1].name()],
        program_limits: specs
            .iter()
            .any(Spec::is_program)
            .then(|| limits.describe()),
        clock: limits.clock.map(|c| c.to_string()),
        interrupted,
        // A shard counts the games recorded by earlier runs too: their
        // times added up, as a merge adds them.
        seconds: match args.shard {
            Some(_) => games.iter().flatten().map(|r| r.seconds).sum(),
            None => start.elapsed().as_secs_f64(),
        },
        shard: args.shard.map(|s| s.to_string()),
        merged: None,
        sprt: args.sprt,
        json: args.json,
    };
    // A closed pipe (e.g. `| head`) is not an error worth a message.
    super::style::print(&match_summary(&games, report)?)
}

/// Runs `cabra selfplay`.
pub fn run_selfplay(args: &SelfplayArgs) -> anyhow::Result<()> {
    if !args.merge.is_empty() {
        let m = merge::merge(&args.merge, "selfplay")?;
        let games: Vec<&ResultRecord> = m.games.iter().flatten().collect();
        let place = format!("recorded in {}", m.notes.folders.join(", "));
        let text = selfplay_summary(&games, &place, false) + &summary::merge_lines(&m.notes);
        return super::style::print(&text);
    }
    let Some(out) = &args.out else {
        bail!("selfplay needs --out DIR");
    };
    let engine = Spec::Engine(args.engine.clone());
    let (specs, limits) = complete([&engine, &engine], &args.play, Duration::ZERO);
    let (games, interrupted) = play_recorded(
        "selfplay",
        &specs,
        &limits,
        &args.play,
        Some(out),
        args.shard,
    )?;
    let games: Vec<&ResultRecord> = games.iter().flatten().collect();
    let place = match args.shard {
        // Some may have been recorded by an earlier run of the shard.
        Some(s) => format!("of shard {s} recorded in {}", out.display()),
        None => format!("written to {}", out.display()),
    };
    super::style::print(&selfplay_summary(&games, &place, interrupted))
}
