//! What a front end asks a handle for: a [`Request`], and the
//! [`Listener`] that hears how its search goes.

use std::ops::ControlFlow;
use std::time::Duration;

use crate::engine::budget::Budget;
use crate::engine::clock::OnClock;
use crate::engine::engine::{DEFAULT_REPORT_EVERY, Progress, Purpose};
use crate::game::Position;

/// Root moves a report lists unless the request says otherwise.
pub const DEFAULT_TOP_MOVES: usize = 10;

/// One search as a front end asks for it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Request {
    /// The position to search (its history says which tree to keep).
    pub position: Position,
    /// A move to play, or the engine's view of the position.
    pub purpose: Purpose,
    /// The request's own limits, which win over the configuration's and
    /// the handle's fallback ([`Budget::resolve`]); `None`: theirs.
    /// `Some(Budget::UNLIMITED)` searches until stopped.
    pub limits: Option<Budget>,
    /// The move's share of the mover's game clock, which caps the time
    /// (and lets a move's search stop once its move is settled).
    pub share: Option<Duration>,
    /// How often progress is reported.
    pub report_every: Duration,
    /// Root moves the report lists.
    pub top_moves: usize,
    /// Drop the tree first: the search starts from scratch (every position
    /// of an analysis gets the same effort).
    pub fresh: bool,
}

impl Request {
    /// A search for the move to play at `position`, with the limits of the
    /// configuration or the handle's fallback (and none of those: until
    /// stopped).
    pub fn new(position: Position) -> Request {
        Request {
            position,
            purpose: Purpose::Move,
            limits: None,
            share: None,
            report_every: DEFAULT_REPORT_EVERY,
            top_moves: DEFAULT_TOP_MOVES,
            fresh: false,
        }
    }

    /// A search for the engine's view of `position`.
    pub fn analysis(position: Position) -> Request {
        Request {
            purpose: Purpose::Analysis,
            ..Request::new(position)
        }
    }

    /// With these limits of its own, which win over the configuration's:
    /// [`Budget::UNLIMITED`] searches until stopped, `None` leaves the
    /// limits to the configuration ([`Budget::limited`] turns a budget
    /// that sets nothing into `None`).
    ///
    /// ```
    /// use cabra::engine::{Budget, Request};
    /// use cabra::game::Position;
    /// let r = Request::new(Position::new()).limits(Budget::iterations(500));
    /// assert_eq!(r.limits, Some(Budget::iterations(500)));
    /// let r = r.limits(Budget::UNLIMITED);
    /// assert_eq!(r.limits, Some(Budget::UNLIMITED));
    /// assert_eq!(r.limits(None).limits, None);
    /// ```
    pub fn limits(mut self, limits: impl Into<Option<Budget>>) -> Request {
        self.limits = limits.into();
        self
    }

    /// Until it is stopped (or its tree is full and the position solved):
    /// the same as `limits(Budget::UNLIMITED)`.
    pub fn until_stopped(self) -> Request {
        self.limits(Budget::UNLIMITED)
    }

    /// On the mover's game clock: its share is the engine's
    /// [`OnClock::allocation`](crate::engine::clock::OnClock::allocation).
    pub fn clock(mut self, clock: Option<OnClock>) -> Request {
        self.share = clock.map(|c| c.allocation(&self.position));
        self
    }

    /// With this share of a game clock (one that a front end keeps
    /// itself, such as GTP's byo-yomi).
    pub fn share(mut self, share: Option<Duration>) -> Request {
        self.share = share;
        self
    }

    /// Reporting progress about this often.
    pub fn report_every(mut self, every: Duration) -> Request {
        self.report_every = every;
        self
    }

    /// Listing this many root moves.
    pub fn top_moves(mut self, n: usize) -> Request {
        self.top_moves = n.max(1);
        self
    }

    /// From scratch, without the tree kept from earlier searches.
    pub fn fresh(mut self) -> Request {
        self.fresh = true;
        self
    }
}

/// Hears a search's progress (after each report period but the last); a
/// listener that breaks stops the search, as when whoever asked for it
/// has gone away. A closure that only listens is one too; give it to
/// [`EngineHandle::start`](super::EngineHandle::start), whose bound lets its argument's type be
/// inferred, and a listener of this trait to [`EngineHandle::start_with`](super::EngineHandle::start_with).
pub trait Listener: Send {
    /// The search so far.
    fn progress(&mut self, p: &Progress) -> ControlFlow<()>;
}

impl<F: FnMut(&Progress) + Send> Listener for F {
    fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
        self(p);
        ControlFlow::Continue(())
    }
}
