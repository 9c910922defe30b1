//! A sequential probability ratio test on match results, as Stockfish's
//! fishtest runs one: it stops a match once the games say, with error
//! rates `alpha` and `beta`, that A is `elo0` (H0) or `elo1` (H1) Elo
//! stronger than B.
//!
//! The log-likelihood ratio is the generalised SPRT's (Michel Van den
//! Bergh, "A practical introduction to the GSPRT", as fishtest's
//! `stat_util.py` computes it): with `n` samples whose scores `a_i` came
//! with frequencies `p_i`, and `P0`, `P1` the
//! distributions nearest `p` (of maximum likelihood) whose mean scores are
//! `s0 = L(elo0)` and `s1 = L(elo1)` for the logistic `L(e) = 1 / (1 +
//! 10^(-e/400))`,
//!
//! ```text
//! LLR = n sum_i p_i ln(P1_i / P0_i)
//! ```
//!
//! The samples are games (scores 0, 1/2, 1: the trinomial model,
//! [`Sprt::llr`]) or, where each opening is played once with each colour,
//! pairs of games (the mean of the pair's two scores, 0, 1/4, 1/2, 3/4 or
//! 1: the pentanomial model, [`Sprt::llr_pairs`], which fishtest uses for
//! its paired openings). A pair's two games are not independent (a
//! strong opening for one colour wins one game of each pair and loses
//! the other), and only the pentanomial model sees that.
//!
//! A count of zero counts as 0.001 (fishtest's `regularize`), so that
//! games all alike still have a nearest distribution of each mean: ten
//! straight wins move the test a little, as they should when it tells 0
//! from 5 Elo, rather than not at all or all the way.
//!
//! H1 is accepted once `LLR >= ln((1 - beta) / alpha)`, H0 once `LLR <=
//! ln(beta / (1 - alpha))`; between the bounds the match goes on. The
//! Elo values are logistic Elo, as [`super::elo::elo`] reports.

use thiserror::Error;

/// The hypotheses and error rates of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct SprtState {
    /// The log-likelihood ratio of the games so far.
    pub llr: f64,
    /// The bound at or below which H0 is accepted.
    pub lower: f64,
    /// The bound at or above which H1 is accepted.
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub verdict: &'static str,
}

/// Why a test's text (`0,5` or `0,5,0.05,0.05`) was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{text}': {why}")]
pub struct SprtError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub why: SprtWhy,
}

/// What is wrong with a test's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SprtWhy {
    /// Not two or four numbers.
    #[error("--sprt wants elo0,elo1[,alpha,beta], e.g. 0,5 or 0,5,0.05,0.05")]
    Form,
    /// `elo0` not below `elo1`.
    #[error("elo0 must be below elo1")]
    Order,
    /// An Elo value beyond ±1000 (or no finite number).
    #[error("Elo values must be numbers within ±1000")]
    Range,
    /// `alpha` or `beta` outside (0, 0.5).
    #[error("{0} must lie between 0 and 0.5")]
    ErrorRate(&'static str),
}

/// The expected score of an Elo difference (logistic).
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The scores of a loss, a draw and a win (the trinomial model, which
/// only the tests use: they check the GSPRT against worked values).
#[cfg(test)]
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The mean scores of a pair of games: both lost, a loss and a draw, two
/// draws or a win and a loss, a win and a draw, both won.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution over `scores` of mean `s` nearest `p` (of maximum
/// likelihood for samples of frequencies `p`, every one above 0): `q_i =
/// p_i / (1 + x (a_i - s))` for the `x` that gives the mean `s`, found by
/// bisection (the mean falls as `x` grows, while every `q_i` stays
/// positive).
fn nearest<const N: usize>(p: [f64; N], scores: [f64; N], s: f64) -> [f64; N] {
    let q = |x: f64| std::array::from_fn(|i| p[i] / (1.0 + x * (scores[i] - s)));
    let offset = |x: f64| -> f64 {
        let q: [f64; N] = q(x);
        (0..N).map(|i| q[i] * (scores[i] - s)).sum()
    };
    // 1 + x (a_i - s) > 0 for every score: x in (-1/(1 - s), 1/s).
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if offset(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    q(0.5 * (lo + hi))
}

impl Sprt {
    /// Reads `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let fail = |why| SprtError {
            text: text.to_string(),
            why,
        };
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| fail(SprtWhy::Form))?;
        let (elo0, elo1, alpha, beta) = match parts[..] {
            [a, b] => (a, b, 0.05, 0.05),
            [a, b, c, d] => (a, b, c, d),
            _ => return Err(fail(SprtWhy::Form)),
        };
        // `!(x <= 1000)` also refuses NaN and the infinities.
        if !(elo0.abs() <= 1000.0 && elo1.abs() <= 1000.0) {
            return Err(fail(SprtWhy::Range));
        }
        if elo0 >= elo1 {
            return Err(fail(SprtWhy::Order));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(fail(SprtWhy::ErrorRate(name)));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratio of `wins`, `draws` and `losses` (A's),
    /// each game a sample (the trinomial model); 0 with no games.
    #[cfg(test)]
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        self.llr_of([losses, draws, wins], GAME_SCORES)
    }

    /// The log-likelihood ratio of pairs of games, each pair a sample (the
    /// pentanomial model): `pairs[k]` counts the pairs in which A scored
    /// `k` half points (0: both lost, ..., 4: both won); 0 with no pairs.
    pub fn llr_pairs(&self, pairs: [u32; 5]) -> f64 {
        self.llr_of(pairs, PAIR_SCORES)
    }

    fn llr_of<const N: usize>(&self, counts: [u32; N], scores: [f64; N]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularize = |c: u32| if c == 0 { 1e-3 } else { f64::from(c) };
        let counts = counts.map(regularize);
        let n: f64 = counts.iter().sum();
        let p = counts.map(|c| c / n);
        let p0 = nearest(p, scores, expected(self.elo0));
        let p1 = nearest(p, scores, expected(self.elo1));
        n * (0..N).map(|i| p[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// The test's state after these games, each a sample.
    #[cfg(test)]
    pub fn state(&self, wins: u32, draws: u32, losses: u32) -> SprtState {
        self.state_of(self.llr(wins, draws, losses))
    }

    /// The test's state after these pairs of games (as [`Sprt::llr_pairs`]
    /// counts them).
    pub fn state_pairs(&self, pairs: [u32; 5]) -> SprtState {
        self.state_of(self.llr_pairs(pairs))
    }

    fn state_of(&self, llr: f64) -> SprtState {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let verdict = if llr >= upper {
            "H1"
        } else if llr <= lower {
            "H0"
        } else {
            "continue"
        };
        SprtState {
            llr,
            lower,
            upper,
            verdict,
        }
    }

    /// The test in one line: `SPRT elo0 0 elo1 5 (alpha 0.05, beta
    /// 0.05): LLR 1.73 in [-2.94, 2.94]: continue`.
    pub fn describe(&self, state: &SprtState) -> String {
        let verdict = match state.verdict {
            "H1" => format!(
                "H1 accepted (A - B is {:+} Elo rather than {:+})",
                self.elo1, self.elo0
            ),
            "H0" => format!(
                "H0 accepted (A - B is {:+} Elo rather than {:+})",
                self.elo0, self.elo1
            ),
            _ => "continue".to_string(),
        };
        // A tiny error rate in a few digits, not hundreds of zeros.
        let rate = |v: f64| {
            if v < 1e-4 {
                format!("{v:e}")
            } else {
                v.to_string()
            }
        };
        format!(
            "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.2} in [{:.2}, {:.2}]: {verdict}",
            self.elo0,
            self.elo1,
            rate(self.alpha),
            rate(self.beta),
            state.llr,
            state.lower,
            state.upper
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn llr_matches_the_gsprt_worked_apart() {
        // Worked in Python (fishtest's method: the distributions of mean
        // s0 and s1 nearest the games' frequencies, by bisection).
        let t = Sprt::parse("0,10").unwrap();
        assert!(
            close(t.llr(60, 20, 20), 1.389_822_2),
            "{}",
            t.llr(60, 20, 20)
        );
        let t = Sprt::parse("0,5").unwrap();
        assert!(close(t.llr(100, 200, 100), -0.082_830_7));
        assert!(close(t.llr(1100, 2000, 900), 4.931_112_6));
        assert!(close(t.llr(900, 2000, 1100), -6.579_454_2));
        // The bounds of alpha = beta = 0.05: ±ln 19.
        let s = t.state(1100, 2000, 900);
        assert!(close(s.upper, 19f64.ln()) && close(s.lower, -(19f64.ln())));
        assert_eq!(s.verdict, "H1");
        assert_eq!(t.state(900, 2000, 1100).verdict, "H0");
        assert_eq!(t.state(100, 200, 100).verdict, "continue");
        assert!(t.describe(&s).contains("H1 accepted"), "{}", t.describe(&s));
        // Nothing to go on: no games.
        assert_eq!(t.llr(0, 0, 0), 0.0);
        // Games all alike move the test, a little at a time: each straight
        // win by about ln(L(5) / L(0)).
        assert!(close(t.llr(10, 0, 0), 0.142_875_9), "{}", t.llr(10, 0, 0));
        assert!(close(t.llr(0, 0, 10), -0.144_947_3), "{}", t.llr(0, 0, 10));
        assert!(close(t.llr(0, 7, 0), -0.096_553_0), "{}", t.llr(0, 7, 0));
        assert_eq!(t.state(100, 0, 0).verdict, "continue");
        assert_eq!(t.state(300, 0, 0).verdict, "H1");
    }

    #[test]
    fn pairs_are_samples_of_their_own() {
        // Worked in Python as fishtest's `LLR_logistic` does on five
        // counts (scores i/4).
        let t = Sprt::parse("-100,100").unwrap();
        // 12 pairs, 9 of them split by colour: the same 24 games counted
        // one by one (13-1-10) say much less.
        assert!(close(t.llr_pairs([2, 0, 9, 1, 0]), -3.974_396_3));
        assert!(close(t.llr(10, 1, 13), -1.799_797_6));
        assert_eq!(t.state_pairs([2, 0, 9, 1, 0]).verdict, "H0");
        assert_eq!(t.state(10, 1, 13).verdict, "continue");
        let t = Sprt::parse("0,10").unwrap();
        assert!(close(t.llr_pairs([10, 20, 40, 25, 5]), -0.437_486_2));
        let t = Sprt::parse("0,5").unwrap();
        assert!(close(t.llr_pairs([0, 0, 3, 0, 0]), -0.039_170_2));
        assert_eq!(t.llr_pairs([0; 5]), 0.0);
        // The verdict names the hypotheses' values.
        let t = Sprt::parse("-400,-300,0.05,1e-300").unwrap();
        let text = t.describe(&t.state_pairs([0, 0, 0, 0, 400]));
        assert!(
            text.contains("H1 accepted (A - B is -300 Elo rather than -400)")
                && text.contains("beta 1e-300"),
            "{text}"
        );
    }

    #[test]
    fn bad_hypotheses_are_refused() {
        assert_eq!(
            Sprt::parse("0,5,0.1,0.2").unwrap(),
            Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.1,
                beta: 0.2
            }
        );
        for bad in [
            "",
            "5",
            "5,0",
            "0,5,0.05",
            "0,x",
            "0,5,0,0.05",
            "0,5,0.05,0.7",
            "0,nan",
            "0,inf",
            "-inf,0",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
        let e = Sprt::parse("5,0").unwrap_err();
        assert_eq!(e.why, SprtWhy::Order);
        assert_eq!(e.to_string(), "'5,0': elo0 must be below elo1");
        assert_eq!(Sprt::parse("0,inf").unwrap_err().why, SprtWhy::Range);
        assert_eq!(
            Sprt::parse("0,5,0.6,0.1").unwrap_err().why,
            SprtWhy::ErrorRate("alpha")
        );
    }
}
