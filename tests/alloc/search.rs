//! The search loop allocates nothing per iteration: only arena growth and
//! building the report allocate. A counting global allocator compares a
//! short and a long search on a tree at its node cap (so the arena cannot
//! grow); both must allocate the same. A growing tree allocates only a few
//! times in all (amortised doubling).

use cabra::game::Position;
use cabra::search::{Budget, SearchConfig, Searcher};

use crate::common;

fn allocations_of(s: &mut Searcher<Position>, iterations: u64) -> usize {
    let before = common::allocations();
    let r = s.search(&Budget::iterations(iterations));
    let after = common::allocations();
    assert_eq!(r.iterations, iterations);
    after - before
}

#[test]
fn search_allocates_only_to_grow_and_report() {
    // One thread, and two sharing the tree.
    for threads in [1, 2] {
        let config = SearchConfig {
            node_cap: 3_000,
            threads,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(Position::new(), config);
        // Fill the tree to its cap; from then on nothing may grow.
        s.search(&Budget::iterations(5_000));
        assert_eq!(s.nodes(), 3_000);
        let short = allocations_of(&mut s, 10);
        let long = allocations_of(&mut s, 20_000);
        assert_eq!(
            short, long,
            "{threads} threads: allocations that grow with the iterations"
        );
    }

    let mut s = Searcher::new(Position::new(), SearchConfig::default());
    // Amortised doubling: a handful of reallocations per arena, not one per
    // iteration or per node.
    let n = allocations_of(&mut s, 50_000);
    assert!(n < 200, "{n} allocations for 50,000 iterations");
}
