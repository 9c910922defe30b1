//! `cabra play` driven through a pipe, as a script (or a person typing into
//! a pipe) would: one response block per command, each ended by an empty line.

use crate::common::*;

/// Runs a session with the lines of `script` and returns its blocks;
/// it must succeed.
fn play(args: &[&str], script: &[&str]) -> Vec<String> {
    let (out, blocks) = run_script(args, script);
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    blocks
}

/// Runs a session with the lines of `script`: how it ended, and its blocks.
fn run_script(args: &[&str], script: &[&str]) -> (std::process::Output, Vec<String>) {
    let mut input = script.join("\n");
    input.push('\n');
    let out = cabra_with_input(args, &input);
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
    assert!(!text.contains('\x1b'), "no ANSI codes in a pipe:\n{text}");
    assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    let blocks = text.split_terminator("\n\n").map(str::to_string).collect();
    (out, blocks)
}

/// Quick engine settings for tests.
const FAST: &[&str] = &["--iterations", "200", "--threads", "1", "--seed", "1"];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["play"];
    v.extend_from_slice(FAST);
    v.extend_from_slice(extra);
    v
}

#[test]
fn a_two_player_session_with_errors_undo_redo_save_load_and_codes() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let file = dir.join("game.caminos");
    let f = file.display().to_string();
    let script = [
        "L E180 110",
        "l e180 110",
        "udno",
        "320 410 420 430",
        "T N0 500",
        "undo",
        "redo",
        "",
        "# comments and blank lines get no block",
        &format!("save {f}"),
        "pos",
        "new",
        &format!("load {f}"),
        "history",
        "result",
        "quit",
        "show",
    ];
    let b = play(&args(&["--you", "both"]), &script);
    // 13 commands before `quit`, which ends the output; `show` is never read.
    assert_eq!(b.len(), 13, "{b:#?}");
    assert!(
        b[0].starts_with("1. player 1 plays L E180 110\n"),
        "{}",
        b[0]
    );
    assert!(
        b[0].contains("X1"),
        "the last placement in capitals: {}",
        b[0]
    );
    assert!(b[0].ends_with("player 2 to move"), "{}", b[0]);
    assert_eq!(
        b[1],
        "error: L E180 110: cube 110 is already taken (`moves` lists the legal placements)"
    );
    assert!(b[2].contains("did you mean 'undo'"), "{}", b[2]);
    assert!(b[3].starts_with("2. player 2 plays T T90 310"), "{}", b[3]);
    assert!(
        b[4].starts_with("error: T N0 500: cube 501 has nothing below it"),
        "{}",
        b[4]
    );
    assert!(
        b[5].starts_with("Took back 1 placement: T T90 310"),
        "{}",
        b[5]
    );
    assert!(
        b[6].starts_with("Replayed 1 placement: T T90 310"),
        "{}",
        b[6]
    );
    assert!(b[7].starts_with("Saved 2 placements to"), "{}", b[7]);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "110 120 121 122  # L E180 110\n320 410 420 430  # T T90 310\n"
    );
    let code = b[8].trim().to_string();
    assert!(
        code.starts_with("c1") && code.chars().all(|c| c.is_ascii_alphanumeric()),
        "{code}"
    );
    assert!(b[9].starts_with("New game."), "{}", b[9]);
    assert!(b[10].starts_with("Loaded "), "{}", b[10]);
    assert!(b[10].contains("2 placements"), "{}", b[10]);
    // The history numbers moves as the prompt does (`move 2, player 2`).
    assert!(
        b[11].contains("  1. player 1  L E180 110\n  2. player 2  T T90 310"),
        "{}",
        b[11]
    );
    assert!(
        b[12].starts_with("In progress after 2 placements: player 1 to move"),
        "{}",
        b[12]
    );
    // Nothing but the saved game in the directory: the save went through a
    // temporary file that was renamed.
    let names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["game.caminos"]);

    // The code gives the same game back in a new session.
    let b2 = play(
        &args(&["--you", "both"]),
        &[&format!("pos {code}"), "history", "pos"],
    );
    assert!(
        b2[0].starts_with("Position set: 2 placements."),
        "{}",
        b2[0]
    );
    assert_eq!(b2[1], b[11]);
    assert_eq!(b2[2].trim(), code);
}

#[test]
fn the_engine_answers_searches_plays_and_plays_out() {
    // Default: you are player 1 and the engine answers at once.
    let b = play(
        &args(&[]),
        &["L E180 110", "go", "engine", "auto", "engine", "result"],
    );
    assert_eq!(b.len(), 6, "{b:#?}");
    assert!(
        b[0].starts_with("1. player 1 plays L E180 110\n2. player 2 plays "),
        "{}",
        b[0]
    );
    assert!(b[0].contains("(engine: "), "{}", b[0]);
    assert!(
        b[1].starts_with("player 1 to move: 200 iterations"),
        "{}",
        b[1]
    );
    assert!(b[1].contains("\nbest: "), "{}", b[1]);
    // `engine` plays for the side to move (you, here), and the engine answers.
    assert!(b[2].starts_with("3. player 1 plays "), "{}", b[2]);
    assert!(b[2].contains("\n4. player 2 plays "), "{}", b[2]);
    assert!(b[3].starts_with("5. player 1 plays "), "{}", b[3]);
    let over = ["wins by bridge", "wins on bottom-perimeter", "draw ("];
    assert!(over.iter().any(|w| b[3].contains(w)), "{}", b[3]);
    assert!(b[4].starts_with("error: the game is over"), "{}", b[4]);
    assert!(b[5].contains("after"), "{}", b[5]);
}

#[test]
fn the_engine_opens_as_player_1_and_watches_itself() {
    // The engine's opening is the first block, before any command.
    let b = play(&args(&["--you", "2"]), &["result"]);
    assert_eq!(b.len(), 2, "{b:#?}");
    assert!(b[0].starts_with("1. player 1 plays "), "{}", b[0]);
    assert!(b[1].contains("player 2 to move"), "{}", b[1]);
    let b = play(&args(&["--you", "none"]), &["result"]);
    assert_eq!(b.len(), 2, "{b:#?}");
    assert!(b[0].starts_with("1. player 1 plays "), "{}", b[0]);
    assert!(
        !b[1].starts_with("In progress"),
        "the game was played out: {}",
        b[1]
    );
    // `set you none` says who plays (and that Ctrl-C stops it) before the
    // engine's first placement, not after its game.
    let b = play(&args(&[]), &["set you none"]);
    assert!(b[0].starts_with("The engine plays both sides"), "{}", b[0]);
    assert!(b[0].contains("\n1. player 1 plays "), "{}", b[0]);
}

#[test]
fn a_session_from_a_file_and_the_end_of_input() {
    let file = data("games/random_000.caminos");
    let f = file.to_str().unwrap();
    // No `quit`: the end of input ends the session.
    let b = play(&args(&[f]), &["result", "L E180 110", "undo", "moves T"]);
    assert_eq!(b.len(), 4, "{b:#?}");
    assert_eq!(b[0], "player 2 wins by bridge after 18 placements.");
    assert!(
        b[1].starts_with("error: L E180 110: the game is already over")
            && b[1].contains("`undo` takes back the engine's last placement and yours"),
        "{}",
        b[1]
    );
    // You play player 1: `undo` goes back to your turn, over the engine's placement.
    assert!(
        b[2].starts_with("Took back 2 placements: L S180 500, L S90 130"),
        "{}",
        b[2]
    );
    assert!(
        b[3].contains("legal placements of T for player 1"),
        "{}",
        b[3]
    );
}

#[test]
fn bad_arguments_are_refused_before_the_session() {
    for bad in [
        vec!["play", "--you", "3"],
        vec!["play", "--time", "0"],
        vec!["play", "--time", "soon"],
        vec!["play", "--threads", "0"],
        vec!["play", "--iterations", "0"],
        vec!["play", "--engine", "bogus"],
        vec!["play", "/no/such/file.caminos"],
    ] {
        let out = cabra_with_input(&bad, "quit\n");
        assert!(!out.status.success(), "{bad:?} should fail");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty(), "{bad:?}");
    }
    let bad_file = data("bad/bad_14_floating.caminos");
    let out = cabra_with_input(&["play", bad_file.to_str().unwrap()], "quit\n");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 16:"));
}

#[test]
fn garbage_input_gets_one_error_line_each() {
    let lines = [
        "\u{1b}[A",
        "€€€",
        "place L",
        "L T0 8",
        "999 999 999 999",
        "undo",
        "redo",
        "set time 0",
        "set nothing 1",
        "pos c1zz",
        "help nothing",
        "load",
        "save",
        "moves Q",
    ];
    let (out, b) = run_script(&args(&["--you", "both"]), &lines);
    assert_eq!(b.len(), lines.len(), "{b:#?}");
    // `save` without a file name is a failed save: the script fails.
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("1 save failed; the last: expected a file name"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (line, block) in lines.iter().zip(&b) {
        assert!(block.starts_with("error: "), "{line:?}: {block}");
        assert_eq!(block.lines().count(), 1, "{line:?}: {block}");
    }
}

#[test]
fn a_script_whose_save_failed_exits_with_an_error() {
    let tmp = temp_dir();
    let other = tmp.path().join("other.caminos");
    std::fs::write(&other, "# not this session's\n").unwrap();
    let missing = tmp.path().join("no/such/dir/game.caminos");
    let script = format!(
        "L E180 110\nsave {}\nsave {}\nresult\n",
        missing.display(),
        other.display()
    );
    let out = cabra_with_input(&args(&["--you", "both"]), &script);
    assert!(!out.status.success(), "a failed save fails the script");
    let text = String::from_utf8(out.stdout).unwrap();
    // Every command still answered, the saves with their errors.
    let blocks: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(blocks.len(), 4, "{text}");
    assert!(blocks[1].starts_with("error: cannot save"), "{text}");
    assert!(
        blocks[2].contains("exists and this session did not write it"),
        "{text}"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("2 saves failed; the last: "), "{err}");
    assert!(err.contains("other.caminos exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "# not this session's\n"
    );
    // A failed placement is no failed save: the script succeeds.
    let out = cabra_with_input(&args(&["--you", "both"]), "L E180 118\n");
    assert!(out.status.success());
}
