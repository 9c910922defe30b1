//! Playout policy: the last good reply (LGRF-2, then LGRF-1, Baier and
//! Drake 2010) to the mover's own previous placement and the opponent's
//! answer to it together, else to the opponent's previous placement
//! alone, learned by the search ([`crate::search::Replies`]).

use crate::game::{Move, Placement, Position};
use crate::search::Replies;

/// The stored reply of the side to move to its own placement `before`
/// followed by the opponent's `last`, if there is one and it is legal here;
/// else its stored reply to `last` alone, if legal.
#[inline]
pub fn choose(
    pos: &Position,
    replies: Option<&Replies>,
    last: Option<Placement>,
    before: Option<Placement>,
) -> Option<Placement> {
    let r = replies?;
    let side = pos.to_move().index() as u8;
    let last = last?;
    // The table may hold a special move (`swap`, `tm`): playouts only place.
    let legal = |id: usize| Move::from_id(id).placement().filter(|&p| pos.is_legal(p));
    before
        .and_then(|b| r.get_pair(side, b.index(), last.index()))
        .and_then(legal)
        .or_else(|| r.get(side, last.index()).and_then(legal))
}

#[cfg(test)]
mod tests {
    use super::super::Policy;
    use crate::game::{MoveList, Placement, Position};
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
    fn the_reply_to_the_last_two_placements_comes_before_the_reply_to_the_last() {
        let start = Position::new();
        let uniform = replayed(&start, None, &Replies::new(crate::game::PLACEMENT_COUNT));
        let (first, second) = (uniform[0], uniform[1]);
        let mut after = start;
        after.play(first);
        after.play(second);
        let mut list = MoveList::new();
        after.legal_moves(&mut list);
        let (pair_reply, single_reply) = (list[list.len() / 3], list[2 * list.len() / 3]);
        // Player 1 answered `first`, `second` with `pair_reply` and won; it
        // later answered `second` after another placement with
        // `single_reply` and won; player 2 answers `first` with `second`.
        let teach = |with_pair: bool| {
            let r = Replies::new(crate::game::PLACEMENT_COUNT);
            if with_pair {
                r.learn(
                    &[first.0, second.0, pair_reply.0],
                    &[0, 1, 0],
                    Outcome::Win(0),
                );
            }
            r.learn(&[7, second.0, single_reply.0], &[0, 1, 0], Outcome::Win(0));
            r.learn(&[first.0, second.0], &[0, 1], Outcome::Win(1));
            r
        };
        assert_eq!(
            replayed(&start, None, &teach(true))[..3],
            [first, second, pair_reply]
        );
        assert_eq!(
            replayed(&start, None, &teach(false))[..3],
            [first, second, single_reply]
        );
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
        after.play(first);
        let mut list = MoveList::new();
        after.legal_moves(&mut list);
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
