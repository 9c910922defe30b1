//! The levels: their table, their choice of a move, and how they play.

use super::*;
use crate::game::PlacementList;

fn stats(mv: Move, visits: u64, proven: Option<Proven>) -> MoveStats<Move> {
    MoveStats {
        mv,
        visits,
        winrate: 0.5,
        proven,
        pv: vec![mv],
    }
}

fn heat(temperature: f32) -> Choice {
    Choice {
        temperature,
        randomness: 0,
    }
}

fn moves(n: usize) -> Vec<Move> {
    let mut list = PlacementList::new();
    Position::new().legal_placements(&mut list);
    list.iter().take(n).map(|&p| Move::Place(p)).collect()
}

fn report(top: Vec<MoveStats<Move>>, proven: Option<Proven>) -> Report<Move> {
    Report {
        best: top.first().map(|m| m.mv),
        winrate: 0.5,
        proven,
        iterations: 100,
        nodes: 100,
        seconds: 0.0,
        iterations_per_second: 0.0,
        pv: Vec::new(),
        top,
        threads: 1,
    }
}

#[test]
fn the_table_rises_from_the_reference_to_the_full_engine() {
    assert!(
        LEVELS
            .iter()
            .enumerate()
            .all(|(i, l)| usize::from(l.number) == i)
    );
    assert!(LEVELS[0].is_random() && LEVELS[0].elo == 0);
    assert!(LEVELS[usize::from(TOP)].is_top() && TOP >= 10);
    assert!(LEVELS.windows(2).all(|w| w[0].elo < w[1].elo));
    // Each level searches at least as much as the one below, and
    // chooses no more loosely.
    for w in LEVELS[1..].windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(b.iterations.unwrap_or(u64::MAX) >= a.iterations.unwrap_or(u64::MAX));
        assert!(b.randomness <= a.randomness && b.temperature <= a.temperature);
    }
    assert_eq!(Level::nearest(-500).number, 1);
    assert_eq!(Level::nearest(100_000).number, TOP);
    let mid = &LEVELS[5];
    assert_eq!(Level::nearest(mid.elo + 1).number, 5);
    assert_eq!(Level::get(TOP + 1), None);
}

#[test]
fn a_choice_follows_the_visits_and_never_a_proven_loss() {
    let m = moves(3);
    let r = report(
        vec![
            stats(m[0], 60, None),
            stats(m[1], 30, None),
            stats(m[2], 10, Some(Proven::Loss)),
        ],
        None,
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut counts = [0; 3];
    for _ in 0..3000 {
        let c = choose(&r, &Position::new(), heat(1.0), &mut rng).unwrap();
        counts[m.iter().position(|&x| x == c).unwrap()] += 1;
    }
    assert_eq!(counts[2], 0, "a proven loss is never chosen");
    // 60:30, about 2000 and 1000.
    assert!((1850..2150).contains(&counts[0]), "{counts:?}");
    // A colder choice leans on the most visited move.
    let cold = (0..1000)
        .filter(|_| choose(&r, &Position::new(), heat(0.25), &mut rng) == Some(m[0]))
        .count();
    assert!(cold > 900, "{cold}");
    assert_eq!(
        choose(&r, &Position::new(), heat(0.0), &mut rng),
        Some(m[0])
    );
}

#[test]
fn a_proven_win_is_always_played() {
    let m = moves(2);
    let r = report(
        vec![stats(m[0], 1, Some(Proven::Win)), stats(m[1], 99, None)],
        Some(Proven::Win),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert!((0..200).all(|_| choose(
        &r,
        &Position::new(),
        Choice {
            temperature: 4.0,
            randomness: 100
        },
        &mut rng
    ) == Some(m[0])));
}

#[test]
fn randomness_draws_any_legal_move_that_often() {
    let m = moves(1);
    let r = report(vec![stats(m[0], 10, None)], None);
    let pos = Position::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let half = Choice {
        temperature: 0.0,
        randomness: 50,
    };
    let searched = (0..2000)
        .filter(|_| choose(&r, &pos, half, &mut rng) == Some(m[0]))
        .count();
    // Half the searched move, and a random one (rarely the same) else.
    assert!((900..1100).contains(&searched), "{searched}");
}

#[test]
fn the_random_reference_plays_every_legal_move_and_repeats_itself() {
    let pos = Position::new();
    let a = random_move(&pos, 5).unwrap();
    assert_eq!(random_move(&pos, 5), Some(a));
    assert!(pos.is_legal(a));
    let seen: std::collections::HashSet<Move> =
        (0..400).filter_map(|s| random_move(&pos, s)).collect();
    assert!(seen.len() > 300, "{}", seen.len());
}

#[test]
fn the_chosen_move_leads_the_report() {
    let m = moves(2);
    let r = report(vec![stats(m[0], 6, None), stats(m[1], 3, None)], None);
    let r = with_move(r, m[1]);
    assert_eq!(r.best, Some(m[1]));
    assert_eq!(r.top[0].mv, m[1]);
    assert_eq!(r.pv, vec![m[1]]);
}

/// The suite's positions of one kind, with their names.
fn suite(kind: crate::engine::tactics::Kind) -> Vec<(&'static str, Position)> {
    use crate::engine::tactics::{SUITE, kind_in};
    SUITE
        .iter()
        .filter(|(_, text)| kind_in(text) == Some(Ok(kind)))
        .map(|(name, text)| (*name, crate::game::record::parse_game(text).unwrap()))
        .collect()
}

/// The move of level `n` with `seed` at `pos`, given `time`.
fn level_move(n: u8, seed: u64, pos: &Position, time: std::time::Duration) -> Move {
    use crate::engine::{Budget, EngineConfig, EngineHandle, Request};
    let config = EngineConfig::parse(&format!("level={n},seed={seed}")).unwrap();
    let engine = EngineHandle::new(config);
    let request = Request::new(*pos).limits(Budget::time(time));
    let thought = engine.search(request).unwrap();
    thought.report.best.expect("a move")
}

#[test]
fn no_level_misses_a_win_in_one() {
    use crate::engine::tactics::{Kind, solves};
    let positions = suite(Kind::Win1);
    assert!(!positions.is_empty());
    for n in 1..=TOP {
        for (name, pos) in &positions {
            for seed in 0..3 {
                let mv = level_move(n, seed, pos, std::time::Duration::from_secs(2));
                let p = mv.placement().expect("a placement");
                assert!(
                    solves(pos, Kind::Win1, p),
                    "level {n}, seed {seed}: {mv} in {name}"
                );
            }
        }
    }
}

#[test]
fn a_middle_level_blocks_immediate_threats() {
    use crate::engine::tactics::{Kind, solves};
    let positions = suite(Kind::Block);
    let mut blocked = 0;
    let mut tries = 0;
    for (_, pos) in &positions {
        for seed in 0..4 {
            let mv = level_move(TOP / 2, seed, pos, std::time::Duration::from_secs(2));
            tries += 1;
            blocked += usize::from(mv.placement().is_some_and(|p| solves(pos, Kind::Block, p)));
        }
    }
    assert!(
        tries > 0 && blocked * 10 >= tries * 9,
        "{blocked} of {tries}"
    );
}

#[test]
fn a_level_plays_the_same_move_whatever_its_time() {
    // A tactic-free middle game position: the engine's own first moves.
    let mut pos = Position::new();
    for text in ["L E180 110", "O T0 330"] {
        pos.play(text.parse::<Move>().unwrap()).unwrap();
    }
    for n in [3, 6, TOP - 1] {
        let short = level_move(n, 9, &pos, std::time::Duration::from_secs(5));
        let long = level_move(n, 9, &pos, std::time::Duration::from_secs(10));
        assert_eq!(short, long, "level {n}");
    }
    // Another seed may choose otherwise, but repeats itself too.
    let a = level_move(3, 10, &pos, std::time::Duration::from_secs(5));
    assert_eq!(
        a,
        level_move(3, 10, &pos, std::time::Duration::from_secs(5))
    );
}
