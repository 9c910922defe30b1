//! Playout policy: a random placement that the learnt features
//! ([`crate::engine::prior`]) put in the worst class is redrawn once with a
//! given chance, so playouts look more like the engine's own games.

use rand::RngCore;

use crate::engine::prior::{CLASSES, Context};
use crate::game::{Placement, Position, below};

/// `p`, or with `percent` chance a fresh draw when `p` is of the worst class.
#[inline]
pub fn choose<R: RngCore + ?Sized>(
    pos: &Position,
    rng: &mut R,
    percent: u8,
    p: Placement,
) -> Placement {
    if percent == 0 || below(rng, 100) >= u32::from(percent) {
        return p;
    }
    if Context::new(pos).class(p) == CLASSES - 1 {
        return pos.random_move(rng).unwrap_or(p);
    }
    p
}
