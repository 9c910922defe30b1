//! Games between two players from random openings, for `cabra match` and
//! `cabra selfplay`. A player is anything that answers "your move" for a
//! position ([`Contestant`]): an in-process engine ([`EnginePlayer`]) or,
//! in the front end, another program. A player that fails to give a legal
//! placement (an illegal one, a crash, an unreadable answer, no answer in
//! time, a resignation) loses the game, and the record says why.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

pub use super::clock::OnClock;
use super::clock::TimeControl;
use super::config::EngineConfig;
use super::engine::Progress;
use super::handle::{EngineHandle, Listener, Request};
use super::units::format_duration;
use crate::game::{Move, Placement, PlacementError, Player as Colour, Position, below};

/// Why a player lost a game off the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Fault {
    /// It answered a move that is not legal in the position (the message
    /// names it; its [`std::error::Error::source`] says why).
    #[error("illegal placement {placement}")]
    Illegal {
        /// The move, as answered.
        placement: Move,
        /// Why it is not legal.
        #[source]
        source: PlacementError,
    },
    /// Its answer could not be read as a placement (or the protocol broke).
    #[error("unreadable answer: {0}")]
    Garbage(String),
    /// It answered with an error instead of a placement.
    #[error("answered an error: {0}")]
    Refused(String),
    /// It stopped running (exit status or signal, and what it said last).
    #[error("crashed: {0}")]
    Crashed(String),
    /// It took longer than allowed for one answer.
    #[error("no answer within {}", format_duration(*limit))]
    Timeout {
        /// The time allowed (the time per move and the margin).
        limit: Duration,
    },
    /// It resigned.
    #[error("resigned")]
    Resigned,
}

impl Fault {
    /// A one-word name of the kind of fault, for summaries: `illegal`,
    /// `garbage`, `error`, `crash`, `timeout` or `resign`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Illegal { .. } => "illegal",
            Fault::Garbage(_) => "garbage",
            Fault::Refused(_) => "error",
            Fault::Crashed(_) => "crash",
            Fault::Timeout { .. } => "timeout",
            Fault::Resigned => "resign",
        }
    }
}

/// Why a game (or its opening) could not be set up; nothing was played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MatchError {
    /// An engine of [`play_engines`] whose configuration limits no search
    /// (no `time`, `iterations` or `nodes`, and no level below the top).
    #[error(
        "engine {player} sets no limit (time, iterations or nodes): its searches would never end"
    )]
    Unlimited {
        /// Which: 0 = the first given, 1 = the second.
        player: usize,
    },
    /// The player to move first after the opening is not 0 or 1
    /// ([`play_game`], [`play_engines`]).
    #[error("the player to move first is 0 or 1 (the first or the second given), not {0}")]
    NoSuchPlayer(usize),
    /// A placement of the opening is not legal where it comes
    /// ([`play_game`], [`play_engines`]); its [`std::error::Error::source`]
    /// says why.
    #[error("placement {number} of the opening, {placement}, is not legal")]
    IllegalOpening {
        /// Its number in the opening, from 1.
        number: usize,
        /// The placement.
        placement: Placement,
        /// Why it is not legal there.
        #[source]
        source: PlacementError,
    },
    /// An opening's least length is above its greatest
    /// ([`random_opening`]).
    #[error("an opening of {min} to {max} placements: the least is above the most")]
    OpeningLengths {
        /// The least length asked for.
        min: usize,
        /// The greatest length asked for.
        max: usize,
    },
}

/// A game's clock: the time control, and how far past its time left a
/// player may go before it loses (the answer's travel, a busy machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Main time and increment of each player.
    pub control: TimeControl,
    /// What a move may take beyond the time left.
    pub margin: Duration,
}

/// One side of a game: gives a placement for the side to move. (A
/// contestant plays one colour, a [`crate::game::Player`], in each game.)
pub trait Contestant {
    /// The move for the side to move in `pos`, whose record is the whole
    /// game so far (opening included), with `clock` left in a game on a
    /// clock. The caller checks legality and time.
    fn genmove(&mut self, pos: &Position, clock: Option<OnClock>) -> Result<Move, Fault>;

    /// The game is over (or abandoned); `pos` is where it ended.
    fn finish(&mut self, _pos: &Position) {}

    /// What the search behind the last [`Contestant::genmove`] saw, for
    /// training data (`None`: a program, or nothing to say).
    fn searched(&mut self) -> Option<SearchNote> {
        None
    }
}

/// The most root moves a [`SearchNote`] lists.
const NOTED_MOVES: usize = 25;

/// What an engine's search saw before a placement: the training targets
/// of a self-play game (docs/TRAINING.md).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchNote {
    /// The search's estimate that the side to move wins (draws half).
    pub winrate: f64,
    /// Iterations of the search.
    pub iterations: u64,
    /// The move played first, then the other root moves with at least 1%
    /// as many visits as the search had iterations (at most 25 in all),
    /// with their visits (those of the kept tree included; 0 for a move
    /// played that the tree did not visit, as an exact search's can be).
    pub visits: Vec<(Move, u64)>,
}

/// An in-process engine as a player.
pub struct EnginePlayer {
    engine: EngineHandle,
    stop: Arc<AtomicBool>,
    last: Option<SearchNote>,
}

/// Ends a player's search when the match is stopped.
struct MatchStop(Arc<AtomicBool>);

impl Listener for MatchStop {
    fn progress(&mut self, _: &Progress) -> ControlFlow<()> {
        if self.0.load(Ordering::SeqCst) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

impl EnginePlayer {
    /// A player whose moves `engine` searches, with the limits of its
    /// configuration or its fallback ([`EngineHandle::with_fallback`]):
    /// off a clock, an engine that sets none would search forever. `stop`
    /// stops its searches (stopping a match stops the searches in
    /// progress).
    pub fn new(engine: EngineHandle, stop: &Arc<AtomicBool>) -> EnginePlayer {
        EnginePlayer {
            engine,
            stop: stop.clone(),
            last: None,
        }
    }
}

impl Contestant for EnginePlayer {
    /// The engine's limits as [`super::Budget::resolve`] settles them: on a
    /// clock, at most its [`super::clock::allocation`].
    fn genmove(&mut self, pos: &Position, clock: Option<OnClock>) -> Result<Move, Fault> {
        let request = Request::new(*pos).clock(clock).top_moves(NOTED_MOVES);
        let job = (self.engine)
            .start_with(request, MatchStop(self.stop.clone()))
            .map_err(|e| Fault::Refused(e.to_string()))?;
        let thought = job.wait().map_err(|e| Fault::Crashed(e.to_string()))?;
        let r = &thought.report;
        let floor = r.iterations / 100;
        // The move played comes first whatever chose it (the search's
        // most visited move, the temperature, the exact search or a
        // swindle), so that a policy's target never leaves it out.
        let played = r.best.map(|b| {
            let n = r.top.iter().find(|m| m.mv == b).map_or(0, |m| m.visits);
            (b, n)
        });
        let others = r
            .top
            .iter()
            .filter(|m| Some(m.mv) != r.best && m.visits > 0 && m.visits >= floor)
            .map(|m| (m.mv, m.visits));
        self.last = Some(SearchNote {
            winrate: r.winrate,
            iterations: r.iterations,
            visits: played.into_iter().chain(others).take(NOTED_MOVES).collect(),
        });
        r.best
            .ok_or_else(|| Fault::Refused("no placement found".into()))
    }

    fn searched(&mut self) -> Option<SearchNote> {
        self.last.take()
    }
}

/// A game lost off the board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Forfeit {
    /// The player who lost: 0 = the first given, 1 = the second.
    pub loser: usize,
    /// Placements on the board when it happened.
    pub ply: usize,
    /// What went wrong.
    pub fault: Fault,
}

/// A finished game between two players.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameRecord {
    /// The final position (its history is the whole game, opening
    /// included; a forfeited game stops where the fault happened).
    pub position: Position,
    /// Placements of the opening (not chosen by the players).
    pub opening: usize,
    /// Which player played first: 0 = the first player given, 1 = the second.
    pub first: usize,
    /// The colour the first player given played.
    pub a_colour: Colour,
    /// The score of the first player given: 1, 0.5 or 0.
    pub score: f64,
    /// Set when a player lost off the board.
    pub forfeit: Option<Forfeit>,
    /// Each player's thinking time over the game (0 = the first given),
    /// as the match measured it.
    pub thought: [Duration; 2],
    /// The placements each player made (0 = the first given).
    pub moves: [u32; 2],
    /// What the search saw before each placement after the opening, in
    /// order ([`Contestant::searched`]).
    pub searches: Vec<Option<SearchNote>>,
}

impl GameRecord {
    /// Which player (0 or 1, as given) played player 1 of the game.
    pub fn player_one(&self) -> usize {
        if self.a_colour == Colour::One { 0 } else { 1 }
    }
}

/// Plays one game between `players` from `start` (which holds the rules):
/// `players[first]` moves first after `opening`, on `clock` if given (a
/// player whose move takes longer than its time left and the margin loses
/// the game). Returns `None` when `stop` is raised before the game ends.
///
/// `first` is 0 or 1, and every placement of `opening` must be legal
/// where it comes: otherwise the game is not played (no player is asked
/// anything) and the error says what is wrong.
pub fn play_game(
    players: [&mut dyn Contestant; 2],
    first: usize,
    start: Position,
    opening: &[Placement],
    clock: Option<Clock>,
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, MatchError> {
    let pos = after_opening(first, start, opening)?;
    Ok(play_from(players, first, pos, opening.len(), clock, stop))
}

/// The position after `opening` from `start`, once `first` is known to
/// name a player.
fn after_opening(
    first: usize,
    start: Position,
    opening: &[Placement],
) -> Result<Position, MatchError> {
    if first > 1 {
        return Err(MatchError::NoSuchPlayer(first));
    }
    let mut pos = start;
    for (i, &placement) in opening.iter().enumerate() {
        pos.play(placement)
            .map_err(|source| MatchError::IllegalOpening {
                number: i + 1,
                placement,
                source,
            })?;
    }
    Ok(pos)
}

/// [`play_game`] from `pos`, the position after an opening of `opening`
/// placements.
fn play_from(
    players: [&mut dyn Contestant; 2],
    first: usize,
    mut pos: Position,
    opening: usize,
    clock: Option<Clock>,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    // The player that moves first after the opening plays the colour to
    // move at the end of it (whoever moves next, after a swap or a time
    // machine too).
    let first_colour = pos.to_move();
    let a_colour = if first == 0 {
        first_colour
    } else {
        first_colour.other()
    };
    let mut forfeit = None;
    let mut left = [clock.map_or(Duration::ZERO, |c| c.control.main); 2];
    let (mut thought, mut moves) = ([Duration::ZERO; 2], [0u32; 2]);
    let mut searches = Vec::new();
    while !pos.status().is_over() {
        if stop.load(Ordering::SeqCst) {
            for p in players {
                p.finish(&pos);
            }
            return None;
        }
        let idx = if pos.to_move() == a_colour { 0 } else { 1 };
        let on_clock = clock.map(|c| OnClock {
            left: left[idx],
            increment: c.control.increment,
        });
        let asked = Instant::now();
        let answer = players[idx].genmove(&pos, on_clock);
        let used = asked.elapsed();
        searches.push(players[idx].searched());
        thought[idx] += used;
        moves[idx] += 1;
        if let Some(c) = clock {
            if used > left[idx] + c.margin && answer.is_ok() {
                forfeit = Some(Forfeit {
                    loser: idx,
                    ply: pos.plies(),
                    fault: Fault::Timeout {
                        limit: left[idx] + c.margin,
                    },
                });
                break;
            }
            left[idx] = left[idx].saturating_sub(used) + c.control.increment;
        }
        let fault = match answer {
            Ok(mv) => match pos.check(mv) {
                Ok(()) => {
                    pos.play_move_unchecked(mv);
                    continue;
                }
                Err(e) => Fault::Illegal {
                    placement: mv,
                    source: e,
                },
            },
            Err(f) => f,
        };
        // A fault while stopping (a program killed by the same signal)
        // is no result.
        if stop.load(Ordering::SeqCst) {
            for p in players {
                p.finish(&pos);
            }
            return None;
        }
        forfeit = Some(Forfeit {
            loser: idx,
            ply: pos.plies(),
            fault,
        });
        break;
    }
    for p in players {
        p.finish(&pos);
    }
    let score = match (&forfeit, pos.status().winner()) {
        (Some(f), _) => {
            if f.loser == 0 {
                0.0
            } else {
                1.0
            }
        }
        (None, Some(w)) if w == a_colour => 1.0,
        (None, Some(_)) => 0.0,
        (None, None) => 0.5,
    };
    Some(GameRecord {
        position: pos,
        opening,
        first,
        a_colour,
        score,
        forfeit,
        thought,
        moves,
        searches,
    })
}

/// Plays one game between two in-process engines, fresh for the game and
/// seeded from `seed` (a seed of their configuration mixed in), each with
/// the limits of its configuration: one that sets none (no `time`,
/// `iterations` or `nodes`, and no level below the top) is an error, as
/// are those of [`play_game`], before any engine starts.
pub fn play_engines(
    configs: [&EngineConfig; 2],
    first: usize,
    start: Position,
    opening: &[Placement],
    seed: u64,
    stop: &Arc<AtomicBool>,
) -> Result<Option<GameRecord>, MatchError> {
    let pos = after_opening(first, start, opening)?;
    if let Some(player) =
        (0..2).find(|&i| configs[i].budget.is_unlimited() && configs[i].fixed_level().is_none())
    {
        return Err(MatchError::Unlimited { player });
    }
    let player = |config: &EngineConfig, salt: u64| {
        // Each game its own seed (the configuration's, if any, mixed in).
        let own = config.seed.unwrap_or(0);
        let config = EngineConfig {
            seed: Some(own ^ seed ^ salt),
            ..config.clone()
        };
        EnginePlayer::new(EngineHandle::new(config), stop)
    };
    let mut a = player(configs[0], 0xA);
    let mut b = player(configs[1], 0xB);
    Ok(play_from(
        [&mut a, &mut b],
        first,
        pos,
        opening.len(),
        None,
        stop,
    ))
}

/// Plays `games` games, `concurrency` at a time: `play(g)` plays game
/// `g` (from 0) on a thread of the match's; the results come in game
/// order.
///
/// Plain threads, each taking the next game, and not a rayon pool: a game
/// thread of a pool that waits for an engine's own search pool steals
/// other games meanwhile, so that games ran nested inside one another's
/// moves, more at once than `concurrency`, and an engine with several
/// threads was timed with every game it had nested.
pub fn play_concurrently<T: Send>(
    games: usize,
    concurrency: usize,
    play: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<Option<T>>> =
        std::sync::Mutex::new((0..games).map(|_| None).collect());
    std::thread::scope(|scope| {
        for i in 0..concurrency.clamp(1, games.max(1)) {
            let (next, results, play) = (&next, &results, &play);
            std::thread::Builder::new()
                .name(format!("cabra-game-{i}"))
                .spawn_scoped(scope, move || {
                    loop {
                        let g = next.fetch_add(1, Ordering::SeqCst);
                        if g >= games {
                            break;
                        }
                        let r = play(g);
                        results.lock().unwrap_or_else(|e| e.into_inner())[g] = Some(r);
                    }
                })
                .expect("starting a game thread");
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every game was played"))
        .collect()
}

/// Draws per opening placement before the opening stops short.
const OPENING_DRAWS: u32 = 64;

/// A random opening of `min..=max` uniformly random placements, from a seed.
///
/// A placement that ends the game, or leaves the next player a win in one,
/// is drawn again: such a prefix decides the game before the engines play
/// (9 of the 500 openings of five 200-game matches did), which only adds
/// noise to a match. The opening stops short if no fair placement turns up
/// in 64 draws (or the game has fewer placements in it). `min` above `max`
/// is an error.
pub fn random_opening(
    start: &Position,
    seed: u64,
    min: usize,
    max: usize,
) -> Result<Vec<Placement>, MatchError> {
    if min > max {
        return Err(MatchError::OpeningLengths { min, max });
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // No game is longer than u32::MAX placements: a longer span draws as
    // that (and `max - min + 1` cannot overflow).
    let span = u32::try_from(max - min).map_or(u32::MAX, |s| s.saturating_add(1));
    let len = min + below(&mut rng, span) as usize;
    let mut pos = *start;
    let mut moves = Vec::new();
    'placements: while moves.len() < len {
        for _ in 0..OPENING_DRAWS {
            let Some(mv) = pos.random_move(&mut rng) else {
                break 'placements;
            };
            let mut next = pos;
            next.play_unchecked(mv);
            if !next.status().is_over() && next.winning_move().is_none() {
                pos = next;
                moves.push(mv);
                continue 'placements;
            }
        }
        break;
    }
    Ok(moves)
}

#[cfg(test)]
mod tests;
