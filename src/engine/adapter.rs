//! Caminos as seen by the generic search: a [`Position`] is a
//! [`Game`] whose moves are [`Move`]s (placements, and `swap` and `tm` where
//! the rules have them) and whose playouts follow the engine's [`Policy`]
//! (placements only).

use rand::RngCore;

use super::endgame::{self, Endgame};
use super::playout::{Policy, score};
use super::prior;
use crate::game::{MOVE_COUNT, Move, Position, Status, Volume};
use crate::search::{Game, Outcome, Replies, Side};

/// A finished game's status as the search's outcome.
pub fn outcome(s: Status) -> Option<Outcome> {
    match s {
        Status::Ongoing => None,
        Status::Draw { .. } => Some(Outcome::Draw),
        Status::Won { winner, .. } => Some(Outcome::Win(winner.index() as Side)),
    }
}

impl Game for Position {
    type Move = Move;
    /// The cells a defence must touch ([`Position::defence_region`]).
    type Threat = Volume;
    type Playout = Policy;
    type Exact = Endgame;
    type Ranker = prior::Context;
    const RANKS: usize = prior::CLASSES;
    const MOVE_SPACE: usize = MOVE_COUNT;

    #[inline(always)]
    fn move_id(mv: Move) -> usize {
        mv.id()
    }

    #[inline(always)]
    fn move_from_id(id: usize) -> Move {
        Move::from_id_unchecked(id)
    }

    #[inline(always)]
    fn is_legal(&self, mv: Move) -> bool {
        self.is_legal(mv)
    }

    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.to_move().index() as Side
    }

    fn legal_moves(&self, buf: &mut Vec<Move>) {
        buf.clear();
        self.for_each_legal(|m| buf.push(m));
    }

    #[inline(always)]
    fn play(&mut self, mv: Move) {
        self.play_move_unchecked(mv);
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        outcome(self.status())
    }

    /// Skips the search for a legal placement of the next player that
    /// [`Position::play`] makes after every placement.
    #[inline(always)]
    fn replay(&mut self, mv: Move) {
        match mv {
            Move::Place(p) => {
                self.place_in_playout(p);
            }
            m => self.play_move_unchecked(m),
        }
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
        let last = last.and_then(|id| Move::from_id_unchecked(id).placement());
        let s = policy.run(self, rng, replies, last, |p| record(p.index()));
        outcome(s).expect("a playout ends the game")
    }

    #[inline]
    fn evaluate<R: RngCore>(&self, policy: &Policy, rng: &mut R) -> Option<Outcome> {
        if policy.value == 0 || rng.next_u32() % 100 >= u32::from(policy.value) {
            return None;
        }
        let v = policy.weights.net()?.value(self);
        let side = self.side_to_move();
        // The tree keeps whole rewards (win 1, draw 1/2, loss 0): draw one
        // whose mean is the value, from the two nearest it, which varies
        // less than a win or loss drawn with the value's odds.
        let roll = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        Some(if v >= 0.5 {
            if roll < 2.0 * v - 1.0 {
                Outcome::Win(side)
            } else {
                Outcome::Draw
            }
        } else if roll < 2.0 * v {
            Outcome::Draw
        } else {
            Outcome::Win(1 - side)
        })
    }

    #[inline]
    fn rescore<R: RngCore>(&self, policy: &Policy, rng: &mut R, result: Outcome) -> Outcome {
        score::outcome(self, result, rng, policy.pscore)
    }

    fn solve(
        &self,
        exact: &mut Endgame,
        budget: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Outcome, Move)> {
        if self.placements().len() + endgame::MAX_LEFT < crate::game::MAX_PLIES {
            return None;
        }
        let (value, best) = exact.solve_until(self, budget, stop)?;
        let side = self.side_to_move();
        let outcome = match value {
            1 => Outcome::Win(side),
            0 => Outcome::Draw,
            _ => Outcome::Win(1 - side),
        };
        Some((outcome, Move::Place(best)))
    }

    fn exact_bytes(exact: &Endgame) -> usize {
        exact.bytes()
    }

    fn ranker(&self) -> Option<prior::Context> {
        Some(prior::Context::new(self))
    }

    #[inline]
    fn rank(&self, ranker: &prior::Context, mv: Move) -> usize {
        // Special moves (swap, time machine) come with the best.
        mv.placement().map_or(0, |p| ranker.class(p))
    }

    fn winning_move(&self) -> Option<Move> {
        Position::winning_move(self).map(Move::Place)
    }

    fn threat(&self) -> Option<Volume> {
        Position::threat(self).map(|t| self.defence_region(t))
    }

    #[inline]
    fn may_stop(&self, region: &Volume, mv: Move) -> bool {
        match mv {
            Move::Place(p) => Position::may_stop(self, *region, p),
            // Only a search of what follows tells what a special move does.
            _ => true,
        }
    }
}
