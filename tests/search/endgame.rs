//! The exact endgame in the tree: late positions are proven (wins, losses
//! and draws) in far fewer iterations than the tree alone needs, and the
//! move played is one the proof stands on.

use cabra::engine::endgame::Endgame;
use cabra::game::record::parse_game;
use cabra::game::{Move, Position};
use cabra::search::{Limits, Proven, SearchConfig, Searcher};

use crate::common;

/// The position of a self-play game (in `games/`) with `left` placements
/// still to make.
fn late(file: &str, left: usize) -> Position {
    let text = std::fs::read_to_string(common::data(&format!("../../games/{file}"))).unwrap();
    let end = parse_game(&text).unwrap();
    let all = end.placements();
    let mut pos = Position::new();
    for &p in &all[..all.len() - left] {
        pos.play(p);
    }
    pos
}

fn search(pos: Position, exact: bool, iterations: u64) -> (Option<Proven>, Option<Move>, u64) {
    let config = SearchConfig {
        exact,
        seed: 3,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(pos, config);
    let r = s.search(&Limits::none().iterations(iterations));
    (r.proven, r.best, r.iterations)
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
        let (value, _) = Endgame::new()
            .solve(&pos, 100_000_000)
            .expect("seven placements left are solved");
        let want = match value {
            1 => Proven::Win,
            0 => Proven::Draw,
            _ => Proven::Loss,
        };
        let (proven, best, used) = search(pos, true, 200_000);
        assert_eq!(proven, Some(want), "{file} with {left} left");
        assert!(used < 200_000, "{file}: the proof ended the search");
        // The move played keeps the proven value.
        let mut after = pos;
        after.play_move(best.unwrap());
        let after_value = match after.status().winner() {
            _ if !after.status().is_over() => -Endgame::new().solve(&after, 100_000_000).unwrap().0,
            Some(w) if w == pos.to_move() => 1,
            Some(_) => -1,
            None => 0,
        };
        if want != Proven::Loss {
            assert_eq!(after_value, value, "{file} with {left} left");
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
        s.search(&Limits::none().iterations(2_000));
        for &mv in next {
            s.advance(mv);
        }
        let r = s.search(&Limits::none().iterations(2_000));
        assert_eq!(r.proven, Some(Proven::Win), "seed {seed}");
        let mut after = *s.position();
        after.play_move(r.best.unwrap());
        let (value, _) = Endgame::new().solve(&after, 100_000_000).unwrap();
        assert_eq!(value, -1, "seed {seed}: the move played keeps the win");
    }
}

/// With threads sharing the tree, each runs its exact searches outside the
/// tree's lock with its own table; what they prove is recorded all the same.
#[test]
fn threads_sharing_the_tree_prove_late_positions_too() {
    for (file, left) in [
        ("selfplay-draw.caminos", 7),
        ("selfplay-perimeter-win.caminos", 7),
    ] {
        let pos = late(file, left);
        let (value, _) = Endgame::new().solve(&pos, 100_000_000).unwrap();
        let want = [Proven::Loss, Proven::Draw, Proven::Win][(value + 1) as usize];
        let config = SearchConfig {
            threads: 2,
            seed: 3,
            ..SearchConfig::default()
        };
        let r = Searcher::new(pos, config).search(&Limits::none().iterations(200_000));
        assert_eq!(r.proven, Some(want), "{file} with {left} left");
        assert!(r.iterations < 200_000, "{file}: the proof ended the search");
        let mut after = pos;
        after.play_move(r.best.unwrap());
        let after_value = match after.status().winner() {
            _ if !after.status().is_over() => -Endgame::new().solve(&after, 100_000_000).unwrap().0,
            Some(w) if w == pos.to_move() => 1,
            Some(_) => -1,
            None => 0,
        };
        if want != Proven::Loss {
            assert_eq!(
                after_value, value,
                "{file}: the move played keeps the value"
            );
        }
    }
}
