//! The exact endgame in the tree: late positions are proven (wins, losses
//! and draws) in far fewer iterations than the tree alone needs, and the
//! move played is one the proof stands on.

use cabra::engine::endgame::{Endgame, TABLE_BYTES, Value};
use cabra::game::record::parse_game;
use cabra::game::{Move, Position};
use cabra::search::{Budget, Proven, SearchConfig, Searcher};

use crate::common;

/// The position of a self-play game (in `games/`) with `left` placements
/// still to make.
fn late(file: &str, left: usize) -> Position {
    let text = std::fs::read_to_string(common::data(&format!("../../games/{file}"))).unwrap();
    let end = parse_game(&text).unwrap();
    let all = end.placements();
    let mut pos = Position::new();
    for &p in &all[..all.len() - left] {
        pos.play_unchecked(p);
    }
    pos
}

fn search(pos: Position, exact: bool, iterations: u64) -> (Option<Proven>, Option<Move>, u64) {
    let config = SearchConfig {
        endgame: exact,
        seed: 3,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(pos, config);
    let r = s.search(&Budget::iterations(iterations));
    (r.proven, r.best, r.iterations)
}

/// The exact value of `pos` for the side to move.
fn exact_value(pos: &Position) -> Value {
    Endgame::new()
        .solve(pos, 100_000_000)
        .expect("late positions are solved")
        .0
}

/// What the search should report for an exact value.
fn proven(value: Value) -> Proven {
    [Proven::Loss, Proven::Draw, Proven::Win][(value + 1) as usize]
}

/// The exact value, for the side to move in `pos`, of playing `mv` there.
fn value_of(pos: Position, mv: Move) -> Value {
    let mut after = pos;
    after.play_move_unchecked(mv);
    match after.status().winner() {
        _ if !after.status().is_over() => -exact_value(&after),
        Some(w) if w == pos.to_move() => 1,
        Some(_) => -1,
        None => 0,
    }
}

#[test]
fn late_positions_are_proven_and_the_proven_move_is_played() {
    let mut kinds = Vec::new();
    for (file, left) in [
        ("selfplay-draw.caminos", 7),
        ("selfplay-draw.caminos", 6),
        ("selfplay-perimeter-win.caminos", 7),
        ("selfplay-perimeter-win.caminos", 6),
    ] {
        let pos = late(file, left);
        let value = exact_value(&pos);
        let want = proven(value);
        let (found, best, used) = search(pos, true, 200_000);
        assert_eq!(found, Some(want), "{file} with {left} left");
        assert!(used < 200_000, "{file}: the proof ended the search");
        // The move played keeps the proven value.
        if want != Proven::Loss {
            assert_eq!(
                value_of(pos, best.unwrap()),
                value,
                "{file} with {left} left"
            );
        }
        // Without the exact search the tree has not proven it by then.
        let (alone, _, _) = search(pos, false, used);
        assert_eq!(alone, None, "{file} with {left} left");
        kinds.push(want);
    }
    assert!(kinds.contains(&Proven::Draw), "{kinds:?}");
}

/// A tree kept along the game plays the move a proof found inside it
/// stands on. In this match game the exact search proved, below the root,
/// the position after 24 placements won for player 1 (by `O E0 610`); once
/// the game got there, the kept tree knew the root won but not by which
/// placement, and player 1 played the most visited one, which only draws.
#[test]
fn a_kept_tree_plays_the_move_its_proof_stands_on() {
    let pos = late("kept-proof-draw.caminos", 6);
    let game = parse_game(
        &std::fs::read_to_string(common::data("../../games/kept-proof-draw.caminos")).unwrap(),
    )
    .unwrap();
    let next = &game.moves()[22..24];
    for seed in 1..=4 {
        let config = SearchConfig {
            seed,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(pos, config);
        s.search(&Budget::iterations(2_000));
        for &mv in next {
            s.advance(mv);
        }
        let r = s.search(&Budget::iterations(2_000));
        assert_eq!(r.proven, Some(Proven::Win), "seed {seed}");
        assert_eq!(
            value_of(*s.position(), r.best.unwrap()),
            1,
            "seed {seed}: the move played keeps the win"
        );
    }
}

/// With threads sharing the tree, each runs its exact searches outside the
/// tree's lock with its own table (one for all its lanes); what they prove
/// is recorded all the same.
#[test]
fn threads_sharing_the_tree_prove_late_positions_too() {
    for (file, left) in [
        ("selfplay-draw.caminos", 7),
        ("selfplay-perimeter-win.caminos", 7),
    ] {
        let pos = late(file, left);
        let value = exact_value(&pos);
        let want = proven(value);
        let config = SearchConfig {
            threads: 2,
            seed: 3,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(pos, config);
        let r = s.search(&Budget::iterations(200_000));
        assert_eq!(r.proven, Some(want), "{file} with {left} left");
        // The engine's memory cap counts one table a thread: two here,
        // where one a lane would be four or more. The tree's own bytes are
        // estimated (its arena's spare room varies with the threads'
        // timing), so the bound leaves a third table's room for the error.
        let tables = s.memory().saturating_sub(s.nodes() * 100);
        assert!(tables < 3 * TABLE_BYTES, "{file}: {} MiB", s.memory() >> 20);
        assert!(r.iterations < 200_000, "{file}: the proof ended the search");
        if want != Proven::Loss {
            let kept = value_of(pos, r.best.unwrap());
            assert_eq!(kept, value, "{file}: the move played keeps the value");
        }
    }
}
