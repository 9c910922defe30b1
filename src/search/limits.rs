//! When a search stops: iterations, wall-clock time, tree size ([`Budget`]),
//! or a flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The clock and the flags are looked at once every this many iterations
/// (and before the first): about 0.3 ms of Caminos search, so a time limit
/// costs no measurable speed and overshoots by far less than a millisecond
/// of CPU time.
pub const CHECK_INTERVAL: u64 = 64;

/// Limits of one search (the crate's one limit type, also
/// [`crate::engine::Budget`]): the first one reached stops it. With none
/// set the search runs until it is stopped ([`Searcher::search_until`]).
/// A search also ends early once the root's value is proven (nothing
/// left to learn), or when a tree reaches 2^31 root visits (the limit of
/// its counters). A proof needs every move on its way tried, which the
/// default exploration (first-play urgency) may never do where the moves
/// tried look good enough: tic-tac-toe's empty board, a draw, is not
/// proven. So give an unlimited search a way to stop
/// ([`Searcher::search_until`]).
///
/// With several threads the iteration limit is their total: they take
/// iterations from one count until it is reached, so a thread that starts
/// late may run none. The node limit is the size of the one tree they
/// grow. Here a limit of 0 stops the search
/// before its first iteration (`iterations: Some(0)` reports the tree as
/// it stands); the engine refuses one ([`crate::engine::BudgetError`]).
///
/// The engine's searches for a move to play ([`crate::engine::Purpose::Move`])
/// always name a searched move: where a limit (a time of a nanosecond, a
/// node limit the kept tree already reached, a clock's share of 0) or a
/// stop ends one before its first iteration, it searches 500 iterations
/// more, deaf to the limit and the stop (a millisecond or two). An
/// analysis reports the tree as it stands: with `iterations` 0 and no
/// tree kept, its `best` is the first legal move, not a searched one.
///
/// With the `serde` feature a budget is written as its three fields, the
/// time as serde writes a `Duration` (`{"secs":1,"nanos":0}`) or `null`.
///
/// [`Searcher::search_until`]: super::Searcher::search_until
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Budget {
    /// Wall-clock time, measured from the start of the search.
    pub time: Option<Duration>,
    /// Iterations (playouts), all threads together; reproducible with one
    /// thread and a seed.
    pub iterations: Option<u64>,
    /// Nodes in the tree(s), reused ones included.
    pub nodes: Option<u64>,
}

impl Budget {
    /// No limit: search until stopped.
    pub const UNLIMITED: Budget = Budget {
        time: None,
        iterations: None,
        nodes: None,
    };

    /// Think for `t` (more than 0 for the engine: [`Budget::check`]).
    pub const fn time(t: Duration) -> Budget {
        Budget {
            time: Some(t),
            ..Budget::UNLIMITED
        }
    }

    /// Run `n` iterations (at least 1 for the engine: [`Budget::check`]).
    pub const fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            ..Budget::UNLIMITED
        }
    }

    /// Stop once the tree holds `n` nodes (at least 1 for the engine:
    /// [`Budget::check`]).
    pub const fn nodes(n: u64) -> Budget {
        Budget {
            nodes: Some(n),
            ..Budget::UNLIMITED
        }
    }

    /// Whether no limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.iterations.is_none() && self.nodes.is_none()
    }

    /// This budget if it sets any limit; `None` for [`Budget::UNLIMITED`]
    /// (for [`crate::engine::Request::limits`], where a budget that sets
    /// nothing leaves the limits to the configuration).
    ///
    /// ```
    /// use cabra::engine::Budget;
    /// assert_eq!(Budget::iterations(9).limited(), Some(Budget::iterations(9)));
    /// assert_eq!(Budget::UNLIMITED.limited(), None);
    /// ```
    pub fn limited(self) -> Option<Budget> {
        (!self.is_unlimited()).then_some(self)
    }

    /// This budget, or `fallback` when none of its limits is set.
    pub fn or(self, fallback: Budget) -> Budget {
        if self.is_unlimited() { fallback } else { self }
    }

    /// How far through the budget a search is, 0 to 1 (0 when unlimited).
    pub fn fraction(&self, elapsed: Duration, iterations: u64, nodes: u64) -> f64 {
        let t = self
            .time
            .map_or(0.0, |t| elapsed.as_secs_f64() / t.as_secs_f64().max(1e-9));
        let i = self
            .iterations
            .map_or(0.0, |n| iterations as f64 / n.max(1) as f64);
        let n = self.nodes.map_or(0.0, |n| nodes as f64 / n.max(1) as f64);
        // A search may pass its budget a little before it checks it.
        t.max(i).max(n).min(1.0)
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
    /// The checks of a search within `limits`, begun at `start`, that
    /// `user` (if any) may stop.
    pub fn new(limits: &Budget, user: Option<&'a AtomicBool>, start: Instant) -> Self {
        Stopper {
            // A time past what an Instant holds is no deadline at all.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            user,
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
        let flag = AtomicBool::new(false);
        let s = Stopper::new(&Budget::UNLIMITED, Some(&flag), Instant::now());
        assert!(!s.should_stop());
        flag.store(true, Ordering::Relaxed);
        assert!(s.should_stop());
        let limits = Budget::time(Duration::ZERO);
        assert!(Stopper::new(&limits, None, Instant::now()).should_stop());
    }
}
