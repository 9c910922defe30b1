//! Playout policy: a uniformly random placement that shuns the bottom
//! perimeter. Under the `caminos` rules a piece on the perimeter counts
//! against its owner when the game ends without a bridge, so a drawn
//! placement that adds one is redrawn once with a given chance. Under
//! `bridget` the edge columns count for their owner instead, and the draw
//! is kept.

use rand::RngCore;

use crate::game::{Placement, Position, Variant, below};

/// A random legal placement, redrawn once with `percent` chance when it is
/// on the bottom perimeter; `None` when the side to move has none.
#[inline]
pub fn choose<R: RngCore + ?Sized>(pos: &Position, rng: &mut R, percent: u8) -> Option<Placement> {
    let p = pos.random_move(rng)?;
    if percent > 0
        && p.entry().on_perimeter
        && pos.rules().variant == Variant::Caminos
        && below(rng, 100) < u32::from(percent)
    {
        return pos.random_move(rng);
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::super::Policy;
    use crate::engine::tests::first_moves;
    use crate::game::Position;

    #[test]
    fn rim_redraws_make_perimeter_placements_rarer() {
        let rim_share = |policy: Policy| {
            let moves = first_moves(&Position::new(), policy, 4000);
            moves.iter().filter(|p| p.entry().on_perimeter).count() as f64 / 4000.0
        };
        let uniform = rim_share(Policy::UNIFORM);
        let shunned = rim_share(Policy {
            rim: 100,
            ..Policy::UNIFORM
        });
        // Uniform share u; redrawing every rim draw once leaves u * u.
        assert!(
            (shunned - uniform * uniform).abs() < 0.04,
            "{uniform} {shunned}"
        );
        assert!(shunned < uniform - 0.1, "{uniform} {shunned}");
    }
}
