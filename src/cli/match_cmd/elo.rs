//! Match results as a score and an Elo difference with a 95% interval.
//!
//! - score `s = (wins + draws/2) / games`, from the first engine's side;
//! - Elo difference `elo(s) = -400 * log10(1/s - 1)`;
//! - the interval: the mean of the per-game scores (1, 0.5, 0), or with
//!   paired openings of the per-pair scores (the pentanomial model: each
//!   opening played once with each colour scores 0, 0.5, 1, 1.5 or 2),
//!   with its standard error; `[elo(s - 1.96 se), elo(s + 1.96 se)]`.
//!   Pairs are used only when every game played has its pair, so that the
//!   interval always stands on the same games as the score.
//!
//! Small samples: like the Agresti–Coull interval for a proportion, the
//! interval is computed as if about 1.96² more games had been played, half
//! won and half lost, so that it is never of zero width (10 wins out of
//! 10 do not prove an infinite difference) and always finite. The centre,
//! `elo`, is the plain score's Elo (clamped to half a game from 0 and 1,
//! and then flagged `clamped`).

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// Below this many games the interval is rough and the summary says so.
pub const FEW_GAMES: u32 = 30;

/// Elo difference for a score strictly between 0 and 1.
pub fn elo(score: f64) -> f64 {
    // `+ 0.0`: an even score is 0, not -0 (which JSON would show as -0.0).
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// A match summary from the first engine's side.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct EloSummary {
    /// Games played.
    pub games: u32,
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// `(wins + draws/2) / games`, 0 to 1 (0.5 with no games).
    pub score: f64,
    /// Elo difference (first engine minus second).
    pub elo: f64,
    /// Half the width of the 95% interval, `(elo_high - elo_low) / 2`.
    pub elo_ci95: f64,
    /// The low end of the 95% interval of the Elo difference.
    pub elo_low: f64,
    /// The high end of that interval.
    pub elo_high: f64,
    /// Whether the score was clamped away from 0 or 1 to keep the Elo finite.
    pub clamped: bool,
    /// `games` (per game) or `pairs` (pentanomial): what the interval treats
    /// as independent samples.
    pub model: &'static str,
}

/// The pairs of games among `scores` (as [`EloSummary::from_scores`] reads
/// them, games `2k` and `2k + 1` a pair) counted by the first engine's
/// points in them in half points (`[k]`: pairs in which it scored `k / 2`;
/// fishtest's "pentanomial" counts), and the games played whose pair is not
/// (the last game of an odd count, or a game whose partner is missing).
pub fn pentanomial(scores: &[Option<f64>]) -> ([u32; 5], u32) {
    let mut pairs = [0u32; 5];
    let mut unpaired = 0;
    for p in scores.chunks(2) {
        match p {
            [Some(a), Some(b)] => pairs[((a + b) * 2.0).round().clamp(0.0, 4.0) as usize] += 1,
            _ => unpaired += p.iter().flatten().count() as u32,
        }
    }
    (pairs, unpaired)
}

/// Mean and standard error of samples `values[k]` seen `counts[k]` times,
/// with `prior` extra samples at each end of the scale (0 and 1).
fn mean_and_error(values: &[f64], counts: &[f64], prior: f64) -> (f64, f64) {
    let n: f64 = counts.iter().sum::<f64>() + 2.0 * prior;
    let sum: f64 = values.iter().zip(counts).map(|(v, c)| v * c).sum::<f64>() + prior;
    let sq: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, c)| v * v * c)
        .sum::<f64>()
        + prior;
    let mean = sum / n;
    let var = (sq / n - mean * mean).max(0.0);
    (mean, (var / n).sqrt())
}

impl EloSummary {
    /// The summary of games counted one by one (the trinomial model).
    pub fn new(wins: u32, draws: u32, losses: u32) -> Self {
        let counts = [f64::from(losses), f64::from(draws), f64::from(wins)];
        let (mean, se) = mean_and_error(&[0.0, 0.5, 1.0], &counts, Z95 * Z95 / 2.0);
        Self::build(wins, draws, losses, mean, se, "games")
    }

    /// The summary of games given by the first engine's score in each (1,
    /// 0.5 or 0; `None` for a game not played), in game order; with
    /// `paired`, games `2k` and `2k + 1` share an opening with colours
    /// swapped and the interval treats each pair as one sample (the
    /// pentanomial model) when every game played has its pair; else, as
    /// without `paired`, each game is a sample (the score counts every
    /// game, and so does the interval).
    pub fn from_scores(scores: &[Option<f64>], paired: bool) -> Self {
        let count = |v: f64| scores.iter().filter(|&&x| x == Some(v)).count() as u32;
        let (wins, draws, losses) = (count(1.0), count(0.5), count(0.0));
        let (pairs, unpaired) = pentanomial(scores);
        if !paired || unpaired > 0 || pairs == [0; 5] {
            return Self::new(wins, draws, losses);
        }
        let counts = pairs.map(f64::from);
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let (mean, se) = mean_and_error(&values, &counts, Z95 * Z95 / 4.0);
        Self::build(wins, draws, losses, mean, se, "pairs")
    }

    fn build(wins: u32, draws: u32, losses: u32, mean: f64, se: f64, model: &'static str) -> Self {
        // (Counted wide: three u32 counts may not sum in one.)
        let games = u64::from(wins) + u64::from(draws) + u64::from(losses);
        let n = games.max(1) as f64;
        let score = if games == 0 {
            0.5
        } else {
            (f64::from(wins) + 0.5 * f64::from(draws)) / n
        };
        // Half a game short of all or nothing, and for a single game as
        // if it were one of two: half of one game would be an even score.
        let eps = 0.5 / n.max(2.0);
        let clamped = games > 0 && (score < eps || score > 1.0 - eps);
        let centre = elo(score.clamp(eps, 1.0 - eps));
        let tiny = 1e-6;
        let elo_low = elo((mean - Z95 * se).clamp(tiny, 1.0 - tiny)).min(centre);
        let elo_high = elo((mean + Z95 * se).clamp(tiny, 1.0 - tiny)).max(centre);
        EloSummary {
            games: u32::try_from(games).unwrap_or(u32::MAX),
            wins,
            draws,
            losses,
            score,
            elo: if games == 0 { 0.0 } else { centre },
            elo_ci95: (elo_high - elo_low) / 2.0,
            elo_low,
            elo_high,
            clamped,
            model,
        }
    }

    /// The Elo line of a report: `Elo A-B +120 (95%: +40 to +210)`, with a
    /// warning for few games.
    pub fn elo_text(&self) -> String {
        // `+ 0.0` turns a negative zero (an even score) into "+0", not "-0".
        let mut s = format!(
            "Elo A-B {:+.0} (95%: {:+.0} to {:+.0}, by {})",
            self.elo + 0.0,
            self.elo_low + 0.0,
            self.elo_high + 0.0,
            self.model
        );
        if self.clamped {
            let end = if self.score > 0.5 { 100 } else { 0 };
            if self.games == 1 {
                let counted = if end == 100 { 75 } else { 25 };
                s.push_str(&format!(
                    "; a score of {end}% counts as {counted}% (one and a half games of two), \
                     to keep the Elo finite"
                ));
            } else {
                s.push_str(&format!(
                    "; a score of {end}% counts as half a game short of it, to keep the Elo finite"
                ));
            }
        }
        if self.games < FEW_GAMES {
            let games = crate::cli::plural(u64::from(self.games), "game");
            s.push_str(&format!("; only {games}: a rough interval"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn totals_past_u32_keep_a_score_between_0_and_1() {
        let s = EloSummary::new(u32::MAX, u32::MAX, u32::MAX);
        assert!(s.score > 0.0 && s.score < 1.0, "{}", s.score);
    }

    #[test]
    fn elo_formula() {
        assert!(close(elo(0.5), 0.0));
        assert!(elo(0.5).is_sign_positive(), "+0, not -0");
        assert!(
            EloSummary::new(1, 0, 1)
                .elo_text()
                .starts_with("Elo A-B +0 ")
        );
        assert!(close(elo(0.75), 400.0 * 3f64.log10()));
        assert!(close(elo(0.25), -400.0 * 3f64.log10()));
        assert!(close(elo(10.0 / 11.0), 400.0));
    }

    #[test]
    fn large_samples_match_the_per_game_standard_error() {
        // 600 wins, 200 draws, 200 losses: s = 0.7.
        let s = EloSummary::new(600, 200, 200);
        assert!(close(s.score, 0.7));
        assert!(close(s.elo, elo(0.7)));
        let var = (600.0 * 0.09 + 200.0 * 0.04 + 200.0 * 0.49) / 1000.0;
        let se = (var / 1000.0f64).sqrt();
        // The prior of ~2 games moves the ends by well under an Elo point.
        assert!(
            (s.elo_low - elo(0.7 - Z95 * se)).abs() < 1.5,
            "{}",
            s.elo_low
        );
        assert!(
            (s.elo_high - elo(0.7 + Z95 * se)).abs() < 1.5,
            "{}",
            s.elo_high
        );
        // Draws narrow the interval compared with the same score from wins and losses.
        let no_draws = EloSummary::new(700, 0, 300);
        assert!(no_draws.elo_ci95 > s.elo_ci95);
    }

    #[test]
    fn small_samples_never_get_a_zero_width_interval() {
        for s in [
            EloSummary::new(1, 0, 0),
            EloSummary::new(0, 1, 0),
            EloSummary::new(2, 0, 0),
            EloSummary::new(10, 0, 0),
            EloSummary::new(0, 0, 10),
            EloSummary::new(9, 1, 0),
            EloSummary::new(1, 0, 1),
            EloSummary::from_scores(&[Some(1.0), Some(0.0), Some(0.0), Some(1.0)], true),
            EloSummary::from_scores(&[Some(1.0); 6], true),
        ] {
            assert!(s.elo.is_finite() && s.elo_low.is_finite() && s.elo_high.is_finite());
            assert!(s.elo_ci95 > 50.0, "{s:?}");
            assert!(s.elo_low <= s.elo && s.elo <= s.elo_high, "{s:?}");
            assert!(s.elo_text().contains("rough"));
        }
        let all = EloSummary::new(10, 0, 0);
        assert!(all.clamped && close(all.elo, elo(0.95)));
        assert!(
            all.elo_text()
                .contains("a score of 100% counts as half a game short")
        );
        assert!(EloSummary::new(0, 0, 1).elo_text().contains("score of 0%"));
        // One game won or lost is not an even score.
        let (won, lost) = (EloSummary::new(1, 0, 0), EloSummary::new(0, 0, 1));
        assert!(
            close(won.elo, elo(0.75)) && close(lost.elo, elo(0.25)),
            "{won:?}"
        );
        assert!(
            won.elo_text().contains("100% counts as 75%"),
            "{}",
            won.elo_text()
        );
        assert!(
            lost.elo_text().contains("0% counts as 25%"),
            "{}",
            lost.elo_text()
        );
        assert!(
            EloSummary::new(0, 0, 1)
                .elo_text()
                .ends_with("only 1 game: a rough interval")
        );
        assert!(!EloSummary::new(5, 0, 5).elo_text().contains("score of"));
        assert!(EloSummary::new(0, 0, 10).elo < 0.0);
        assert!(!EloSummary::new(5, 0, 5).clamped);
        assert_eq!(EloSummary::new(0, 0, 0).score, 0.5);
    }

    #[test]
    fn pairs_count_their_games_and_split_colour_luck_out() {
        // 40 pairs each won by the first engine with one colour and lost
        // with the other: the score is 50% and the pair model sees no
        // variance beyond the prior; the game model sees the full spread.
        let scores: Vec<Option<f64>> = (0..80).map(|g| Some((g % 2) as f64)).collect();
        let pairs = EloSummary::from_scores(&scores, true);
        assert_eq!((pairs.games, pairs.wins, pairs.losses), (80, 40, 40));
        assert_eq!(pairs.model, "pairs");
        let games = EloSummary::from_scores(&scores, false);
        assert!(close(pairs.score, 0.5) && close(games.score, 0.5));
        assert!(pairs.elo_ci95 < games.elo_ci95 / 2.0);
        // A game without its pair: the interval counts every game, as the
        // score does.
        let odd = [Some(1.0), Some(0.5), None, Some(0.5)];
        assert_eq!(pentanomial(&odd), ([0, 0, 0, 1, 0], 1));
        let s = EloSummary::from_scores(&odd, true);
        assert_eq!((s.games, s.wins, s.draws), (3, 1, 2));
        assert_eq!(s.model, "games");
        assert_eq!(s, EloSummary::new(1, 2, 0));
        assert_eq!(
            pentanomial(&[Some(1.0), Some(1.0), Some(0.0)]),
            ([0, 0, 0, 0, 1], 1)
        );
        // Whole pairs, games not played elsewhere (another shard's) aside.
        let shard = [None, None, Some(1.0), Some(0.0), Some(0.5), Some(0.0)];
        assert_eq!(pentanomial(&shard), ([0, 1, 1, 0, 0], 0));
        assert_eq!(EloSummary::from_scores(&shard, true).model, "pairs");
    }
}
