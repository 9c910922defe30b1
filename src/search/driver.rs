//! The searcher: one tree, searched by one thread or several, kept between
//! moves.
//!
//! Tree parallelism: every thread grows the same tree and teaches the same
//! reply table, each with its own random stream, playouts and exact-search
//! table ([`Walk`]). A thread holds the tree's lock while it descends and
//! backs up, not while it plans an expansion (the win and threat tests
//! and the ranked walk of the node's untried moves), plays out, teaches
//! the reply table or runs an exact search, and a virtual loss on its path
//! sends the others elsewhere meanwhile. It takes the lock once an
//! iteration: the leaf it planned joins the tree after its playout, with
//! the backup. With one thread, a seed and an iteration (or node) limit,
//! the result is exactly reproducible.
//!
//! Tree reuse: [`Searcher::advance`] copies the subtree under the move played
//! into a fresh, compact arena (garbage from the rest of the old tree is
//! dropped; max-trees are rebuilt on demand), so statistics and proofs of
//! the new position carry over.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::config::{MAX_THREADS, SearchConfig};
use super::game::Game;
use super::limits::{Budget, Stopper};
use super::order::{child_salt, mix};
use super::report::{MoveStats, Proven, Report};
use super::tree::{Node, Proof, ROOT};
use super::walk::{Walk, reply_table};
use super::worker::{LANES, Shared, Worker};

/// The longest principal variation a report gives.
const MAX_PV: usize = 64;

/// A search over positions of one game, keeping its tree between moves.
pub struct Searcher<G: Game> {
    root: G,
    config: SearchConfig,
    /// The tree.
    worker: Worker<G>,
    /// One walk per thread.
    walks: Vec<Walk<G>>,
    pool: Option<rayon::ThreadPool>,
}

impl<G: Game> std::fmt::Debug for Searcher<G> {
    /// The configuration and the tree's size, not the tree.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("config", &self.config)
            .field("nodes", &self.worker.tree.count())
            .finish_non_exhaustive()
    }
}

impl<G: Game> Searcher<G> {
    /// A searcher at `root` whose playouts use the game's default policy.
    /// Panics if `G::MOVE_SPACE` is above [`super::order::MAX_MOVE_SPACE`]
    /// or a thread pool cannot be built.
    pub fn new(root: G, config: SearchConfig) -> Self {
        Self::with_playout(root, config, G::Playout::default())
    }

    /// A searcher at `root` whose playouts use `playout`.
    pub fn with_playout(root: G, config: SearchConfig, playout: G::Playout) -> Self {
        let threads = config.threads.clamp(1, MAX_THREADS);
        let seed = thread_seed(config.seed, 0);
        let worker = Worker::new(&root, &config, seed, config.node_cap);
        let replies = reply_table::<G>(config.reply);
        // One walk per lane of each thread (a thread alone has one).
        let lanes = if threads > 1 { LANES } else { 1 };
        let walks = (0..threads * lanes)
            .map(|i| Walk::new(&playout, thread_seed(config.seed, i), replies.clone()))
            .collect();
        let pool = (threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("cabra-search-{i}"))
                .build()
                .expect("building the search thread pool")
        });
        Searcher {
            root,
            config: SearchConfig { threads, ..config },
            worker,
            walks,
            pool,
        }
    }

    /// The position searched.
    pub fn position(&self) -> &G {
        &self.root
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Reports list this many root moves from now on.
    pub fn set_top_moves(&mut self, n: usize) {
        self.config.top_moves = n;
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.worker.tree.count()
    }

    /// Arena slots of the tree (nodes plus spare room), for memory estimates.
    pub fn slots(&self) -> usize {
        self.worker.tree.slots()
    }

    /// Bytes the search holds: the tree (its arena as written, its
    /// max-trees and root statistics) and each thread's exact search.
    pub fn memory(&self) -> usize {
        let exact: usize = self.walks.iter().map(|w| G::exact_bytes(&w.exact)).sum();
        self.worker.bytes() + exact
    }

    /// The most nodes the tree may hold from the next search on (the
    /// configuration's [`SearchConfig::node_cap`] until this is called). A
    /// tree already larger keeps its nodes but grows no more.
    pub fn set_node_cap(&mut self, cap: usize) {
        self.config.node_cap = cap.max(1);
        self.worker.set_node_cap(cap);
    }

    /// Searches the current position until a limit is reached and reports.
    /// Continues the existing tree, so repeated calls add up.
    pub fn search(&mut self, limits: &Budget) -> Report<G::Move> {
        self.search_stopping(limits, None)
    }

    /// As [`Searcher::search`], and stops early once `stop` is raised (by
    /// another thread, e.g. on Ctrl-C); the search never lowers it: clear
    /// it before the next search.
    pub fn search_until(&mut self, limits: &Budget, stop: &AtomicBool) -> Report<G::Move> {
        self.search_stopping(limits, Some(stop))
    }

    fn search_stopping(&mut self, limits: &Budget, stop: Option<&AtomicBool>) -> Report<G::Move> {
        let start = Instant::now();
        let stopper = Stopper::new(limits, stop, start);
        let n = self.config.threads.max(1);
        let root = &self.root;
        let max_nodes = limits.nodes.unwrap_or(u64::MAX);
        let iterations: u64 = match &self.pool {
            None => self.worker.run(
                &mut self.walks[0],
                root,
                limits.iterations.unwrap_or(u64::MAX),
                max_nodes,
                &stopper,
            ),
            Some(pool) => {
                // `broadcast` runs the closure once on each pool thread,
                // each with its own lanes' walks over the one tree.
                let shared = Shared::new(&mut self.worker);
                let per_thread = self.walks.len() / n;
                let lanes: Vec<Mutex<&mut [Walk<G>]>> =
                    self.walks.chunks_mut(per_thread).map(Mutex::new).collect();
                pool.broadcast(|ctx| {
                    let i = ctx.index();
                    let mut lanes = lanes[i].lock().expect("a search thread panicked");
                    Worker::run_shared(
                        &shared,
                        &mut lanes,
                        root,
                        limits.iterations.unwrap_or(u64::MAX),
                        max_nodes,
                        &stopper,
                    )
                })
                .into_iter()
                .sum()
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        self.report(iterations, seconds)
    }

    /// Plays `mv` at the root, keeping what the tree knows about the
    /// position after it (the copy takes time proportional to that subtree).
    /// Panics if `mv` is not legal.
    pub fn advance(&mut self, mv: G::Move) {
        assert!(self.root.is_legal(mv), "advance: illegal move {mv:?}");
        self.root.play(mv);
        let id = G::move_id(mv);
        let w = &mut self.worker;
        let salt = child_salt(w.root_salt, id);
        let root = &w.tree;
        let found = root
            .children(ROOT)
            .iter()
            .position(|c| usize::from(c.mv) == id);
        let child = found.map(|slot| root.node(ROOT).first + slot as u32);
        // A root move proven lost by the threat rule has no children:
        // its proof names no move to play from there, so a fresh tree
        // (whose win check finds the winning move) replaces it.
        let settled_empty = child.is_some_and(|c| {
            let n = root.node(c);
            n.proof != Proof::Unknown && n.len == 0
        });
        match child {
            Some(c) if !settled_empty => {
                let sub = root.extract(c);
                w.install(sub, &self.root, salt);
            }
            _ => w.reset(&self.root, salt),
        }
    }

    /// Starts over at a new position, dropping the tree.
    pub fn set_position(&mut self, root: G) {
        self.root = root;
        let salt = mix(self.worker.root_salt);
        self.worker.reset(&self.root, salt);
    }

    /// Builds the report from the root of the tree.
    fn report(&self, iterations: u64, seconds: f64) -> Report<G::Move> {
        let stats = self.root_stats();
        let best = self.choose(&stats);
        let root_proof = Some(self.worker.tree.node(ROOT).proof).filter(|&p| p != Proof::Unknown);
        let best_stats = best.and_then(|id| stats.iter().find(|s| s.id == id));
        let proven = match root_proof {
            // The root's proof is for the player who moved into it.
            Some(p) => flip(p),
            None if best_stats.is_some_and(|s| s.proof == Proof::Win) => Some(Proven::Win),
            None => None,
        };
        let winrate = match (proven, best_stats) {
            (Some(Proven::Win), _) => 1.0,
            (Some(Proven::Loss), _) => 0.0,
            (Some(Proven::Draw), _) => 0.5,
            (None, Some(s)) => s.winrate(),
            (None, None) => 0.5,
        };
        // The move to play first, with its own statistics (it may be a
        // proven win visited less than others, or a legal move never
        // visited, chosen because every searched one is proven lost);
        // then the others in the order `choose` prefers them: visits, then
        // rewards, then id.
        let chosen = best.map(|id| match stats.iter().find(|s| s.id == id) {
            Some(s) => *s,
            None => Acc {
                id,
                visits: 0,
                wins2: 0,
                results: [0, 0],
                proof: Proof::Unknown,
            },
        });
        let mut rest: Vec<&Acc> = stats.iter().filter(|s| Some(s.id) != best).collect();
        rest.sort_by_key(|s| (std::cmp::Reverse((s.visits, s.wins2)), s.id));
        let top = chosen
            .iter()
            .chain(rest)
            .take(self.config.top_moves.max(1))
            .map(|s| MoveStats {
                mv: G::move_from_id(s.id),
                visits: s.visits,
                winrate: s.winrate(),
                proven: flip_child(s.proof),
                pv: self.pv(s.id),
            })
            .collect();
        Report {
            best: best.map(G::move_from_id),
            winrate,
            proven,
            iterations,
            nodes: self.nodes() as u64,
            seconds,
            iterations_per_second: if seconds > 0.0 {
                iterations as f64 / seconds
            } else {
                0.0
            },
            pv: best.map(|id| self.pv(id)).unwrap_or_default(),
            top,
            threads: self.config.threads.max(1),
        }
    }

    /// The root's children, in move id order.
    fn root_stats(&self) -> Vec<Acc> {
        let results = &self.worker.root_results;
        let mut stats: Vec<Acc> = (self.worker.tree.children(ROOT).iter())
            .enumerate()
            .map(|(slot, c)| Acc {
                id: usize::from(c.mv),
                visits: u64::from(c.visits),
                wins2: u64::from(c.wins2),
                results: results.get(slot).copied().unwrap_or([0, 0]),
                proof: c.proof,
            })
            .collect();
        stats.sort_unstable_by_key(|a| a.id);
        stats
    }

    /// The move to play: a proven win if there is one; else the most
    /// visited move not proven lost; else any legal move not proven lost;
    /// else (everything loses) the most visited move.
    fn choose(&self, stats: &[Acc]) -> Option<usize> {
        let most_visited = |keep: &dyn Fn(&Acc) -> bool| {
            stats
                .iter()
                .filter(|s| keep(s))
                .max_by_key(|s| (s.visits, s.wins2, std::cmp::Reverse(s.id)))
                .map(|s| s.id)
        };
        if let Some(id) = most_visited(&|s| s.proof == Proof::Win) {
            return Some(id);
        }
        // A root proven drawn (no move wins): a move proven to draw, not an
        // unproven one that only looks better.
        if self.worker.tree.node(ROOT).proof == Proof::Draw {
            if let Some(id) = most_visited(&|s| s.proof == Proof::Draw) {
                return Some(id);
            }
        }
        if let Some(id) = most_visited(&|s| s.proof != Proof::Loss && s.visits > 0) {
            return Some(id);
        }
        let mut legal = Vec::new();
        self.root.legal_moves(&mut legal);
        let lost = |id: usize| stats.iter().any(|s| s.id == id && s.proof == Proof::Loss);
        if let Some(&m) = legal.iter().find(|&&m| !lost(G::move_id(m))) {
            return Some(G::move_id(m));
        }
        most_visited(&|_| true)
    }

    /// The principal variation from root move `first`: at each node a
    /// proven win for the mover if any, otherwise the most visited child
    /// not proven lost.
    fn pv(&self, first: usize) -> Vec<G::Move> {
        // Its full length at once: one allocation per line, however deep
        // the tree (the allocation test counts them).
        let mut pv = Vec::with_capacity(MAX_PV);
        pv.push(G::move_from_id(first));
        let tree = &self.worker.tree;
        let Some(slot) = (tree.children(ROOT).iter()).position(|c| usize::from(c.mv) == first)
        else {
            return pv;
        };
        let mut node = tree.node(ROOT).first + slot as u32;
        while pv.len() < MAX_PV {
            let kids = tree.children(node);
            let pick = |c: &Node| {
                (
                    c.proof == Proof::Win,
                    c.proof != Proof::Loss,
                    c.visits,
                    std::cmp::Reverse(c.mv),
                )
            };
            let Some(slot) = (0..kids.len()).max_by_key(|&s| pick(&kids[s])) else {
                break;
            };
            node = tree.node(node).first + slot as u32;
            pv.push(G::move_from_id(usize::from(kids[slot].mv)));
        }
        pv
    }
}

/// Summed statistics of one root move.
#[derive(Clone, Copy, Debug)]
struct Acc {
    id: usize,
    visits: u64,
    /// Doubled rewards, which choose among equally visited moves.
    wins2: u64,
    /// Iterations and doubled wins by results alone, this tree's since its
    /// root was set ([`Worker::root_results`]).
    results: [u32; 2],
    proof: Proof,
}

impl Acc {
    /// The side to move's chance to win by this move: the proven value if
    /// any, else the mean result of the iterations through it (their mean
    /// reward when none ran since the root was set).
    fn winrate(&self) -> f64 {
        let [n, w2] = self.results.map(f64::from);
        match self.proof {
            Proof::Win => 1.0,
            Proof::Loss => 0.0,
            Proof::Draw => 0.5,
            Proof::Unknown if n > 0.0 => w2 / (2.0 * n),
            Proof::Unknown if self.visits == 0 => 0.5,
            Proof::Unknown => self.wins2 as f64 / (2 * self.visits) as f64,
        }
    }
}

/// A node's proof (for the player who moved into it) as a value for the
/// side to move there.
fn flip(p: Proof) -> Option<Proven> {
    match p {
        Proof::Unknown => None,
        Proof::Win => Some(Proven::Loss),
        Proof::Loss => Some(Proven::Win),
        Proof::Draw => Some(Proven::Draw),
    }
}

/// A root child's proof as the value of that move for the side to move at
/// the root (who made it).
fn flip_child(p: Proof) -> Option<Proven> {
    match p {
        Proof::Unknown => None,
        Proof::Win => Some(Proven::Win),
        Proof::Loss => Some(Proven::Loss),
        Proof::Draw => Some(Proven::Draw),
    }
}

/// Seed of thread `i`: distinct, well-mixed streams from one base seed.
fn thread_seed(base: u64, i: usize) -> u64 {
    mix(base ^ mix(i as u64))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::search::toy::{DrawnHex, Hex};

    #[test]
    fn the_threads_of_a_search_teach_one_reply_table() {
        let config = SearchConfig {
            threads: 2,
            reply: true,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(Hex::<5>::new(), config);
        let tables: Vec<_> = s.walks.iter().map(|w| w.replies.clone().unwrap()).collect();
        assert!(Arc::ptr_eq(&tables[0], &tables[1]));
        // The threads fill it as they search.
        s.search(&Budget::iterations(2000));
        let stored = (0..25).filter(|&m| tables[1].get(0, m).is_some()).count();
        assert!(stored > 0, "no reply learned");
    }

    #[test]
    fn win_rates_come_from_results_not_from_rewards() {
        // Every playout is rewarded as a draw, so the tree's rewards say
        // one half everywhere; the reported win rates are the results'.
        // With random playouts the centre of 5x5 Hex (move 12) wins more
        // often than a corner (move 0): about 57% against 51%.
        let config = SearchConfig {
            solver: false,
            top_moves: 25,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(DrawnHex(Hex::<5>::new()), config);
        let r = s.search(&Budget::iterations(100_000));
        let rate = |mv: u8| r.top.iter().find(|m| m.mv == mv).unwrap().winrate;
        let (corner, centre) = (rate(0), rate(12));
        assert!(centre > corner + 0.03, "centre {centre}, corner {corner}");
        // The tree itself holds draws only.
        let root = s.worker.tree.children(ROOT);
        assert!(root.iter().all(|c| c.wins2 == c.visits));
    }
}
