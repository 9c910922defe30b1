//! `cabra analyze`'s table of one game.

use crate::cli::plural;
use cabra::engine::Proven;
use cabra::engine::analysis::{BLUNDER, INACCURACY, MISTAKE, Mark};

use super::Analysis;

fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// The analysis as a table.
pub fn table(a: &Analysis) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {}; {} a search, {}, seed {}",
        a.file,
        plural(a.placements as u64, a.noun),
        a.budget_text,
        plural(a.threads as u64, "thread"),
        a.seed
    );
    if a.interrupted {
        let _ = writeln!(
            s,
            "interrupted: the first {} analyzed",
            plural(a.moves.len() as u64, a.noun)
        );
    }
    let _ = writeln!(
        s,
        "win probabilities are for the player who moves; loss in points\n\
         best `=`: the placement played was the engine's choice"
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
