//! Playout scoring: a small share of each playout's reward goes to the
//! final counts, as KataGo adds a score utility to the win rate.
//!
//! A playout usually ends on a bridge, and the counts that decide a game
//! without one are then invisible to the search: a piece on the bottom
//! perimeter looks free. Here the reward of player one becomes
//! `(1 - λ) · result + λ · s`, where `s` in [0, 1] grows with player one's
//! lead in the counts (fewer perimeter pieces under `caminos`, more edge
//! columns under `bridget`), whichever way the playout ended. The tree
//! keeps whole and half points, so the reward is rounded to a win, draw or
//! loss at random with the right expectation (the reply table learns from
//! that rounded outcome too). A large share plays for the counts at the
//! expense of the bridge race: docs/STRENGTH.md has the measurements.

use rand::RngCore;

use crate::game::{Player, Position, Variant, below};
use crate::search::Outcome;

/// The lead in the counts (in pieces or columns) at which the score has
/// gone three quarters of the way from even to its bound (tanh 1 ≈ 0.76).
const SCALE: f32 = 3.0;

/// The outcome to back up for a playout that ended with `result` at `pos`,
/// with `percent` of the reward from the counts (0: the result alone).
#[inline]
pub fn outcome<R: RngCore + ?Sized>(
    pos: &Position,
    result: Outcome,
    rng: &mut R,
    percent: u8,
) -> Outcome {
    if percent == 0 {
        return result;
    }
    let [one, two] = Player::BOTH.map(|p| f32::from(pos.count(p)));
    let lead = match pos.rules().variant {
        Variant::Caminos => two - one,
        Variant::Bridget => one - two,
    };
    let share = f32::from(percent.min(100)) / 100.0;
    let score = 0.5 + 0.5 * (lead / SCALE).tanh();
    let reward = (1.0 - share) * result.reward_for(0) + share * score;
    // Half points for player one, rounded up with the chance of the remainder.
    let halves = 2.0 * reward;
    let whole = halves.floor();
    let up = (below(rng, 1 << 16) as f32) < (halves - whole) * 65536.0;
    match whole as u8 + u8::from(up) {
        0 => Outcome::Win(1),
        1 => Outcome::Draw,
        _ => Outcome::Win(0),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::game::{Position, parse_placement};

    /// Mean reward for player one over many roundings.
    fn mean(pos: &Position, result: Outcome, percent: u8) -> f32 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let n = 20_000;
        let total: f32 = (0..n)
            .map(|_| outcome(pos, result, &mut rng, percent).reward_for(0))
            .sum();
        total / n as f32
    }

    #[test]
    fn without_a_share_the_result_is_kept() {
        let pos = Position::new();
        assert_eq!(mean(&pos, Outcome::Win(1), 0), 0.0);
    }

    #[test]
    fn equal_counts_move_a_win_halfway_to_a_draw_by_the_share() {
        // The empty board: both counts 0, so the score is one half.
        let pos = Position::new();
        let m = mean(&pos, Outcome::Win(0), 20);
        assert!((m - 0.9).abs() < 0.01, "{m}");
    }

    #[test]
    fn a_perimeter_piece_lowers_its_owners_reward() {
        // Player one's first piece lies on the bottom perimeter, player
        // two's does not: player one trails the counts by one.
        let mut pos = Position::new();
        pos.play_unchecked(parse_placement("O T0 000").unwrap());
        pos.play_unchecked(parse_placement("O T0 330").unwrap());
        assert_eq!(pos.count(Player::One), 1);
        assert_eq!(pos.count(Player::Two), 0);
        let m = mean(&pos, Outcome::Draw, 50);
        let expected = 0.5 * 0.5 + 0.5 * (0.5 - 0.5 * (1.0f32 / SCALE).tanh());
        assert!((m - expected).abs() < 0.01, "{m} {expected}");
        assert!(m < 0.47, "{m}");
    }
}
