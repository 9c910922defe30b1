//! Speed of the learnt evaluation (built-in weights): one evaluation of a
//! position at ply 12 and at ply 20, against a random playout from the
//! same position (what it stands in for). Positions come from seeded
//! random play, so every run measures the same ones.

use cabra::engine::value;
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::midgame;

fn evaluation(c: &mut Criterion) {
    let net = value::builtin().expect("the built-in weights");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for plies in [12, 20] {
        let pos = midgame(plies, 3);
        c.bench_function(&format!("learnt evaluation at ply {plies}"), |b| {
            b.iter(|| black_box(net.value(black_box(&pos))))
        });
        c.bench_function(&format!("random playout from ply {plies}"), |b| {
            b.iter(|| {
                let mut p = pos;
                black_box(p.random_playout(&mut rng))
            })
        });
    }
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
