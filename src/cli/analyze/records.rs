//! The per-game records of the analysis of a collection: one JSON object
//! a line in `DIR/results.jsonl`, each carrying the identity of the
//! analysis ([`WorkHeader`]), so that the records of shards run apart can
//! be merged and a shard rerun knows which of its games are done.

use std::path::Path;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::cli::shards::first_difference;
use crate::cli::shards::jsonl::read_lines;

/// What makes an analysis the same analysis: records merge only when all
/// of this agrees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkHeader {
    /// Always `analyze`.
    pub kind: String,
    /// The version of cabra that analyzed.
    pub version: String,
    /// The engine's whole configuration (every key).
    pub engine: String,
    /// The limits of each search.
    pub limits: String,
    /// Search threads.
    pub threads: u64,
    /// The engine's seed.
    pub seed: u64,
    /// The rules the options ask for (`caminos`, `bridget swap`, ...).
    pub rules: String,
    /// The number of games in the collection.
    pub games: u64,
    /// The hash of the collection's list (names and contents' hashes).
    pub collection: String,
}

impl WorkHeader {
    /// Each field as (name, value), in order.
    fn fields(&self) -> [(&'static str, String); 9] {
        [
            ("kind", self.kind.clone()),
            ("version", self.version.clone()),
            ("limits", self.limits.clone()),
            ("threads", self.threads.to_string()),
            ("seed", self.seed.to_string()),
            ("engine", self.engine.clone()),
            ("rules", self.rules.clone()),
            ("games", self.games.to_string()),
            ("collection", self.collection.clone()),
        ]
    }

    /// The first field that differs from `other`: its name, this value
    /// and the other's.
    pub fn differs(&self, other: &WorkHeader) -> Option<(&'static str, String, String)> {
        first_difference(self.fields(), other.fields())
    }
}

/// The analysis of one game of the collection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The analysis it belongs to.
    pub work: WorkHeader,
    /// The game's place in the sorted collection, from 0.
    pub index: usize,
    /// The game's file name.
    pub file: String,
    /// The hash of the file's contents.
    pub file_hash: String,
    /// The shard that analyzed it, `INDEX/COUNT`.
    pub shard: String,
    /// The analysis: the document of `cabra analyze FILE --json`.
    pub analysis: serde_json::Value,
}

impl GameRecord {
    /// Whether `other` is the same game analyzed the same way (the shard
    /// aside).
    pub fn same(&self, other: &GameRecord) -> bool {
        self.work == other.work
            && self.index == other.index
            && self.file == other.file
            && self.file_hash == other.file_hash
            && self.analysis == other.analysis
    }
}

/// The complete records of a file and the length of its complete lines
/// (a half-written last line is left out).
pub fn read_records(path: &Path) -> anyhow::Result<(Vec<GameRecord>, u64)> {
    read_lines(path, "a game record of cabra analyze")
}

/// Checks that the records of `path` are of the analysis `header`: an
/// error names the first field that differs and both values.
pub fn check_same(
    header: &WorkHeader,
    lines: &[GameRecord],
    path: &Path,
    here: &str,
) -> anyhow::Result<()> {
    for l in lines {
        if let Some((field, theirs, ours)) = l.work.differs(header) {
            bail!(
                "{} holds the records of another analysis: {field} is '{theirs}' there and '{ours}' {here}",
                path.display()
            );
        }
        if l.index as u64 >= header.games {
            bail!(
                "{}: game {} is outside the collection's {} games",
                path.display(),
                l.index,
                header.games
            );
        }
    }
    Ok(())
}
