//! Search speed: MCTS iterations per second from the Caminos empty board
//! with one and two threads, plus a random playout for reference (the tree's
//! own cost per iteration is the difference), and a toy game where the tree
//! dominates.
//!
//! Each sample runs a fresh search of a fixed number of iterations, so tree
//! growth (allocation included) is part of the figure. Throughput is in
//! iterations ("elements") per second.

use std::time::Duration;

use cabra::game::Position;
use cabra::search::toy::Hex;
use cabra::search::{Budget, Game, SearchConfig, Searcher};
use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Iterations per sample: enough for a root with all 1,345 moves expanded
/// and a few hundred visits each.
const ITERATIONS: u64 = 100_000;

fn fresh_search<G: Game>(root: G, threads: usize, iterations: u64) -> u64 {
    let config = SearchConfig {
        threads,
        seed: 1,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(root, config);
    s.search(&Budget::iterations(iterations)).nodes
}

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    g.throughput(Throughput::Elements(1));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    g.bench_function("caminos playout (reference)", |b| {
        b.iter(|| {
            let mut pos = Position::new();
            black_box(pos.random_playout(&mut rng))
        })
    });

    g.throughput(Throughput::Elements(ITERATIONS));
    for threads in [1, 2] {
        g.bench_with_input(
            BenchmarkId::new(
                "caminos empty board, 100k iterations",
                format!("{threads} threads"),
            ),
            &threads,
            |b, &threads| b.iter(|| fresh_search(Position::new(), threads, ITERATIONS)),
        );
    }
    g.bench_function("hex 7x7, 100k iterations, 1 thread", |b| {
        b.iter(|| fresh_search(Hex::<7>::new(), 1, ITERATIONS))
    });
    g.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
