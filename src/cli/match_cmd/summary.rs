//! The summaries of a match and of selfplay, computed from the games'
//! records ([`ResultRecord`]): the same for a run in one process, for a
//! shard (its own games) and for a merge of shards.

use std::time::Duration;

use super::elo::{EloSummary, pentanomial};
use super::sprt::{Sprt, SprtState};
use cabra::engine::format_duration;
use serde::Serialize;

use super::records::ResultRecord;
use crate::cli::shards::ranges;

/// A game lost by adjudication, in the JSON summary.
#[derive(Serialize)]
struct ForfeitJson {
    /// The game's number (its file is game-NNNN.caminos).
    game: usize,
    /// "A" or "B".
    loser: String,
    /// `illegal`, `garbage`, `error`, `crash`, `timeout` or `resign`.
    kind: String,
    /// The whole reason, as in the game file.
    reason: String,
}

/// What a merge found besides the games.
#[derive(Serialize, Clone, Debug, Default)]
pub struct MergeNotes {
    /// The folders merged.
    pub folders: Vec<String>,
    /// Games of the match with no record (numbers from 1).
    pub missing: Vec<usize>,
    /// Games recorded more than once, identically (counted once).
    pub duplicates: Vec<usize>,
}

/// The JSON summary of a match.
#[derive(Serialize)]
struct MatchJson<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    summary: EloSummary,
    /// Whether a signal ended the match early (the summary counts the
    /// games finished).
    interrupted: bool,
    /// The run's wall time; for a shard or a merge, the games' wall times
    /// added up.
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
    /// The shard played (`INDEX/COUNT`), absent for a whole match.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    /// What the merge found, absent unless merged.
    #[serde(skip_serializing_if = "Option::is_none")]
    merged: Option<MergeNotes>,
    /// Complete pairs of games by A's points in them, 0 to 2 in half
    /// points (fishtest's "pentanomial" counts).
    pentanomial: [u32; 5],
    /// Games played whose pair was not (the last of an odd count, or a
    /// game whose partner is missing); with any, the interval is by games.
    unpaired: u32,
    /// The sequential test (`--sprt`), absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtJson>,
}

/// The sequential test in the JSON summary: its hypotheses and where it
/// stands.
#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    /// Always `pentanomial`: the test counts complete pairs of games.
    model: &'static str,
    #[serde(flatten)]
    state: SprtState,
}

/// How the summary of a match is to be printed.
pub struct Report<'a> {
    /// Players A and B as given.
    pub names: [&'a str; 2],
    /// The limits programs played under (none without a program).
    pub program_limits: Option<String>,
    /// The game clock, if any.
    pub clock: Option<String>,
    /// Whether a signal stopped the run.
    pub interrupted: bool,
    /// Seconds to report.
    pub seconds: f64,
    /// The shard played, if not the whole match.
    pub shard: Option<String>,
    /// What a merge found.
    pub merged: Option<MergeNotes>,
    /// The sequential test to report.
    pub sprt: Option<Sprt>,
    /// One JSON object instead of text.
    pub json: bool,
}

/// The summary of the match whose games are `games` (indexed by game
/// number from 0; `None`: not played here), as text or JSON.
pub fn match_summary(games: &[Option<ResultRecord>], report: Report) -> anyhow::Result<String> {
    let scores: Vec<Option<f64>> = games.iter().map(|r| r.as_ref().map(|r| r.score)).collect();
    let summary = EloSummary::from_scores(&scores, true);
    let (pairs, unpaired) = pentanomial(&scores);
    let played: Vec<&ResultRecord> = games.iter().flatten().collect();
    let forfeits: Vec<ForfeitJson> = played
        .iter()
        .filter_map(|r| {
            let f = r.forfeit.as_ref()?;
            Some(ForfeitJson {
                game: r.game,
                loser: f.loser.clone(),
                kind: f.kind.clone(),
                reason: r.reason.clone(),
            })
        })
        .collect();
    let average_length = played
        .iter()
        .map(|r| r.placements.len() as f64)
        .sum::<f64>()
        / played.len().max(1) as f64
        + 0.0; // an empty sum is -0.0
    let per_placement = [0, 1].map(|i| {
        let (t, n) = played
            .iter()
            .fold((0.0, 0u32), |(t, n), r| (t + r.thought[i], n + r.moves[i]));
        t / f64::from(n.max(1))
    });
    // As fishtest, the test counts complete pairs only: a game whose pair
    // is still to come is left for later.
    let sprt = report.sprt.map(|t| (t, t.state_pairs(pairs)));
    if report.json {
        let games = summary.games;
        let j = MatchJson {
            a: report.names[0],
            b: report.names[1],
            summary,
            interrupted: report.interrupted,
            seconds: report.seconds,
            average_length,
            program_limits: report.program_limits,
            clock: report.clock,
            seconds_per_placement: per_placement,
            forfeits,
            shard: report.shard,
            merged: report.merged,
            pentanomial: pairs,
            unpaired,
            sprt: sprt.map(|(t, state)| SprtJson {
                elo0: t.elo0,
                elo1: t.elo1,
                alpha: t.alpha,
                beta: t.beta,
                model: "pentanomial",
                state,
            }),
        };
        if games > 0 {
            return Ok(serde_json::to_string(&j)? + "\n");
        }
        // No games, no score: null rather than a score of 50%.
        let mut j = serde_json::to_value(&j)?;
        for k in ["score", "elo", "elo_ci95", "elo_low", "elo_high"] {
            j[k] = serde_json::Value::Null;
        }
        return Ok(serde_json::to_string(&j)? + "\n");
    }
    let [a, b] = report.names;
    let mut text = format!("A = {a}\nB = {b}\n");
    if let Some(s) = &report.shard {
        text.push_str(&format!(
            "shard {s}: the summary counts this shard's games\n"
        ));
    }
    if let Some(l) = &report.program_limits {
        text.push_str(&format!("programs: {l}\n"));
    }
    if let Some(c) = &report.clock {
        text.push_str(&format!("clock: {c} a game\n"));
    }
    if report.interrupted {
        text.push_str("interrupted: the summary counts the games finished\n");
    }
    if summary.games == 0 {
        text.push_str("games 0: no score\n");
    } else {
        text.push_str(&format!(
            "games {}  A wins {}  draws {}  losses {}  score {:.1}%\n{}\n",
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            100.0 * summary.score,
            summary.elo_text(),
        ));
        text.push_str(&pairs_line(pairs, unpaired));
        text.push_str(&format!(
            "{:.1} placements a game, {} in all\nthinking per placement: A {}, B {}\n",
            average_length,
            format_duration(Duration::from_secs_f64(report.seconds)),
            format_duration(Duration::from_secs_f64(per_placement[0])),
            format_duration(Duration::from_secs_f64(per_placement[1]))
        ));
    }
    if let Some((t, s)) = &sprt {
        text.push_str(&t.describe(s));
        text.push('\n');
    }
    for f in &forfeits {
        text.push_str(&format!("game {}: {}\n", f.game, f.reason));
    }
    if let Some(m) = &report.merged {
        text.push_str(&merge_lines(m));
    }
    Ok(text)
}

/// The pairs line of a summary: `Ptnml(0-2): 2, 0, 9, 1, 0` (fishtest's
/// name and order), and the games without their pair.
fn pairs_line(pairs: [u32; 5], unpaired: u32) -> String {
    let counts = pairs.map(|c| c.to_string()).join(", ");
    let mut line = format!("Ptnml(0-2): {counts} (pairs by A's points)");
    if unpaired > 0 {
        line.push_str(&format!(
            "; {} without {} pair, so the interval counts games",
            crate::cli::plural(u64::from(unpaired), "game"),
            if unpaired == 1 { "its" } else { "their" }
        ));
    }
    line + "\n"
}

/// What a merge found, as lines of text.
pub fn merge_lines(m: &MergeNotes) -> String {
    let mut text = format!(
        "merged {}",
        crate::cli::plural(m.folders.len() as u64, "folder")
    );
    if m.missing.is_empty() {
        text.push_str(", no game missing");
    } else {
        text.push_str(&format!(
            "; {} missing: {}",
            crate::cli::plural(m.missing.len() as u64, "game"),
            ranges(&m.missing)
        ));
    }
    if !m.duplicates.is_empty() {
        text.push_str(&format!(
            "; {} recorded twice, identically (counted once): {}",
            crate::cli::plural(m.duplicates.len() as u64, "game"),
            ranges(&m.duplicates)
        ));
    }
    text + "\n"
}

/// The summary line of selfplay games: `where` says where they are.
pub fn selfplay_summary(games: &[&ResultRecord], place: &str, interrupted: bool) -> String {
    let count = |code: &str| games.iter().filter(|r| r.result == code).count();
    let forfeits = games.iter().filter(|r| r.forfeit.is_some()).count();
    format!(
        "{} {} {place}{}: player 1 won {}, player 2 won {}, drawn {}{}\n",
        games.len(),
        if games.len() == 1 { "game" } else { "games" },
        if interrupted { " (interrupted)" } else { "" },
        count("p1"),
        count("p2"),
        count("draw"),
        if forfeits > 0 {
            format!(" ({forfeits} lost by adjudication)")
        } else {
            String::new()
        }
    )
}
