//! The levels' ratings: matches between the levels and a maximum
//! likelihood fit of their Elo ratings on one scale, anchored at the
//! random player (`cabra::engine::levels`).
//!
//! The fit is Bradley–Terry with draws counted as half a win each way (as
//! Ordo and BayesElo do without a draw model): the expected score of `i`
//! against `j` is `1 / (1 + 10^((r_j - r_i) / 400))`. The ratings are
//! found by Newton's method with the anchor held at 0, and each rating's
//! 95% interval comes from the inverse of the Fisher information there.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cabra::engine::EngineConfig;
use cabra::engine::levels::{LEVELS, TOP};
use cabra::engine::matches::{play_concurrently, play_engines, random_opening};
use cabra::game::Position;

/// Natural log of 10 over 400: the slope of the Elo curve.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// The games between two players: `a` scored `score` points of `games`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// The first player's index.
    pub a: usize,
    /// The second player's index.
    pub b: usize,
    /// Games played.
    pub games: u32,
    /// Points of `a` (a win 1, a draw half).
    pub score: f64,
}

/// A fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Rating {
    /// Elo, the anchor at 0.
    pub elo: f64,
    /// Half the width of its 95% interval (0 for the anchor).
    pub interval: f64,
}

/// The maximum likelihood ratings of `players` players from `pairings`,
/// with player `anchor` at 0 (`None` for a player with no games). A
/// player who won or lost every game has no
/// finite maximum: half a game the other way is added to every pairing
/// (a weak prior that keeps every rating finite and changes little where
/// the games decide).
/// Pairings that name a player past `players` are left out.
pub fn fit(players: usize, pairings: &[Pairing], anchor: usize) -> Vec<Option<Rating>> {
    let kept: Vec<Pairing> = pairings
        .iter()
        .filter(|p| p.a < players && p.b < players)
        .copied()
        .collect();
    let pairings = &kept[..];
    let mut r = vec![0.0f64; players];
    let played = |i: usize| {
        pairings
            .iter()
            .any(|p| p.games > 0 && (p.a == i || p.b == i))
    };
    let free: Vec<usize> = (0..players).filter(|&i| i != anchor && played(i)).collect();
    let n = free.len();
    let pos = |i: usize| free.iter().position(|&f| f == i);
    let mut info = vec![vec![0.0; n]; n];
    for _ in 0..100 {
        let mut grad = vec![0.0; n];
        for row in info.iter_mut() {
            row.fill(0.0);
        }
        for p in pairings.iter().filter(|p| p.games > 0) {
            let games = f64::from(p.games) + 1.0;
            let score = p.score + 0.5;
            let e = 1.0 / (1.0 + (-K * (r[p.a] - r[p.b])).exp());
            let g = K * (score - games * e);
            let h = K * K * games * e * (1.0 - e);
            let (ia, ib) = (pos(p.a), pos(p.b));
            if let Some(i) = ia {
                grad[i] += g;
                info[i][i] += h;
            }
            if let Some(j) = ib {
                grad[j] -= g;
                info[j][j] += h;
            }
            if let (Some(i), Some(j)) = (ia, ib) {
                info[i][j] -= h;
                info[j][i] -= h;
            }
        }
        let Some(step) = solve(&info, &grad) else {
            break;
        };
        let mut largest = 0.0f64;
        for (k, &i) in free.iter().enumerate() {
            // Damped: a first guess far from the answer must not overshoot.
            let s = step[k].clamp(-400.0, 400.0);
            r[i] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-6 {
            break;
        }
    }
    let inverse = invert(&info);
    (0..players)
        .map(|i| {
            (i == anchor || pos(i).is_some()).then(|| Rating {
                elo: r[i],
                interval: match (pos(i), &inverse) {
                    (Some(k), Some(inv)) => 1.959_964 * inv[k][k].max(0.0).sqrt(),
                    _ => 0.0,
                },
            })
        })
        .collect()
}

/// `x` with `a x = b` by Gaussian elimination with partial pivoting, or
/// `None` if `a` is singular (players with no games linking them).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| row.iter().copied().chain([v]).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        let pivot = m[c].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != c {
                let f = row[c] / pivot[c];
                for (x, &y) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * y;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let columns: Option<Vec<Vec<f64>>> = (0..n)
        .map(|c| {
            solve(
                a,
                &(0..n)
                    .map(|i| f64::from(u8::from(i == c)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let columns = columns?;
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

/// The pairs of levels a calibration plays: every adjacent pair and every
/// pair two apart, so that each rating rests on four opponents.
pub fn schedule() -> Vec<(u8, u8)> {
    (0..TOP)
        .map(|i| (i + 1, i))
        .chain((0..TOP - 1).map(|i| (i + 2, i)))
        .collect()
}

/// The engine of level `n` for a calibration, the full engine at `top_time`.
pub fn level_config(n: u8, top_time: Duration) -> EngineConfig {
    let mut c = EngineConfig::parse(&format!("level={n}")).expect("a level of the table");
    if n == TOP {
        c.budget.time = Some(top_time);
    }
    c
}

/// Plays `games` games (in pairs of colours, from random openings of 2 to
/// 4 placements, seeded from `seed`) between levels `a` and `b`,
/// `concurrency` at a time: the pairing's result.
pub fn play_pairing(
    (a, b): (u8, u8),
    games: u32,
    top_time: Duration,
    seed: u64,
    concurrency: usize,
    stop: &Arc<AtomicBool>,
) -> Pairing {
    let configs = [level_config(a, top_time), level_config(b, top_time)];
    let salt = seed ^ (u64::from(a) << 40) ^ (u64::from(b) << 32);
    let scores = play_concurrently(games as usize, concurrency, |g| {
        let pair = (g / 2) as u64;
        let opening =
            random_opening(&Position::new(), salt ^ pair, 2, 4).expect("2 to 4 placements");
        let first = g % 2;
        play_engines(
            [&configs[0], &configs[1]],
            first,
            Position::new(),
            &opening,
            salt.wrapping_add(g as u64),
            stop,
        )
        .expect("a random opening and a first player of 0 or 1 are a game")
        .map(|r| r.score)
    });
    let played: Vec<f64> = scores.into_iter().flatten().collect();
    Pairing {
        a: usize::from(a),
        b: usize::from(b),
        games: played.len() as u32,
        score: played.iter().sum(),
    }
}

/// The ratings of every level ([`LEVELS`]) from `pairings`, the random
/// player (level 0) at 0.
pub fn ratings(pairings: &[Pairing]) -> Vec<Option<Rating>> {
    fit(LEVELS.len(), pairings, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_known_ratings() {
        // Expected scores of players at 0, 200 and 500, over many games.
        let truth = [0.0, 200.0, 500.0];
        let expect = |a: usize, b: usize| 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
        let games = 100_000;
        let pairings: Vec<Pairing> = [(1, 0), (2, 1), (2, 0)]
            .iter()
            .map(|&(a, b)| Pairing {
                a,
                b,
                games,
                score: f64::from(games) * expect(a, b),
            })
            .collect();
        let r: Vec<Rating> = fit(3, &pairings, 0).into_iter().flatten().collect();
        assert_eq!(r[0].elo, 0.0);
        assert!((r[1].elo - 200.0).abs() < 1.0, "{r:?}");
        assert!((r[2].elo - 500.0).abs() < 1.0, "{r:?}");
        assert!(r[1].interval > 0.0 && r[1].interval < 10.0, "{r:?}");
        // Fewer games, wider intervals.
        let few: Vec<Pairing> = pairings
            .iter()
            .map(|p| Pairing {
                games: 100,
                score: p.score / 1000.0,
                ..*p
            })
            .collect();
        let r2: Vec<Rating> = fit(3, &few, 0).into_iter().flatten().collect();
        assert!(r2[1].interval > 5.0 * r[1].interval, "{r2:?}");
    }

    #[test]
    fn a_clean_sweep_stays_finite() {
        let p = [Pairing {
            a: 1,
            b: 0,
            games: 50,
            score: 50.0,
        }];
        let r = fit(3, &p, 0);
        assert!(r[2].is_none(), "no games, no rating");
        let r = r[1].unwrap();
        assert!(r.elo.is_finite() && r.elo > 400.0, "{r:?}");
    }

    #[test]
    fn a_pairing_naming_no_player_is_left_out() {
        let ratings = fit(
            2,
            &[Pairing {
                a: 0,
                b: 7,
                games: 10,
                score: 5.0,
            }],
            0,
        );
        assert_eq!(ratings.len(), 2);
        assert!(ratings[1].is_none());
    }

    #[test]
    fn the_schedule_links_every_level() {
        let s = schedule();
        assert_eq!(s.len(), 2 * usize::from(TOP) - 1);
        for n in 0..TOP {
            assert!(s.contains(&(n + 1, n)));
        }
    }

    #[test]
    fn ratings_rise_with_the_level_at_a_small_size() {
        // Levels 0, 3 and 7 and the pairs between them, 20 games each: a
        // small calibration whose order must already hold (each pair
        // some 200 Elo or more apart).
        let stop = Arc::new(AtomicBool::new(false));
        let top = Duration::from_millis(50);
        let pairs = [(3, 0), (7, 3), (7, 0)];
        let pairings: Vec<Pairing> = pairs
            .iter()
            .map(|&p| {
                let r = play_pairing(p, 20, top, 7, 2, &stop);
                assert_eq!(r.games, 20);
                r
            })
            .collect();
        let r = ratings(&pairings);
        let elo = |n: usize| r[n].expect("rated").elo;
        assert!(elo(3) > 0.0 && elo(7) > elo(3), "{r:?}");
    }
}
