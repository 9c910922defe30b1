//! Match results as a score and an Elo difference with a 95% interval.
//!
//! - score `s = (wins + draws/2) / games`, from the first engine's side;
//! - Elo difference `elo(s) = -400 * log10(1/s - 1)`;
//! - the standard error of the mean per-game score (each game scores 1,
//!   0.5 or 0): `se = sqrt((mean(x^2) - s^2) / games)`;
//! - the 95% interval is `[elo(s - 1.96 se), elo(s + 1.96 se)]`.
//!
//! A score of exactly 0 or 1 (or an interval end beyond them) has no finite
//! Elo: such scores are clamped to `[1/(2·games), 1 - 1/(2·games)]` (as if
//! half a game had gone the other way) and the summary says so
//! (`clamped`); the Elo is then a bound, not an estimate.

use serde::Serialize;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// Elo difference for a score strictly between 0 and 1.
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// A match summary from the first engine's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// `(wins + draws/2) / games`, 0 to 1 (0.5 with no games).
    pub score: f64,
    /// Elo difference (first engine minus second).
    pub elo: f64,
    /// Half the width of the 95% interval, `(elo_high - elo_low) / 2`.
    pub elo_ci95: f64,
    /// The 95% interval of the Elo difference.
    pub elo_low: f64,
    pub elo_high: f64,
    /// Whether a score was clamped away from 0 or 1 to keep the Elo finite.
    pub clamped: bool,
}

impl Summary {
    pub fn new(wins: u32, draws: u32, losses: u32) -> Self {
        let games = wins + draws + losses;
        if games == 0 {
            return Summary {
                games,
                wins,
                draws,
                losses,
                score: 0.5,
                elo: 0.0,
                elo_ci95: 0.0,
                elo_low: 0.0,
                elo_high: 0.0,
                clamped: false,
            };
        }
        let n = f64::from(games);
        let score = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
        let mean_sq = (f64::from(wins) + 0.25 * f64::from(draws)) / n;
        let se = ((mean_sq - score * score).max(0.0) / n).sqrt();
        let eps = 0.5 / n;
        let mut clamped = false;
        let mut e = |s: f64| {
            let c = s.clamp(eps, 1.0 - eps);
            if c != s {
                clamped = true;
            }
            elo(c)
        };
        let elo_mid = e(score);
        let elo_low = e(score - Z95 * se);
        let elo_high = e(score + Z95 * se);
        Summary {
            games,
            wins,
            draws,
            losses,
            score,
            elo: elo_mid,
            elo_ci95: (elo_high - elo_low) / 2.0,
            elo_low,
            elo_high,
            clamped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn elo_formula() {
        assert!(close(elo(0.5), 0.0));
        assert!(close(elo(0.75), 400.0 * 3f64.log10()));
        assert!(close(elo(0.25), -400.0 * 3f64.log10()));
        assert!(close(elo(10.0 / 11.0), 400.0));
    }

    #[test]
    fn interval_from_the_per_game_standard_error() {
        // 60 wins, 20 draws, 20 losses: s = 0.7; per-game scores 1, .5, 0.
        let s = Summary::new(60, 20, 20);
        assert!(close(s.score, 0.7));
        let var = (60.0 * 0.09 + 20.0 * 0.04 + 20.0 * 0.49) / 100.0;
        let se = (var / 100.0f64).sqrt();
        assert!(close(s.elo, elo(0.7)));
        assert!(close(s.elo_low, elo(0.7 - Z95 * se)));
        assert!(close(s.elo_high, elo(0.7 + Z95 * se)));
        assert!(close(s.elo_ci95, (s.elo_high - s.elo_low) / 2.0));
        assert!(!s.clamped);
        // Draws narrow the interval compared with the same score from wins and losses.
        let no_draws = Summary::new(70, 0, 30);
        assert!(close(no_draws.score, 0.7));
        assert!(no_draws.elo_ci95 > s.elo_ci95);
    }

    #[test]
    fn extreme_scores_are_finite_and_flagged() {
        for s in [
            Summary::new(10, 0, 0),
            Summary::new(0, 0, 10),
            Summary::new(9, 1, 0),
        ] {
            assert!(s.elo.is_finite() && s.elo_low.is_finite() && s.elo_high.is_finite());
            assert!(s.elo_ci95.is_finite());
        }
        let all = Summary::new(10, 0, 0);
        assert!(all.clamped);
        assert!(close(all.elo, elo(0.95)));
        assert!(Summary::new(0, 0, 10).elo < 0.0);
        let none = Summary::new(0, 0, 0);
        assert_eq!(none.score, 0.5);
        assert!(!none.clamped);
        assert!(!Summary::new(5, 0, 5).clamped);
    }
}
