//! Training the learnt evaluation: logistic regression through one hidden
//! layer, with Adam, on positions labelled with how their game ended for
//! the side to move (1 won, 0.5 drawn, 0 lost). Each position is seen
//! under one of the board's eight symmetries, drawn afresh every epoch.
//! No I/O: `cabra train` reads the records and writes the weights.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::features::for_each_active;
use super::format::PARAMS;
use super::{HIDDEN, Net};
use crate::game::{Move, PlacementError, Position, Rules, Status};

/// One training position and its label.
#[derive(Clone, Copy)]
pub struct Sample {
    /// The position, side to move to play.
    pub pos: Position,
    /// How the game ended for its side to move: 1, 0.5 or 0.
    pub target: f32,
}

/// A game's move that its position does not allow: a damaged record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {number} is illegal: {error}")]
pub struct IllegalMove {
    /// 1 for the game's first move.
    pub number: usize,
    /// What the rules say against it.
    pub error: PlacementError,
}

/// The positions of one finished game, each labelled with its result:
/// every position before the end, from the empty board on. `Ok(None)` when
/// the moves do not finish the game (a forfeit, an adjudication).
pub fn samples_of_game(rules: Rules, moves: &[Move]) -> Result<Option<Vec<Sample>>, IllegalMove> {
    let mut pos = Position::with_rules(rules);
    let mut seen = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        seen.push(pos);
        pos.play(m).map_err(|error| IllegalMove {
            number: i + 1,
            error,
        })?;
    }
    // A game that ends when a player cannot place is over after the last
    // placement: the status says so.
    let winner = match pos.status() {
        Status::Ongoing => return Ok(None),
        Status::Won { winner, .. } => Some(winner),
        Status::Draw { .. } => None,
    };
    Ok(Some(
        seen.into_iter()
            .filter(|p| !p.status().is_over())
            .map(|p| Sample {
                pos: p,
                target: match winner {
                    Some(w) if w == p.to_move() => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                },
            })
            .collect(),
    ))
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// Seed of the initial weights, the order and the symmetries.
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch: 256,
            rate: 0.002,
            seed: 1,
        }
    }
}

/// What one epoch achieved.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Epoch {
    /// 1 for the first.
    pub number: usize,
    /// Mean cross-entropy on the training positions, during the epoch.
    pub train_loss: f64,
    /// Mean cross-entropy on the held-out positions after the epoch.
    pub valid_loss: f64,
    /// Share of held-out decided games whose winner the sign of the
    /// value names.
    pub valid_accuracy: f64,
}

/// The index of each part in the flat parameter vector.
const W2: usize = super::features::INPUTS * HIDDEN + HIDDEN;
const B1: usize = super::features::INPUTS * HIDDEN;
const B2: usize = W2 + HIDDEN;

fn forward(
    params: &[f32],
    pos: &Position,
    t: usize,
    active: &mut Vec<usize>,
) -> ([f32; HIDDEN], f32) {
    active.clear();
    for_each_active(pos, t, |i| active.push(i));
    let mut acc: [f32; HIDDEN] = params[B1..B1 + HIDDEN].try_into().expect("biases");
    for &i in active.iter() {
        for (a, w) in acc.iter_mut().zip(&params[i * HIDDEN..(i + 1) * HIDDEN]) {
            *a += w;
        }
    }
    let mut out = params[B2];
    for (a, w) in acc.iter().zip(&params[W2..W2 + HIDDEN]) {
        out += a.max(0.0) * w;
    }
    (acc, 1.0 / (1.0 + (-out).exp()))
}

fn cross_entropy(p: f32, y: f32) -> f64 {
    let p = f64::from(p).clamp(1e-7, 1.0 - 1e-7);
    let y = f64::from(y);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Mean loss and accuracy of `params` on `samples`, as they stand.
pub fn evaluate(params: &[f32], samples: &[Sample]) -> (f64, f64) {
    let mut active = Vec::new();
    let (mut loss, mut right, mut decided) = (0.0, 0usize, 0usize);
    for s in samples {
        let (_, p) = forward(params, &s.pos, 0, &mut active);
        loss += cross_entropy(p, s.target);
        if s.target != 0.5 {
            decided += 1;
            right += usize::from((p > 0.5) == (s.target > 0.5));
        }
    }
    let n = samples.len().max(1) as f64;
    (loss / n, right as f64 / decided.max(1) as f64)
}

/// Trains from `init` (or small random weights) on `train`, reporting each
/// epoch's losses on `valid`, and returns the weights in the file format's
/// order.
pub fn train(
    train: &[Sample],
    valid: &[Sample],
    config: TrainConfig,
    init: Option<&Net>,
    mut report: impl FnMut(&Epoch),
) -> Result<Vec<f32>, Diverged> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut params: Vec<f32> = match init {
        Some(net) => net.params(),
        None => (0..PARAMS)
            .map(|i| {
                let scale = if i < B1 {
                    0.05
                } else if i < W2 {
                    0.0
                } else {
                    0.2
                };
                (rng.random::<f32>() * 2.0 - 1.0) * scale
            })
            .collect(),
    };
    let mut grad = vec![0f32; PARAMS];
    let (mut m, mut v) = (vec![0f32; PARAMS], vec![0f32; PARAMS]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut active = Vec::with_capacity(super::features::MAX_ACTIVE);
    for number in 1..=config.epochs {
        // Fisher-Yates with the trainer's own stream.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let mut loss = 0.0;
        for batch in order.chunks(config.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &k in batch {
                let s = &train[k];
                let t = rng.random_range(0..8);
                let (acc, p) = forward(&params, &s.pos, t, &mut active);
                loss += cross_entropy(p, s.target);
                let g = p - s.target;
                grad[B2] += g;
                for j in 0..HIDDEN {
                    let h = acc[j].max(0.0);
                    grad[W2 + j] += g * h;
                    if acc[j] > 0.0 {
                        let gh = g * params[W2 + j];
                        grad[B1 + j] += gh;
                        for &i in &active {
                            grad[i * HIDDEN + j] += gh;
                        }
                    }
                }
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            for i in 0..PARAMS {
                let g = grad[i] * scale;
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                params[i] -= config.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
        let (valid_loss, valid_accuracy) = evaluate(&params, valid);
        let epoch = Epoch {
            number,
            train_loss: loss / train.len().max(1) as f64,
            valid_loss,
            valid_accuracy,
        };
        report(&epoch);
        if !epoch.train_loss.is_finite() || params.iter().any(|p| !p.is_finite()) {
            return Err(Diverged { epoch: number });
        }
    }
    Ok(params)
}

/// Training ran away: a loss or a weight is no longer a finite number
/// (a step size too large); no weights are worth writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "training diverged in epoch {epoch} (the loss or a weight is no longer a finite number): try a smaller --rate"
)]
pub struct Diverged {
    /// The epoch at whose end it was found.
    pub epoch: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_placement_or_cells;

    fn game() -> Vec<Move> {
        // Player 1 builds a west-east bridge along y = 0 while player 2
        // plays away from it.
        [
            "000 100 200 210",
            "060 070 160 170",
            "300 400 500 510",
            "330 340 350 450",
            "600 700 610 710",
        ]
        .iter()
        .map(|t| Move::Place(parse_placement_or_cells(t).expect("a placement")))
        .collect()
    }

    #[test]
    fn a_game_gives_its_positions_labelled_by_the_winner() {
        let s = samples_of_game(Rules::CAMINOS, &game())
            .unwrap()
            .expect("a finished game");
        assert_eq!(s.len(), 5);
        // Player 1 won: 1 where player 1 is to move (even plies), 0 else.
        for (i, x) in s.iter().enumerate() {
            assert_eq!(x.target, if i % 2 == 0 { 1.0 } else { 0.0 }, "ply {i}");
        }
        // A game cut short is not a sample.
        assert_eq!(
            samples_of_game(Rules::CAMINOS, &game()[..4]).map(|s| s.is_none()),
            Ok(true)
        );
        // A move its position does not allow is named by its number.
        let mut bad = game();
        bad[2] = bad[1];
        let e = samples_of_game(Rules::CAMINOS, &bad)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(e.number, 3);
    }

    #[test]
    fn training_learns_a_game_it_sees() {
        let s = samples_of_game(Rules::CAMINOS, &game()).unwrap().unwrap();
        let config = TrainConfig {
            epochs: 60,
            batch: 4,
            ..TrainConfig::default()
        };
        let mut first = None;
        let mut last = None;
        let params = train(&s, &s, config, None, |e| {
            first.get_or_insert(e.valid_loss);
            last = Some(e.valid_loss);
        })
        .expect("a small step size converges");
        assert!(
            last.unwrap() < first.unwrap() * 0.5,
            "{first:?} -> {last:?}"
        );
        let net = Net::from_params(&params, "test");
        assert!(net.value(&s[0].pos) > 0.6);
        assert!(net.value(&s[1].pos) < 0.4);
    }

    #[test]
    fn a_run_that_diverges_writes_nothing() {
        let s = samples_of_game(Rules::CAMINOS, &game()).unwrap().unwrap();
        let config = TrainConfig {
            epochs: 3,
            batch: 4,
            rate: f32::INFINITY,
            ..TrainConfig::default()
        };
        let mut epochs = 0;
        let out = train(&s, &s, config, None, |_| epochs += 1);
        assert_eq!(out, Err(Diverged { epoch: 1 }));
        assert_eq!(epochs, 1, "it stops at the first epoch that diverged");
    }
}
