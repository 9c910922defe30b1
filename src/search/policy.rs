//! The selection policy: UCT with first-play urgency.
//!
//! A visited child with `n` visits and reward sum `w` (for the player who
//! moves into it) scores `w/n + c * sqrt(ln N) / sqrt(n)`, where `N` is the
//! parent's visit count.
//! Untried moves all score the FPU value: the search descends into the best
//! visited child unless FPU beats it, in which case it expands the next
//! untried move. `fpu = f32::INFINITY` is textbook UCT (every move once
//! before any second visit). Where the game ranks its moves, the urgency
//! below the root drops by `fpu_drop` for each rank below the best.

use super::tree::{Node, Proof};

/// Reciprocals and square roots are read from tables below this count.
const TABLE: usize = 4096;

/// Selection parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Uct {
    /// Exploration constant `c`.
    pub c: f32,
    /// First-play urgency: the score of an untried move (rewards are 0..1).
    pub fpu: f32,
    /// How much lower the first-play urgency is for each rank of the move
    /// order below the best ([`super::Game::rank`]): while the walk of a
    /// node below the root is in rank `r`, its untried moves score
    /// `fpu - r * fpu_drop` (at the root always `fpu`), so a
    /// promising move of a better rank is visited again before worse ranks
    /// are tried.
    pub fpu_drop: f32,
}

impl Default for Uct {
    fn default() -> Self {
        Uct {
            c: 0.2,
            fpu: 1.0,
            fpu_drop: 0.25,
        }
    }
}

/// Precomputed `1/n`, `1/sqrt(n)` and `sqrt(ln n)`, to keep divisions,
/// square roots and logarithms out of the descent.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    half_inv: Box<[f32]>,
    inv_sqrt: Box<[f32]>,
    sqrt_ln: Box<[f32]>,
    c: f32,
}

impl Tables {
    pub fn new(uct: &Uct) -> Self {
        let f =
            |g: fn(f64) -> f64| -> Box<[f32]> { (0..TABLE).map(|n| g(n as f64) as f32).collect() };
        Tables {
            half_inv: f(|n| 0.5 / n.max(1.0)),
            inv_sqrt: f(|n| 1.0 / n.max(1.0).sqrt()),
            sqrt_ln: f(|n| n.max(1.0).ln().sqrt()),
            c: uct.c,
        }
    }

    /// `c * sqrt(ln N)` for a parent with `N` visits.
    #[inline]
    pub fn scale(&self, parent_visits: u32) -> f32 {
        let n = parent_visits as usize;
        let s = if n < TABLE {
            self.sqrt_ln[n]
        } else {
            (n as f32).ln().sqrt()
        };
        self.c * s
    }

    /// The UCB key of a child, given the parent's scale. Children proven
    /// lost for the player choosing among them are never selected, proven
    /// children score their exact value; unvisited children have no key.
    #[inline]
    pub fn key(&self, child: &Node, scale: f32) -> f32 {
        let n = child.visits as usize;
        match child.proof {
            _ if n == 0 => return f32::NEG_INFINITY,
            Proof::Unknown => {}
            Proof::Loss => return f32::NEG_INFINITY,
            // Exploring a proven child teaches nothing: score it by its
            // exact value, so unproven siblings (and untried moves, through
            // FPU) get the visits, and draws can be proven.
            Proof::Draw => return 0.5,
            Proof::Win => return f32::INFINITY,
        }
        let (half_inv, inv_sqrt) = if n < TABLE {
            (self.half_inv[n], self.inv_sqrt[n])
        } else {
            let n = n as f32;
            (0.5 / n, 1.0 / n.sqrt())
        };
        child.wins2 as f32 * half_inv + scale * inv_sqrt
    }

    /// The best child by a plain scan: its slot and key (lowest slot among
    /// equals; key minus infinity if none is selectable).
    #[inline]
    pub fn scan(&self, children: &[Node], scale: f32) -> (usize, f32) {
        let mut best = (0, f32::NEG_INFINITY);
        for (slot, child) in children.iter().enumerate() {
            let k = self.key(child, scale);
            if k > best.1 {
                best = (slot, k);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(visits: u32, wins2: u32) -> Node {
        let mut n = Tree::new(0).nodes[0];
        n.visits = visits;
        n.wins2 = wins2;
        n
    }
    use super::super::tree::Tree;

    #[test]
    fn keys_match_the_formula() {
        let t = Tables::new(&Uct {
            c: 0.7,
            ..Uct::default()
        });
        for parent in [1u32, 2, 100, 4095, 4096, 1_000_000] {
            let s = t.scale(parent);
            let want = 0.7 * (parent as f32).ln().sqrt();
            assert!((s - want).abs() < 1e-5, "{parent}: {s} vs {want}");
            for (v, w2) in [(1u32, 2u32), (3, 1), (5000, 6000)] {
                let k = t.key(&child(v, w2), s);
                let want = w2 as f32 / 2.0 / v as f32 + s / (v as f32).sqrt();
                assert!((k - want).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn scan_prefers_higher_value_and_skips_proven_losses() {
        let t = Tables::new(&Uct {
            c: 0.0,
            ..Uct::default()
        });
        let mut kids = [child(10, 4), child(10, 16), child(10, 16), child(0, 0)];
        assert_eq!(t.scan(&kids, 0.0).0, 1);
        kids[1].proof = Proof::Loss;
        assert_eq!(t.scan(&kids, 0.0).0, 2);
        kids[2].proof = Proof::Loss;
        kids[0].proof = Proof::Loss;
        assert_eq!(t.scan(&kids, 0.0).1, f32::NEG_INFINITY);
    }
}
