//! `cabra analyze`: the engine's view of every placement of a game (see
//! [`cabra::engine::analysis`] for what is measured), of one game or of a
//! collection of games, in shards if need be.
//!
//! - `table.rs`: one game's table;
//! - `collection.rs`: the games of a collection and the identity of its
//!   analysis; `records.rs`: each game's record (`results.jsonl`);
//! - `shard.rs`: a collection (or a shard of it) analyzed into `--out`;
//! - `merge.rs`: the shards' records read back as one analysis;
//!   `summary.rs`: the summary of a collection from its records.

mod collection;
mod merge;
mod records;
mod shard;
mod summary;
mod table;

use std::path::PathBuf;

use anyhow::{Context, bail};
use cabra::engine::analysis::{BLUNDER, INACCURACY, MISTAKE, MoveAnalysis, PlayerSummary, analyze};
use cabra::engine::{EngineHandle, Request};
use cabra::game::Position;
use serde::Serialize;

use super::check::GameJson;
use super::options::{EngineOptions, RulesOptions};
use super::shards::Shard;
use crate::cli::defaults;

/// Arguments of `cabra analyze`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "cabra analyze FILE [OPTIONS]\n       cabra analyze PATH... --out DIR [--shard INDEX/COUNT] [OPTIONS]\n       cabra analyze --merge DIR...",
    after_help = "Without a limit each search runs 50,000 iterations on all cores; --seed defaults to 0, \
                  so with one thread the analysis is reproducible. Ctrl-C prints the placements analyzed so far.\n\n\
                  A collection: `cabra analyze games/ more.caminos --out DIR` analyzes every game \
                  (a folder stands for its *.caminos files; the collection is all of them sorted by \
                  name), writes each game's analysis (the --json document) as a line of \
                  DIR/results.jsonl, and prints a summary per game and per player. With --shard \
                  INDEX/COUNT it analyzes only games INDEX, INDEX+COUNT, ... (from 0); rerun into \
                  the same DIR it skips the games recorded. `cabra analyze --merge DIR...` reads \
                  the shards' folders and prints the summary of the whole collection. See docs/CLUSTER.md."
)]
pub struct AnalyzeArgs {
    /// The games to analyze: a .caminos file, or with --out any number of
    /// files and folders (a folder stands for its *.caminos files).
    #[arg(value_name = "PATH", required_unless_present = "merge")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(flatten)]
    pub rules: RulesOptions,
    /// Print one JSON document instead of a table (with --out or --merge:
    /// the collection's summary).
    #[arg(long)]
    pub json: bool,
    /// Also write the win-rate graph with the marks to this SVG file (one
    /// game only).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "merge"])]
    pub svg: Option<PathBuf>,
    /// Analyze a collection: write each game's analysis as a line of
    /// DIR/results.jsonl (created if needed), appended and flushed game by
    /// game; rerun into the same DIR, only the games not yet recorded are
    /// analyzed; a DIR of another analysis is refused.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Analyze only shard INDEX of COUNT (INDEX from 0) of the collection:
    /// game i (from 0, in the sorted collection) falls to shard i mod
    /// COUNT. With --iterations or --nodes and --threads 1 each game's
    /// analysis is the one a single run gives.
    #[arg(long, value_parser = Shard::parse, value_name = "INDEX/COUNT", requires = "out")]
    pub shard: Option<Shard>,
    /// Read the records of the shards' --out folders and print the summary
    /// of the whole collection, as a single run prints it; records of
    /// another analysis are refused, missing games are listed.
    /// The options of a run (engine, limits, rules) are refused with it:
    /// the records say what was analyzed.
    #[arg(long, value_name = "DIR", num_args = 1..,
          conflicts_with_all = ["paths", "out", "shard", "engine", "time", "iterations",
                                "nodes", "threads", "seed", "rules", "swap"])]
    pub merge: Vec<PathBuf>,
}

/// The whole analysis (the `--json` document).
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub file: String,
    /// The limits of each search: `{ "iterations": n }`, `{ "time_seconds": t }`, ...
    pub budget: serde_json::Value,
    #[serde(skip)]
    budget_text: String,
    /// What the text calls a move: a placement under the default rules,
    /// a move under the variants (as `cabra check` says).
    #[serde(skip)]
    noun: &'static str,
    pub engine: String,
    pub threads: usize,
    pub seed: u64,
    /// The loss thresholds of the marks.
    pub thresholds: serde_json::Value,
    /// Moves in the game: its placements, swaps and time machines (the
    /// field's name is that of 0.2.0, kept for scripts).
    pub placements: usize,
    /// Whether a signal cut the analysis short (`moves` then holds the
    /// moves finished).
    pub interrupted: bool,
    pub moves: Vec<MoveAnalysis>,
    pub summary: [PlayerSummary; 2],
    pub result: GameJson,
}

/// Analyzes the game `pos` (named `file`) with a fresh search of
/// `engine` at every placement, with a progress bar; a stop cuts it
/// short (`interrupted`).
pub fn analyze_game(
    engine: &EngineHandle,
    pos: Position,
    file: String,
) -> anyhow::Result<Analysis> {
    let config = engine.config();
    // Every search of the analysis has the limits of the first.
    let budget = engine.budget(&Request::analysis(pos));
    let noun = crate::cli::render::move_noun(&pos);
    let bar = indicatif::ProgressBar::new(pos.plies() as u64).with_style(
        indicatif::ProgressStyle::with_template(&format!(
            "analyzing {{bar:30}} {{pos}}/{{len}} {noun}s, {{elapsed}} (Ctrl-C stops)"
        ))
        .expect("a valid template"),
    );
    let shown = bar.clone();
    let job = engine.spawn(move |t| {
        let mut quiet = |_: &cabra::engine::Progress| {};
        analyze(t, &pos, None, &mut quiet, &mut |done, _| {
            shown.set_position(done as u64);
        })
    });
    let (moves, summary) = job.wait()??;
    bar.finish_and_clear();
    let mut budget_json = serde_json::Map::new();
    if let Some(t) = budget.time {
        budget_json.insert("time_seconds".into(), t.as_secs_f64().into());
    }
    if let Some(n) = budget.iterations {
        budget_json.insert("iterations".into(), n.into());
    }
    if let Some(n) = budget.nodes {
        budget_json.insert("nodes".into(), n.into());
    }
    Ok(Analysis {
        file,
        budget: budget_json.into(),
        budget_text: budget.to_string(),
        noun,
        engine: config.name.clone(),
        threads: config.threads.unwrap_or(1),
        seed: config.seed.unwrap_or(0),
        thresholds: serde_json::json!({
            "inaccuracy": INACCURACY,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
        }),
        placements: pos.plies(),
        interrupted: moves.len() < pos.plies(),
        moves,
        summary,
        result: GameJson::of(&pos),
    })
}

/// Runs `cabra analyze`.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    if !args.merge.is_empty() {
        return merge::run(&args.merge, args.json);
    }
    if let Some(out) = &args.out {
        return shard::run(args, out);
    }
    let file = match args.paths.as_slice() {
        [one] if !one.is_dir() => one,
        _ => bail!(
            "several games (or a folder) are a collection: add --out DIR to write their analyses"
        ),
    };
    let pos = args.rules.load(Some(file))?.position;
    let engine = args.engine.handle(&defaults::ANALYZE);
    let stopper = engine.stopper();
    super::signals::stop_on_signal(move || stopper.stop())?;
    let analysis = analyze_game(&engine, pos, file.display().to_string())?;
    if let Some(out) = &args.svg {
        let title = format!("{}: {}", analysis.file, analysis.result.text);
        let svg = super::svg::plot::picture(&analysis.moves, analysis.placements, &title);
        super::files::save_picture(out, file, &svg)?;
        // On standard error, so that the text or JSON on standard output
        // stays as it is.
        eprintln!("wrote {} (the win chances move by move)", out.display());
    }
    let text = if args.json {
        serde_json::to_string_pretty(&analysis).context("writing JSON")? + "\n"
    } else {
        table::table(&analysis)
    };
    super::style::print(&text)
}
