//! Rules-core speed: random playouts, legal-move generation, the bridge
//! test, random move drawing, play/undo. Mid-game positions are reached by
//! seeded random play so every run measures the same positions.

use cabra::game::{PlacementList, Player, Position};
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::midgame;

fn rules(c: &mut Criterion) {
    let start = Position::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    c.bench_function("playout from the empty board", |b| {
        b.iter(|| {
            let mut pos = start;
            black_box(pos.random_playout(&mut rng))
        })
    });

    let mid = midgame(12, 3);
    let mut list = PlacementList::new();
    c.bench_function("legal_moves at ply 12", |b| {
        b.iter(|| {
            black_box(&mid).legal_placements(&mut list);
            black_box(list.len())
        })
    });
    c.bench_function("legal_moves on the empty board", |b| {
        b.iter(|| {
            black_box(&start).legal_placements(&mut list);
            black_box(list.len())
        })
    });
    c.bench_function("random_move at ply 12", |b| {
        b.iter(|| black_box(&mid).random_move(&mut rng))
    });
    c.bench_function("has_bridge at ply 12 (both players)", |b| {
        b.iter(|| {
            let p = black_box(&mid);
            (p.has_bridge(Player::One), p.has_bridge(Player::Two))
        })
    });
    let late = midgame(20, 5);
    c.bench_function("has_bridge at ply 20 (both players)", |b| {
        b.iter(|| {
            let p = black_box(&late);
            (p.has_bridge(Player::One), p.has_bridge(Player::Two))
        })
    });
    // The test `play` runs: does the piece just placed complete a bridge?
    let last = late.placements()[late.placements().len() - 1].entry().cells;
    let mover = late.to_move().other();
    let (own, opp) = (late.cubes(mover), late.cubes(mover.other()));
    c.bench_function("completes_bridge after a placement at ply 20", |b| {
        b.iter(|| cabra::game::bridge::completes_bridge(black_box(own), opp, last))
    });
    mid.legal_placements(&mut list);
    let some = list[list.len() / 2];
    c.bench_function("play + undo at ply 12", |b| {
        b.iter(|| {
            let mut p = mid;
            p.play_unchecked(black_box(some));
            p.undo()
        })
    });
    c.bench_function("winning_move at ply 20", |b| {
        b.iter(|| black_box(&late).winning_move())
    });
}

criterion_group!(benches, rules);
criterion_main!(benches);
