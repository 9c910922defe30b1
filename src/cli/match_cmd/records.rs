//! The per-game result records of a match or of selfplay: one JSON object
//! a line in `DIR/results.jsonl`, each carrying the match's identity
//! ([`MatchHeader`]), so that the records of shards played apart can be
//! merged ([`super::merge`]) and a shard rerun after a kill knows which
//! of its games are done.
//!
//! A line is appended in one write once its game file is saved, so a
//! record means a finished game with its file. A kill in the middle of a
//! write leaves a last line without its line break: reading ignores it,
//! and [`Recorder::open`] (in [`crate::cli::shards::jsonl`]) cuts it off before appending.

use std::path::Path;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::cli::shards::first_difference;
use crate::cli::shards::jsonl::read_lines;

pub use crate::cli::shards::jsonl::Appender as Recorder;
pub use crate::cli::shards::records_file;

/// What makes a match the same match: the records of two runs can be
/// merged only when all of this agrees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchHeader {
    /// `match` or `selfplay`.
    pub kind: String,
    /// The version of this records format ([`FORMAT`]); records without
    /// one are version 1.
    #[serde(default = "first_format")]
    pub format: u32,
    /// The version of cabra that played.
    pub version: String,
    /// Player A as given (`--a`; selfplay: `--engine`).
    pub a: String,
    /// Player B as given (`--b`; selfplay: the same engine).
    pub b: String,
    /// A's whole configuration (every key), or the program's command.
    pub a_config: String,
    /// B's whole configuration, or the program's command.
    pub b_config: String,
    /// The limits of the moves: time, iterations, nodes, clock, threads.
    pub limits: String,
    /// `--seed`: the openings and the engines' seeds.
    pub seed: u64,
    /// The rules (`caminos`, `bridget swap`, ...).
    pub rules: String,
    /// `random 2-4` or `file NAME (fnv64 HASH)`.
    pub openings: String,
    /// The game clock (`--clock`), or `none`.
    pub clock: String,
    /// The number of games of the whole match.
    pub games: u64,
}

/// The version of the records format: 2 adds `format` and self-play's
/// `search` (docs/TRAINING.md).
pub const FORMAT: u32 = 2;

fn first_format() -> u32 {
    1
}

impl MatchHeader {
    /// Each field as (name, value), in order.
    fn fields(&self) -> [(&'static str, String); 13] {
        [
            ("kind", self.kind.clone()),
            ("format", self.format.to_string()),
            ("version", self.version.clone()),
            ("a", self.a.clone()),
            ("b", self.b.clone()),
            ("a_config", self.a_config.clone()),
            ("b_config", self.b_config.clone()),
            ("limits", self.limits.clone()),
            ("seed", self.seed.to_string()),
            ("rules", self.rules.clone()),
            ("openings", self.openings.clone()),
            ("clock", self.clock.clone()),
            ("games", self.games.to_string()),
        ]
    }

    /// The first field that differs from `other`: its name, this value
    /// and the other's.
    pub fn differs(&self, other: &MatchHeader) -> Option<(&'static str, String, String)> {
        first_difference(self.fields(), other.fields())
    }
}

/// A game lost off the board, in a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForfeitLine {
    /// `A` or `B`.
    pub loser: String,
    /// `illegal`, `garbage`, `error`, `crash`, `timeout` or `resign`.
    pub kind: String,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// The match it belongs to.
    #[serde(rename = "match")]
    pub header: MatchHeader,
    /// The game's number in the whole match, from 1 (its file is
    /// `game-NNNN.caminos`).
    pub game: usize,
    /// The shard that played it, `INDEX/COUNT` (`0/1`: a whole match).
    pub shard: String,
    /// The placements of the opening.
    pub opening: Vec<String>,
    /// Who played player 1: `A` or `B`.
    pub player_one: String,
    /// A's score: 1, 0.5 or 0.
    pub score: f64,
    /// `p1`, `p2` or `draw`.
    pub result: String,
    /// How it ended: `bridge`, `perimeter`, `edge` or `adjudication`.
    pub ended: String,
    /// The result line, as in the game file.
    pub reason: String,
    /// Set when a player lost off the board.
    pub forfeit: Option<ForfeitLine>,
    /// Every move of the game, opening included.
    pub placements: Vec<String>,
    /// Each player's thinking time in seconds (A, B).
    pub thought: [f64; 2],
    /// Each player's placements (A, B).
    pub moves: [u32; 2],
    /// The game's wall time in seconds.
    pub seconds: f64,
    /// Self-play only: what the search saw before each placement after
    /// the opening, in order (docs/TRAINING.md); `null` for a placement no
    /// engine search made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search: Vec<Option<SearchLine>>,
}

/// What the search saw before one placement of a self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchLine {
    /// The search's estimate that the side to move wins (draws half).
    pub winrate: f64,
    /// Iterations of the search.
    pub iterations: u64,
    /// The root moves with at least 1% as many visits as the search had
    /// iterations (at most 25), the one chosen first: the move in piece
    /// notation and its visits (those of the kept tree included).
    pub visits: Vec<(String, u64)>,
}

impl ResultRecord {
    /// Whether `other` is the same game played the same way (the times
    /// aside).
    pub fn same_game(&self, other: &ResultRecord) -> bool {
        self.header == other.header
            && self.game == other.game
            && self.placements == other.placements
            && self.score == other.score
            && self.result == other.result
            && self.forfeit == other.forfeit
    }
}

/// The complete records of a file, in file order, and the length in bytes
/// of its complete lines (a partial last line is left out). No file: none.
pub fn read_records(path: &Path) -> anyhow::Result<(Vec<ResultRecord>, u64)> {
    read_lines(path, "a game record of cabra match or selfplay")
}

/// Checks that the records of `path` are of the match `header`: an error
/// names the first field that differs.
pub fn check_same(
    header: &MatchHeader,
    lines: &[ResultRecord],
    path: &Path,
    here: &str,
) -> anyhow::Result<()> {
    for l in lines {
        if let Some((field, theirs, ours)) = l.header.differs(header) {
            bail!(
                "{} holds the records of another match: {field} is '{theirs}' there and '{ours}' {here}",
                path.display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn header() -> MatchHeader {
        MatchHeader {
            format: FORMAT,
            kind: "match".into(),
            version: "0.2.0".into(),
            a: "default".into(),
            b: "baseline".into(),
            a_config: "c=1".into(),
            b_config: "c=2".into(),
            limits: "200 iterations a placement".into(),
            seed: 1,
            rules: "caminos".into(),
            openings: "random 2-4".into(),
            clock: "none".into(),
            games: 8,
        }
    }

    fn line(game: usize) -> ResultRecord {
        ResultRecord {
            header: header(),
            game,
            shard: "0/1".into(),
            opening: vec!["L E180 600".into()],
            player_one: "A".into(),
            score: 1.0,
            result: "p1".into(),
            ended: "bridge".into(),
            reason: "player 1 wins by a bridge".into(),
            forfeit: None,
            placements: vec!["L E180 600".into()],
            thought: [0.5, 0.25],
            moves: [3, 2],
            seconds: 1.0,
            search: Vec::new(),
        }
    }

    #[test]
    fn headers_name_the_field_that_differs() {
        let a = header();
        assert_eq!(a.differs(&a), None);
        let b = MatchHeader {
            seed: 2,
            ..a.clone()
        };
        assert_eq!(a.differs(&b), Some(("seed", "1".into(), "2".into())));
    }

    #[test]
    fn records_without_a_format_are_format_one_and_another_match() {
        let mut json = serde_json::to_value(line(1)).unwrap();
        assert_eq!(json["match"]["format"], FORMAT);
        assert!(json.get("search").is_none(), "no search field when empty");
        json["match"].as_object_mut().unwrap().remove("format");
        let old: ResultRecord = serde_json::from_value(json).unwrap();
        assert_eq!(old.header.format, 1);
        assert_eq!(
            old.header.differs(&header()),
            Some(("format", "1".into(), FORMAT.to_string()))
        );
    }

    #[test]
    fn a_partial_last_line_is_ignored_and_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let r = Recorder::open(&records_file(dir.path()), 0).unwrap();
        r.append(&line(1)).unwrap();
        r.append(&line(2)).unwrap();
        drop(r);
        let path = records_file(dir.path());
        let full = std::fs::read(&path).unwrap();
        // Killed in the middle of the third line.
        let mut cut = full.clone();
        cut.extend_from_slice(b"{\"match\":{\"kind\":\"ma");
        std::fs::write(&path, &cut).unwrap();
        let (lines, keep) = read_records(&path).unwrap();
        assert_eq!(lines, vec![line(1), line(2)]);
        assert_eq!(keep, full.len() as u64);
        let r = Recorder::open(&records_file(dir.path()), keep).unwrap();
        r.append(&line(3)).unwrap();
        let (lines, _) = read_records(&path).unwrap();
        assert_eq!(lines.iter().map(|l| l.game).collect::<Vec<_>>(), [1, 2, 3]);
        // A complete line that is not a record is an error naming it.
        std::fs::write(&path, b"{}\n").unwrap();
        let e = format!("{:#}", read_records(&path).unwrap_err());
        assert!(e.contains("line 1"), "{e}");
    }
}
