//! The games the server holds: one per browser tab, each with its own
//! engine, game line, analysis and event channel; at most a set number of
//! them, and each dropped after a time without requests. Every change to
//! a game raises its version and goes out as a `state` event, so that a
//! page follows the game from its events whatever order the answers to
//! its requests arrive in.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use cabra::engine::analysis::{MoveAnalysis, PlayerSummary};
use cabra::engine::{EngineHandle, Stopper};
use cabra::game::{GameLine, Move, Position, Rules};
use rand::Rng;
use tokio::sync::broadcast;

use super::guard::ApiError;
use super::state::state_json;

/// One event of a game's live channel: its name and its JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    /// `state`, `thinking`, `moved`, `analyzing`, `analysis`, `failed`.
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
    /// Analyzing the game.
    Analyzing,
    /// Searching for a hint (the full engine's suggestion).
    Hinting,
}

impl Busy {
    /// The name used in the API.
    pub fn name(self) -> &'static str {
        match self {
            Busy::Waiting => "waiting",
            Busy::Thinking => "thinking",
            Busy::Analyzing => "analyzing",
            Busy::Hinting => "hinting",
        }
    }
}

/// A finished or partial analysis of a game's line.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The placements analyzed (the game's whole line when it started).
    pub line: Vec<Move>,
    /// One entry per placement analyzed.
    pub moves: Vec<MoveAnalysis>,
    /// Totals per player.
    pub summary: [PlayerSummary; 2],
    /// Whether every placement of `line` was analyzed.
    pub complete: bool,
}

/// Who follows a game: the pages listening to its events, and the last
/// request about it. The engine's jobs ask it, without the game's lock.
pub struct Presence {
    /// The game's live channel (its receivers are the pages listening).
    pub events: broadcast::Sender<Event>,
    last: Mutex<Instant>,
}

impl Presence {
    /// A request about the game came now.
    pub fn touch(&self) {
        *lock(&self.last) = Instant::now();
    }

    /// How long since the last request about the game.
    pub fn quiet_for(&self) -> Duration {
        lock(&self.last).elapsed()
    }

    /// Whether a page listens to the game's events.
    pub fn listened(&self) -> bool {
        self.events.receiver_count() > 0
    }
}

/// A game and everything the server keeps with it.
pub struct Game {
    /// The game's id.
    pub id: String,
    /// The game, shown at some ply of its line.
    pub line: GameLine,
    /// Comment lines before the first placement of a loaded file, kept on save.
    pub header: Vec<String>,
    /// The game's engine (its tree counts against the server's memory).
    pub engine: EngineHandle,
    /// What the engine is doing, if anything.
    pub busy: Option<Busy>,
    /// Raised to stop a job that waits for threads.
    pub cancel_wait: Arc<AtomicBool>,
    /// Raised by a stop that drops the search's move (`"play": false`).
    pub drop_move: bool,
    /// The last analysis, while it matches the game's line.
    pub analysis: Option<Analysis>,
    /// Who follows the game.
    pub presence: Arc<Presence>,
    /// Raised by every change; each state carries it.
    pub version: u64,
    /// Hints taken in this game (a loaded file's `# hints: N` goes on).
    pub hints: u32,
    /// The sides the page lets the engine play (1 and 2: `engine_sides`).
    pub engine_sides: [bool; 2],
    /// The search of the human's turn, while the server ponders.
    pub ponder: Option<(u64, Stopper)>,
    /// The iterations of the last (or current) ponder, and the position
    /// code it pondered.
    pub pondered: Arc<AtomicU64>,
}

impl Game {
    fn new(id: String, engine: EngineHandle, rules: Rules) -> Game {
        Game {
            id,
            line: GameLine::new(Position::with_rules(rules)),
            header: Vec::new(),
            engine,
            busy: None,
            cancel_wait: Arc::new(AtomicBool::new(false)),
            drop_move: false,
            analysis: None,
            presence: Arc::new(Presence {
                events: broadcast::channel(64).0,
                last: Mutex::new(Instant::now()),
            }),
            version: 0,
            hints: 0,
            engine_sides: [false, true],
            ponder: None,
            pondered: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Stops a ponder, if one runs (its threads go back once it ends).
    pub fn stop_ponder(&mut self) {
        if let Some((_, s)) = self.ponder.take() {
            s.stop();
        }
    }

    /// Sends an event to whoever listens (nobody may).
    pub fn send(&self, name: &'static str, data: serde_json::Value) {
        let _ = self.presence.events.send(Event {
            name,
            data: data.to_string(),
        });
    }

    /// Records a change: a new version, sent as a `state` event.
    pub fn changed(&mut self) {
        // The position pondered may be gone, or another search due.
        self.stop_ponder();
        self.version += 1;
        self.keep_analysis_if_current();
        self.send("state", state_json(self));
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

    /// Drops the analysis when the line no longer starts with the line analyzed.
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

/// How long a game that no page follows is kept, without requests, from
/// a new game when the store is full: a closed tab frees its place after
/// this, not after the whole idle expiry (a page that comes back restores
/// its game from its own copy).
pub const UNWATCHED_KEPT: Duration = Duration::from_secs(60);

/// The games, their cap and their idle expiry.
pub struct Store {
    games: Mutex<HashMap<String, Arc<Mutex<Game>>>>,
    /// Most games held at once.
    pub max_games: usize,
    /// A game untouched this long is dropped.
    pub idle: Duration,
    /// When the operator was last told of a refused game (once a minute
    /// at most).
    told_full: Mutex<Option<Instant>>,
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
            told_full: Mutex::new(None),
        }
    }

    /// Adds a game with this engine under these rules; 503 when the store
    /// is full. It costs the same however many games are held: expired
    /// games are looked for only when the store is full (the sweeper
    /// drops them otherwise).
    pub fn create(
        &self,
        engine: EngineHandle,
        rules: Rules,
    ) -> Result<(String, Arc<Mutex<Game>>), ApiError> {
        if lock(&self.games).len() >= self.max_games {
            self.expire();
            if lock(&self.games).len() >= self.max_games {
                self.drop_unwatched();
            }
        }
        let mut games = lock(&self.games);
        if games.len() >= self.max_games {
            let held = games.len();
            drop(games);
            self.tell_full(held);
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "it holds {held} games (its limit), each open in a page or used in the last minute: \
                     try again in a minute"
                ),
            ));
        }
        let id = format!("{:032x}", rand::rng().random::<u128>());
        let game = Arc::new(Mutex::new(Game::new(id.clone(), engine, rules)));
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
        lock(&game).presence.touch();
        Ok(game)
    }

    /// Removes the game `id` (stopping its engine); whether it was there.
    pub fn remove(&self, id: &str) -> bool {
        let game = lock(&self.games).remove(id);
        if let Some(g) = &game {
            let mut g = lock(g);
            g.stop_ponder();
            g.cancel_wait
                .store(true, std::sync::atomic::Ordering::SeqCst);
            g.engine.stop();
        }
        game.is_some()
    }

    /// Games held.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// Games whose engine works (or waits for threads to).
    pub fn working(&self) -> usize {
        let games: Vec<_> = lock(&self.games).values().cloned().collect();
        games.iter().filter(|g| lock(g).busy.is_some()).count()
    }

    /// Drops the game longest without requests among those no page
    /// follows, no engine works for, and quiet for [`UNWATCHED_KEPT`].
    fn drop_unwatched(&self) {
        let games: Vec<(String, Arc<Mutex<Game>>)> = lock(&self.games)
            .iter()
            .map(|(id, g)| (id.clone(), g.clone()))
            .collect();
        let oldest = games
            .into_iter()
            .filter_map(|(id, g)| {
                let g = lock(&g);
                let quiet = g.presence.quiet_for();
                (g.busy.is_none() && !g.presence.listened() && quiet >= UNWATCHED_KEPT)
                    .then_some((quiet, id))
            })
            .max();
        if let Some((_, id)) = oldest {
            self.remove(&id);
        }
    }

    /// Tells the operator, on standard error, that a new game was refused
    /// (once a minute at most).
    fn tell_full(&self, held: usize) {
        let mut told = lock(&self.told_full);
        if told.is_none_or(|t| t.elapsed() >= Duration::from_secs(60)) {
            *told = Some(Instant::now());
            eprintln!(
                "cabra serve: full: a new game was refused, {held} games are held (--max-games), \
                 each open in a page or used in the last minute"
            );
        }
    }

    /// Drops the games idle for longer than the expiry: not while their
    /// engine works, nor while a page listens to their events (a tab that
    /// is open). The games are looked at without the store's lock held,
    /// so that requests go on meanwhile.
    pub fn expire(&self) {
        let games: Vec<(String, Arc<Mutex<Game>>)> = lock(&self.games)
            .iter()
            .map(|(id, g)| (id.clone(), g.clone()))
            .collect();
        let expired: Vec<String> = games
            .into_iter()
            .filter(|(_, g)| {
                let g = lock(g);
                g.busy.is_none() && !g.presence.listened() && g.presence.quiet_for() >= self.idle
            })
            .map(|(id, _)| id)
            .collect();
        if expired.is_empty() {
            return;
        }
        let mut games = lock(&self.games);
        for id in expired {
            // Asked about meanwhile: it stays.
            if games
                .get(&id)
                .is_some_and(|g| lock(g).presence.quiet_for() >= self.idle)
            {
                games.remove(&id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use cabra::engine::EngineConfig;

    use super::*;
    use crate::cli::defaults;

    fn engine() -> EngineHandle {
        defaults::PLAY.handle(EngineConfig::default())
    }

    #[test]
    fn a_full_store_makes_room_from_a_game_nobody_follows() {
        let store = Store::new(2, Duration::from_secs(1800));
        let (a, game_a) = store.create(engine(), Rules::default()).unwrap();
        let (_b, game_b) = store.create(engine(), Rules::default()).unwrap();
        // Both used a moment ago: a third is refused.
        let Err(e) = store.create(engine(), Rules::default()) else {
            panic!("a third game in a store of two");
        };
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        // Game b has a page listening; game a none, and no request for
        // longer than a game nobody follows is kept: a goes.
        let _listening = lock(&game_b).presence.events.subscribe();
        let long_ago = Instant::now() - UNWATCHED_KEPT - Duration::from_secs(1);
        for g in [&game_a, &game_b] {
            *lock(&lock(g).presence.last) = long_ago;
        }
        store.create(engine(), Rules::default()).unwrap();
        assert!(store.get(&a).is_err(), "the unwatched game was kept");
        assert_eq!(store.len(), 2);
        // Now only followed or recent games: refused again.
        assert!(store.create(engine(), Rules::default()).is_err());
    }
}
