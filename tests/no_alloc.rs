//! The hot paths allocate nothing: legal moves, play, undo, the bridge test,
//! random moves and whole playouts. A counting global allocator watches a
//! seeded workload (this test binary has only this one test, so no other
//! thread allocates while it counts).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use cabra::game::{MoveList, Player, Position, table};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn hot_paths_do_not_allocate() {
    // Build the table and the move list before counting.
    let _ = table();
    let mut list = Box::new(MoveList::new());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);

    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let mut checked = 0u64;
    for _ in 0..200 {
        let mut pos = Position::new();
        while !pos.status().is_over() {
            pos.legal_moves(&mut list);
            checked += list.len() as u64;
            let p = pos
                .random_move(&mut rng)
                .expect("an ongoing game has a legal move");
            pos.play(p);
            checked += pos.has_bridge(Player::One) as u64 + pos.has_bridge(Player::Two) as u64;
            // undo then redo: the state must survive the round trip
            let q = pos.undo().expect("just played");
            pos.play(q);
        }
        let mut fresh = Position::new();
        fresh.random_playout(&mut rng);
        checked += fresh.plies() as u64;
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert!(checked > 0);
    assert_eq!(after - before, 0, "allocations in the hot paths");
}
