//! Tests of the session through [`Session::handle`]; `fuzz.rs` throws
//! thousands of random and mutated lines at it; `newcomer.rs`: what
//! a person new to the program runs into (mistyped commands, saves over
//! other files, the engine taking its turn, warnings).

use std::path::PathBuf;

use cabra::engine::{Budget, EngineConfig, parse_duration};
use cabra::game::Position;
use cabra::game::record::{Record, parse_game, write_game};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::commands;
use super::session::{Options, QuietUi, Session, You};
use crate::cli::defaults;

mod clock;
mod fuzz;
mod hints;
mod newcomer;
mod ponder;

fn options(you: You, interactive: bool) -> Options {
    Options {
        you,
        budget: Budget::iterations(60),
        width: 100,
        colours: false,
        interactive,
        ponder: false,
        threads: None,
    }
}

/// A session on the empty board, the engine with one thread and seed 1.
fn session_with(you: You, interactive: bool) -> Session {
    let record = Record {
        position: Position::new(),
        header: Vec::new(),
    };
    let engine = defaults::PLAY.handle(EngineConfig {
        threads: Some(1),
        seed: Some(1),
        ..EngineConfig::default()
    });
    Session::new(
        record,
        None,
        options(you, interactive),
        engine,
        Box::new(QuietUi::default()),
    )
}

fn session(you: You) -> Session {
    session_with(you, false)
}

/// A fresh directory for files written by a test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cabra-play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The invariants that must hold after any command.
fn check_invariants(s: &Session, line: &str) {
    let pos = *s.position();
    // The record of the game reads back to the same game.
    let again = parse_game(&write_game(&pos)).unwrap_or_else(|e| panic!("after {line:?}: {e}"));
    assert_eq!(again, pos, "after {line:?}");
    // So does its position code.
    assert_eq!(
        cabra::game::Position::from_code(&pos.to_code()),
        Ok(pos),
        "after {line:?}"
    );
    // The redo list replays legally.
    let mut p = pos;
    for &m in s.redo_list() {
        p.play(m)
            .unwrap_or_else(|e| panic!("after {line:?}: redo {m}: {e}"));
    }
}

fn ok(s: &mut Session, line: &str) -> String {
    let r = s.handle(line);
    assert!(!r.error, "{line:?} failed: {}", r.text);
    check_invariants(s, line);
    r.text
}

fn err(s: &mut Session, line: &str) -> String {
    let r = s.handle(line);
    assert!(r.error, "{line:?} should fail: {}", r.text);
    assert_eq!(r.text.lines().count(), 1, "{line:?}: one line: {}", r.text);
    check_invariants(s, line);
    r.text
}

#[test]
fn placements_in_both_notations_and_clear_errors() {
    let mut s = session(You::Both);
    let t = ok(&mut s, "L E180 110");
    assert!(t.starts_with("1. player 1 plays L E180 110"), "{t}");
    assert!(t.contains("player 2 to move"), "{t}");
    ok(&mut s, "p 320 410 420 430");
    assert_eq!(s.position().plies(), 2);
    let e = err(&mut s, "L E180 110");
    assert!(e.contains("L E180 110: cube 110 is already taken"), "{e}");
    let e = err(&mut s, "L T0 501");
    assert!(e.contains("z = 0"), "{e}");
    // An error that names the placement is not prefixed with it again.
    let e = err(&mut s, "l t0 670");
    assert!(
        e.starts_with("error: L T0 670 does not fit on the board: placed at x = 6, y = 7,"),
        "{e}"
    );
    let e = err(&mut s, "L Q0 000");
    assert!(e.contains("face"), "{e}");
    let e = err(&mut s, "udno");
    assert!(e.contains("did you mean 'undo'"), "{e}");
    let e = err(&mut s, "place");
    assert!(e.contains("expected a placement"), "{e}");
    let e = err(&mut s, "T N0 500");
    assert!(e.contains("nothing below it"), "{e}");
    assert_eq!(s.position().plies(), 2);
}

#[test]
fn undo_and_redo_by_count_and_to_your_turn() {
    let mut s = session(You::One);
    // The engine answers the placement at once.
    let t = ok(&mut s, "L E180 110");
    assert!(t.contains("2. player 2 plays"), "{t}");
    assert_eq!(s.position().plies(), 2);
    // `undo` alone goes back to your turn: two placements.
    ok(&mut s, "undo");
    assert_eq!(s.position().plies(), 0);
    assert_eq!(s.redo_list().len(), 2);
    ok(&mut s, "redo");
    assert_eq!(s.position().plies(), 2);
    ok(&mut s, "undo 1");
    assert_eq!(s.position().plies(), 1);
    err(&mut s, "undo 5");
    err(&mut s, "undo zero");
    ok(&mut s, "undo all");
    assert_eq!(s.position().plies(), 0);
    let e = err(&mut s, "undo");
    assert!(
        e.contains("nothing to undo: this is the start of the game (`redo` replays 2 placements"),
        "{e}"
    );
    // A bad count is named as such, whatever there is to take back.
    let e = err(&mut s, "undo banana");
    assert!(
        e.contains("expected a number of placements or `all`"),
        "{e}"
    );
    ok(&mut s, "redo all");
    assert_eq!(s.position().plies(), 2);
    assert!(err(&mut s, "redo").contains("nothing to redo"));
    let e = err(&mut s, "redo 2x");
    assert!(e.contains("found '2x'"), "{e}");
    // Playing something else drops the redo list.
    ok(&mut s, "undo 2");
    ok(&mut s, "set you both");
    ok(&mut s, "O T0 330");
    assert!(s.redo_list().is_empty());
}

#[test]
fn position_codes_round_trip_and_reject_damage() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..200 {
        let mut pos = Position::new();
        while let Some(p) = pos.random_move(&mut rng) {
            pos.play_unchecked(p);
            if pos.status().is_over() {
                break;
            }
            let c = pos.to_code();
            assert!(c.chars().all(|ch| ch.is_ascii_alphanumeric()), "{c}");
            assert_eq!(cabra::game::Position::from_code(&c), Ok(pos));
        }
    }
    assert_eq!(Position::new().to_code(), "c101");
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    ok(&mut s, "T T90 310");
    let c = ok(&mut s, "pos").trim().to_string();
    ok(&mut s, "new");
    ok(&mut s, &format!("pos {c}"));
    assert_eq!(s.position().plies(), 2);
    // A changed character, a missing one, a foreign code.
    let mut bad = c.clone().into_bytes();
    bad[3] = if bad[3] == b'A' { b'B' } else { b'A' };
    err(&mut s, &format!("pos {}", String::from_utf8(bad).unwrap()));
    err(&mut s, &format!("pos {}", &c[..c.len() - 1]));
    err(&mut s, &format!("pos {}", &c[..c.len() - 2]));
    err(&mut s, "pos xyz");
    err(&mut s, "pos c1!!");
    assert_eq!(s.position().plies(), 2);
}

#[test]
fn save_and_load_keep_the_game_and_refuse_bad_files() {
    let dir = temp_dir("save");
    let file = dir.join("game.caminos");
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    ok(&mut s, "T T90 310");
    let t = ok(&mut s, &format!("save {}", file.display()));
    assert!(t.contains("Saved 2 placements"), "{t}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text, write_game(s.position()));
    // `save` alone saves to the same file again.
    ok(&mut s, "O T0 550");
    ok(&mut s, "save");
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 3);
    ok(&mut s, "new");
    let t = ok(&mut s, &format!("load {}", file.display()));
    assert!(t.contains("3 placements"), "{t}");
    assert_eq!(s.position().plies(), 3);
    // A bad file is refused and the game kept.
    let bad = dir.join("bad.caminos");
    std::fs::write(&bad, "110 120 121 122\n110 120 121 122\n").unwrap();
    let e = err(&mut s, &format!("load {}", bad.display()));
    assert!(e.contains("line 2"), "{e}");
    let e = err(
        &mut s,
        &format!("load {}", dir.join("missing.caminos").display()),
    );
    assert!(e.contains("there is no such file"), "{e}");
    // A device (or a pipe, which would hold the prompt) is not loaded.
    let e = err(&mut s, "load /dev/null");
    assert!(e.contains("not a regular file"), "{e}");
    let e = err(&mut s, &format!("save {}", dir.display()));
    assert!(
        e.contains(&format!("`save {}`", dir.join("game.caminos").display())),
        "{e}"
    );
    let e = err(&mut s, "save ''");
    assert!(e.contains("expected a file name after `save`"), "{e}");
    err(
        &mut s,
        &format!("save {}", dir.join("no/such/dir/x.caminos").display()),
    );
    assert_eq!(s.position().plies(), 3);
    // Nothing but the files written is left in the directory.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.caminos", "game.caminos"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn go_advises_with_the_full_engine_at_any_level() {
    // A low level searches one iteration a move; `go`, like `hint`, is
    // advice, and searches as the full engine does.
    let mut s = session(You::One);
    ok(&mut s, "set level 2");
    ok(&mut s, "set iterations 3000");
    let t = ok(&mut s, "go");
    assert!(t.contains("3,000 iterations"), "{t}");
    assert_eq!(s.position().plies(), 0);
}

#[test]
fn undo_as_player_2_with_only_the_engines_opening_says_so() {
    let mut s = session(You::Two);
    if s.position().plies() == 0 {
        ok(&mut s, "engine");
    }
    assert_eq!(s.position().plies(), 1);
    let e = err(&mut s, "undo");
    assert!(e.contains("nothing of yours to undo"), "{e}");
    assert_eq!(s.position().plies(), 1);
    ok(&mut s, "undo 1");
    assert_eq!(s.position().plies(), 0);
}

#[test]
fn set_level_takes_the_levels_the_options_take() {
    let mut s = session(You::One);
    assert!(ok(&mut s, "set level 0").contains("at random"));
    assert!(ok(&mut s, "set level 1").contains("level 1 of"));
    let e = err(&mut s, "set level 12");
    assert!(e.contains("0 for the random player"), "{e}");
    let e = err(&mut s, "set levle 3");
    assert!(e.contains("did you mean 'level'?"), "{e}");
    let e = err(&mut s, "set colour red");
    assert!(!e.contains("did you mean"), "{e}");
    let e = err(&mut s, "T0 110");
    assert!(
        e.contains("'T0' is an orientation") && e.contains("`L T0 110`"),
        "{e}"
    );
    // A level's move of one iteration shows no estimate, which would be
    // noise; the full engine's shows one.
    ok(&mut s, "set level 2");
    let t = ok(&mut s, "L E180 110");
    let line = t.lines().find(|l| l.contains("(engine: ")).unwrap();
    assert!(line.contains("(engine: 1 iteration in"), "{line}");
    ok(&mut s, "set level 11");
    ok(&mut s, "set iterations 2000");
    ok(&mut s, "new");
    let t = ok(&mut s, "L E180 110");
    let line = t.lines().find(|l| l.contains("(engine: ")).unwrap();
    assert!(
        line.contains("% for player 2") || line.contains("proven"),
        "{line}"
    );
}

#[test]
fn the_engine_searches_plays_and_plays_out() {
    let mut s = session(You::Both);
    let t = ok(&mut s, "go");
    assert!(t.contains("best: "), "{t}");
    assert_eq!(s.position().plies(), 0);
    ok(&mut s, "engine");
    assert_eq!(s.position().plies(), 1);
    ok(&mut s, "auto");
    assert!(s.position().status().is_over());
    err(&mut s, "engine");
    err(&mut s, "go");
    err(&mut s, "L E180 110");
    let t = ok(&mut s, "result");
    assert!(t.contains("after"), "{t}");
    // Watching: the engine opens a new game by itself.
    let mut w = session(You::None);
    let t = ok(&mut w, "new");
    assert!(w.position().status().is_over(), "{t}");
}

#[test]
fn settings_commands_and_help() {
    let mut s = session(You::One);
    let t = ok(&mut s, "set");
    for name in ["you", "time", "iterations", "threads", "seed"] {
        assert!(t.contains(name), "{t}");
    }
    ok(&mut s, "set time 20ms");
    ok(&mut s, "set iterations 1k");
    ok(&mut s, "SET THREADS 2");
    ok(&mut s, "set seed 9");
    ok(&mut s, "set you both");
    err(&mut s, "set time 0");
    err(&mut s, "set time soon");
    err(&mut s, "set threads 0");
    err(&mut s, "set colour red");
    err(&mut s, "set you three");
    err(&mut s, "set seed");
    ok(&mut s, "set threads 1");
    ok(&mut s, "set iterations 50");
    ok(&mut s, "help");
    for spec in commands::SPECS {
        ok(&mut s, &format!("help {}", spec.names[0]));
    }
    err(&mut s, "help nothing");
    err(&mut s, "show me");
    let t = ok(&mut s, "moves");
    assert!(
        t.starts_with("1,345 legal placements for player 1: L 752, T 264, Z 168, O 161"),
        "{t}"
    );
    // 1,345 placements do not fit a screen: counted, with the ways to
    // list fewer.
    assert!(t.lines().count() <= super::help::SCREEN, "{t}");
    assert!(t.contains("`moves L` (or T, Z, O)"), "{t}");
    s.set_width(80);
    let t = ok(&mut s, "moves L");
    assert!(t.lines().count() <= super::help::SCREEN, "{t}");
    assert!(
        t.contains("by orientation: T0 42, T90 42,") && t.contains("none in the other 8"),
        "{t}"
    );
    assert!(t.contains("`moves L T0` lists the positions"), "{t}");
    // One orientation, by any of its names: its positions.
    let t = ok(&mut s, "moves l e180");
    assert!(
        t.starts_with("56 legal placements of L E180 for player 1\n  L E180: 000 100"),
        "{t}"
    );
    assert_eq!(ok(&mut s, "moves LW0"), ok(&mut s, "moves L W0"));
    s.set_width(100);
    // What fits is listed.
    let t = ok(&mut s, "moves o");
    assert!(t.starts_with("161 legal placements of O"), "{t}");
    assert!(t.contains("\n  O T0: 000 100 200"), "{t}");
    // At the terminal's width, each line within it (the printer wraps
    // nothing more), the positions of one orientation under its name.
    s.set_width(60);
    let t = ok(&mut s, "moves o");
    for line in t.lines().skip(1) {
        assert!(line.len() < 60, "{line:?}");
        assert!(line.starts_with("  "), "{line:?}");
    }
    err(&mut s, "moves X");
    assert!(err(&mut s, "moves L X9").contains("`moves L E180`"));
    ok(&mut s, "history");
    ok(&mut s, "  # a comment");
}

#[test]
fn quitting_an_unsaved_game_on_a_terminal_asks_once() {
    let mut s = session_with(You::Both, true);
    assert!(s.handle("quit").quit, "nothing to lose yet");
    s.handle("L E180 110");
    let r = s.handle("quit");
    assert!(!r.quit && r.text.contains("not saved"), "{}", r.text);
    let r = s.handle("exit");
    assert!(r.quit && r.text.contains("type `pos c1"), "{}", r.text);
    // In a script, `quit` just quits.
    let mut s = session(You::Both);
    s.handle("L E180 110");
    assert!(s.handle("quit").quit);
}
