//! Bad values get the same answer in every command: a message and exit
//! status 2 (clap's usage error), never a panic, hang or clap tip; and the
//! smaller promises a newcomer tested (issue 14).

use crate::common::*;

#[test]
fn the_same_mistake_gets_exit_status_2_everywhere() {
    let file = data("games/random_000.caminos");
    let f = file.to_str().unwrap();
    let engine_commands: [&[&str]; 7] = [
        &["search"],
        &["analyze", f],
        &["match", "--games", "2"],
        &[
            "selfplay",
            "--games",
            "2",
            "--out",
            "/tmp/cabra-never-written",
        ],
        &["tactics"],
        &["gtp"],
        &["analysis"],
    ];
    let mistakes: [&[&str]; 9] = [
        &["--threads", "0"],
        &["--threads", "257"],
        &["--threads", "100000"],
        &["--threads", "-1"],
        &["--iterations", "0"],
        &["--iterations", "-5"],
        &["--time", "0"],
        &["--time", "18000000000000000000s"],
        &["--time", "soon"],
    ];
    for cmd in engine_commands {
        for m in mistakes {
            let mut args = cmd.to_vec();
            args.extend_from_slice(m);
            let o = cabra(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            let err = stderr(&o);
            assert!(err.contains("error:"), "{args:?}: {err}");
            assert!(
                !err.contains("-- -1") && !err.contains("tip:"),
                "{args:?}: {err}"
            );
        }
    }
    for args in [
        &["bench", "--seconds", "1e30"][..],
        &["bench", "--games", "0"],
        &["match", "--games", "0"],
        // A trillion games would be refused by the memory, not by a message.
        &["match", "--games", "1000001"],
        &["match", "--opening-min", "5", "--opening-max", "3"],
        &["match", "--opening-max", "40"],
        &["match", "--clock", "soon"],
        &["match", "--clock", "10s+"],
        &["match", "--clock", "10s", "--time", "1s"],
        &[
            "selfplay",
            "--clock",
            "0s",
            "--out",
            "/tmp/cabra-never-written",
        ],
        &["search", "--engine", "c=-1"],
        &["search", "--engine", "c=inf"],
        &["play", "--engine", "threads=999"],
        &["selfplay", "--games", "2"],
        &["perft", "--depth", "99"],
    ] {
        let o = cabra(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_small_match_reports_an_honest_interval() {
    let o = ok(&[
        "match",
        "--games",
        "2",
        "--iterations",
        "100",
        "--threads",
        "1",
        "--quiet",
    ]);
    assert!(!o.contains("± 0"), "{o}");
    assert!(o.contains("rough interval"), "{o}");
    let j = ok_json(&[
        "match",
        "--games",
        "2",
        "--iterations",
        "100",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(
        j["elo_high"].as_f64().unwrap() - j["elo_low"].as_f64().unwrap() > 100.0,
        "{j}"
    );
}

#[test]
fn match_refuses_to_overwrite_its_game_files_unless_forced() {
    let dir = temp_dir();
    let out = dir.path().join("games");
    let o = out.to_str().unwrap();
    let args = [
        "match",
        "--games",
        "2",
        "--iterations",
        "50",
        "--threads",
        "1",
        "--quiet",
        "--out",
        o,
    ];
    ok(&args);
    let before = std::fs::read_to_string(out.join("game-0001.caminos")).unwrap();
    let again = cabra(&args);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    let mut forced = args.to_vec();
    forced.push("--force");
    ok(&forced);
    assert!(!before.is_empty());
}

#[test]
fn tactics_needs_no_repository_around_it() {
    let dir = temp_dir();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_cabra"))
        .args(["tactics", "--iterations", "2000", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["total"], 18);
}

#[test]
fn perft_from_a_finished_game_counts_nothing_and_says_so() {
    let file = data("games/hand_straight_bridge.caminos");
    let o = cabra(&["perft", file.to_str().unwrap(), "--depth", "2"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "0");
    assert!(stderr(&o).contains("the game is over"), "{}", stderr(&o));
    assert_eq!(
        ok(&["perft", file.to_str().unwrap(), "--depth", "0"]).trim(),
        "1"
    );
}

#[test]
fn show_json_describes_the_position_for_scripts() {
    let file = data("games/hand_straight_bridge.caminos");
    let j = ok_json(&["show", file.to_str().unwrap(), "--json"]);
    assert_eq!(j["result"], "p1");
    assert_eq!(j["by"], "bridge");
    let record = j["record"].as_array().unwrap();
    assert_eq!(record.len(), j["moves"].as_u64().unwrap() as usize);
    let rows = j["columns"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r.as_array().unwrap().len() == 8));
}

#[test]
fn a_file_line_in_piece_notation_is_explained() {
    let dir = temp_dir();
    let file = dir.path().join("notation.caminos");
    std::fs::write(&file, "L E180 110\n").unwrap();
    let o = cabra(&["check", file.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("line 1:") && err.contains("110 120 121 122"),
        "{err}"
    );
}

#[test]
fn file_errors_are_said_in_words_by_every_command() {
    // Not `No such file or directory (os error 2)`: the same words as
    // `cabra check` says them.
    let dir = temp_dir();
    let missing = dir.path().join("missing.caminos");
    let missing = missing.to_str().unwrap();
    let in_the_way = dir.path().join("afile");
    std::fs::write(&in_the_way, "").unwrap();
    let in_the_way = in_the_way.to_str().unwrap();
    for (args, words) in [
        (vec!["check", missing], "there is no such file"),
        (vec!["tactics", missing], "there is no such file"),
        (
            vec!["train", "--data", missing, "--out", missing],
            "there is no such folder",
        ),
        (
            vec![
                "analyze",
                "games",
                "--out",
                in_the_way,
                "--iterations",
                "10",
            ],
            "a file of that name is in the way",
        ),
    ] {
        let out = cabra(&args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.contains(words) && !err.contains("os error"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_tactic_no_move_can_pass_is_refused_as_broken() {
    // A finished game, or a `win1` with no win in one, is a broken test:
    // scored as FAILED it would blame the engine.
    let dir = temp_dir();
    let over = dir.path().join("over.caminos");
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/climb-to-z2.caminos");
    let game = std::fs::read_to_string(game).unwrap();
    std::fs::write(&over, format!("# tactic: win1\n{game}")).unwrap();
    let empty = dir.path().join("empty.caminos");
    std::fs::write(&empty, "# tactic: win1\n").unwrap();
    let calm = dir.path().join("calm.caminos");
    std::fs::write(&calm, "# tactic: block\n").unwrap();
    for (file, words) in [
        (&over, "the game is over"),
        (&empty, "no placement wins at once"),
        (&calm, "nothing to block"),
    ] {
        let out = cabra(&["tactics", file.to_str().unwrap()]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains(words), "{err}");
    }
}
