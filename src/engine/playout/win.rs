//! Playout policy: take an immediate win.

use crate::game::{Placement, Position};

/// A placement that completes the mover's bridge at once, if there is one.
#[inline]
pub fn choose(pos: &Position) -> Option<Placement> {
    pos.winning_move()
}

#[cfg(test)]
mod tests {
    use super::super::Policy;
    use crate::engine::tests::{first_moves, tactic};

    #[test]
    fn taking_wins_ends_the_playout_with_the_winning_placement() {
        // One placement of the 347 legal ones wins at once.
        let pos = tactic("win1-1");
        let win = pos.winning_move().unwrap();
        let policy = Policy {
            pwin: true,
            ..Policy::UNIFORM
        };
        assert!(first_moves(&pos, policy, 20).iter().all(|&p| p == win));
        let uniform = first_moves(&pos, Policy::UNIFORM, 20);
        assert!(uniform.iter().any(|&p| p != win));
    }
}
