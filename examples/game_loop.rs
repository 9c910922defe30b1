//! A game loop with the library alone: two players that choose uniformly
//! among the legal moves, until the game ends.
//!
//! `cargo run --example game_loop [SEED]`
//!
//! Copied into another crate, it needs `rand = "0.9"` and
//! `rand_xoshiro = "0.7"` beside `cabra` (any `rand_core` 0.9 generator
//! does).

use cabra::game::{MoveList, Position, Status, board_text};
use cabra::rand_core::SeedableRng;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::new();
    let mut moves = MoveList::new();
    while pos.status() == Status::Ongoing {
        pos.legal_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        println!("{}: {m}", pos.to_move());
        // Checked: a move the list gave is legal, so this cannot fail.
        pos.play(m).expect("a listed move is legal");
    }
    print!("{}", board_text(&pos, 100));
    println!("{} after {} moves", pos.status(), pos.plies());
    println!("position code: {}", pos.to_code());
}
