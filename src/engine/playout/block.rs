//! Playout policy: answer a threat. Where the opponent could complete a
//! bridge at once were it their turn, a placement that cannot touch the
//! threat's defence region ([`Position::defence_region`]) surely leaves it
//! on the board, so it is redrawn, up to a given number of times. Playouts
//! then end less often by a bridge that a player would have stopped, and
//! more often on the counts, as games between good players do.

use rand::RngCore;

use crate::game::{Placement, Position, Volume};

/// The win in one of the side to move, after the opponent's placement
/// answered `threat` (the win in one it had, as found before that
/// placement): the threat itself if it still wins, else a fresh search.
/// With no threat before, none is assumed now: a placement can only add
/// the opponent a win by holding up a new piece of theirs, which is rare
/// enough for a playout to overlook.
#[inline]
pub fn still_wins(pos: &Position, threat: Option<Placement>) -> Option<Placement> {
    let t = threat?;
    if pos.is_legal(t) {
        let mut after = *pos;
        if after.place_in_playout(t) {
            return Some(t);
        }
    }
    pos.winning_move()
}

/// `first` if it may stop the threat whose defence region is `region`,
/// else the first of up to `tries` random placements that may (the last
/// one drawn when none does).
#[inline]
pub fn choose<R: RngCore + ?Sized>(
    pos: &Position,
    rng: &mut R,
    region: Volume,
    tries: u8,
    first: Placement,
) -> Placement {
    let mut p = first;
    for _ in 0..tries {
        if pos.may_stop(region, p) {
            break;
        }
        match pos.random_placement(rng) {
            Some(q) => p = q,
            None => break,
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::super::Policy;
    use super::*;
    use crate::engine::tests::{first_moves, tactic};
    use crate::game::PlacementList;

    #[test]
    fn threatened_playouts_answer_the_threat_far_more_often() {
        let pos = tactic("block-1");
        let threat = pos.threat().expect("the opponent threatens");
        let region = pos.defence_region(threat);
        let share = |policy: Policy| {
            let moves = first_moves(&pos, policy, 2000);
            moves.iter().filter(|&&p| pos.may_stop(region, p)).count() as f64 / 2000.0
        };
        let uniform = share(Policy::UNIFORM);
        let blocking = share(Policy {
            pblock: 4,
            ..Policy::UNIFORM
        });
        // Uniform share u; four redraws leave 1 - (1 - u)^5 at least.
        let want = 1.0 - (1.0 - uniform).powi(5);
        assert!(blocking > want - 0.05, "{uniform} {blocking} {want}");
        assert!(blocking > uniform + 0.2, "{uniform} {blocking}");
    }

    #[test]
    fn a_threat_left_on_the_board_is_still_the_win() {
        let pos = tactic("block-1");
        let threat = pos.threat().unwrap();
        let region = pos.defence_region(threat);
        let mut list = PlacementList::new();
        pos.legal_placements(&mut list);
        let ignore = *list.iter().find(|&&p| !pos.may_stop(region, p)).unwrap();
        let mut after = pos;
        after.play_unchecked(ignore);
        assert_eq!(still_wins(&after, Some(threat)), Some(threat));
        // A placement that stops every threat leaves no win to find.
        let stop = *list
            .iter()
            .find(|&&p| {
                let mut a = pos;
                a.play_unchecked(p);
                !a.status().is_over() && a.winning_move().is_none()
            })
            .unwrap();
        let mut after = pos;
        after.play_unchecked(stop);
        assert_eq!(still_wins(&after, Some(threat)), None);
        assert_eq!(still_wins(&after, None), None);
    }
}
