//! A handle's work under way: the [`Job`], what stops it from elsewhere
//! ([`Stopper`]), and how it can fail.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use thiserror::Error;

use super::lock;
use crate::engine::budget::BudgetError;
use crate::engine::config::ConfigError;

/// A job's thread failed (a bug): what it was doing is lost, and the
/// handle starts its next job with a fresh engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the engine failed (a bug): it was restarted")]
pub struct Failed;

/// Why a search of [`EngineHandle::search`](super::EngineHandle::search) gave no thought.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SearchError {
    /// Its limits (the request's or the configuration's) were refused.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The configuration holds a value its key does not take
    /// ([`EngineConfig::check`](crate::engine::EngineConfig::check)).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Its thread failed.
    #[error(transparent)]
    Failed(#[from] Failed),
}

/// Stops a job, or whatever job a handle runs, from any thread (e.g. a
/// signal handler).
#[derive(Clone, Debug)]
pub struct Stopper(pub(super) Stop);

#[derive(Clone, Debug)]
pub(super) enum Stop {
    Job(Arc<AtomicBool>),
    Current(Arc<Mutex<Option<Arc<AtomicBool>>>>),
}

impl Stopper {
    /// For a handle's stopper, whether a job runs now. For a job's
    /// ([`Job::stopper`]), whether it has not been asked to stop: a job
    /// that ended by itself still counts (see [`Job::is_finished`]).
    pub fn is_active(&self) -> bool {
        match &self.0 {
            Stop::Job(flag) => !flag.load(Ordering::SeqCst),
            Stop::Current(slot) => lock(slot).is_some(),
        }
    }

    /// Stops the job.
    pub fn stop(&self) {
        match &self.0 {
            Stop::Job(flag) => flag.store(true, Ordering::SeqCst),
            Stop::Current(slot) => {
                if let Some(flag) = &*lock(slot) {
                    flag.store(true, Ordering::SeqCst);
                }
            }
        }
    }
}

/// Work under way on a handle's thread.
#[must_use = "a job runs on when dropped: wait for it, or stop it"]
pub struct Job<T> {
    pub(super) stop: Arc<AtomicBool>,
    pub(super) thread: JoinHandle<T>,
}

impl<T> Job<T> {
    /// Asks the job to stop (a search ends its current slice, within a
    /// few milliseconds).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// What stops this job from elsewhere.
    pub fn stopper(&self) -> Stopper {
        Stopper(Stop::Job(self.stop.clone()))
    }

    /// Whether the job is over (its result waits).
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Waits for the job's result.
    pub fn wait(self) -> Result<T, Failed> {
        self.thread.join().map_err(|_| Failed)
    }

    /// Stops the job and waits for what it had.
    pub fn stop_and_wait(self) -> Result<T, Failed> {
        self.stop();
        self.wait()
    }
}
