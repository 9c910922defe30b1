//! Learns the weights of the placement features (`cabra::engine::prior`)
//! from game records: for every placement the named engine chose, the
//! features of the chosen placement against those of every legal one, fitted
//! as a generalised Bradley–Terry model by minorisation–maximisation
//! (Coulom, "Computing Elo ratings of move patterns in the game of Go", 2007).
//!
//! Run: `cargo run --release --example learn_prior -- PLAYER DIR...`, where
//! the records come from `cabra match --out` or `cabra selfplay --out` and
//! PLAYER is the name of the engine whose placements are learnt (`default`).
//! It prints each feature value's weight and how well the weights rank the
//! chosen placement.

use std::collections::HashMap;

use cabra::engine::prior::{Context, Features, GROUPS};
use cabra::game::record::parse_record;
use cabra::game::{Move, Position};

/// One decision: the chosen key and how many legal placements had each key.
struct Decision {
    chosen: u32,
    keys: Vec<(u32, u32)>,
}

fn key(f: &Features) -> u32 {
    let mut k = 0u32;
    for (g, &v) in f.iter().enumerate() {
        k = k * GROUPS[g].1 as u32 + u32::from(v);
    }
    k
}

fn unkey(mut k: u32) -> Features {
    let mut f = [0u8; GROUPS.len()];
    for g in (0..GROUPS.len()).rev() {
        f[g] = (k % GROUPS[g].1 as u32) as u8;
        k /= GROUPS[g].1 as u32;
    }
    f
}

/// The players of a record header line `cabra game N: player 1 = A, player 2 = B`.
fn players(header: &[String]) -> Option<(String, String)> {
    let line = header.iter().find(|l| l.contains("player 1 = "))?;
    let rest = line.split("player 1 = ").nth(1)?;
    let (a, b) = rest.split_once(", player 2 = ")?;
    Some((a.trim().to_string(), b.trim().to_string()))
}

fn opening(header: &[String]) -> usize {
    header
        .iter()
        .find_map(|l| l.trim().strip_prefix("opening: "))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (player, dirs) = args
        .split_first()
        .expect("usage: learn_prior PLAYER DIR...");
    let mut decisions = Vec::new();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("a directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "caminos"))
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).expect("readable");
            let Ok(rec) = parse_record(&bytes) else {
                continue;
            };
            let Some((a, b)) = players(&rec.header) else {
                continue;
            };
            let skip = opening(&rec.header);
            let mut pos = Position::with_rules(rec.position.rules());
            for (ply, &m) in rec.position.moves().iter().enumerate() {
                let name = if ply % 2 == 0 { &a } else { &b };
                if let (true, Move::Place(p)) = (ply >= skip && name == player, m) {
                    let ctx = Context::new(&pos);
                    let mut counts: HashMap<u32, u32> = HashMap::new();
                    pos.for_each_legal_placement(|q| {
                        *counts.entry(key(&ctx.features(q))).or_default() += 1
                    });
                    decisions.push(Decision {
                        chosen: key(&ctx.features(p)),
                        keys: counts.into_iter().collect(),
                    });
                }
                pos.play_move_unchecked(m);
            }
        }
    }
    eprintln!("{} decisions", decisions.len());
    let offsets: Vec<usize> = GROUPS
        .iter()
        .scan(0, |s, g| {
            let o = *s;
            *s += g.1;
            Some(o)
        })
        .collect();
    let total: usize = GROUPS.iter().map(|g| g.1).sum();
    let mut gamma = vec![1.0f64; total];
    let mut wins = vec![0.0f64; total];
    for d in &decisions {
        for (g, &v) in unkey(d.chosen).iter().enumerate() {
            wins[offsets[g] + v as usize] += 1.0;
        }
    }
    let strength = |gamma: &[f64], k: u32| -> f64 {
        unkey(k)
            .iter()
            .enumerate()
            .map(|(g, &v)| gamma[offsets[g] + v as usize])
            .product()
    };
    for round in 0..30 {
        for g in 0..GROUPS.len() {
            let mut denom = vec![0.0f64; GROUPS[g].1];
            for d in &decisions {
                let e: f64 = d
                    .keys
                    .iter()
                    .map(|&(k, n)| n as f64 * strength(&gamma, k))
                    .sum();
                for &(k, n) in &d.keys {
                    let v = unkey(k)[g] as usize;
                    denom[v] += n as f64 * strength(&gamma, k) / gamma[offsets[g] + v] / e;
                }
            }
            for (v, d) in denom.iter().enumerate() {
                // A prior of one win and one loss against a strength-1 rival.
                let i = offsets[g] + v;
                gamma[i] = (wins[i] + 1.0) / (d + 2.0 / (gamma[i] + 1.0));
            }
            // Only ratios within a group matter: fix its first value at 1.
            let first = gamma[offsets[g]];
            for v in 0..GROUPS[g].1 {
                gamma[offsets[g] + v] /= first;
            }
        }
        if round % 10 == 9 {
            let ll: f64 = decisions
                .iter()
                .map(|d| {
                    let e: f64 = d
                        .keys
                        .iter()
                        .map(|&(k, n)| n as f64 * strength(&gamma, k))
                        .sum();
                    (strength(&gamma, d.chosen) / e).ln()
                })
                .sum::<f64>()
                / decisions.len() as f64;
            eprintln!("round {}: mean log-likelihood {ll:.4}", round + 1);
        }
    }
    for (g, (name, n)) in GROUPS.iter().enumerate() {
        let w: Vec<String> = (0..*n)
            .map(|v| format!("{:.3}", gamma[offsets[g] + v]))
            .collect();
        let l: Vec<String> = (0..*n)
            .map(|v| format!("{:.3}", gamma[offsets[g] + v].ln()))
            .collect();
        println!("{name}: {}   ln: {}", w.join(" "), l.join(", "));
    }
    // How the chosen placement ranks: the share of legal placements with a
    // strictly higher strength, and the share of choices in the top tenth.
    let mut top = [0usize; 4];
    let cuts = [0.05, 0.1, 0.2, 0.4];
    let mut rank_sum = 0.0;
    for d in &decisions {
        let s = strength(&gamma, d.chosen);
        let all: u32 = d.keys.iter().map(|k| k.1).sum();
        let above: u32 = d
            .keys
            .iter()
            .filter(|&&(k, _)| strength(&gamma, k) > s)
            .map(|k| k.1)
            .sum();
        let share = above as f64 / all as f64;
        rank_sum += share;
        for (i, &c) in cuts.iter().enumerate() {
            if share < c {
                top[i] += 1;
            }
        }
    }
    // The score (sum of log weights) at which a share of the legal
    // placements, pooled over all decisions, lies above: class thresholds.
    let mut pooled: Vec<(f64, u32, u32)> = Vec::new();
    for d in &decisions {
        for &(k, c) in &d.keys {
            pooled.push((strength(&gamma, k).ln(), c, 0));
        }
        pooled.push((strength(&gamma, d.chosen).ln(), 0, 1));
    }
    pooled.sort_by(|x, y| y.0.total_cmp(&x.0));
    let legal: u64 = pooled.iter().map(|x| u64::from(x.1)).sum();
    let (mut seen, mut chosen, mut next) = (0u64, 0u64, 0);
    let shares = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5];
    for x in &pooled {
        seen += u64::from(x.1);
        chosen += u64::from(x.2);
        while next < shares.len() && seen as f64 >= shares[next] * legal as f64 {
            println!(
                "top {:.0}% of legal placements: score >= {:.3}, {:.3} of the choices",
                shares[next] * 100.0,
                x.0,
                chosen as f64 / decisions.len() as f64
            );
            next += 1;
        }
    }
    let n = decisions.len() as f64;
    println!("mean share ranked above the choice: {:.3}", rank_sum / n);
    for (i, c) in cuts.iter().enumerate() {
        println!(
            "choice in the top {:.0}%: {:.3}",
            c * 100.0,
            top[i] as f64 / n
        );
    }
}
