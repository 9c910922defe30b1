//! How much the engine searches for one move: the limits of a search
//! ([`Budget`], the search's own type), which ones win, and a limit the
//! engine refuses.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

use super::units::{format_duration, plural};
pub use crate::search::Budget;

/// A limit of zero, which no search of the engine can keep: it would
/// stop before its first iteration (refused where a search starts, as
/// the configuration's `time=0` and `iterations=0` are refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BudgetError {
    /// A time limit of 0.
    #[error("a time limit of 0: the time must be more than 0, e.g. 200ms")]
    NoTime,
    /// An iteration limit of 0.
    #[error("an iteration limit of 0: the count must be at least 1")]
    NoIterations,
    /// A node limit of 0.
    #[error("a node limit of 0: the count must be at least 1")]
    NoNodes,
}

impl Budget {
    /// Whether every limit set can be kept: none is 0 (the engine refuses
    /// such a search where it starts: [`crate::engine::EngineHandle::start`]).
    ///
    /// ```
    /// use cabra::engine::{Budget, BudgetError};
    /// assert_eq!(Budget::iterations(1).check(), Ok(()));
    /// assert_eq!(Budget::UNLIMITED.check(), Ok(()));
    /// assert_eq!(Budget::iterations(0).check(), Err(BudgetError::NoIterations));
    /// ```
    pub fn check(&self) -> Result<(), BudgetError> {
        if self.time.is_some_and(|t| t.is_zero()) {
            Err(BudgetError::NoTime)
        } else if self.iterations == Some(0) {
            Err(BudgetError::NoIterations)
        } else if self.nodes == Some(0) {
            Err(BudgetError::NoNodes)
        } else {
            Ok(())
        }
    }

    /// The limits of one search, from the layers that may set them, in
    /// this order (the one documented order of precedence, for every front
    /// end):
    ///
    /// 1. `request`: what the front end asks of this search (a query's
    ///    `iterations`, the page's thinking time, `set time` in `play`,
    ///    `cabra-set time` in `gtp`); `Some(Budget::UNLIMITED)` asks for a
    ///    search that runs until it is stopped;
    /// 2. `config`: the engine configuration's `time`, `iterations` and
    ///    `nodes` (which `cabra`'s commands fill in from their options,
    ///    `--time`, ..., where it sets none);
    /// 3. `fallback`: the handle's fallback
    ///    ([`super::EngineHandle::with_fallback`]: a command's default),
    ///    when the search is not on a game clock.
    ///
    /// The first layer that sets any limit gives all of them; with none
    /// (and no clock) the search runs until it is stopped. On a game
    /// clock, `allocation` (the move's share of the clock) then caps the
    /// time, whatever the layer (and a move's search may end once its move
    /// is settled, with the configuration's `earlystop`).
    ///
    /// ```
    /// use cabra::engine::Budget;
    /// use std::time::Duration;
    /// let ms = Duration::from_millis;
    /// let (config, fallback) = (Budget::time(ms(500)), Budget::time(ms(1000)));
    /// assert_eq!(Budget::resolve(None, config, fallback, None), config);
    /// let asked = Budget::iterations(100);
    /// assert_eq!(Budget::resolve(Some(asked), config, fallback, None), asked);
    /// assert_eq!(Budget::resolve(None, Budget::UNLIMITED, fallback, None), fallback);
    /// let none = Budget::UNLIMITED;
    /// assert!(Budget::resolve(None, none, none, None).is_unlimited());
    /// // On a clock that allows 200 ms, a 500 ms limit gives way; the
    /// // clock alone sets the time where no limit is set.
    /// let b = Budget::resolve(None, config, fallback, Some(ms(200)));
    /// assert_eq!(b.time, Some(ms(200)));
    /// let b = Budget::resolve(None, Budget::UNLIMITED, fallback, Some(ms(1500)));
    /// assert_eq!(b.time, Some(ms(1500)));
    /// ```
    pub fn resolve(
        request: Option<Budget>,
        config: Budget,
        fallback: Budget,
        allocation: Option<Duration>,
    ) -> Budget {
        let mut budget = match request {
            Some(asked) => asked,
            None if allocation.is_some() => config,
            None => config.or(fallback),
        };
        if let Some(share) = allocation {
            budget.time = Some(budget.time.map_or(share, |t| t.min(share)));
        }
        budget
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(t) = self.time {
            parts.push(format_duration(t));
        }
        if let Some(n) = self.iterations {
            parts.push(plural(n, "iteration"));
        }
        if let Some(n) = self.nodes {
            parts.push(plural(n, "node"));
        }
        if parts.is_empty() {
            f.write_str("no limit")
        } else {
            f.write_str(&parts.join(" or "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_print_and_measure() {
        assert_eq!(Budget::time(Duration::from_secs(2)).to_string(), "2s");
        assert_eq!(Budget::iterations(50_000).to_string(), "50,000 iterations");
        assert_eq!(Budget::UNLIMITED.to_string(), "no limit");
        let b = Budget {
            time: Some(Duration::from_secs(1)),
            iterations: Some(100),
            ..Budget::UNLIMITED
        };
        assert_eq!(b.to_string(), "1s or 100 iterations");
        assert_eq!(b.fraction(Duration::from_millis(500), 80, 0), 0.8);
        assert_eq!(Budget::UNLIMITED.or(b), b);
        assert_eq!(b.or(Budget::UNLIMITED), b);
    }
}
