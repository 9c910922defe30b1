//! Tests of the tree walk, alone and with threads sharing the tree.

use super::*;
use crate::search::limits::Stopper;
use crate::search::toy::{Hex, hex_wrapper_items};
use crate::search::walk::reply_table;

/// Every node of the tree below `i`, `i` included.
fn walk(tree: &Tree, i: u32, out: &mut Vec<u32>) {
    out.push(i);
    let n = tree.node(i);
    for k in 0..u32::from(n.len) {
        walk(tree, n.first + k, out);
    }
}

#[test]
fn no_node_adds_a_move_twice() {
    // The order walk hands out each move id once per node, across the
    // expansions of many iterations and the ranks' boundaries.
    let config = SearchConfig::default();
    let root = Hex::<5>::new();
    let mut w = Worker::new(&root, &config, 7, 1 << 20);
    let mut thread = Walk::new(&(), 7, reply_table::<Hex<5>>(true));
    for _ in 0..20_000 {
        w.iterate(&mut thread, &root, &|| false);
    }
    let mut nodes = Vec::new();
    walk(&w.tree, ROOT, &mut nodes);
    for &i in &nodes {
        let mut moves: Vec<u16> = w.tree.children(i).iter().map(|c| c.mv).collect();
        moves.sort_unstable();
        let len = moves.len();
        moves.dedup();
        assert_eq!(moves.len(), len, "node {i} has a move twice");
    }
    assert!(nodes.len() > 5_000, "{} nodes", nodes.len());
}

#[test]
fn threads_sharing_a_tree_run_the_iteration_limit_together() {
    // The limit is the threads' together, not a share each: a thread that
    // comes late (descheduled, say) finds the work done, and one that is
    // early does it all, where an even share had left it idle.
    let config = SearchConfig::default();
    let root = Hex::<5>::new();
    let mut w = Worker::new(&root, &config, 5, 1 << 20);
    let mut walks: Vec<_> = (0..2 * LANES as u64)
        .map(|i| Walk::new(&(), i, None))
        .collect();
    let limits = crate::search::Budget::UNLIMITED;
    let stop = Stopper::new(&limits, None, std::time::Instant::now());
    let shared = Shared::new(&mut w);
    let (early, late) = walks.split_at_mut(LANES);
    let first = Worker::run_shared(&shared, early, &root, 3_000, u64::MAX, &stop);
    let second = Worker::run_shared(&shared, late, &root, 3_000, u64::MAX, &stop);
    assert_eq!((first, second), (3_000, 0));
    assert_eq!(w.tree.node(ROOT).visits, 3_000);
}

/// Hex whose odd cells rank below its even ones, for the move order by rank.
#[derive(Clone, Copy, Debug)]
struct RankedHex(Hex<5>);

impl Game for RankedHex {
    hex_wrapper_items!(5);
    const RANKS: usize = 2;

    fn ranker(&self) -> Option<()> {
        Some(())
    }
    fn rank(&self, _: &(), mv: u8) -> usize {
        usize::from(mv % 2)
    }
}

#[test]
fn worse_ranks_wait_below_the_root_but_the_root_tries_every_move() {
    let run = |fpu_drop: f32| {
        let config = SearchConfig {
            uct: Uct {
                fpu_drop,
                ..Uct::default()
            },
            prior: true,
            ..SearchConfig::default()
        };
        let root = RankedHex(Hex::new());
        let mut w = Worker::new(&root, &config, 5, 1 << 20);
        let mut thread = Walk::new(&(), 5, None);
        for _ in 0..20_000 {
            w.iterate(&mut thread, &root, &|| false);
        }
        w
    };
    // Below the root, nodes that tried an odd (worse) cell while an even
    // child was still open to question.
    let early = |w: &Worker<RankedHex>| {
        let mut nodes = Vec::new();
        walk(&w.tree, ROOT, &mut nodes);
        nodes
            .iter()
            .filter(|&&i| i != ROOT)
            .filter(|&&i| {
                let children = w.tree.children(i);
                children.iter().any(|c| c.mv % 2 == 1)
                    && children
                        .iter()
                        .any(|c| c.mv % 2 == 0 && c.proof != Proof::Loss && c.visits > 0)
            })
            .count()
    };
    // With the same urgency for both ranks, many; with urgency 0 for the
    // worse rank, none: an odd cell waits until every even child is lost.
    let (flat, dropped) = (run(0.0), run(1.0));
    assert!(early(&flat) > 100, "{}", early(&flat));
    assert_eq!(early(&dropped), 0);
    // The root tries all 25 cells either way.
    assert_eq!(flat.tree.node(ROOT).len, 25);
    assert_eq!(dropped.tree.node(ROOT).len, 25);
}

#[test]
fn a_kept_tree_gives_its_wide_nodes_their_max_trees_back() {
    // `Tree::extract` drops the max-trees. A wide node of the kept tree
    // must get its own back when it is next visited: scanning all its
    // children at every visit made searches on a kept tree a third slower.
    let config = SearchConfig::default();
    let mut root = Hex::<8>::new();
    let mut w = Worker::new(&root, &config, 7, 1 << 22);
    let mut thread = Walk::new(&(), 7, reply_table::<Hex<8>>(true));
    for _ in 0..50_000 {
        w.iterate(&mut thread, &root, &|| false);
    }
    let first = w.tree.node(ROOT).first;
    let (slot, kept) = (w.tree.children(ROOT).iter().enumerate())
        .max_by_key(|(_, c)| c.visits)
        .map(|(slot, c)| (slot, *c))
        .unwrap();
    assert!(usize::from(kept.len) >= ACCEL_MIN_CHILDREN, "{}", kept.len);
    root.play(<Hex<8> as Game>::move_from_id(usize::from(kept.mv)));
    let sub = w.tree.extract(first + slot as u32);
    assert_eq!(sub.node(ROOT).accel, NONE);
    w.install(sub, &root, 1);

    let n = *w.tree.node(ROOT);
    let (chosen, _) = w.best_child(ROOT, &n);
    assert_ne!(w.tree.node(ROOT).accel, NONE, "the root scans its children");
    // Just built, the max-tree agrees with a scan of the children.
    let scale = w.tables.scale(n.visits);
    assert_eq!(chosen, w.tables.scan(w.tree.children(ROOT), scale).0);
    // The search goes on with it, and the root's children stay whole.
    for _ in 0..5_000 {
        w.iterate(&mut thread, &root, &|| false);
    }
    assert_eq!(w.tree.node(ROOT).visits, n.visits + 5_000);
}
