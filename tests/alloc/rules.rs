//! The rules' hot paths and the engine's playouts: legal moves, play,
//! undo, the bridge test, random moves, whole playouts (uniform and with
//! the engine's policies and reply lookups), the win and threat tests, and
//! the learnt evaluation.

use cabra::engine::playout::Policy;
use cabra::engine::value;
use cabra::game::{Placement, PlacementList, Player, Position, table};
use cabra::search::{Outcome, Replies};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::common;

#[test]
fn hot_paths_do_not_allocate() {
    // Build the table and the move list before counting.
    let _ = table();
    let mut list = Box::new(PlacementList::new());
    // Loading the built-in weights allocates once.
    let net = value::builtin().expect("the built-in weights load");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    // A reply table with some entries, for the playout's reply lookups.
    let replies = Replies::new(table().entries().len());
    replies.learn(
        &[0, 10, 20, 30, 40, 50],
        &[0, 1, 0, 1, 0, 1],
        Outcome::Win(1),
    );

    let before = common::allocations();
    let mut checked = 0u64;
    for _ in 0..200 {
        let mut pos = Position::new();
        while !pos.status().is_over() {
            pos.legal_placements(&mut list);
            checked += list.len() as u64;
            let p = pos
                .random_move(&mut rng)
                .expect("an ongoing game has a legal move");
            pos.play_unchecked(p);
            checked += (net.value(&pos) > 0.5) as u64;
            checked += pos.has_bridge(Player::One) as u64 + pos.has_bridge(Player::Two) as u64;
            // undo then redo: the state must survive the round trip
            let q = pos.undo().expect("just played");
            pos.play_move_unchecked(q);
        }
        let mut fresh = Position::new();
        fresh.random_playout(&mut rng);
        checked += fresh.plies() as u64;
        // The engine's playout, and the threat tests of the search.
        let mut tactical = Position::new();
        Policy::SHIPPED.run(
            &mut tactical,
            &mut rng,
            Some(&replies),
            Placement::try_from(0_usize).ok(),
            |_| checked += 1,
        );
        checked += pos.threat().is_some() as u64 + pos.winning_move().is_some() as u64;
    }
    let after = common::allocations();
    assert!(checked > 0);
    assert_eq!(after - before, 0, "allocations in the hot paths");
}
