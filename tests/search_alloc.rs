//! The search loop allocates nothing per iteration: only arena growth and
//! building the report allocate. A counting global allocator compares a
//! short and a long search on a tree at its node cap (so the arena cannot
//! grow); both must allocate the same. A growing tree allocates only a few
//! times in all (amortised doubling). This test binary has only one test,
//! so no other thread allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use cabra::game::Position;
use cabra::search::{Limits, SearchConfig, Searcher};

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

fn allocations_of(s: &mut Searcher<Position>, iterations: u64) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let r = s.search(&Limits::none().iterations(iterations));
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(r.iterations, iterations);
    after - before
}

#[test]
fn search_allocates_only_to_grow_and_report() {
    let config = SearchConfig {
        node_cap: 3_000,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(Position::new(), config);
    // Fill the tree to its cap; from then on nothing may grow.
    s.search(&Limits::none().iterations(5_000));
    assert_eq!(s.nodes(), 3_000);
    let short = allocations_of(&mut s, 10);
    let long = allocations_of(&mut s, 20_000);
    assert_eq!(short, long, "allocations that grow with the iterations");

    let mut s = Searcher::new(Position::new(), SearchConfig::default());
    // Amortised doubling: a handful of reallocations per arena, not one per
    // iteration or per node.
    let n = allocations_of(&mut s, 50_000);
    assert!(n < 200, "{n} allocations for 50,000 iterations");
}
