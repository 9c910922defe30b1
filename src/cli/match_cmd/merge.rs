//! `--merge DIR...`: the records of a match's shards read back as one
//! match. Records of another match are refused (naming the field that
//! differs), a game recorded twice identically counts once, twice
//! differently is an error, and the games with no record are listed.

use std::path::PathBuf;

use anyhow::bail;

use super::records::{MatchHeader, ResultRecord, check_same, read_records, records_file};
use super::summary::MergeNotes;

/// The records of several shards as one match.
pub struct Merged {
    /// The match they all belong to.
    pub header: MatchHeader,
    /// Each game of the match by number from 0, `None` where missing.
    pub games: Vec<Option<ResultRecord>>,
    /// The folders, and the games missing or recorded twice.
    pub notes: MergeNotes,
}

/// Reads the records of `dirs` (the `--out` folders of the shards) as one
/// match of `kind` (`match` or `selfplay`).
pub fn merge(dirs: &[PathBuf], kind: &str) -> anyhow::Result<Merged> {
    let mut first: Option<(MatchHeader, PathBuf)> = None;
    let mut all: Vec<(ResultRecord, usize)> = Vec::new();
    for (d, dir) in dirs.iter().enumerate() {
        let path = crate::cli::shards::merge_input(dir, kind)?;
        let (lines, _) = read_records(&path)?;
        if let Some((header, from)) = &first {
            let here = format!("in {}", from.display());
            check_same(header, &lines, &path, &here)?;
        } else if let Some(l) = lines.first() {
            check_same(&l.header, &lines, &path, "in its first record")?;
            first = Some((l.header.clone(), records_file(dir)));
        }
        all.extend(lines.into_iter().map(|l| (l, d)));
    }
    let Some((header, _)) = first else {
        bail!("no game recorded in the folders given");
    };
    if header.kind != kind {
        bail!(
            "these are records of cabra {}: merge them with cabra {} --merge",
            header.kind,
            header.kind
        );
    }
    let total = usize::try_from(header.games)?;
    let mut games: Vec<Option<(ResultRecord, usize)>> = (0..total).map(|_| None).collect();
    let mut duplicates = Vec::new();
    for (line, d) in all {
        let n = line.game;
        if n == 0 || n > total {
            bail!(
                "{}: game {n} is outside the match's {total} games",
                records_file(&dirs[d]).display()
            );
        }
        match &games[n - 1] {
            None => games[n - 1] = Some((line, d)),
            Some((old, _)) if old.same_game(&line) => duplicates.push(n),
            Some((old, od)) => bail!(
                "game {n} is recorded twice with different games: in {} ({}) and in {} ({}); \
                 keep one of them",
                records_file(&dirs[*od]).display(),
                old.reason,
                records_file(&dirs[d]).display(),
                line.reason
            ),
        }
    }
    duplicates.sort_unstable();
    duplicates.dedup();
    let missing = (1..=total).filter(|&n| games[n - 1].is_none()).collect();
    Ok(Merged {
        header,
        games: games.into_iter().map(|g| g.map(|(l, _)| l)).collect(),
        notes: MergeNotes {
            folders: dirs.iter().map(|d| d.display().to_string()).collect(),
            missing,
            duplicates,
        },
    })
}
