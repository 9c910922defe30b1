//! A fuzz test of the session: thousands of random and mutated lines, after
//! each of which the game must still be legal and the answer well formed.

use std::path::Path;

use cabra::engine::{parse_count, parse_duration};
use cabra::game::{PlacementList, Position, parse_move};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::commands::{self, Cmd, Input};
use super::super::session::You;
use super::{check_invariants, session, temp_dir};

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
            let mut list = PlacementList::new();
            pos.legal_placements(&mut list);
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
                codes.push(s.position().to_code());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
