//! One memory budget for the search trees of several engines (the games
//! of `cabra serve`, the queries of `cabra analysis`).
//!
//! Each engine joins the budget through its handle. A search may grow its
//! tree to an equal share of the budget, one share for each search that
//! may run at once; the trees that engines keep between searches (for the
//! next move) count against the budget too, and the least recently used of
//! them are dropped when a search needs their room. So the trees together
//! never hold more than the budget, however many engines there are.

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::{Duration, Instant};

use super::engine::Engine;

/// Bytes a node of a Caminos search tree takes, measured (peak memory of
/// 2M- to 5M-iteration searches over their nodes: 24-byte nodes, spare
/// room in child blocks, max-trees).
pub(crate) const BYTES_PER_NODE: usize = 36;

/// The smallest share a search gets, whatever the budget (a search with
/// no room at all could not even expand its root).
pub(crate) const MIN_SHARE: usize = 1 << 20;

/// An engine's place in the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberId(u64);

struct Member {
    engine: Weak<Mutex<Engine>>,
    /// Bytes of the tree kept since the last search (0: none).
    held: usize,
    /// Whether a search runs (and may use a whole share).
    running: bool,
    /// When its last search ended.
    last_used: Instant,
}

#[derive(Default)]
struct State {
    next: u64,
    members: HashMap<MemberId, Member>,
}

/// A memory budget shared by the search trees of several engines.
pub struct TreeMemory {
    cap: usize,
    at_once: usize,
    state: Mutex<State>,
}

impl std::fmt::Debug for TreeMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeMemory")
            .field("cap", &self.cap)
            .field("at_once", &self.at_once)
            .finish_non_exhaustive()
    }
}

impl TreeMemory {
    /// The smallest share a search's tree gets, whatever the budget, in
    /// bytes. The exact endgame tables (16 MiB a thread) are taken out of
    /// a share first, and the tree gets the rest, or this much where the
    /// tables leave less.
    pub const MIN_SHARE: usize = MIN_SHARE;

    /// A budget of `cap` bytes for the trees of engines of which at most
    /// `at_once` search at the same time.
    pub fn new(cap: usize, at_once: usize) -> TreeMemory {
        TreeMemory {
            cap,
            at_once: at_once.max(1),
            state: Mutex::new(State::default()),
        }
    }

    /// The budget in bytes.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The bytes one search may use.
    pub fn share(&self) -> usize {
        (self.cap / self.at_once).max(MIN_SHARE)
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes held by the trees kept, plus the shares of the searches running.
    pub fn used(&self) -> usize {
        let share = self.share();
        self.state()
            .members
            .values()
            .map(|m| if m.running { share.max(m.held) } else { m.held })
            .sum()
    }

    /// Trees kept by engines that are not searching.
    pub fn kept(&self) -> usize {
        self.state()
            .members
            .values()
            .filter(|m| !m.running && m.held > 0)
            .count()
    }

    pub(crate) fn join(&self, engine: Weak<Mutex<Engine>>) -> MemberId {
        let mut s = self.state();
        let id = MemberId(s.next);
        s.next += 1;
        s.members.insert(
            id,
            Member {
                engine,
                held: 0,
                running: false,
                last_used: Instant::now(),
            },
        );
        id
    }

    pub(crate) fn leave(&self, id: MemberId) {
        self.state().members.remove(&id);
    }

    /// Before a search of member `id`, whose own tree holds `own` bytes:
    /// the bytes its tree may grow to. Drops the least recently used trees
    /// that other engines keep while they are needed for room.
    pub(crate) fn reserve(&self, id: MemberId, own: usize) -> usize {
        let share = self.share();
        let mut s = self.state();
        if let Some(m) = s.members.get_mut(&id) {
            m.running = true;
            m.held = own;
        }
        let footprint = |m: &Member| if m.running { share.max(m.held) } else { m.held };
        let mut others: usize = (s.members.iter())
            .filter(|(k, _)| **k != id)
            .map(|(_, m)| footprint(m))
            .sum();
        // The trees kept by idle engines, least recently used first.
        let mut idle: Vec<(Instant, MemberId)> = (s.members.iter())
            .filter(|(k, m)| **k != id && !m.running && m.held > 0)
            .map(|(k, m)| (m.last_used, *k))
            .collect();
        idle.sort_unstable();
        let mut dropped = false;
        for (_, victim) in idle {
            if others + share <= self.cap {
                break;
            }
            let m = s.members.get_mut(&victim).expect("a member");
            // An engine locked elsewhere is not idle after all: its tree
            // is counted again when that ends.
            if let Some(engine) = m.engine.upgrade() {
                if let Ok(mut e) = engine.try_lock() {
                    e.forget();
                    others -= m.held;
                    m.held = 0;
                    dropped = true;
                }
            }
        }
        drop(s);
        if dropped {
            release_to_system();
        }
        share
    }

    /// After a search of member `id`: its engine keeps a tree of `held` bytes.
    pub(crate) fn release(&self, id: MemberId, held: usize) {
        if let Some(m) = self.state().members.get_mut(&id) {
            m.running = false;
            m.held = held;
            m.last_used = Instant::now();
        }
    }

    /// Drops the trees of engines that have not searched for `idle`: what
    /// an idle game holds goes back to the system.
    pub fn drop_idle(&self, idle: Duration) {
        let mut s = self.state();
        let mut dropped = false;
        for m in s.members.values_mut() {
            if !m.running && m.held > 0 && m.last_used.elapsed() >= idle {
                if let Some(engine) = m.engine.upgrade() {
                    if let Ok(mut e) = engine.try_lock() {
                        e.forget();
                        m.held = 0;
                        dropped = true;
                    }
                }
            }
        }
        drop(s);
        if dropped {
            release_to_system();
        }
    }
}

/// Hands memory freed by dropped trees back to the system, where the
/// allocator would keep it for later (glibc keeps freed memory of other
/// threads' arenas).
fn release_to_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::EngineConfig;

    #[test]
    fn trees_kept_give_way_to_a_search_least_recently_used_first() {
        let mb = 1 << 20;
        let memory = TreeMemory::new(10 * mb, 2);
        assert_eq!(memory.share(), 5 * mb);
        let engines: Vec<_> = (0..3)
            .map(|_| Arc::new(Mutex::new(Engine::new(EngineConfig::default()))))
            .collect();
        let ids: Vec<_> = engines
            .iter()
            .map(|e| memory.join(Arc::downgrade(e)))
            .collect();
        // Two engines searched and kept trees of 4 MB and 3 MB.
        assert_eq!(memory.reserve(ids[0], 0), 5 * mb);
        memory.release(ids[0], 4 * mb);
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(memory.reserve(ids[1], 0), 5 * mb);
        memory.release(ids[1], 3 * mb);
        assert_eq!((memory.used(), memory.kept()), (7 * mb, 2));
        // A third search needs 5 MB: the older tree goes, the newer stays.
        memory.reserve(ids[2], 0);
        assert_eq!(memory.used(), 3 * mb + 5 * mb);
        assert!(memory.used() <= memory.cap());
        memory.release(ids[2], 2 * mb);
        memory.drop_idle(Duration::ZERO);
        assert_eq!((memory.used(), memory.kept()), (0, 0));
        memory.leave(ids[0]);
        assert_eq!(memory.state().members.len(), 2);
    }
}
