//! When a search stops: iterations, wall-clock time, tree size, or a flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The clock and the flags are looked at once every this many iterations
/// (and before the first): about 0.3 ms of Caminos search, so a time limit
/// costs no measurable speed and overshoots by far less than a millisecond
/// of CPU time.
pub const CHECK_INTERVAL: u64 = 64;

/// Limits of one search; the first one reached stops it. With none set the
/// search runs until the stop flag is raised. A search also ends early once
/// the root's value is proven (nothing left to learn), or when a tree
/// reaches 2^31 root visits (the limit of its counters).
///
/// With several threads the iteration limit is a total, split as evenly as
/// possible between the threads: thread `i` of `n` gets `limit / n`, plus
/// one if `i < limit % n`. Each thread's share is exact. The node limit is
/// the size of the one tree they grow.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Playouts (tree iterations) to run.
    pub iterations: Option<u64>,
    /// Wall-clock budget, measured from the start of `search`.
    pub time: Option<Duration>,
    /// Stop once the tree(s) hold this many nodes (reused nodes included).
    pub nodes: Option<u64>,
    /// Raised by another thread (e.g. on Ctrl-C) to stop the search early.
    /// The search never lowers it: clear it before the next search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all.
    pub fn none() -> Self {
        Limits::default()
    }

    /// Stop after `n` iterations.
    pub fn iterations(mut self, n: u64) -> Self {
        self.iterations = Some(n);
        self
    }

    /// Stop after `t` of wall-clock time.
    pub fn time(mut self, t: Duration) -> Self {
        self.time = Some(t);
        self
    }

    /// Stop once the tree holds `n` nodes.
    pub fn nodes(mut self, n: u64) -> Self {
        self.nodes = Some(n);
        self
    }

    /// Stop when `flag` is raised.
    pub fn stop_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }
}

/// The checks every tree makes every [`CHECK_INTERVAL`] iterations.
#[derive(Debug)]
pub(crate) struct Stopper<'a> {
    deadline: Option<Instant>,
    user: Option<&'a AtomicBool>,
    /// Raised by a tree that solved the root, so the others stop too.
    pub solved: AtomicBool,
}

impl<'a> Stopper<'a> {
    pub fn new(limits: &'a Limits, start: Instant) -> Self {
        Stopper {
            deadline: limits.time.map(|t| start + t),
            user: limits.stop.as_deref(),
            solved: AtomicBool::new(false),
        }
    }

    /// Whether the search must stop now.
    pub fn should_stop(&self) -> bool {
        self.solved.load(Ordering::Relaxed)
            || self.user.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopper_sees_flag_and_deadline() {
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().stop_flag(flag.clone());
        let s = Stopper::new(&limits, Instant::now());
        assert!(!s.should_stop());
        flag.store(true, Ordering::Relaxed);
        assert!(s.should_stop());
        let limits = Limits::none().time(Duration::ZERO);
        assert!(Stopper::new(&limits, Instant::now()).should_stop());
    }
}
