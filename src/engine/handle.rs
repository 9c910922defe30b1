//! The engine handle: the one way a search starts, for every front end
//! ([`EngineHandle`]).

mod job;
mod request;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::time::Duration;

use super::budget::Budget;
use super::config::EngineConfig;
use super::engine::{Engine, Plan, Progress, Purpose, Thought, threads_of};
use super::memory::{BYTES_PER_NODE, MemberId, TreeMemory};
use crate::game::Move;
use crate::search::Report;

use job::Stop;
pub use job::{Failed, Job, SearchError, Stopper};
pub use request::{DEFAULT_TOP_MOVES, Listener, Request};

/// The configuration's values ([`EngineConfig::check`]) and the limits
/// of `request`, of `config` and, where the request sets none, of the
/// handle's `fallback` checked ([`Budget::check`]): a clock's share is not
/// a limit of theirs, and may be 0. A request with its own limits never
/// uses the fallback, so a bad fallback does not refuse it.
fn check(config: &EngineConfig, fallback: Budget, request: &Request) -> Result<(), SearchError> {
    config.check()?;
    match &request.limits {
        Some(limits) => limits.check()?,
        None => fallback.check()?,
    }
    Ok(config.budget.check()?)
}

/// A job's access to the engine: searches within the handle's rules.
pub struct Thinker<'a> {
    engine: &'a mut Engine,
    stop: &'a Arc<AtomicBool>,
    fallback: Budget,
    memory: Option<&'a (Arc<TreeMemory>, MemberId)>,
}

impl Thinker<'_> {
    /// The engine's configuration.
    pub fn config(&self) -> &EngineConfig {
        self.engine.config()
    }

    /// Whether the job was told to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The limits `request` searches with.
    pub fn budget(&self, request: &Request) -> Budget {
        budget_of(self.engine.config(), self.fallback, request)
    }

    /// Drops the tree kept (its memory goes back at once).
    pub fn forget(&mut self) {
        self.engine.forget();
        if let Some((memory, id)) = self.memory {
            memory.release(*id, 0);
        }
    }

    /// Searches as `request` asks, telling `listener` of its progress; a
    /// limit of 0 (the request's or the configuration's) is refused, and
    /// so is a configuration [`EngineConfig::check`] refuses.
    pub fn search(
        &mut self,
        request: &Request,
        listener: &mut dyn Listener,
    ) -> Result<Thought, SearchError> {
        check(self.engine.config(), self.fallback, request)?;
        Ok(self.search_checked(request, listener))
    }

    /// Whether `request`'s limits and the configuration's can be kept
    /// ([`Budget::check`]).
    pub(crate) fn check(&self, request: &Request) -> Result<(), SearchError> {
        check(self.engine.config(), self.fallback, request)
    }

    /// [`Thinker::search`], its limits checked.
    pub(crate) fn search_checked(
        &mut self,
        request: &Request,
        listener: &mut dyn Listener,
    ) -> Thought {
        let budget = self.budget(request);
        if request.fresh {
            self.engine.forget();
        }
        if let Some((memory, id)) = self.memory {
            let share = memory.reserve(*id, self.engine.tree_bytes());
            if self.engine.tree_bytes() > share {
                self.engine.forget();
            }
            // The exact tables take their room first; the tree the rest,
            // but never less than the smallest share: a share the tables
            // fill would leave a tree of one node, which plays blind.
            let room = share
                .saturating_sub(self.engine.fixed_bytes())
                .max(super::memory::MIN_SHARE);
            self.engine.set_node_cap(room / BYTES_PER_NODE);
        }
        let plan = Plan {
            pos: request.position,
            budget,
            early_stop: early_stop_of(self.engine.config(), request),
            purpose: request.purpose,
            report_every: request.report_every,
            top_moves: request.top_moves,
        };
        let thought = self
            .engine
            .think(&plan, self.stop, &mut |p| listener.progress(p));
        if let Some((memory, id)) = self.memory {
            memory.release(*id, self.engine.tree_bytes());
        }
        thought
    }
}

/// The limits of `request` for an engine configured as `config`, on a
/// handle whose fallback is `fallback`.
///
/// A move of a level below the top searches the level's iterations
/// (fewer if the limits ask for fewer): a time set by the request or the
/// configuration only caps it, and the fallback does not apply, so that
/// it plays the same move on a slow machine and a fast one.
fn budget_of(config: &EngineConfig, fallback: Budget, request: &Request) -> Budget {
    let Some(n) = level_iterations(config, request) else {
        return Budget::resolve(request.limits, config.budget, fallback, request.share);
    };
    // The level's iterations stand for the fallback: only a limit that
    // someone set caps them.
    let budget = Budget::resolve(
        request.limits,
        config.budget,
        Budget::iterations(n),
        request.share,
    );
    Budget {
        iterations: Some(budget.iterations.map_or(n, |i| i.min(n))),
        ..budget
    }
}

/// The iterations of the level below the top that searches `request`, a
/// move's search, if any.
fn level_iterations(config: &EngineConfig, request: &Request) -> Option<u64> {
    config
        .fixed_level()
        .and_then(|l| l.iterations)
        .filter(|_| request.purpose == Purpose::Move)
}

/// Whether the search of `request` may end once its move is settled: a
/// move's on a game clock, with the configuration's `earlystop`, not at
/// a level below the top (whose iterations are its strength).
fn early_stop_of(config: &EngineConfig, request: &Request) -> bool {
    config.early_stop
        && request.purpose == Purpose::Move
        && request.share.is_some()
        && level_iterations(config, request).is_none()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The one engine of a front end (or of one game of it): the searches it
/// runs, one at a time, on threads of its own.
///
/// A handle owns an [`Engine`] (its configuration and the tree kept along
/// the game) and the threads that search with it. A front end builds a
/// [`Request`] (the position, what the search is for, its own limits if
/// any, a game clock if any, how often to report), starts it, and gets a
/// [`Job`]: it may listen to progress reports, stop the job, and wait for
/// its [`Thought`]. Each job has its own stop; the caller never touches
/// flags or threads, and the limits are settled in one place
/// ([`Budget::resolve`]). Longer work (a whole game's analysis, several
/// turns of a query) runs as one job of several searches ([`Thinker`]).
///
/// The engine invents no limits: a search runs within the request's
/// limits, else the configuration's (`time=`, `iterations=`, `nodes=`, a
/// level's iterations), else the fallback the program gave the handle
/// ([`EngineHandle::with_fallback`]); with none of those, and off a game
/// clock, it runs until it is stopped, as a UCI engine's `go` without
/// limits does.
///
/// ```
/// use cabra::engine::{Budget, EngineConfig, EngineHandle, Request};
/// use cabra::game::Position;
/// let config = EngineConfig::parse("threads=1,seed=3").unwrap();
/// let engine = EngineHandle::new(config);
/// let request = Request::new(Position::new()).limits(Budget::iterations(2_000));
/// let job = engine.start(request, |p| println!("{} iterations", p.report.iterations));
/// let thought = job.unwrap().wait().unwrap();
/// assert_eq!(thought.report.iterations, 2_000);
/// assert!(thought.report.best.is_some());
/// // A search that runs until it is stopped.
/// let job = engine.start(Request::analysis(Position::new()).until_stopped(), |_| {});
/// let thought = job.unwrap().stop_and_wait().unwrap();
/// assert!(thought.interrupted);
/// ```
pub struct EngineHandle {
    engine: Arc<Mutex<Engine>>,
    /// A copy of the engine's configuration, readable during a search.
    config: Mutex<EngineConfig>,
    fallback: Budget,
    /// The stop of the job running, if any.
    current: Arc<Mutex<Option<Arc<AtomicBool>>>>,
    memory: Option<Arc<(Arc<TreeMemory>, MemberId)>>,
    /// Changes asked for while a job held the engine: that job makes them
    /// when its work ends (or the next job, before its work).
    pending: Arc<Mutex<Pending>>,
}

/// What [`EngineHandle::set_config`] and [`EngineHandle::forget`] could
/// not do at once because a job held the engine.
#[derive(Default)]
struct Pending {
    config: Option<EngineConfig>,
    forget: bool,
}

impl Pending {
    /// Makes the changes on `engine`.
    fn apply(&mut self, engine: &mut Engine) {
        if let Some(config) = self.config.take() {
            engine.set_config(config);
        }
        if std::mem::take(&mut self.forget) {
            engine.forget();
        }
    }
}

impl std::fmt::Debug for EngineHandle {
    /// The configuration and whether a job is running.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineHandle")
            .field("config", &self.config())
            .field("busy", &self.is_busy())
            .finish_non_exhaustive()
    }
}

impl EngineHandle {
    /// A handle for an engine configured as `config`, without a fallback:
    /// a search that neither its request nor `config` limits runs until it
    /// is stopped. A program gives the threads and limits it wants in
    /// `config` (`threads=2`, `iterations=…`) or in each [`Request`];
    /// otherwise a search runs on one thread, with seed 0.
    pub fn new(config: EngineConfig) -> EngineHandle {
        EngineHandle {
            engine: Arc::new(Mutex::new(Engine::new(config.clone()))),
            config: Mutex::new(config),
            fallback: Budget::UNLIMITED,
            current: Arc::new(Mutex::new(None)),
            memory: None,
            pending: Arc::default(),
        }
    }

    /// This handle with `limits` for the searches that neither their
    /// request nor the configuration limits, off a game clock and at no
    /// level below the top (a command's default: `cabra search` gives one
    /// second). [`Budget::UNLIMITED`], the fallback of a new handle, lets
    /// them run until they are stopped.
    ///
    /// ```
    /// use cabra::engine::{Budget, EngineConfig, EngineHandle, Request};
    /// use cabra::game::Position;
    /// let engine = EngineHandle::new(EngineConfig::default());
    /// let request = Request::new(Position::new());
    /// assert_eq!(engine.budget(&request), Budget::UNLIMITED);
    /// let engine = engine.with_fallback(Budget::iterations(1_000));
    /// assert_eq!(engine.budget(&request), Budget::iterations(1_000));
    /// ```
    pub fn with_fallback(mut self, limits: Budget) -> EngineHandle {
        self.fallback = limits;
        self
    }

    /// A handle whose trees count against `memory`, shared with other
    /// handles.
    pub fn with_memory(config: EngineConfig, memory: &Arc<TreeMemory>) -> EngineHandle {
        let mut h = EngineHandle::new(config);
        let id = memory.join(Arc::downgrade(&h.engine));
        h.memory = Some(Arc::new((memory.clone(), id)));
        h
    }

    /// The configuration.
    pub fn config(&self) -> EngineConfig {
        lock(&self.config).clone()
    }

    /// Changes the configuration; the tree is dropped unless only the
    /// limits changed. A job running goes on as it was, and the change is
    /// made when it ends: this call does not wait for it (a search until
    /// stopped would never end).
    pub fn set_config(&self, config: EngineConfig) {
        *lock(&self.config) = config.clone();
        let mut pending = lock(&self.pending);
        pending.config = Some(config);
        if let Ok(mut engine) = self.engine.try_lock() {
            pending.apply(&mut engine);
        }
    }

    /// The limits of a search that neither its request nor the
    /// configuration limits ([`EngineHandle::with_fallback`]).
    pub fn fallback(&self) -> Budget {
        self.fallback
    }

    /// The limits `request` would search with.
    pub fn budget(&self, request: &Request) -> Budget {
        budget_of(&lock(&self.config), self.fallback, request)
    }

    /// Threads of a search: the configuration's, 1 where it sets none, at
    /// most [`MAX_THREADS`](crate::engine::MAX_THREADS) (a larger count
    /// set in its public field counts as that many).
    pub fn threads(&self) -> usize {
        threads_of(&lock(&self.config))
    }

    /// Starts `work` on a thread of its own with the engine, once the job
    /// running (which is stopped) has ended.
    pub fn spawn<T, W>(&self, work: W) -> Job<T>
    where
        T: Send + 'static,
        W: FnOnce(&mut Thinker) -> T + Send + 'static,
    {
        self.spawn_then(work, |out| out)
    }

    /// As [`EngineHandle::spawn`], then `then` on what `work` returned,
    /// once the engine is free again: what `then` releases (a share of
    /// the threads, say) lets the next job find this engine's tree
    /// idle, and so droppable when memory is short.
    pub fn spawn_then<T, U, W, F>(&self, work: W, then: F) -> Job<U>
    where
        T: Send + 'static,
        U: Send + 'static,
        W: FnOnce(&mut Thinker) -> T + Send + 'static,
        F: FnOnce(T) -> U + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(old) = lock(&self.current).replace(stop.clone()) {
            old.store(true, Ordering::SeqCst);
        }
        let engine = self.engine.clone();
        let (flag, fallback, memory) = (stop.clone(), self.fallback, self.memory.clone());
        let current = self.current.clone();
        let pending = self.pending.clone();
        let config = lock(&self.config).clone();
        let thread = std::thread::Builder::new()
            .name("cabra-engine".into())
            .spawn(move || {
                let mut guard = engine.lock().unwrap_or_else(|poisoned| {
                    // The last job failed: start again with a fresh engine.
                    let mut g = poisoned.into_inner();
                    *g = Engine::new(config);
                    g
                });
                lock(&pending).apply(&mut guard);
                let mut thinker = Thinker {
                    engine: &mut guard,
                    stop: &flag,
                    fallback,
                    memory: memory.as_deref(),
                };
                let out = work(&mut thinker);
                // What was asked for during the job.
                lock(&pending).apply(&mut guard);
                drop(guard);
                let mut slot = lock(&current);
                if slot.as_ref().is_some_and(|f| Arc::ptr_eq(f, &flag)) {
                    *slot = None;
                }
                drop(slot);
                then(out)
            })
            .expect("starting an engine thread");
        Job { stop, thread }
    }

    /// Starts the search of `request`, calling `progress` with its
    /// progress (on the job's thread). The engine runs one job at a time:
    /// a job still running is stopped first (its thought comes back
    /// `interrupted`), so a program with searches to run side by side
    /// keeps a handle for each.
    ///
    /// A limit of 0, the request's or the configuration's, is refused
    /// before anything starts (the job running goes on).
    ///
    /// A closure's argument needs no type:
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use cabra::engine::{Budget, EngineConfig, EngineHandle, Request};
    /// use cabra::game::Position;
    /// let engine = EngineHandle::new(EngineConfig::parse("threads=1").unwrap());
    /// let request = Request::new(Position::new())
    ///     .limits(Budget::iterations(3_000))
    ///     .report_every(std::time::Duration::from_millis(1));
    /// let (tx, rx) = mpsc::channel();
    /// let job = engine.start(request, move |p| {
    ///     let _ = tx.send(p.report.iterations);
    /// })?;
    /// assert_eq!(job.wait()?.report.iterations, 3_000);
    /// assert!(rx.iter().all(|n| n <= 3_000));
    /// // No search of zero iterations.
    /// let none = Request::new(Position::new()).limits(Budget::iterations(0));
    /// assert!(engine.start(none, |_| {}).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(
        &self,
        request: Request,
        progress: impl FnMut(&Progress) + Send + 'static,
    ) -> Result<Job<Thought>, SearchError> {
        self.start_with(request, progress)
    }

    /// As [`EngineHandle::start`], telling `listener` of the progress: a
    /// [`Listener`] may also stop the search.
    pub fn start_with(
        &self,
        request: Request,
        mut listener: impl Listener + 'static,
    ) -> Result<Job<Thought>, SearchError> {
        check(&lock(&self.config), self.fallback, &request)?;
        Ok(self.spawn(move |t| t.search_checked(&request, &mut listener)))
    }

    /// Searches `request` and waits for the result.
    ///
    /// As with [`EngineHandle::start`], the engine runs one job at a time:
    /// a search another thread runs on this handle is stopped by this one
    /// (its thought comes back `interrupted`, with what it had searched),
    /// so threads that search side by side keep a handle each. A request
    /// without limits, on a handle without a fallback
    /// ([`EngineHandle::with_fallback`]) or configured limits, searches
    /// until it is stopped: from this call, which blocks, give it limits.
    pub fn search(&self, request: Request) -> Result<Thought, SearchError> {
        Ok(self.start(request, |_| {})?.wait()?)
    }

    /// Searches `request` and waits for the result, calling `progress` on
    /// this thread as the reports come (for a front end whose display
    /// lives on its own thread, such as a terminal).
    pub fn search_here(
        &self,
        request: Request,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Thought, SearchError> {
        let (tx, rx) = mpsc::channel::<(Duration, f64, Report<Move>)>();
        let job = self.start(request, move |p| {
            let _ = tx.send((p.elapsed, p.fraction, p.report.clone()));
        })?;
        // The reports end when the job drops its listener.
        for (elapsed, fraction, report) in rx {
            progress(&Progress {
                elapsed,
                fraction,
                report: &report,
            });
        }
        Ok(job.wait()?)
    }

    /// Whether a job runs.
    pub fn is_busy(&self) -> bool {
        lock(&self.current).is_some()
    }

    /// Stops the job running, if any.
    pub fn stop(&self) {
        self.stopper().stop();
    }

    /// What stops the handle's job of the moment, from any thread.
    pub fn stopper(&self) -> Stopper {
        Stopper(Stop::Current(self.current.clone()))
    }

    /// Drops the tree: at once, or after the job running, if any, which
    /// is not waited for.
    pub fn forget(&self) {
        let mut pending = lock(&self.pending);
        pending.forget = true;
        if let Ok(mut engine) = self.engine.try_lock() {
            pending.apply(&mut engine);
        }
    }

    /// Nodes in the tree kept (0 while a job runs).
    pub fn nodes(&self) -> usize {
        self.engine.try_lock().map_or(0, |e| e.nodes())
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop();
        if let Some(m) = &self.memory {
            m.0.leave(m.1);
        }
    }
}

#[cfg(test)]
mod tests;
