//! Playout policy: the last good reply (LGRF-1, Baier and Drake 2010) to
//! the opponent's previous placement, learned by the search
//! ([`crate::search::Replies`]).

use crate::game::{Move, Placement, Position};
use crate::search::Replies;

/// The stored reply of the side to move to `last`, if there is one and it
/// is legal here.
#[inline]
pub fn choose(
    pos: &Position,
    replies: Option<&Replies>,
    last: Option<Placement>,
) -> Option<Placement> {
    let id = replies?.get(pos.to_move().index() as u8, last?.index())?;
    // The table may hold a special move (`swap`, `tm`): playouts only place.
    let p = Move::from_id_unchecked(id).placement()?;
    pos.is_legal(p).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::super::Policy;
    use crate::game::{Placement, PlacementList, Position};
    use crate::search::{Outcome, Replies};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The placements of one uniform playout from `pos` with these replies.
    fn replayed(pos: &Position, last: Option<Placement>, replies: &Replies) -> Vec<Placement> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut moves = Vec::new();
        Policy::UNIFORM.run(&mut pos.clone(), &mut rng, Some(replies), last, |p| {
            moves.push(p)
        });
        moves
    }

    /// A table where `side` answers `previous` with `reply`.
    fn table(side: u8, previous: Placement, reply: Placement) -> Replies {
        let r = Replies::new(crate::game::PLACEMENT_COUNT);
        r.learn(
            &[previous.0, reply.0],
            &[1 - side, side],
            Outcome::Win(side),
        );
        r
    }

    #[test]
    fn a_legal_stored_reply_is_played_and_an_illegal_one_is_not() {
        let start = Position::new();
        let empty = Replies::new(crate::game::PLACEMENT_COUNT);
        let uniform = replayed(&start, None, &empty);
        // Player 2 answers the (random) first placement with the middle
        // placement of its legal list.
        let first = uniform[0];
        let mut after = start;
        after.play_unchecked(first);
        let mut list = PlacementList::new();
        after.legal_placements(&mut list);
        let want = list[list.len() / 2];
        let moves = replayed(&start, None, &table(1, first, want));
        assert_eq!(moves[..2], [first, want]);
        // `last` is answered too: player 1 answers a "previous" placement.
        let opening = uniform[3];
        let moves = replayed(&start, Some(Placement(7)), &table(0, Placement(7), opening));
        assert_eq!(moves[0], opening);
        // A reply that is not legal (it overlaps the placement it answers)
        // is passed over for a random placement.
        let moves = replayed(&start, None, &table(1, first, first));
        assert!(moves.len() > 2 && moves[0] == first && moves[1] != first);
    }
}
