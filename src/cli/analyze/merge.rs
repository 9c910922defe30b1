//! `cabra analyze --merge DIR...`: the records of a collection's shards
//! read back as one analysis. Records of another analysis are refused
//! (naming the field that differs and both values), a game recorded twice
//! identically counts once, twice differently is an error, and the games
//! with no record are listed by index and file name.

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::collection::read_names;
use super::records::{GameRecord, WorkHeader, check_same, read_records};
use super::summary::{Notes, merge_line, summary};
use crate::cli::shards::{merge_input, records_file};

/// Merges the records of `dirs` and prints the collection's summary.
pub fn run(dirs: &[PathBuf], json: bool) -> anyhow::Result<()> {
    let mut first: Option<(WorkHeader, PathBuf)> = None;
    let mut all: Vec<(GameRecord, usize)> = Vec::new();
    for (d, dir) in dirs.iter().enumerate() {
        let path = merge_input(dir, "analyze")?;
        let (lines, _) = read_records(&path)?;
        if let Some((header, from)) = &first {
            check_same(header, &lines, &path, &format!("in {}", from.display()))?;
        } else if let Some(l) = lines.first() {
            check_same(&l.work, &lines, &path, "in its first record")?;
            first = Some((l.work.clone(), path.clone()));
        }
        all.extend(lines.into_iter().map(|l| (l, d)));
    }
    let Some((header, _)) = first else {
        bail!("no game recorded in the folders given");
    };
    let total = usize::try_from(header.games)?;
    let mut games: Vec<Option<(GameRecord, usize)>> = (0..total).map(|_| None).collect();
    let mut duplicates = Vec::new();
    for (line, d) in all {
        let i = line.index;
        match &games[i] {
            None => games[i] = Some((line, d)),
            Some((old, _)) if old.same(&line) => duplicates.push(i),
            Some((_, od)) => bail!(
                "game {i} ({}) is recorded twice with different analyses: in {} and in {}; \
                 keep one of them",
                line.file,
                records_file(&dirs[*od]).display(),
                records_file(&dirs[d]).display()
            ),
        }
    }
    duplicates.sort_unstable();
    duplicates.dedup();
    let names = names(dirs, &header.collection);
    let missing = (0..total)
        .filter(|&i| games[i].is_none())
        .map(|i| match names.as_ref().and_then(|n| n.get(i)) {
            Some(name) => format!("{i} ({name})"),
            None => i.to_string(),
        })
        .collect();
    let notes = Notes {
        folders: dirs.iter().map(|d| d.display().to_string()).collect(),
        missing,
        duplicates,
        ..Notes::default()
    };
    if !notes.missing.is_empty() && !json {
        eprintln!("{}", merge_line(&notes).trim_end());
    }
    let games: Vec<Option<GameRecord>> = games.into_iter().map(|g| g.map(|(l, _)| l)).collect();
    crate::cli::style::print(&summary(&header, &games, &notes, json)?)
}

/// The names of the collection's games, from the first folder holding
/// its list.
fn names(dirs: &[PathBuf], hash: &str) -> Option<Vec<String>> {
    dirs.iter()
        .map(PathBuf::as_path)
        .find_map(|d: &Path| read_names(d, hash))
}
