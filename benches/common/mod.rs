//! What the benchmarks share: the positions they measure.

use cabra::game::Position;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A position after `plies` seeded random placements, the game not over:
/// every run measures the same positions.
pub fn midgame(plies: usize, seed: u64) -> Position {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    loop {
        let mut pos = Position::new();
        while pos.plies() < plies && !pos.status().is_over() {
            let p = pos.random_move(&mut rng).expect("a legal move");
            pos.play_unchecked(p);
        }
        if pos.plies() == plies && !pos.status().is_over() {
            return pos;
        }
    }
}
