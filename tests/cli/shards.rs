//! `cabra match --shard` and `--merge` (and the same for selfplay): the
//! shards of a match together are the match, game for game; a shard rerun
//! after a kill finishes it; merges refuse another match, note duplicates
//! and list missing games.

use std::path::{Path, PathBuf};

use crate::common::*;

/// A small deterministic match: 8 games at 200 iterations, one thread.
const SMALL: [&str; 7] = [
    "--games",
    "8",
    "--iterations",
    "200",
    "--threads",
    "1",
    "--quiet",
];

/// `cabra match` with the small match's options, then `extra`.
fn small_match(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["match"];
    args.extend(SMALL);
    args.extend(extra);
    cabra(&args)
}

/// The moves of each game file in `dirs`, by file name.
fn games_of(dirs: &[PathBuf]) -> Vec<(String, String)> {
    let mut games: Vec<(String, String)> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "caminos"))
        .map(|p| {
            let moves: String = std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect();
            (p.file_name().unwrap().to_string_lossy().into_owned(), moves)
        })
        .collect();
    games.sort();
    games
}

/// The results of a summary that must agree between a whole run and a merge.
fn results(j: &serde_json::Value) -> Vec<String> {
    [
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_low",
        "elo_high",
        "model",
        "average_length",
    ]
    .iter()
    .map(|k| format!("{k}={}", j[k]))
    .collect()
}

/// The GSPRT's log-likelihood ratio of pentanomial counts between
/// `elo0` and `elo1`, computed here apart from the program (as fishtest's
/// `stat_util.py` does): the distributions of the wanted mean nearest the
/// observed one, by a Lagrange multiplier found by bisection.
fn pentanomial_llr(counts: [u32; 5], elo0: f64, elo1: f64) -> f64 {
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    let c: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { f64::from(c) })
        .collect();
    let n: f64 = c.iter().sum();
    let p: Vec<f64> = c.iter().map(|c| c / n).collect();
    let nearest = |elo: f64| -> Vec<f64> {
        let s = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let q =
            |x: f64| -> Vec<f64> { (0..5).map(|i| p[i] / (1.0 + x * (scores[i] - s))).collect() };
        let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            let mean_offset: f64 = q(mid).iter().zip(scores).map(|(q, a)| q * (a - s)).sum();
            if mean_offset > 0.0 {
                lo = mid
            } else {
                hi = mid
            }
        }
        q(0.5 * (lo + hi))
    };
    let (p0, p1) = (nearest(elo0), nearest(elo1));
    n * (0..5).map(|i| p[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
}

fn shard_dirs(root: &Path, n: usize) -> Vec<PathBuf> {
    (0..n).map(|k| root.join(format!("shard-{k}"))).collect()
}

fn dir_args(dirs: &[PathBuf]) -> Vec<&str> {
    dirs.iter().map(|d| d.to_str().unwrap()).collect()
}

#[test]
fn the_shards_of_a_match_are_the_match_game_for_game() {
    let root = temp_dir();
    let whole = root.path().join("whole");
    let w = whole.to_str().unwrap();
    let one: serde_json::Value =
        serde_json::from_str(&success(small_match(&["--json", "--out", w]))).unwrap();
    // Three shards of four pairs: uneven shards.
    let dirs = shard_dirs(root.path(), 3);
    for (k, d) in dirs.iter().enumerate() {
        let shard = format!("{k}/3");
        let text = success(small_match(&[
            "--shard",
            &shard,
            "--out",
            d.to_str().unwrap(),
        ]));
        assert!(text.contains(&format!("shard {k}/3")), "{text}");
    }
    // Shard 0 plays pairs 0 and 3: games 1, 2, 7, 8.
    let names: Vec<String> = games_of(&dirs[..1]).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "game-0001.caminos",
            "game-0002.caminos",
            "game-0007.caminos",
            "game-0008.caminos"
        ]
    );
    assert_eq!(games_of(&dirs), games_of(std::slice::from_ref(&whole)));
    let mut args = vec!["match", "--json", "--merge"];
    args.extend(dir_args(&dirs));
    let merged = ok_json(&args);
    assert_eq!(results(&merged), results(&one));
    assert_eq!(merged["merged"]["missing"], serde_json::json!([]));
    // The whole run's folder merges to the same summary too.
    assert_eq!(
        results(&ok_json(&["match", "--json", "--merge", w])),
        results(&one)
    );
}

#[test]
fn a_shard_killed_halfway_is_finished_by_a_rerun() {
    let root = temp_dir();
    let dir = root.path().join("s");
    let d = dir.to_str().unwrap();
    success(small_match(&["--shard", "0/1", "--out", d]));
    let records = dir.join("results.jsonl");
    let full = std::fs::read_to_string(&records).unwrap();
    let before = games_of(std::slice::from_ref(&dir));
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 8);
    // As if killed while writing the fourth record: three complete lines
    // and half of the fourth.
    let cut = format!(
        "{}\n{}",
        lines[..3].join("\n"),
        &lines[3][..lines[3].len() / 2]
    );
    std::fs::write(&records, cut).unwrap();
    let err = stderr(&cabra(&{
        let mut a = vec!["match"];
        a.extend(SMALL.iter().filter(|&&s| s != "--quiet"));
        a.extend(["--shard", "0/1", "--out", d]);
        a
    }));
    assert!(err.contains("3 games already recorded, 5 to play"), "{err}");
    let after = std::fs::read_to_string(&records).unwrap();
    let mut numbers: Vec<u64> = after
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(after.lines().count(), 8, "no duplicate, no partial line");
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=8).collect::<Vec<u64>>());
    assert_eq!(games_of(std::slice::from_ref(&dir)), before);
    // A rerun of a finished shard plays nothing and says the same.
    let again = success(small_match(&["--shard", "0/1", "--out", d, "--json"]));
    assert_eq!(std::fs::read_to_string(&records).unwrap(), after);
    let j: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(j["games"], 8);
}

#[test]
fn a_folder_holds_one_shard_played_by_one_run_at_a_time() {
    let root = temp_dir();
    let dir = root.path().join("s");
    let d = dir.to_str().unwrap();
    success(small_match(&["--shard", "0/2", "--out", d]));
    // Another shard into it: refused, naming both.
    for other in ["1/2", "0/4"] {
        let o = small_match(&["--shard", other, "--out", d]);
        assert!(!o.status.success(), "shard {other} accepted");
        let e = stderr(&o);
        assert!(
            e.contains(&format!("holds the records of shard 0/2, not {other}")),
            "{e}"
        );
    }
    // A second run while one plays there: refused at once.
    let busy = root.path().join("busy");
    let b = busy.to_str().unwrap();
    let long = ["match", "--games", "2", "--time", "60s", "--threads", "1"];
    let mut first = spawn(&[&long[..], &["--quiet", "--shard", "0/1", "--out", b]].concat());
    let records = busy.join("results.jsonl");
    let start = std::time::Instant::now();
    while !records.exists() && start.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = cabra(&[&long[..], &["--shard", "0/1", "--out", b]].concat());
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(!o.status.success(), "a second run was let in");
    let e = stderr(&o);
    assert!(e.contains("is in use by another run"), "{e}");
    // Once the first has ended, a rerun goes on.
    let o = small_match(&["--shard", "0/1", "--out", b]);
    assert!(!stderr(&o).contains("in use"), "{}", stderr(&o));
}

#[test]
fn merges_refuse_another_match_and_name_what_differs() {
    let root = temp_dir();
    let (a, b) = (root.path().join("a"), root.path().join("b"));
    success(small_match(&[
        "--shard",
        "0/2",
        "--out",
        a.to_str().unwrap(),
    ]));
    success(small_match(&[
        "--shard",
        "1/2",
        "--seed",
        "2",
        "--out",
        b.to_str().unwrap(),
    ]));
    let o = cabra(&["match", "--merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("seed is '2' there and '1' in"), "{err}");
    // A shard rerun into a folder of another match is refused the same way.
    let o = small_match(&["--shard", "1/2", "--out", b.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("seed is '2' there and '1' here"),
        "{}",
        stderr(&o)
    );
    // Selfplay records are not a match's.
    let s = root.path().join("self");
    success(cabra(&[
        "selfplay",
        "--games",
        "2",
        "--iterations",
        "50",
        "--quiet",
        "--out",
        s.to_str().unwrap(),
    ]));
    let o = cabra(&["match", "--merge", s.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("cabra selfplay --merge"),
        "{}",
        stderr(&o)
    );
    // A folder without records.
    let o = cabra(&["match", "--merge", root.path().to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no results.jsonl"), "{}", stderr(&o));
}

#[test]
fn merges_count_duplicates_once_and_list_missing_games() {
    let root = temp_dir();
    let dirs = shard_dirs(root.path(), 2);
    success(small_match(&[
        "--shard",
        "0/2",
        "--out",
        dirs[0].to_str().unwrap(),
    ]));
    // Shard 0 alone: the games of shard 1 (pairs 1 and 3) are missing.
    let j = ok_json(&["match", "--json", "--merge", dirs[0].to_str().unwrap()]);
    assert_eq!(j["games"], 4);
    assert_eq!(j["merged"]["missing"], serde_json::json!([3, 4, 7, 8]));
    let o = cabra(&["match", "--merge", dirs[0].to_str().unwrap()]);
    assert!(
        stderr(&o).contains("4 games missing: 3-4, 7-8"),
        "{}",
        stderr(&o)
    );
    // The same folder twice, and a copy: identical duplicates count once.
    let copy = root.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    let records = std::fs::read_to_string(dirs[0].join("results.jsonl")).unwrap();
    std::fs::write(copy.join("results.jsonl"), &records).unwrap();
    let d0 = dirs[0].to_str().unwrap();
    let j = ok_json(&["match", "--json", "--merge", d0, copy.to_str().unwrap()]);
    assert_eq!(j["games"], 4);
    assert_eq!(j["merged"]["duplicates"], serde_json::json!([1, 2, 5, 6]));
    // A copy whose game 1 went differently is an error naming the game.
    let mut first: serde_json::Value = records
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["game"] == 1)
        .unwrap();
    first["score"] = serde_json::json!(0.5);
    first["placements"] = serde_json::json!(["L E180 600"]);
    std::fs::write(copy.join("results.jsonl"), format!("{first}\n")).unwrap();
    let o = cabra(&["match", "--merge", d0, copy.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("game 1 is recorded twice with different games"),
        "{err}"
    );
    // With a sequential test, its state: over the complete pairs, as
    // fishtest's pentanomial test.
    let j = ok_json(&["match", "--json", "--sprt", "0,5", "--merge", d0]);
    assert_eq!(j["model"], "pairs");
    assert_eq!(j["unpaired"], 0);
    let pairs: [u32; 5] = serde_json::from_value(j["pentanomial"].clone()).unwrap();
    assert_eq!(pairs.iter().sum::<u32>(), 2, "{j}");
    let llr = j["sprt"]["llr"].as_f64().unwrap();
    assert!((llr - pentanomial_llr(pairs, 0.0, 5.0)).abs() < 1e-6, "{j}");
    assert_eq!(j["sprt"]["model"], "pentanomial");
    assert_eq!(
        (j["sprt"]["elo0"].as_f64(), j["sprt"]["elo1"].as_f64()),
        (Some(0.0), Some(5.0))
    );
    assert_eq!(j["sprt"]["verdict"], "continue");
    // Game 2 lost: game 1 has no pair, so the interval counts games (as
    // the score does), the test waits for the pair, and the text says so.
    let without_2: String = records
        .lines()
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["game"] != 2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(copy.join("results.jsonl"), without_2).unwrap();
    let c = copy.to_str().unwrap();
    let j = ok_json(&["match", "--json", "--sprt", "0,5", "--merge", c]);
    assert_eq!(
        (j["games"].as_u64(), j["unpaired"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(j["model"], "games");
    let pairs: [u32; 5] = serde_json::from_value(j["pentanomial"].clone()).unwrap();
    assert_eq!(pairs.iter().sum::<u32>(), 1, "{j}");
    let llr = j["sprt"]["llr"].as_f64().unwrap();
    assert!((llr - pentanomial_llr(pairs, 0.0, 5.0)).abs() < 1e-6, "{j}");
    let text = stdout(&cabra(&["match", "--merge", c]));
    assert!(
        text.contains("by games")
            && text.contains("Ptnml(0-2): ")
            && text.contains("1 game without its pair, so the interval counts games"),
        "{text}"
    );
    // fishtest's non-regression bounds, negative, without `=`.
    let j = ok_json(&["match", "--json", "--sprt", "-1.75,0.25", "--merge", d0]);
    assert!(j["sprt"]["llr"].is_number(), "{j}");
}

#[test]
fn selfplay_shards_add_up_to_the_whole() {
    let root = temp_dir();
    let run = |extra: &[&str]| {
        let mut a = vec![
            "selfplay",
            "--games",
            "6",
            "--iterations",
            "100",
            "--threads",
            "1",
            "--quiet",
        ];
        a.extend(extra);
        success(cabra(&a))
    };
    let whole = root.path().join("whole");
    let text = run(&["--out", whole.to_str().unwrap()]);
    let dirs = shard_dirs(root.path(), 2);
    for (k, d) in dirs.iter().enumerate() {
        run(&["--shard", &format!("{k}/2"), "--out", d.to_str().unwrap()]);
    }
    assert_eq!(games_of(&dirs), games_of(&[whole]));
    let mut args = vec!["selfplay", "--merge"];
    args.extend(dir_args(&dirs));
    let merged = success(cabra(&args));
    let counts = |t: &str| {
        t.split(": ")
            .nth(1)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(counts(&merged), counts(&text), "{merged} / {text}");
    assert!(merged.starts_with("6 games recorded in"), "{merged}");
}

#[test]
fn bad_shards_and_tests_are_usage_errors() {
    for (args, says) in [
        (vec!["--shard", "4/4", "--out", "x"], "counts from 0"),
        (vec!["--shard", "1", "--out", "x"], "INDEX/COUNT"),
        (vec!["--shard", "0/2"], "--out"),
        (vec!["--sprt", "5,0"], "elo0 must be below elo1"),
        // A merge reads what was played from the records: options of a
        // run would be ignored, so they are refused.
        (vec!["--merge", "x"], "cannot be used with '--merge"),
        // An empty player (an unset variable) is no self-match.
        (vec!["--b", ""], "empty: give a configuration"),
    ] {
        let o = small_match(&args);
        assert!(!o.status.success(), "{args:?}");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_shard_without_games_has_no_score() {
    // 8 games are 4 pairs: a fifth shard plays none, and says so rather
    // than reporting a score of 50%.
    let root = temp_dir();
    let out = root.path().join("empty-shard");
    let o = small_match(&["--shard", "4/5", "--out", out.to_str().unwrap(), "--json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON value");
    assert_eq!(j["games"], 0);
    for k in ["score", "elo", "elo_low", "elo_high", "elo_ci95"] {
        assert!(j[k].is_null(), "{k}: {j}");
    }
    let o = small_match(&["--shard", "4/5", "--out", out.to_str().unwrap()]);
    assert!(stdout(&o).contains("games 0: no score"), "{}", stdout(&o));
    assert!(stderr(&o).contains("holds no games"), "{}", stderr(&o));
}

#[test]
fn the_margin_is_no_part_of_a_match_between_engines() {
    // Engines are not timed by --margin, so a rerun with another margin
    // resumes the folder, and the records name no margin.
    let root = temp_dir();
    let out = root.path().join("s0");
    let dir = out.to_str().unwrap();
    success(small_match(&["--shard", "0/4", "--out", dir]));
    success(small_match(&[
        "--shard", "0/4", "--out", dir, "--margin", "2s",
    ]));
    let records = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert!(!records.contains("lost beyond"), "{records}");
    assert_eq!(records.lines().count(), 2);
}
