//! The summary of the analysis of a collection, from its games' records:
//! a line per game (placements and each player's marks and average loss)
//! and each player's totals; the same for a single run, a shard (its own
//! games) and a merge of shards.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::records::{GameRecord, WorkHeader};
use crate::cli::plural;
use crate::cli::shards::ranges;
use cabra::engine::analysis::PlayerSummary;

/// What the summary needs of one game's analysis.
#[derive(Deserialize)]
struct View {
    placements: usize,
    summary: [PlayerSummary; 2],
    result: ResultView,
}

#[derive(Deserialize)]
struct ResultView {
    text: String,
}

/// One game in the JSON summary.
#[derive(Serialize)]
struct GameLine {
    index: usize,
    file: String,
    placements: usize,
    result: String,
    summary: [PlayerSummary; 2],
}

/// What a run or a merge adds to the summary.
#[derive(Serialize, Clone, Debug, Default)]
pub struct Notes {
    /// The shard run (`INDEX/COUNT`), none for a whole run or a merge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Whether a signal stopped the run.
    pub interrupted: bool,
    /// The folders merged (empty unless merged).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub folders: Vec<String>,
    /// Games with no record, as `INDEX (FILE)` (merge only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// Games recorded more than once, identically (counted once).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub duplicates: Vec<usize>,
}

/// The whole JSON summary.
#[derive(Serialize)]
struct Json<'a> {
    work: &'a WorkHeader,
    games: Vec<GameLine>,
    totals: [PlayerSummary; 2],
    #[serde(flatten)]
    notes: &'a Notes,
}

/// The players' totals over `games`: marks added up, average loss over
/// all their placements.
fn totals(games: &[GameLine]) -> [PlayerSummary; 2] {
    [1u8, 2].map(|player| {
        let mut t = PlayerSummary {
            player,
            ..PlayerSummary::default()
        };
        let mut loss = 0.0;
        for g in games {
            let s = &g.summary[usize::from(player - 1)];
            t.moves += s.moves;
            t.inaccuracies += s.inaccuracies;
            t.mistakes += s.mistakes;
            t.blunders += s.blunders;
            t.missed_wins += s.missed_wins;
            loss += s.average_loss * s.moves as f64;
        }
        t.average_loss = loss / t.moves.max(1) as f64;
        t
    })
}

/// The summary of the games recorded in `games` (by index; `None`: not
/// analyzed here), as text or one JSON document.
pub fn summary(
    header: &WorkHeader,
    games: &[Option<GameRecord>],
    notes: &Notes,
    json: bool,
) -> anyhow::Result<String> {
    let mut lines = Vec::new();
    for r in games.iter().flatten() {
        let v: View = serde_json::from_value(r.analysis.clone())
            .map_err(|e| anyhow::anyhow!("game {} ({}): not an analysis: {e}", r.index, r.file))?;
        lines.push(GameLine {
            index: r.index,
            file: r.file.clone(),
            placements: v.placements,
            result: v.result.text,
            summary: v.summary,
        });
    }
    let totals = totals(&lines);
    if json {
        let j = Json {
            work: header,
            games: lines,
            totals,
            notes,
        };
        return Ok(serde_json::to_string(&j)? + "\n");
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} of {} games analyzed; {}, {} a search, {}, seed {}",
        lines.len(),
        header.games,
        header.engine,
        header.limits,
        plural(header.threads, "thread"),
        header.seed
    );
    if let Some(shard) = &notes.shard {
        let _ = writeln!(s, "shard {shard}: the summary counts this shard's games");
    }
    if notes.interrupted {
        let _ = writeln!(s, "interrupted: the summary counts the games finished");
    }
    let _ = writeln!(
        s,
        "{:>5}  {:<28} {:>5}  {:>6}  each player: inaccuracies/mistakes/blunders/missed wins, average loss",
        "game", "file", "plies", "player"
    );
    for g in &lines {
        for (k, t) in g.summary.iter().enumerate() {
            let (index, file, plies) = if k == 0 {
                (
                    g.index.to_string(),
                    g.file.as_str(),
                    g.placements.to_string(),
                )
            } else {
                (String::new(), "", String::new())
            };
            let _ = writeln!(
                s,
                "{index:>5}  {file:<28} {plies:>5}  {:>6}  {}/{}/{}/{}, {:.1}",
                t.player,
                t.inaccuracies,
                t.mistakes,
                t.blunders,
                t.missed_wins,
                100.0 * t.average_loss
            );
        }
    }
    let _ = writeln!(
        s,
        "{:<10} {:>6} {:>13} {:>9} {:>9} {:>12} {:>13}",
        "total", "moves", "inaccuracies", "mistakes", "blunders", "missed wins", "average loss"
    );
    for t in &totals {
        let _ = writeln!(
            s,
            "{:<10} {:>6} {:>13} {:>9} {:>9} {:>12} {:>13.1}",
            format!("player {}", t.player),
            t.moves,
            t.inaccuracies,
            t.mistakes,
            t.blunders,
            t.missed_wins,
            100.0 * t.average_loss
        );
    }
    if !notes.folders.is_empty() {
        s.push_str(&merge_line(notes));
    }
    Ok(s)
}

/// What a merge found, as a line.
pub fn merge_line(n: &Notes) -> String {
    let mut text = format!("merged {}", plural(n.folders.len() as u64, "folder"));
    if n.missing.is_empty() {
        text.push_str(", no game missing");
    } else {
        let _ = write!(
            text,
            "; {} missing: {}",
            plural(n.missing.len() as u64, "game"),
            n.missing.join(", ")
        );
    }
    if !n.duplicates.is_empty() {
        let _ = write!(
            text,
            "; {} recorded twice, identically (counted once): {}",
            plural(n.duplicates.len() as u64, "game"),
            ranges(&n.duplicates)
        );
    }
    text + "\n"
}
