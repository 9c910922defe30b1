//! `cabra analyze`: the engine's view of every placement of a game (see
//! [`cabra::engine::analysis`] for what is measured).

use std::path::PathBuf;

use anyhow::Context;
use cabra::engine::analysis::{BLUNDER, INACCURACY, MISTAKE, Mark, MoveAnalysis, Summary, analyze};
use cabra::engine::{Proven, Request, defaults, plural};
use serde::Serialize;

use super::check::GameJson;
use super::options::{EngineOptions, RulesOptions};

/// Arguments of `cabra analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a limit each search runs 50,000 iterations on all cores; --seed defaults to 0, \
                  so with one thread the analysis is reproducible. Ctrl-C prints the placements analyzed so far."
)]
pub struct AnalyzeArgs {
    /// The game to analyze (a .caminos file).
    pub file: PathBuf,
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(flatten)]
    pub rules: RulesOptions,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write the win-rate graph with the marks to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// The whole analysis (the `--json` document).
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub file: String,
    /// The limits of each search: `{ "iterations": n }`, `{ "time_seconds": t }`, ...
    pub budget: serde_json::Value,
    #[serde(skip)]
    budget_text: String,
    pub engine: String,
    pub threads: usize,
    pub seed: u64,
    /// The loss thresholds of the marks.
    pub thresholds: serde_json::Value,
    /// Placements in the game.
    pub placements: usize,
    /// Whether a signal cut the analysis short (`moves` then holds the
    /// placements finished).
    pub interrupted: bool,
    pub moves: Vec<MoveAnalysis>,
    pub summary: [Summary; 2],
    pub result: GameJson,
}

fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// The analysis as a table.
fn table(a: &Analysis) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {}; {} a search, {}, seed {}",
        a.file,
        plural(a.placements as u64, "placement"),
        a.budget_text,
        plural(a.threads as u64, "thread"),
        a.seed
    );
    if a.interrupted {
        let _ = writeln!(
            s,
            "interrupted: the first {} analyzed",
            plural(a.moves.len() as u64, "placement")
        );
    }
    let _ = writeln!(
        s,
        "win probabilities are for the player who moves; loss in points; best `=` when the placement played was the engine's choice"
    );
    let _ = writeln!(
        s,
        "{:>4}  {:<6}  {:<11} {:<11} {:>7} {:>7} {:>5}  mark",
        "ply", "player", "played", "best", "before", "after", "loss"
    );
    for m in &a.moves {
        let best = match &m.best {
            Some(b) if *b == m.played => "=".to_string(),
            Some(b) => b.clone(),
            None => "-".to_string(),
        };
        let value = |v: f64, p: Option<Proven>| p.map_or_else(|| pct(v), |p| p.word().to_string());
        let _ = writeln!(
            s,
            "{:>4}  {:<6}  {:<11} {:<11} {:>7} {:>7} {:>5.1}  {}",
            m.ply,
            m.player,
            m.played,
            best,
            value(m.winrate_before, m.proven_before),
            value(m.winrate_after, m.proven_after),
            100.0 * m.loss,
            m.mark.map_or("", Mark::text)
        );
    }
    let _ = writeln!(
        s,
        "{:<10} {:>6} {:>13} {:>9} {:>9} {:>12} {:>13}",
        "summary", "moves", "inaccuracies", "mistakes", "blunders", "missed wins", "average loss"
    );
    for p in &a.summary {
        let _ = writeln!(
            s,
            "{:<10} {:>6} {:>13} {:>9} {:>9} {:>12} {:>13.1}",
            format!("player {}", p.player),
            p.moves,
            p.inaccuracies,
            p.mistakes,
            p.blunders,
            p.missed_wins,
            100.0 * p.average_loss
        );
    }
    let _ = writeln!(
        s,
        "marks: inaccuracy >= {:.0} points, mistake >= {:.0}, blunder >= {:.0}; missed win: a proven win not kept",
        100.0 * INACCURACY,
        100.0 * MISTAKE,
        100.0 * BLUNDER
    );
    let _ = writeln!(s, "result: {}", a.result.text);
    s
}

/// Runs `cabra analyze`.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let pos = args.rules.load(Some(&args.file))?.position;
    let engine = args.engine.handle(&defaults::ANALYZE);
    let config = engine.config();
    // Every search of the analysis has the limits of the first.
    let budget = engine.budget(&Request::analysis(pos));
    let stopper = engine.stopper();
    super::signals::stop_on_signal(move || stopper.stop())?;
    let bar = indicatif::ProgressBar::new(pos.plies() as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "analyzing {bar:30} {pos}/{len} placements, {elapsed} (Ctrl-C stops)",
        )
        .expect("a valid template"),
    );
    let shown = bar.clone();
    let job = engine.spawn(move |t| {
        let mut quiet = |_: &cabra::engine::Progress| {};
        analyze(t, &pos, None, &mut quiet, &mut |done, _| {
            shown.set_position(done as u64);
        })
    });
    let (moves, summary) = job.wait()?;
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
    let analysis = Analysis {
        file: args.file.display().to_string(),
        budget: budget_json.into(),
        budget_text: budget.to_string(),
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
    };
    if let Some(out) = &args.svg {
        let title = format!("{}: {}", analysis.file, analysis.result.text);
        let svg = super::svg::plot::picture(&analysis.moves, analysis.placements, &title);
        super::files::save_atomically(out, svg.as_bytes())?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(&analysis).context("writing JSON")? + "\n"
    } else {
        table(&analysis)
    };
    super::style::print(&text)
}
