//! `cabra analyze` on the sample games, as text and as JSON.

use crate::common::*;
use std::path::Path;

use serde_json::Value;

/// Rows of `tests/data/games.tsv` without the header: file, result, winner, reason, moves.
fn games() -> Vec<Vec<String>> {
    std::fs::read_to_string(data("games.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

const FAST: &[&str] = &["--iterations", "300", "--threads", "1"];

fn analyze(file: &Path, extra: &[&str]) -> String {
    let mut args = vec!["analyze", file.to_str().unwrap()];
    args.extend_from_slice(FAST);
    args.extend_from_slice(extra);
    let out = cabra(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // No progress bar when standard error is not a terminal.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A few games of each kind: bridges, perimeter wins, a draw, unfinished.
fn sample() -> Vec<Vec<String>> {
    let all = games();
    let mut picked: Vec<Vec<String>> = all
        .iter()
        .filter(|r| r[0].starts_with("hand_"))
        .cloned()
        .collect();
    picked.extend(
        all.iter()
            .filter(|r| r[0].starts_with("random_"))
            .take(4)
            .cloned(),
    );
    assert!(picked.len() >= 8);
    picked
}

#[test]
fn json_has_one_entry_per_placement_summaries_and_the_result() {
    let marks = [
        Value::Null,
        "inaccuracy".into(),
        "mistake".into(),
        "blunder".into(),
        "missed_win".into(),
    ];
    for row in sample() {
        let file = data(&format!("games/{}", row[0]));
        let doc: Value = serde_json::from_str(&analyze(&file, &["--json"]))
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", row[0]));
        let moves = doc["moves"].as_array().expect("moves array");
        let n: usize = row[4].parse().unwrap();
        assert_eq!(moves.len(), n, "{}", row[0]);
        let record = std::fs::read_to_string(&file).unwrap();
        let pos = cabra::game::record::parse_game(&record).unwrap();
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(m["ply"], i + 1, "{}", row[0]);
            assert_eq!(m["player"], 1 + i % 2, "{}", row[0]);
            assert_eq!(m["played"], pos.moves()[i].to_string(), "{}", row[0]);
            let best = m["best"].as_str().expect("best");
            assert!(cabra::game::parse_placement(best).is_ok(), "{best}");
            for key in ["winrate_before", "winrate_after", "loss"] {
                let v = m[key].as_f64().unwrap_or_else(|| panic!("{key} in {m}"));
                assert!((0.0..=1.0).contains(&v), "{}: {key} {v}", row[0]);
            }
            assert!(marks.contains(&m["mark"]), "{}: {}", row[0], m["mark"]);
            // A missed win is what the proofs shown say it is.
            let missed = m["proven_before"] == "win" && m["proven_after"] != "win";
            assert_eq!(m["mark"] == "missed_win", missed, "{}: {m}", row[0]);
            if m["played"] == m["best"] {
                assert_eq!(m["loss"], 0.0, "the engine's own choice loses nothing: {m}");
            }
        }
        // The placement that ended a won game is worth a sure win for its player.
        if row[3] == "bridge" {
            let last = moves.last().unwrap();
            assert_eq!(last["winrate_after"], 1.0, "{}: {last}", row[0]);
            assert_eq!(last["proven_after"], "win", "{}: {last}", row[0]);
        }
        let summary = doc["summary"].as_array().expect("summary array");
        assert_eq!(summary.len(), 2);
        for (k, s) in summary.iter().enumerate() {
            assert_eq!(s["player"], k + 1);
            let mine: Vec<&Value> = moves.iter().filter(|m| m["player"] == k + 1).collect();
            assert_eq!(s["moves"], mine.len());
            for (field, mark) in [
                ("inaccuracies", "inaccuracy"),
                ("mistakes", "mistake"),
                ("blunders", "blunder"),
                ("missed_wins", "missed_win"),
            ] {
                let count = mine.iter().filter(|m| m["mark"] == mark).count();
                assert_eq!(s[field], count, "{}: {field}", row[0]);
            }
            assert!(s["average_loss"].as_f64().is_some());
        }
        let result = &doc["result"];
        assert_eq!(result["placements"], n);
        let expected = match row[2].as_str() {
            "p1" | "p2" | "draw" => row[2].as_str(),
            _ => "ongoing",
        };
        assert_eq!(result["result"], expected, "{}", row[0]);
        assert!(result["text"].as_str().is_some());
    }
}

#[test]
fn the_table_lists_every_placement_then_the_summary_and_result() {
    for row in sample().into_iter().take(5) {
        let file = data(&format!("games/{}", row[0]));
        let text = analyze(&file, &[]);
        let n: usize = row[4].parse().unwrap();
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.split_whitespace()
                    .next()
                    .is_some_and(|w| w.parse::<usize>().is_ok())
            })
            .collect();
        assert_eq!(rows.len(), n, "{}:\n{text}", row[0]);
        assert!(text.contains("summary"), "{text}");
        assert!(text.contains("\nplayer 1 "), "{text}");
        assert!(text.contains("\nplayer 2 "), "{text}");
        assert!(text.contains("\nresult: "), "{text}");
        assert!(!text.contains('\x1b'), "no colour in a pipe");
    }
}

#[test]
fn proven_draws_are_shown_as_drawn() {
    // The last placements of a self-play draw are within the exact
    // endgame's reach: the table says so rather than showing 50.0%.
    let file = data("../../games/selfplay-draw.caminos");
    let out = cabra(&[
        "analyze",
        file.to_str().unwrap(),
        "--iterations",
        "20000",
        "--threads",
        "1",
        "--seed",
        "1",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text
        .lines()
        .find(|l| l.trim_start().starts_with("27 "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(last.contains(" draw "), "{text}");
}

#[test]
fn analysis_is_reproducible_with_a_seed_and_an_iteration_budget() {
    let file = data("games/random_001.caminos");
    let a = analyze(&file, &["--json", "--seed", "5"]);
    let b = analyze(&file, &["--json", "--seed", "5"]);
    assert_eq!(a, b);
}

#[test]
fn bad_files_and_arguments_are_refused() {
    let out = cabra(&[
        "analyze",
        data("bad/bad_14_floating.caminos").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 16:"));
    let out = cabra(&["analyze", "/no/such/game.caminos"]);
    assert!(!out.status.success());
    let game = data("games/random_000.caminos");
    for bad in [
        vec!["--time", "0"],
        vec!["--iterations", "0"],
        vec!["--threads", "0"],
        vec!["--threads", "257"],
        vec!["--iterations", "-5"],
        vec!["--engine", "c=-1"],
    ] {
        let mut args = vec!["analyze", game.to_str().unwrap()];
        args.extend(bad.iter());
        assert!(!cabra(&args).status.success(), "{bad:?}");
    }
}

#[test]
fn a_game_with_a_time_machine_counts_moves_as_check_does() {
    // Under the variants a time machine is a move that places nothing:
    // the header counts moves, not placements, as `cabra check` does.
    let dir = temp_dir();
    let file = dir.path().join("tm.caminos");
    std::fs::write(
        &file,
        "# rules: bridget\n110 120 121 122\n330 340 430 440\ntime machine\n",
    )
    .unwrap();
    let text = analyze(&file, &[]);
    let first = text.lines().next().unwrap();
    assert!(first.contains(": 3 moves; "), "{first}");
    let check = ok(&["check", file.to_str().unwrap()]);
    assert!(check.contains("3 moves"), "{check}");
}

#[test]
fn a_time_machine_is_valued_as_every_other_move() {
    // After a time machine the mover moves again. Its value is taken, as
    // every other move's, from the opponent's side after the mover's
    // best placement: the search of that very position the next row
    // values the engine's choice by, so the two agree.
    let dir = temp_dir();
    let file = dir.path().join("tm.caminos");
    std::fs::write(
        &file,
        "# rules: bridget\n000 100 200 010\n060 160 260 070\ntm\n330 430 340 440\n",
    )
    .unwrap();
    let doc: Value = serde_json::from_str(&analyze(&file, &["--json", "--seed", "1"])).unwrap();
    let moves = doc["moves"].as_array().unwrap();
    assert_eq!(moves[2]["played"], "tm");
    assert!(moves[3]["proven_before"].is_null(), "{}", moves[3]);
    assert_eq!(
        moves[2]["winrate_after"], moves[3]["winrate_before"],
        "{moves:?}"
    );
}
