//! Caminos as seen by the generic search: a [`Position`] is a
//! [`Game`] whose moves are placement ids and whose playouts follow the
//! engine's [`Policy`].

use rand::RngCore;

use super::playout::Policy;
use crate::game::{PLACEMENT_COUNT, Placement, Position, Status, Volume};
use crate::search::{Game, Outcome, Replies, Side};

/// A finished game's status as the search's outcome.
pub fn outcome(s: Status) -> Option<Outcome> {
    match s {
        Status::Ongoing => None,
        Status::Draw => Some(Outcome::Draw),
        Status::Won { winner, .. } => Some(Outcome::Win(winner.index() as Side)),
    }
}

impl Game for Position {
    type Move = Placement;
    /// The cells a defence must touch ([`Position::defence_region`]).
    type Threat = Volume;
    type Playout = Policy;
    const MOVE_SPACE: usize = PLACEMENT_COUNT;

    #[inline(always)]
    fn move_id(mv: Placement) -> usize {
        mv.index()
    }

    #[inline(always)]
    fn move_from_id(id: usize) -> Placement {
        Placement(id as u16)
    }

    #[inline(always)]
    fn is_legal(&self, mv: Placement) -> bool {
        Position::is_legal(self, mv)
    }

    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.to_move().index() as Side
    }

    fn legal_moves(&self, buf: &mut Vec<Placement>) {
        buf.clear();
        self.for_each_legal(|p| buf.push(p));
    }

    #[inline(always)]
    fn play(&mut self, mv: Placement) {
        Position::play(self, mv);
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        outcome(self.status())
    }

    #[inline]
    fn playout<R: RngCore>(
        &mut self,
        policy: &Policy,
        rng: &mut R,
        replies: Option<&Replies>,
        last: Option<usize>,
        record: &mut dyn FnMut(usize),
    ) -> Outcome {
        let last = last.map(Self::move_from_id);
        let s = policy.run(self, rng, replies, last, |p| record(p.index()));
        outcome(s).expect("a playout ends the game")
    }

    fn winning_move(&self) -> Option<Placement> {
        Position::winning_move(self)
    }

    fn threat(&self) -> Option<Volume> {
        Position::threat(self).map(|t| self.defence_region(t))
    }

    #[inline]
    fn may_stop(&self, region: &Volume, mv: Placement) -> bool {
        Position::may_stop(self, *region, mv)
    }
}
