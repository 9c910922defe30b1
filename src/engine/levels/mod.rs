//! Strength levels: opponents for every player, each a fixed amount of
//! the engine's own search and a choice among the moves it searched.
//!
//! A level below the top searches a fixed number of iterations on one
//! thread, from a fresh tree at every move, so that it plays alike on a
//! slow laptop and a fast desktop; a command's time limit only caps it.
//! It then draws its move among the root moves the search visited, with a
//! probability that grows with their visits (`visits^(1/temperature)`),
//! leaving out moves the search proved lost: a mistake is a move the
//! search thought worth trying, never a blunder into a win in one that it
//! saw. A proven win is always played, so no level throws a won game away.
//!
//! Level 0 is the reference of the ratings: the uniformly random legal
//! player, at 0 Elo. The ratings of the table ([`LEVELS`]) were fitted by
//! maximum likelihood from matches between the levels (docs/LEVELS.md
//! says how, and the command that reruns the calibration).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Move, MoveList, Position};
use crate::search::{MoveStats, Proven, Report};

/// One strength level.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Level {
    /// Its number: 0 is the random reference, 1 the weakest level.
    pub number: u8,
    /// Iterations a move (`None`: the full engine, on the command's time).
    pub iterations: Option<u64>,
    /// The temperature of the move choice (0: the most visited move).
    pub temperature: f32,
    /// Percent of its moves drawn uniformly among the legal ones (where
    /// no win is proven).
    pub randomness: u8,
    /// Its rating on the scale where the random player is 0 Elo.
    pub elo: i32,
    /// The half-width of the rating's 95% interval.
    pub interval: i32,
}

const fn level(
    number: u8,
    iterations: u64,
    temperature: f32,
    randomness: u8,
    (elo, interval): (i32, i32),
) -> Level {
    Level {
        number,
        iterations: Some(iterations),
        temperature,
        randomness,
        elo,
        interval,
    }
}

/// Every level, the random reference first and the full engine last, with
/// the ratings of the last calibration (docs/LEVELS.md).
pub const LEVELS: &[Level] = &[
    level(0, 0, 0.0, 100, (0, 0)),
    level(1, 1, 1.0, 90, (400, 26)),
    level(2, 1, 1.0, 40, (606, 28)),
    level(3, 1, 1.0, 20, (730, 30)),
    level(4, 1, 1.0, 0, (904, 31)),
    level(5, 64, 1.0, 0, (1050, 33)),
    level(6, 600, 0.5, 0, (1191, 34)),
    level(7, 2_000, 0.25, 0, (1379, 36)),
    level(8, 3_500, 0.25, 0, (1501, 37)),
    level(9, 6_000, 0.25, 0, (1644, 39)),
    level(10, 10_000, 0.0, 0, (1782, 40)),
    Level {
        number: 11,
        iterations: None,
        temperature: 0.0,
        randomness: 0,
        elo: 2028,
        interval: 46,
    },
];

/// The number of the top level: the full engine.
pub const TOP: u8 = (LEVELS.len() - 1) as u8;

/// The time per move of the full engine when its rating was measured.
pub const TOP_TIME_MS: u64 = 200;

impl Level {
    /// Level `n`, if there is one.
    pub fn get(n: u8) -> Option<&'static Level> {
        LEVELS.get(usize::from(n))
    }

    /// The level whose rating is nearest to `elo` (the lower of two as
    /// near), the random reference left out.
    pub fn nearest(elo: i32) -> &'static Level {
        LEVELS[1..]
            .iter()
            .min_by_key(|l| (i64::from(l.elo) - i64::from(elo)).unsigned_abs())
            .expect("levels above the reference")
    }

    /// Whether this is the full engine.
    pub fn is_top(&self) -> bool {
        self.iterations.is_none()
    }

    /// Whether this is the random reference, which does not search.
    pub fn is_random(&self) -> bool {
        self.iterations == Some(0)
    }
}

/// A generator for the choice at `pos`, from the search's seed: the same
/// seed and position give the same choice.
pub(crate) fn choice_rng(seed: u64, pos: &Position) -> Xoshiro256PlusPlus {
    // FNV-1a over the moves of the game: cheap, and stable across builds.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for m in pos.moves() {
        h ^= m.id() as u64 + 1;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    Xoshiro256PlusPlus::seed_from_u64(h)
}

/// A legal move drawn uniformly among every legal move at `pos` (swap and
/// the time machine among them where they are legal), or `None` when the
/// game is over.
pub fn random_move(pos: &Position, seed: u64) -> Option<Move> {
    random_legal(pos, &mut choice_rng(seed, pos))
}

fn random_legal(pos: &Position, rng: &mut impl Rng) -> Option<Move> {
    if pos.status().is_over() {
        return None;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// How a level chooses its move once its search is over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Choice {
    /// The temperature of the choice among the moves searched.
    pub temperature: f32,
    /// Percent of the moves drawn among every legal move instead.
    pub randomness: u8,
}

/// The move a level plays at `pos` from `report` (listing every visited
/// root move): where the position's value is proven, the report's best
/// (a win is played, a draw kept, a loss resisted as the engine resists
/// it); otherwise, `randomness` percent of the time, any legal move, drawn
/// uniformly; else, at a temperature of 0, the best move, and above it a
/// visited move that is not proven lost, drawn with a probability
/// proportional to `visits^(1/temperature)`.
pub(crate) fn choose(
    report: &Report<Move>,
    pos: &Position,
    choice: Choice,
    rng: &mut impl Rng,
) -> Option<Move> {
    let best = report.best?;
    if report.proven.is_some() {
        return Some(best);
    }
    if choice.randomness > 0 && rng.random_range(0..100u8) < choice.randomness {
        return random_legal(pos, rng);
    }
    let temperature = choice.temperature;
    if temperature <= 0.0 {
        return Some(best);
    }
    let candidates = |m: &&MoveStats<Move>| m.visits > 0 && m.proven != Some(Proven::Loss);
    let Some(most) = report.top.iter().filter(candidates).map(|m| m.visits).max() else {
        return Some(best);
    };
    // Weights relative to the most visited move, so that no power overflows.
    let weight =
        |m: &MoveStats<Move>| (m.visits as f64 / most as f64).powf(1.0 / f64::from(temperature));
    let total: f64 = report.top.iter().filter(candidates).map(weight).sum();
    let mut x = rng.random::<f64>() * total;
    for m in report.top.iter().filter(candidates) {
        x -= weight(m);
        if x <= 0.0 {
            return Some(m.mv);
        }
    }
    Some(best)
}

/// `report` with `chosen` as its move: its statistics first in the list,
/// its line as the principal variation and its win rate as the report's.
pub(crate) fn with_move(mut report: Report<Move>, chosen: Move) -> Report<Move> {
    if report.best == Some(chosen) {
        return report;
    }
    if let Some(i) = report.top.iter().position(|m| m.mv == chosen) {
        let stats = report.top.remove(i);
        report.winrate = stats.winrate;
        report.pv = stats.pv.clone();
        report.top.insert(0, stats);
    }
    report.best = Some(chosen);
    report
}

#[cfg(test)]
mod tests;
