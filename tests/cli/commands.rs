//! The `cabra` program run as a user runs it: arguments in, text and exit
//! status out, stdout piped (so never a terminal).

use crate::common::*;

// ------------------------------------------------------------------ check

#[test]
fn check_reports_every_good_game_in_words() {
    for r in rows("games.tsv") {
        let (file, winner, reason, moves) = (&r[0], &r[2], &r[3], &r[4]);
        let path = data(&format!("games/{file}"));
        let out = ok(&["check", path.to_str().unwrap()]);
        let line = out.trim_end();
        assert_eq!(out.lines().count(), 1, "{file}: {out}");
        let head = format!("ok: {moves} placements; ");
        assert!(line.starts_with(&head), "{file}: {line}");
        let words = match (winner.as_str(), reason.as_str()) {
            ("p1", "bridge") => "player 1 wins by bridge".to_string(),
            ("p2", "bridge") => "player 2 wins by bridge".to_string(),
            ("p1", "perimeter") => "player 1 wins on bottom-perimeter pieces".to_string(),
            ("p2", "perimeter") => "player 2 wins on bottom-perimeter pieces".to_string(),
            ("draw", _) => "draw".to_string(),
            _ => "in progress".to_string(),
        };
        assert!(line.contains(&words), "{file}: {line}");
    }
}

#[test]
fn check_json_gives_placements_result_by_and_to_move() {
    for r in rows("games.tsv") {
        let (file, winner, reason, moves) = (&r[0], &r[2], &r[3], &r[4]);
        let path = data(&format!("games/{file}"));
        let out = ok(&["check", "--json", path.to_str().unwrap()]);
        let v: serde_json::Value =
            serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{file}: {e}: {out}"));
        assert_eq!(
            v["placements"].as_u64().unwrap().to_string(),
            *moves,
            "{file}"
        );
        assert_eq!(v["result"], winner.as_str(), "{file}");
        if winner == "ongoing" {
            assert!(v["by"].is_null(), "{file}: {v}");
            // Whose turn: the vectors' ongoing game has 5 placements, so player 2.
            let n: u64 = moves.parse().unwrap();
            assert_eq!(v["to_move"].as_u64(), Some(n % 2 + 1), "{file}");
        } else {
            assert_eq!(v["by"], reason.as_str(), "{file}");
            assert!(
                v["to_move"].is_null(),
                "{file}: a finished game has nobody to move"
            );
        }
    }
}

#[test]
fn check_refuses_every_bad_file_naming_the_line() {
    let rows = rows("bad.tsv");
    assert!(!rows.is_empty());
    for r in rows {
        let path = data(&format!("bad/{}", r[0]));
        for json in [false, true] {
            let mut args = vec!["check", path.to_str().unwrap()];
            if json {
                args.push("--json");
            }
            let o = cabra(&args);
            assert!(!o.status.success(), "{}: accepted", r[0]);
            assert_no_panic(&o, &r[0]);
            if json {
                // One JSON object on stdout, with the line as a number.
                let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
                assert_eq!(j["line"].to_string(), r[1], "{}: {j}", r[0]);
                assert!(j["error"].as_str().unwrap().contains(&r[0]), "{j}");
                continue;
            }
            let err = stderr(&o);
            assert!(err.contains(&format!("line {}:", r[1])), "{}: {err}", r[0]);
            assert!(
                err.contains(&r[0]),
                "{}: the message names the file: {err}",
                r[0]
            );
            assert!(stdout(&o).is_empty(), "{}: nothing on stdout", r[0]);
        }
    }
}

#[test]
fn every_json_command_reports_a_bad_file_as_json() {
    // A script that asked for JSON reads its errors as JSON on stdout too.
    let r = &rows("bad.tsv")[0];
    let bad = data(&format!("bad/{}", r[0]));
    let bad = bad.to_str().unwrap();
    for args in [
        vec!["search", bad, "--json", "--iterations", "10"],
        vec!["analyze", bad, "--json", "--iterations", "10"],
        vec!["show", bad, "--json"],
        vec!["search", "/nonexistent/game.caminos", "--json"],
    ] {
        let o = cabra(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_no_panic(&o, args[1]);
        let j: serde_json::Value = serde_json::from_str(&stdout(&o))
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)));
        let error = j["error"].as_str().unwrap();
        assert!(error.contains(args[1]), "{args:?}: {j}");
        if args[1] == bad {
            assert_eq!(j["line"].to_string(), r[1], "{args:?}: {j}");
        } else {
            assert!(j["line"].is_null() && error.contains("cannot read"), "{j}");
        }
    }
}

#[test]
fn check_refuses_a_missing_file() {
    let o = cabra(&["check", "/nonexistent/dir/game.caminos"]);
    assert!(!o.status.success());
    assert_no_panic(&o, "missing file");
    let err = stderr(&o);
    assert!(err.contains("/nonexistent/dir/game.caminos"), "{err}");
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn check_refuses_a_bad_file_written_on_the_spot() {
    // A file that is fine for three lines and then holds a floating cube.
    let path = std::env::temp_dir().join(format!("cabra-cli-{}.caminos", std::process::id()));
    std::fs::write(
        &path,
        "# made by tests/cli.rs\n110 120 121 122\n550 560 650 660\n020 021 121 221\n",
    )
    .unwrap();
    let o = cabra(&["check", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(!o.status.success());
    assert_no_panic(&o, "temp file");
    let err = stderr(&o);
    assert!(err.contains("line 4:"), "{err}");
}

#[test]
fn usage_errors_exit_non_zero_without_panicking() {
    for args in [
        &[][..],
        &["check"][..],
        &["perft"][..],
        &["perft", "--depth", "x"][..],
        &["bench", "--games", "-3"][..],
        &["bench", "--seconds", "0"][..],
        &["bench", "--threads", "x"][..],
        &["bench", "--threads", "999"][..],
        &["nonsense"][..],
    ] {
        let o = cabra(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert_no_panic(&o, &format!("{args:?}"));
        assert!(!stderr(&o).is_empty(), "{args:?}: says why");
    }
}

// ------------------------------------------------------------------ perft

#[test]
fn perft_depth_1_from_the_start_is_1345() {
    let out = ok(&["perft", "--depth", "1"]);
    assert_eq!(out.lines().last(), Some("1345"));
    let out = ok(&["perft", "-d", "1"]);
    assert_eq!(out.lines().last(), Some("1345"));
}

#[test]
fn perft_divide_lines_sum_to_the_total() {
    // perft_00: 34 placements at depth 1, 931 sequences at depth 2.
    let path = data("perft/perft_00.caminos");
    let out = ok(&["perft", path.to_str().unwrap(), "--depth", "2", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    let total: u64 = lines.last().unwrap().trim().parse().unwrap();
    assert_eq!(total, 931);
    let rows: Vec<&str> = lines[..lines.len() - 1]
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(rows.len(), 34, "one line per legal placement");
    let mut sum = 0;
    for row in rows {
        // `L T0 000  12`: a placement in notation, then its count.
        let (mv, n) = row.rsplit_once(' ').unwrap();
        cabra::game::parse_placement(mv.trim()).unwrap_or_else(|e| panic!("{row}: {e}"));
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, total);
    // Without --divide, the same total.
    let out = ok(&["perft", path.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(out.lines().last(), Some("931"));
}

#[test]
fn perft_counts_match_the_vectors_at_depth_1() {
    for r in rows("perft.tsv") {
        let path = data(&format!("perft/{}", r[0]));
        let out = ok(&["perft", path.to_str().unwrap(), "--depth", "1"]);
        assert_eq!(out.lines().last(), Some(r[3].as_str()), "{}", r[0]);
    }
}

// ------------------------------------------------------------------- show

#[test]
fn show_prints_layers_and_top_view_without_colour_when_piped() {
    let path = data("games/hand_climb_z2_ns.caminos");
    let out = ok(&["show", path.to_str().unwrap()]);
    assert!(!out.contains('\x1b'), "no ANSI codes in a pipe:\n{out}");
    for word in ["z=0", "z=1", "z=2", "top view"] {
        assert!(out.contains(word), "{word}:\n{out}");
    }
    // The row y = 3: on the floor P2's 330 and 430 (o), at z = 1 P2's 331
    // and 431, at z = 2 P1's 332 (x). Top view: 332 is the top of column
    // (3, 3), three high, player 1's; column (4, 3) is P2's, two high.
    let row3 = out
        .lines()
        .find(|l| l.starts_with("3 "))
        .unwrap_or_else(|| panic!("no row 3:\n{out}"));
    // The game is won by a bridge: its cubes are capitals; compare the owners.
    let lower = row3.to_ascii_lowercase();
    let cols: Vec<&str> = lower.split_whitespace().collect();
    // 4 blocks of "y then 8 cells" (the top view's cells are two characters).
    assert_eq!(cols.len(), 36, "{row3}");
    assert_eq!(
        &cols[1..9],
        [".", ".", ".", "o", "o", ".", ".", "."],
        "z=0: {row3}"
    );
    assert_eq!(
        &cols[10..18],
        [".", ".", ".", "o", "o", ".", ".", "."],
        "z=1: {row3}"
    );
    assert_eq!(
        &cols[19..27],
        [".", ".", ".", "x", ".", ".", ".", "."],
        "z=2: {row3}"
    );
    assert_eq!(
        &cols[28..36],
        [".", ".", ".", "x3", "o2", ".", ".", "."],
        "top: {row3}"
    );
    assert!(out.contains("player 1 wins by bridge"), "{out}");
    assert!(out.contains("last move: L T90 250 (move 5)"), "{out}");
    assert!(out.contains("capitals the winning bridge"), "{out}");
    assert!(row3.contains('X'), "the bridge runs through row 3: {row3}");
}

#[test]
fn show_refuses_a_bad_file() {
    let path = data("bad/bad_14_floating.caminos");
    let o = cabra(&["show", path.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_no_panic(&o, "show bad file");
    assert!(stderr(&o).contains("line 16:"), "{}", stderr(&o));
}

// ------------------------------------------------------------------ bench

fn signature(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("placements:"))
        .unwrap_or_else(|| panic!("no placements line:\n{out}"))
        .to_string()
}

#[test]
fn bench_with_a_seed_is_reproducible() {
    let a = ok(&["bench", "--games", "2000", "--seed", "5"]);
    let b = ok(&["bench", "--games", "2000", "--seed", "5"]);
    assert_eq!(signature(&a), signature(&b));
    assert!(signature(&a).contains("seed 5"), "{a}");
    assert!(a.contains("games played: 2000"), "{a}");
    let c = ok(&["bench", "--games", "2000", "--seed", "6"]);
    assert_ne!(
        signature(&a),
        signature(&c),
        "another seed, another game sample"
    );
    // On the clock the count depends on the machine: no signature.
    let timed = ok(&["bench", "--seconds", "0.1", "--seed", "5"]);
    assert!(signature(&timed).contains("not a signature"), "{timed}");
}

#[test]
fn bench_threads_measures_each_count_and_advises_one() {
    let out = ok(&["bench", "--threads", "2", "--seconds", "0.2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let threads: Vec<u64> = rows
        .iter()
        .map(|r| r["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, [1, 2]);
    for r in rows {
        assert!(r["iterations_per_second"].as_f64().unwrap() > 0.0, "{r}");
    }
    assert_eq!(rows[0]["speedup"].as_f64(), Some(1.0));
    assert!(threads.contains(&v["recommended"].as_u64().unwrap()), "{v}");
    // The table says what to use.
    let text = ok(&["bench", "--threads", "1", "--seconds", "0.1"]);
    assert!(text.contains("threads  iterations/s  speedup"), "{text}");
    assert!(text.contains("use --threads 1"), "{text}");
}

#[test]
fn bench_json_has_its_fields() {
    let out = ok(&["bench", "--games", "500", "--seed", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["playouts"].as_u64(), Some(500));
    assert_eq!(v["seed"].as_u64(), Some(5));
    let placements = v["placements"].as_u64().unwrap();
    // A bridge needs 8 cubes, so 3 pieces of the winner: no game is shorter
    // than 5 placements, and none is longer than 28.
    assert!((5 * 500..=28 * 500).contains(&placements), "{placements}");
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["playouts_per_second"].as_f64().unwrap() > 0.0);
    // The JSON and the text agree on the signature.
    let text = ok(&["bench", "--games", "500", "--seed", "5"]);
    assert!(signature(&text).contains(&placements.to_string()), "{text}");
}

// ------------------------------------------------------------------- help

#[test]
fn help_for_each_subcommand() {
    let top = ok(&["--help"]);
    for cmd in ["check", "show", "perft", "bench"] {
        assert!(top.contains(cmd), "{cmd} in:\n{top}");
    }
    let expect: [(&str, &[&str]); 4] = [
        ("check", &["<FILE>", "--json"]),
        ("show", &["<FILE>"]),
        ("perft", &["--depth", "--divide", "[FILE]"]),
        ("bench", &["--games", "--seed", "--seconds", "--json"]),
    ];
    for (cmd, words) in expect {
        let out = ok(&[cmd, "--help"]);
        assert!(
            out.contains(&format!("Usage: cabra {cmd}")),
            "{cmd}:\n{out}"
        );
        for w in words {
            assert!(out.contains(w), "{cmd} --help lacks {w}:\n{out}");
        }
        assert_eq!(ok(&["help", cmd]), out, "`help {cmd}` is `{cmd} --help`");
    }
    // Every subcommand the top-level help lists has a help of its own.
    let listed: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(listed.len() >= 4, "{top}");
    for cmd in listed {
        let out = ok(&[cmd, "--help"]);
        assert!(
            out.contains(&format!("Usage: cabra {cmd}")),
            "{cmd}:\n{out}"
        );
    }
}

/// A reader that stops reading early (`cabra perft -d 1 --divide | head`)
/// ends the program quietly, not with a panic on the closed pipe.
#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // `play` answers each command it reads: commands sent after the read
    // end is closed are sure to meet the closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cabra"))
        .arg("play")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cabra runs");
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    // The program may be gone by the second line: ignore that error.
    let _ = input.write_all(b"help\nshow\nhelp\n");
    drop(input);
    let out = child.wait_with_output().expect("cabra ends");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.status.success(), "the writes failed, so not a success");
}

// ---------------------------------------------------------------- engines

#[test]
fn a_calibration_records_its_pairs_and_resumes_where_it_stopped() {
    // The cheapest calibration: 2 games a pair, 4 for the full engine's
    // pairs at 20 ms a move.
    let dir = temp_dir();
    let out = dir.path().join("cal");
    let args = [
        "engines",
        "--calibrate",
        "--games",
        "2",
        "--top-games",
        "4",
        "--time",
        "20ms",
        "--out",
        out.to_str().unwrap(),
    ];
    let first = cabra(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let records = std::fs::read_to_string(out.join("pairs.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = records
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 21, "{records}");
    // Every pair got its own count, and the full engine's pairs came last.
    for (i, l) in lines.iter().enumerate() {
        let top = l["a"] == 11 || l["b"] == 11;
        assert_eq!(top, i >= 19, "{records}");
        assert_eq!(l["games"], if top { 4 } else { 2 }, "{l}");
    }
    let table = stdout(&first);
    assert!(table.contains("| 11 - 9 | 4 |"), "{table}");
    // A rerun with the same settings plays nothing and prints the same
    // ratings; other --top-games would play the top pairs again.
    let again = cabra(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(stdout(&again), table);
    assert!(
        !stderr(&again).contains("against level"),
        "{}",
        stderr(&again)
    );
}
