//! What the shards of a piece of work share, whatever the work (`match`,
//! `selfplay`, `analyze` of a collection of games):
//!
//! - `shard.rs`: `--shard INDEX/COUNT` and which items fall to a shard;
//! - `lock.rs`: one run at a time in an `--out` folder;
//! - `jsonl.rs`: a records file of one JSON object a line, appended a
//!   whole line at a time and read back without a half-written last line;
//! - here: the hash that names contents in an identity, the first field
//!   in which two identities differ, and numbers written as ranges.

pub mod jsonl;
pub mod lock;
pub mod shard;

pub use shard::Shard;

/// The name of the records file in an `--out` directory.
pub const RECORDS: &str = "results.jsonl";

/// The records file of `dir`.
pub fn records_file(dir: &std::path::Path) -> std::path::PathBuf {
    dir.join(RECORDS)
}

/// The records file of `dir`, a merge's input, or why there is none:
/// no such folder (a typo, a glob that matched nothing), not a folder, or
/// a folder without records (not the `--out` folder of a `kind` run).
pub fn merge_input(dir: &std::path::Path, kind: &str) -> anyhow::Result<std::path::PathBuf> {
    let path = records_file(dir);
    if path.is_file() {
        return Ok(path);
    }
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Err(_) => anyhow::bail!("{shown}: there is no such folder"),
        Ok(m) if !m.is_dir() => anyhow::bail!("{shown}: not a folder"),
        Ok(_) => anyhow::bail!("{shown}: no {RECORDS}: not the --out folder of a cabra {kind} run"),
    }
}

/// Fails when a folder's records were played by another shard than
/// `part`: a folder holds one shard, so a rerun with the wrong index or
/// count (a typo, a script's arithmetic) is caught.
pub fn check_shard<'a>(
    recorded: impl IntoIterator<Item = &'a str>,
    part: Shard,
    dir: &std::path::Path,
) -> anyhow::Result<()> {
    let ours = part.to_string();
    if let Some(theirs) = recorded.into_iter().find(|s| *s != ours) {
        anyhow::bail!(
            "{} holds the records of shard {theirs}, not {ours}: rerun shard {theirs} there, \
             or give shard {ours} a folder of its own",
            dir.display()
        );
    }
    Ok(())
}

/// An engine configuration as an identity of recorded work: every key,
/// and for a weights file its checksum too (the same path may hold other
/// weights on another machine, or after another training).
pub fn engine_identity(config: &cabra::engine::EngineConfig) -> String {
    match config.playout.weights {
        w @ cabra::engine::value::Weights::File(_) => {
            format!(
                "{},weights-{}",
                config.describe(),
                w.identity().replace(' ', "=")
            )
        }
        cabra::engine::value::Weights::Builtin => config.describe(),
    }
}

/// 64-bit FNV-1a of `bytes` (the weights file's checksum): names a
/// file's contents in an identity.
pub use cabra::engine::value::format::fnv64;

/// The first field, as (name, value), that differs between `ours` and
/// `theirs`: its name, our value and theirs.
pub fn first_difference<const N: usize>(
    ours: [(&'static str, String); N],
    theirs: [(&'static str, String); N],
) -> Option<(&'static str, String, String)> {
    ours.into_iter()
        .zip(theirs)
        .find(|((_, a), (_, b))| a != b)
        .map(|((name, a), (_, b))| {
            let (a, b) = narrowed(&a, &b);
            (name, a, b)
        })
}

/// Two comma-separated lists of as many items (an engine's whole
/// configuration) shown by the first item in which they differ, so that a
/// message names `iterations=301` against `iterations=300`, not two lines
/// of 400 characters; other values as they are.
fn narrowed(a: &str, b: &str) -> (String, String) {
    let (xs, ys): (Vec<&str>, Vec<&str>) = (a.split(',').collect(), b.split(',').collect());
    if xs.len() < 3 || xs.len() != ys.len() {
        return (a.to_string(), b.to_string());
    }
    let Some(i) = (0..xs.len()).find(|&i| xs[i] != ys[i]) else {
        return (a.to_string(), b.to_string());
    };
    let show = |v: &[&str]| {
        let before = if i > 0 { "…," } else { "" };
        let after = if i + 1 < v.len() { ",…" } else { "" };
        format!("{before}{}{after}", v[i])
    };
    (show(&xs), show(&ys))
}

/// Sorted numbers as `1-4, 7, 9-10`.
pub fn ranges(numbers: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            numbers[i].to_string()
        } else {
            format!("{}-{}", numbers[i], numbers[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranges_join_runs() {
        assert_eq!(super::ranges(&[1, 2, 3, 4, 7, 9, 10]), "1-4, 7, 9-10");
        assert_eq!(super::ranges(&[]), "");
    }

    #[test]
    fn a_configuration_differs_by_its_first_item_that_differs() {
        let a = [(
            "a_config",
            "c=0.2,value=50,iterations=301,nodes=-".to_string(),
        )];
        let b = [(
            "a_config",
            "c=0.2,value=50,iterations=300,nodes=-".to_string(),
        )];
        assert_eq!(
            super::first_difference(a, b),
            Some((
                "a_config",
                "…,iterations=301,…".into(),
                "…,iterations=300,…".into()
            ))
        );
    }

    #[test]
    fn the_first_difference_is_named() {
        let a = [("x", "1".to_string()), ("y", "2".to_string())];
        let b = [("x", "1".to_string()), ("y", "3".to_string())];
        assert_eq!(super::first_difference(a.clone(), a.clone()), None);
        assert_eq!(
            super::first_difference(a, b),
            Some(("y", "2".into(), "3".into()))
        );
    }
}
