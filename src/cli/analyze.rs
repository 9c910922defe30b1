//! `cabra analyze`: the engine's view of every placement of a game.
//!
//! Each position of the game is searched once, in order, keeping the tree
//! from one position to the next. For the placement made at position `i`:
//!
//! - `winrate_before`: the engine's win probability for the mover at `i`
//!   (after its own best placement);
//! - `winrate_after`: the mover's win probability after the placement
//!   played: one minus the opponent's value at `i + 1`, or the exact result
//!   (1, 0.5, 0) when the placement ended the game;
//! - `loss`: how much the placement dropped the mover's win probability
//!   (`winrate_before - winrate_after`, at least 0; 0 when the placement is
//!   the engine's own choice, so search noise does not blame the best move);
//! - a mark: `missed win` when the engine had proven a win and the
//!   placement played does not keep it; otherwise `blunder`, `mistake` or
//!   `inaccuracy` when the loss reaches [`BLUNDER`], [`MISTAKE`] or
//!   [`INACCURACY`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, bail};
use cabra::game::record::read_game;
use cabra::game::{PLACEMENT_COUNT, Placement, Player, Position, Status, WinReason};
use cabra::search::{Proven, Report};
use serde::Serialize;

use super::duration::parse_duration;
use super::play::engine::{Budget, Engine, format_duration, group, parse_count};
use super::render::result_line;

/// A drop in win probability of at least this much is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// ... a mistake.
pub const MISTAKE: f64 = 0.10;
/// ... a blunder.
pub const BLUNDER: f64 = 0.20;

/// Iterations per search when no budget is given (up to two searches per
/// placement): a 28-placement game takes about 2 s on two cores, 4 s on one.
pub const DEFAULT_ITERATIONS: u64 = 50_000;

/// Arguments of `cabra analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The game to analyse (a .caminos file).
    pub file: PathBuf,
    /// Thinking time per position, e.g. 500ms or 2s.
    #[arg(long, value_parser = parse_duration, conflicts_with = "iterations")]
    pub time: Option<Duration>,
    /// Iterations per position, e.g. 50000 or 200k [default: 50000].
    #[arg(long, value_parser = parse_count)]
    pub iterations: Option<u64>,
    /// Search threads (independent trees) [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Random seed of the search (with an iteration budget the analysis is
    /// reproducible).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A mark on a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Loss of at least [`INACCURACY`].
    Inaccuracy,
    /// Loss of at least [`MISTAKE`].
    Mistake,
    /// Loss of at least [`BLUNDER`].
    Blunder,
    /// A proven win was there and the placement played does not keep it.
    MissedWin,
}

impl Mark {
    fn text(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
            Mark::MissedWin => "missed win",
        }
    }
}

/// The analysis of one placement.
#[derive(Clone, Debug, Serialize)]
pub struct MoveAnalysis {
    /// 1 for the first placement of the game.
    pub ply: usize,
    /// 1 or 2.
    pub player: u8,
    /// The placement played, in notation.
    pub played: String,
    /// The engine's choice.
    pub best: Option<String>,
    /// The mover's win probability with the engine's choice.
    pub winrate_before: f64,
    /// The mover's win probability after the placement played.
    pub winrate_after: f64,
    /// `winrate_before - winrate_after`, at least 0 (0 for the engine's choice).
    pub loss: f64,
    /// The mark, if any.
    pub mark: Option<Mark>,
    /// The proven value of the position (with the engine's choice) for the mover, if known.
    pub proven_before: Option<Proven>,
    /// The proven value after the placement played, for the mover, if known.
    pub proven_after: Option<Proven>,
    /// Iterations searched at this position.
    pub iterations: u64,
}

/// Totals of one player.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// 1 or 2.
    pub player: u8,
    /// Placements made.
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub missed_wins: usize,
    /// Mean loss over the player's placements.
    pub average_loss: f64,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    /// `p1`, `p2`, `draw` or `ongoing` (as `cabra check --json`).
    pub result: &'static str,
    /// `bridge` or `perimeter` when the game is over.
    pub by: Option<&'static str>,
    /// In words.
    pub text: String,
    /// Placements in the game.
    pub placements: usize,
    /// Perimeter pieces of player 1 and player 2.
    pub perimeter: [u8; 2],
}

/// The whole analysis (the `--json` document).
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub file: String,
    /// `{ "iterations": n }` or `{ "time_seconds": t }` per position.
    pub budget: serde_json::Value,
    pub threads: usize,
    pub seed: u64,
    /// The loss thresholds of the marks.
    pub thresholds: serde_json::Value,
    pub moves: Vec<MoveAnalysis>,
    pub summary: [Summary; 2],
    pub result: GameResult,
}

/// What a fresh search said about one position.
struct Eval {
    best: Option<Placement>,
    /// Win probability for the side to move (after its best placement).
    winrate: f64,
    proven: Option<Proven>,
    report: Report<Placement>,
}

/// The value of a finished game for `p`.
fn terminal_value(s: Status, p: Player) -> (f64, Proven) {
    match s.winner() {
        Some(w) if w == p => (1.0, Proven::Win),
        Some(_) => (0.0, Proven::Loss),
        None => (0.5, Proven::Draw),
    }
}

fn opposite(p: Proven) -> Proven {
    match p {
        Proven::Win => Proven::Loss,
        Proven::Loss => Proven::Win,
        Proven::Draw => Proven::Draw,
    }
}

fn exact(p: Option<Proven>, estimate: f64) -> f64 {
    match p {
        Some(Proven::Win) => 1.0,
        Some(Proven::Loss) => 0.0,
        Some(Proven::Draw) => 0.5,
        None => estimate,
    }
}

/// Searches `pos` from scratch (so that every position gets the same
/// effort and the values compare fairly).
fn evaluate(engine: &mut Engine, pos: &Position, budget: Budget) -> Eval {
    engine.forget();
    let t = engine.think(pos, budget, &mut |_| {});
    Eval {
        best: t.report.best,
        winrate: t.report.winrate,
        proven: t.report.proven,
        report: t.report,
    }
}

/// The value of the position after a placement, for the player who made
/// it: exact when the game is over, else one minus the opponent's value
/// from a search of that position.
fn value_after(eval: Option<&Eval>, after: &Position, mover: Player) -> (f64, Option<Proven>) {
    match eval {
        None => {
            let (v, p) = terminal_value(after.status(), mover);
            (v, Some(p))
        }
        Some(e) => (1.0 - e.winrate, e.proven.map(opposite)),
    }
}

/// Analyses the game `pos` (every placement of its history). `progress`
/// is told how many placements of how many are done.
///
/// Both win probabilities of a placement are measured the same way, by a
/// search of the position after it: the engine's own choice at `i` is
/// played and searched like the placement played (when they differ), so a
/// search's optimism for the side to move cancels out in the loss.
pub fn analyse(
    pos: &Position,
    budget: Budget,
    threads: usize,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> (Vec<MoveAnalysis>, [Summary; 2]) {
    let history = pos.history();
    let n = history.len();
    let mut engine = Engine::new(threads, seed, Arc::new(AtomicBool::new(false)));
    // Every root move in the report, to read the proof of the one played.
    engine.set_top_moves(PLACEMENT_COUNT);
    let mut positions = vec![Position::new()];
    for &p in history {
        let mut next = *positions.last().expect("not empty");
        next.play(p);
        positions.push(next);
    }
    let search = |engine: &mut Engine, p: &Position| {
        (!p.status().is_over()).then(|| evaluate(engine, p, budget))
    };
    let mut moves = Vec::with_capacity(n);
    let mut here = search(&mut engine, &positions[0]);
    for (i, &played) in history.iter().enumerate() {
        progress(i, n);
        let mover = positions[i].to_move();
        let next = search(&mut engine, &positions[i + 1]);
        let eval = here
            .as_ref()
            .expect("a placement was made, so the game was on");
        let (after, mut proven_after) = value_after(next.as_ref(), &positions[i + 1], mover);
        // The search at `i` may have proved the placement played.
        if let Some(p) = eval
            .report
            .top
            .iter()
            .find(|m| m.mv == played)
            .and_then(|m| m.proven)
        {
            proven_after = Some(p);
        }
        let after = exact(proven_after, after);
        let best = eval.best.unwrap_or(played);
        let same = best == played;
        let (before, proven_before) = if same {
            (after, eval.proven.or(proven_after))
        } else {
            let mut alt = positions[i];
            alt.play(best);
            let alt_eval = search(&mut engine, &alt);
            let (v, p) = value_after(alt_eval.as_ref(), &alt, mover);
            let proven = eval.proven.or(p);
            (exact(proven, v), proven)
        };
        let loss = if same { 0.0 } else { (before - after).max(0.0) };
        let mark = if eval.proven == Some(Proven::Win) && proven_after != Some(Proven::Win) {
            Some(Mark::MissedWin)
        } else if same {
            None
        } else if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        };
        moves.push(MoveAnalysis {
            ply: i + 1,
            player: mover.number(),
            played: played.to_string(),
            best: eval.best.map(|b| b.to_string()),
            winrate_before: before,
            winrate_after: after,
            loss,
            mark,
            proven_before,
            proven_after,
            iterations: eval.report.iterations,
        });
        here = next;
    }
    progress(n, n);
    let summary = Player::BOTH.map(|p| {
        let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.player == p.number()).collect();
        let count = |k: Mark| mine.iter().filter(|m| m.mark == Some(k)).count();
        Summary {
            player: p.number(),
            moves: mine.len(),
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
            missed_wins: count(Mark::MissedWin),
            average_loss: if mine.is_empty() {
                0.0
            } else {
                mine.iter().map(|m| m.loss).sum::<f64>() / mine.len() as f64
            },
        }
    });
    (moves, summary)
}

fn game_result(pos: &Position) -> GameResult {
    let (result, by) = match pos.status() {
        Status::Ongoing => ("ongoing", None),
        Status::Draw => ("draw", Some("perimeter")),
        Status::Won { winner, by } => (
            if winner == Player::One { "p1" } else { "p2" },
            Some(match by {
                WinReason::Bridge => "bridge",
                WinReason::Perimeter => "perimeter",
            }),
        ),
    };
    let text = match pos.status() {
        Status::Ongoing => format!("in progress, {} to move", pos.to_move()),
        s => result_line(pos, s),
    };
    GameResult {
        result,
        by,
        text,
        placements: pos.plies(),
        perimeter: Player::BOTH.map(|p| pos.perimeter_count(p)),
    }
}

/// A progress bar on standard error: `analysing [#####.....] 12/28`.
fn draw_bar(done: usize, total: usize) {
    let total = total.max(1);
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r\x1b[2Kanalysing [{}{}] {done}/{total} placements",
        "#".repeat(filled),
        ".".repeat(width - filled)
    );
    let _ = err.flush();
}

fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// The analysis as a table.
fn table(a: &Analysis) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let budget = match (a.budget.get("iterations"), a.budget.get("time_seconds")) {
        (Some(n), _) => format!("{} iterations", group(n.as_u64().unwrap_or(0))),
        (_, Some(t)) => format_duration(Duration::from_secs_f64(t.as_f64().unwrap_or(0.0))),
        _ => String::new(),
    };
    let _ = writeln!(
        s,
        "{}: {} placements; {budget} a search, {} thread{}, seed {}",
        a.file,
        a.moves.len(),
        a.threads,
        if a.threads == 1 { "" } else { "s" },
        a.seed
    );
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
        let value = |v: f64, p: Option<Proven>| match p {
            Some(Proven::Win) => "won".to_string(),
            Some(Proven::Loss) => "lost".to_string(),
            _ => pct(v),
        };
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
    if args.time.is_some_and(|t| t.is_zero()) {
        bail!("--time must be more than 0, e.g. --time 200ms");
    }
    let pos = read_game(&args.file)?;
    let budget = match (args.iterations, args.time) {
        (Some(n), _) => Budget::Iterations(n),
        (None, Some(t)) => Budget::Time(t),
        (None, None) => Budget::Iterations(DEFAULT_ITERATIONS),
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let bar = std::io::stderr().is_terminal();
    let (moves, summary) = analyse(&pos, budget, threads, args.seed, &mut |done, total| {
        if bar {
            draw_bar(done, total);
        }
    });
    if bar {
        eprint!("\r\x1b[2K");
    }
    let analysis = Analysis {
        file: args.file.display().to_string(),
        budget: match budget {
            Budget::Iterations(n) => serde_json::json!({ "iterations": n }),
            Budget::Time(t) => serde_json::json!({ "time_seconds": t.as_secs_f64() }),
        },
        threads,
        seed: args.seed,
        thresholds: serde_json::json!({
            "inaccuracy": INACCURACY,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
        }),
        moves,
        summary,
        result: game_result(&pos),
    };
    let text = if args.json {
        serde_json::to_string_pretty(&analysis).context("writing JSON")? + "\n"
    } else {
        table(&analysis)
    };
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error worth a message.
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(())
}
