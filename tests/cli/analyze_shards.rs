//! `cabra analyze PATH... --out DIR --shard` and `--merge`: the shards of
//! the analysis of a collection together give a single run's records; a
//! shard rerun after a kill finishes it; merges refuse other work and
//! report missing and duplicate games.

use std::path::{Path, PathBuf};

use crate::common::*;

/// Four short games, copied into a folder of their own.
fn collection(root: &Path) -> PathBuf {
    let dir = root.join("games");
    std::fs::create_dir(&dir).unwrap();
    for name in [
        "hand_straight_bridge.caminos",
        "hand_climb_z1_we.caminos",
        "hand_climb_z1_ns.caminos",
        "hand_broken_bridge_detour.caminos",
    ] {
        std::fs::copy(data(&format!("games/{name}")), dir.join(name)).unwrap();
    }
    dir
}

/// `cabra analyze GAMES --out OUT` at 300 iterations on one thread, then `extra`.
fn run(games: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "analyze",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--iterations",
        "300",
        "--threads",
        "1",
    ];
    args.extend(extra);
    cabra(&args)
}

fn success(o: std::process::Output) -> String {
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// The records of `dirs` as (index, file, analysis), sorted by index.
fn records(dirs: &[PathBuf]) -> Vec<(u64, String, serde_json::Value)> {
    let mut all: Vec<_> = dirs
        .iter()
        .flat_map(|d| {
            std::fs::read_to_string(d.join("results.jsonl"))
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .map(|r| {
            (
                r["index"].as_u64().unwrap(),
                r["file"].as_str().unwrap().to_string(),
                r["analysis"].clone(),
            )
        })
        .collect();
    all.sort_by_key(|r| r.0);
    all
}

fn merge(dirs: &[PathBuf], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["analyze", "--merge"];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args.extend(extra);
    cabra(&args)
}

#[test]
fn three_shards_merged_are_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let games = collection(tmp.path());
    let whole = tmp.path().join("whole");
    let single = success(run(&games, &whole, &[]));
    let shards: Vec<PathBuf> = (0..3).map(|k| tmp.path().join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let out = success(run(&games, dir, &["--shard", &format!("{k}/3")]));
        assert!(out.contains(&format!("shard {k}/3")), "{out}");
    }
    // Game i falls to shard i mod 3.
    assert_eq!(
        records(&shards[..1])
            .iter()
            .map(|r| r.0)
            .collect::<Vec<_>>(),
        [0, 3]
    );
    let union = records(&shards);
    let one = records(std::slice::from_ref(&whole));
    assert_eq!(union.len(), 4);
    assert_eq!(
        union, one,
        "the shards' analyses differ from the single run's"
    );
    assert_eq!(one[0].1, "hand_broken_bridge_detour.caminos");
    assert!(one[0].2["moves"].as_array().unwrap().len() > 3);
    // The merge prints the single run's summary, and says what it merged.
    let merged = success(merge(&shards, &[]));
    assert_eq!(
        merged,
        format!("{single}merged 3 folders, no game missing\n")
    );
    assert!(single.starts_with("4 of 4 games analyzed"), "{single}");
    assert!(single.contains("player 2"), "{single}");
    let j: serde_json::Value = serde_json::from_str(&success(merge(&shards, &["--json"]))).unwrap();
    assert_eq!(j["games"].as_array().unwrap().len(), 4);
    assert_eq!(j["work"]["kind"], "analyze");
    assert_eq!(j["totals"][0]["player"], 1);
}

#[test]
fn a_rerun_finishes_a_shard_cut_mid_line() {
    let tmp = tempfile::tempdir().unwrap();
    let games = collection(tmp.path());
    let out = tmp.path().join("out");
    success(run(&games, &out, &[]));
    let full = records(std::slice::from_ref(&out));
    let path = out.join("results.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    // Killed in the middle of the third record.
    let cut = text.match_indices('\n').nth(1).unwrap().0 + 40;
    std::fs::write(&path, &text[..cut]).unwrap();
    let o = run(&games, &out, &["--shard", "0/1"]);
    assert!(
        stderr(&o).contains("2 games already recorded, 2 to analyze"),
        "{}",
        stderr(&o)
    );
    success(o);
    assert_eq!(records(std::slice::from_ref(&out)), full);
    // Nothing left to do: nothing is appended.
    success(run(&games, &out, &[]));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn other_work_is_refused_naming_the_field() {
    let tmp = tempfile::tempdir().unwrap();
    let games = collection(tmp.path());
    let a = tmp.path().join("a");
    success(run(&games, &a, &["--shard", "0/2"]));
    let o = cabra(&[
        "analyze",
        games.to_str().unwrap(),
        "--out",
        a.to_str().unwrap(),
        "--shard",
        "0/2",
        "--iterations",
        "301",
        "--threads",
        "1",
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("limits is '300 iterations' there and '301 iterations' here"),
        "{e}"
    );
    let b = tmp.path().join("b");
    success(run(&games, &b, &["--shard", "1/2", "--engine", "baseline"]));
    let e = stderr(&merge(&[a.clone(), b], &[]));
    assert!(e.contains("another analysis: engine is '"), "{e}");
    // Another collection: one game fewer.
    std::fs::remove_file(games.join("hand_climb_z1_ns.caminos")).unwrap();
    let c = tmp.path().join("c");
    success(run(&games, &c, &["--shard", "1/2"]));
    let e = stderr(&merge(&[a, c], &[]));
    assert!(e.contains("games is '3' there and '4'"), "{e}");
}

#[test]
fn merges_report_missing_and_duplicate_games() {
    let tmp = tempfile::tempdir().unwrap();
    let games = collection(tmp.path());
    let s0 = tmp.path().join("s0");
    success(run(&games, &s0, &["--shard", "0/2"]));
    let o = merge(std::slice::from_ref(&s0), &[]);
    let out = success(o);
    assert!(
        out.contains(
            "2 games missing: 1 (hand_climb_z1_ns.caminos), 3 (hand_straight_bridge.caminos)"
        ),
        "{out}"
    );
    assert!(out.starts_with("2 of 4 games analyzed"), "{out}");
    let out = success(merge(&[s0.clone(), s0.clone()], &[]));
    assert!(
        out.contains("2 games recorded twice, identically (counted once): 0, 2"),
        "{out}"
    );
    // The same game analyzed differently conflicts.
    let copy = tmp.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    let text = std::fs::read_to_string(s0.join("results.jsonl")).unwrap();
    let first = text.lines().next().unwrap();
    let changed = first.replacen("\"ply\":1,", "\"ply\":1,\"x\":0,", 1);
    assert_ne!(changed, first);
    std::fs::write(copy.join("results.jsonl"), changed + "\n").unwrap();
    let e = stderr(&merge(&[s0, copy], &[]));
    assert!(
        e.contains(
            "game 0 (hand_broken_bridge_detour.caminos) is recorded twice with different analyses"
        ),
        "{e}"
    );
}

#[test]
fn bad_shards_and_empty_merges_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let games = collection(tmp.path());
    let out = tmp.path().join("out");
    for bad in ["3/3", "0/0", "a/b", "1"] {
        let o = run(&games, &out, &["--shard", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--shard"), "{}", stderr(&o));
    }
    // --shard without --out.
    let o = cabra(&["analyze", games.to_str().unwrap(), "--shard", "0/2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A folder is a collection: it needs --out.
    let o = cabra(&["analyze", games.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--out DIR"), "{}", stderr(&o));
    let o = merge(&[tmp.path().to_path_buf()], &[]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no results.jsonl: not the --out folder of a cabra analyze run"),
        "{}",
        stderr(&o)
    );
    // A folder that is not there (a typo, a glob that matched nothing)
    // is named as such.
    let o = merge(&[tmp.path().join("shard-*")], &[]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("shard-*: there is no such folder"),
        "{}",
        stderr(&o)
    );
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("results.jsonl"), "").unwrap();
    let o = merge(std::slice::from_ref(&empty), &[]);
    assert!(
        stderr(&o).contains("no game recorded in the folders given"),
        "{}",
        stderr(&o)
    );
    std::fs::write(empty.join("results.jsonl"), "{\"kind\":1}\n").unwrap();
    let o = merge(&[empty], &[]);
    assert!(
        stderr(&o).contains("line 1: not a game record of cabra analyze"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}
