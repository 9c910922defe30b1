//! Tests of the session through [`Session::handle`], and a fuzz test that
//! throws thousands of random and mutated lines at it; `newcomer.rs`: what
//! a person new to the program runs into (mistyped commands, saves over
//! other files, the engine taking its turn, warnings).

use std::path::{Path, PathBuf};

use cabra::engine::{Budget, Engine, EngineConfig, parse_count, parse_duration};
use cabra::game::record::{Record, parse_game, write_game};
use cabra::game::{MoveList, Position, parse_move};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::code;
use super::commands::{self, Cmd, Input};
use super::session::{Options, QuietUi, Session, You};

mod clock;
mod newcomer;

fn options(you: You, interactive: bool) -> Options {
    Options {
        you,
        budget: Budget::iterations(60),
        width: 100,
        colours: false,
        interactive,
    }
}

/// A session on the empty board, the engine with one thread and seed 1.
fn session_with(you: You, interactive: bool) -> Session {
    let record = Record {
        position: Position::new(),
        header: Vec::new(),
    };
    let engine = Engine::new(
        EngineConfig {
            threads: Some(1),
            ..EngineConfig::default()
        },
        1,
    );
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
    assert_eq!(code::decode(&code::encode(&pos)), Ok(pos), "after {line:?}");
    // The redo list replays legally.
    let mut p = pos;
    for &m in s.redo_list().iter().rev() {
        p.try_play_move(m)
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
    err(&mut s, "undo");
    ok(&mut s, "redo all");
    assert_eq!(s.position().plies(), 2);
    err(&mut s, "redo");
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
            pos.play(p);
            if pos.status().is_over() {
                break;
            }
            let c = code::encode(&pos);
            assert!(c.chars().all(|ch| ch.is_ascii_alphanumeric()), "{c}");
            assert_eq!(code::decode(&c), Ok(pos));
        }
    }
    assert_eq!(code::encode(&Position::new()), "c101");
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
    err(
        &mut s,
        &format!("load {}", dir.join("missing.caminos").display()),
    );
    err(&mut s, &format!("save {}", dir.display()));
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
    let t = ok(&mut s, "moves o");
    assert!(t.starts_with("161 legal placements of O"), "{t}");
    err(&mut s, "moves X");
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

/// Keeps fuzzed settings cheap: no long searches, no big thread pools.
fn tame(line: &str, dir: &Path, rng: &mut impl RngCore) -> String {
    match commands::classify(line) {
        Input::Command(Cmd::Save | Cmd::ForceSave | Cmd::Load, arg) => {
            let word = if line.to_ascii_lowercase().contains("load") {
                "load"
            } else {
                "save"
            };
            let name = [
                "a.caminos",
                "b.caminos",
                "junk.caminos",
                "",
                "nodir/x.caminos",
            ][rng.random_range(0..5)];
            let path = if name.is_empty() && arg.is_empty() {
                String::new()
            } else {
                dir.join(name).display().to_string()
            };
            format!("{word} {path}")
        }
        Input::Command(Cmd::Set, arg) => {
            let lower = arg.to_ascii_lowercase();
            let mut words = lower.split_whitespace();
            let (name, value) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            let costly = match name {
                "time" | "t" | "movetime" => parse_duration(value).is_ok_and(|d| d.as_millis() > 5),
                "iterations" | "it" | "iter" | "iters" | "n" => {
                    parse_count(value).is_ok_and(|n| n > 300)
                }
                "threads" | "th" | "thread" => value.parse::<usize>().is_ok_and(|n| n > 3),
                _ => false,
            };
            if costly {
                "set iterations 40".to_string()
            } else {
                line.to_string()
            }
        }
        _ => line.to_string(),
    }
}

/// A random line: a command with plausible or odd arguments, a legal or
/// illegal placement, or noise; then sometimes mutated character by character.
fn random_line(rng: &mut impl RngCore, pos: &Position, codes: &[String]) -> String {
    const WORDS: &[&str] = &[
        "place",
        "p",
        "show",
        "d",
        "moves",
        "moves L",
        "moves z",
        "moves Q",
        "history",
        "go",
        "hint",
        "engine",
        "e",
        "auto",
        "undo",
        "undo 2",
        "undo all",
        "undo 99",
        "undo -1",
        "redo",
        "redo 3",
        "redo all",
        "new",
        "load",
        "save",
        "pos",
        "set",
        "set time 2ms",
        "set iterations 20",
        "set iterations 0",
        "set threads 2",
        "set threads 1",
        "set seed 5",
        "set you 1",
        "set you 2",
        "set you both",
        "set you none",
        "set you x",
        "result",
        "help",
        "help undo",
        "help place",
        "help xyz",
        "quit",
        "exit",
        "udno",
        "shwo",
        "",
        "   ",
        "#",
        "LE180110",
        "l e180 110",
        "O T0 330",
        "T T90 310",
        "Z N0 000",
        "L T0 700",
        "110 120 121 122",
        "000 100 200 010",
        "1101201211",
        "999 999 999 999",
    ];
    let mut line = match rng.random_range(0..10) {
        0..=3 => WORDS[rng.random_range(0..WORDS.len())].to_string(),
        4..=6 => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                "undo".to_string()
            } else {
                let p = list[rng.random_range(0..list.len())];
                if rng.random_bool(0.5) {
                    p.to_string()
                } else {
                    let cells: Vec<String> =
                        p.entry().cells.cells().map(|c| c.to_string()).collect();
                    cells.join(" ")
                }
            }
        }
        7 => match codes.get(rng.random_range(0..codes.len().max(1))) {
            Some(c) => format!("pos {c}"),
            None => "pos".to_string(),
        },
        8 => {
            // Unicode and control noise.
            let alphabet: Vec<char> = "aZ0 9#\t\u{7f}\u{0}éü\u{202e}→😀-_.,;:!?\"'\\/~`"
                .chars()
                .collect();
            (0..rng.random_range(0..40))
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect()
        }
        _ => {
            let len = rng.random_range(0..300);
            (0..len)
                .map(|_| char::from(rng.random_range(0x20u8..0x7f)))
                .collect()
        }
    };
    // Mutations: delete, insert, swap, duplicate.
    for _ in 0..rng.random_range(0..4) {
        if line.is_empty() || rng.random_bool(0.5) {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let i = rng.random_range(0..chars.len());
        let mut c = chars.clone();
        match rng.random_range(0..4) {
            0 => {
                c.remove(i);
            }
            1 => c.insert(i, char::from(rng.random_range(0x20u8..0x7f))),
            2 => c.swap(i, rng.random_range(0..chars.len())),
            _ => {
                let d = c[i];
                c.insert(i, d);
            }
        }
        line = c.into_iter().collect();
    }
    line
}

#[test]
fn fuzzed_lines_never_panic_and_keep_the_game_legal() {
    let dir = temp_dir("fuzz");
    std::fs::write(dir.join("junk.caminos"), "hello\n").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut codes = vec!["c101".to_string()];
    for round in 0..4 {
        let you = [You::One, You::Two, You::Both, You::None][round];
        let mut s = session(you);
        for _ in 0..1500 {
            let raw = random_line(&mut rng, s.position(), &codes);
            let line = tame(&raw, &dir, &mut rng);
            let before = *s.position();
            let r = s.handle(&line);
            check_invariants(&s, &line);
            assert!(
                !r.text.contains("\n\n"),
                "{line:?}: blank line in\n{}",
                r.text
            );
            assert!(r.text.is_empty() || r.text.ends_with('\n'), "{line:?}");
            if r.error {
                assert_eq!(r.text.lines().count(), 1, "{line:?}: {}", r.text);
                assert_eq!(
                    *s.position(),
                    before,
                    "{line:?} failed but changed the game"
                );
            }
            if commands::classify(&line) != Input::Empty {
                assert!(!r.text.is_empty() || r.quit, "{line:?}: no answer");
            }
            if parse_move(&line).is_ok() && !r.error {
                assert!(s.position().plies() > 0);
            }
            if rng.random_bool(0.05) {
                codes.push(code::encode(s.position()));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
