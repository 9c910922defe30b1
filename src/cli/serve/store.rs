//! The games the server holds: one per browser tab, each with its own
//! engine, undo/redo line, analysis and event channel; at most a set
//! number of them, and each dropped after a time without requests.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use cabra::engine::Engine;
use cabra::engine::analysis::{MoveAnalysis, Summary};
use cabra::game::{GameLine, Move, Position, Rules};
use rand::Rng;
use tokio::sync::broadcast;

use super::guard::ApiError;

/// One event of a game's live channel: its name and its JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    /// `thinking`, `moved`, `analysing`, `analysis`, ...
    pub name: &'static str,
    /// The JSON payload.
    pub data: String,
}

/// What a game's engine is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// Waiting for free threads.
    Waiting,
    /// Searching for a move.
    Thinking,
    /// Analysing the game.
    Analysing,
}

impl Busy {
    /// The name used in the API.
    pub fn name(self) -> &'static str {
        match self {
            Busy::Waiting => "waiting",
            Busy::Thinking => "thinking",
            Busy::Analysing => "analysing",
        }
    }
}

/// A finished or partial analysis of a game's line.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The placements analysed (the game's whole line when it started).
    pub line: Vec<Move>,
    /// One entry per placement analysed.
    pub moves: Vec<MoveAnalysis>,
    /// Totals per player.
    pub summary: [Summary; 2],
    /// Whether every placement of `line` was analysed.
    pub complete: bool,
}

/// A game and everything the server keeps with it.
pub struct Game {
    /// The game, shown at some ply of its line.
    pub line: GameLine,
    /// Comment lines before the first placement of a loaded file, kept on save.
    pub header: Vec<String>,
    /// The engine; `None` while a search or an analysis has it.
    pub engine: Option<Engine>,
    /// What the engine is doing, if anything.
    pub busy: Option<Busy>,
    /// Raised to stop the search or analysis running.
    pub stop: Arc<AtomicBool>,
    /// The last analysis, while it matches the game's line.
    pub analysis: Option<Analysis>,
    /// The live channel.
    pub events: broadcast::Sender<Event>,
    /// When the game was last asked about.
    pub last_used: Instant,
}

impl Game {
    fn new(engine: Engine, rules: Rules) -> Game {
        let mut engine = engine;
        let stop = Arc::new(AtomicBool::new(false));
        engine.share_stop_flag(stop.clone());
        Game {
            line: GameLine::new(Position::with_rules(rules)),
            header: Vec::new(),
            engine: Some(engine),
            busy: None,
            stop,
            analysis: None,
            events: broadcast::channel(64).0,
            last_used: Instant::now(),
        }
    }

    /// Sends an event to whoever listens (nobody may).
    pub fn send(&self, name: &'static str, data: serde_json::Value) {
        let _ = self.events.send(Event {
            name,
            data: data.to_string(),
        });
    }

    /// Refuses changes while the engine works.
    pub fn ensure_idle(&self) -> Result<(), ApiError> {
        match self.busy {
            None => Ok(()),
            Some(b) => Err(ApiError::conflict(format!(
                "the engine is {} for this game: stop it first",
                b.name()
            ))),
        }
    }

    /// Drops the analysis when the line no longer starts with the line analysed.
    pub fn keep_analysis_if_current(&mut self) {
        let line = self.line.moves();
        if self
            .analysis
            .as_ref()
            .is_some_and(|a| !line.starts_with(&a.line))
        {
            self.analysis = None;
        }
    }
}

/// The games, their cap and their idle expiry.
pub struct Store {
    games: Mutex<HashMap<String, Arc<Mutex<Game>>>>,
    /// Most games held at once.
    pub max_games: usize,
    /// A game untouched this long is dropped.
    pub idle: Duration,
}

/// Locks a mutex even if a thread panicked while holding it (the data is
/// plain game state that stays usable).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Store {
    /// An empty store.
    pub fn new(max_games: usize, idle: Duration) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            max_games,
            idle,
        }
    }

    /// Adds a game with this engine under these rules; 503 when the store is full.
    pub fn create(
        &self,
        engine: Engine,
        rules: Rules,
    ) -> Result<(String, Arc<Mutex<Game>>), ApiError> {
        self.expire();
        let mut games = lock(&self.games);
        if games.len() >= self.max_games {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server already holds {} games (its limit): close other tabs, or wait until idle games expire",
                    games.len()
                ),
            ));
        }
        let id = format!("{:032x}", rand::rng().random::<u128>());
        let game = Arc::new(Mutex::new(Game::new(engine, rules)));
        games.insert(id.clone(), game.clone());
        Ok((id, game))
    }

    /// The game `id`, marked as used now; 404 when there is none.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Game>>, ApiError> {
        let game = lock(&self.games).get(id).cloned().ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no such game (it may have expired): start a new one",
            )
        })?;
        lock(&game).last_used = Instant::now();
        Ok(game)
    }

    /// Removes the game `id` (stopping its engine); whether it was there.
    pub fn remove(&self, id: &str) -> bool {
        let game = lock(&self.games).remove(id);
        if let Some(g) = &game {
            lock(g)
                .stop
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        game.is_some()
    }

    /// Drops the games idle for longer than the expiry: not while their
    /// engine works, nor while a page listens to their events (a tab that
    /// is open).
    pub fn expire(&self) {
        let mut games = lock(&self.games);
        games.retain(|_, g| {
            let g = lock(g);
            g.busy.is_some() || g.events.receiver_count() > 0 || g.last_used.elapsed() < self.idle
        });
    }
}
