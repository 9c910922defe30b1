//! Caminos as seen by the generic search.

use rand::RngCore;

use super::bitboard::Volume;
use super::movegen::below;
use super::player::{Player, Status, WinReason};
use super::playout::PlayoutRules;
use super::position::Position;
use super::table::{PLACEMENT_COUNT, Placement};
use crate::search::{Game, Outcome, Playout, Replies, Side};

fn outcome(s: Status) -> Option<Outcome> {
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
    fn random_playout<R: RngCore>(&mut self, rng: &mut R) -> Outcome {
        outcome(Position::random_playout(self, rng)).expect("a playout ends the game")
    }

    #[inline]
    fn policy_playout<R: RngCore>(
        &mut self,
        rng: &mut R,
        policy: Playout,
        replies: Option<&Replies>,
        last: Option<usize>,
        record: &mut dyn FnMut(usize),
    ) -> Outcome {
        let rules = PlayoutRules {
            win: policy.win,
            block_tries: u32::from(policy.block),
            rim_redraw: policy.shun,
        };
        let last = last.map(Self::move_from_id);
        let reply = |mover: Player, previous: Placement| {
            let table = replies?;
            table
                .get(mover.index() as Side, previous.index())
                .map(Self::move_from_id)
        };
        let mut s = Position::policy_playout(self, rng, rules, last, reply, |p| record(p.index()));
        if policy.score > 0
            && matches!(
                s,
                Status::Won {
                    by: WinReason::Bridge,
                    ..
                }
            )
            && below(rng, 100) < u32::from(policy.score)
        {
            // The perimeter counts as they stand: what decides the game
            // when a bridge is stopped.
            s = self.perimeter_result();
        }
        outcome(s).expect("a playout ends the game")
    }

    fn winning_move(&self) -> Option<Placement> {
        Position::winning_move(self)
    }

    /// Placements that add nothing to the mover's bottom-perimeter count
    /// come first; a perimeter piece counts against its owner when the
    /// game ends without a bridge.
    #[inline]
    fn expand_early(mv: Placement) -> bool {
        !mv.entry().on_perimeter
    }

    fn threat(&self) -> Option<Volume> {
        Position::threat(self).map(|t| self.defence_region(t))
    }

    #[inline]
    fn may_stop(&self, region: &Volume, mv: Placement) -> bool {
        Position::may_stop(self, *region, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::parse_game;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn scored_playouts_judge_a_bridge_by_the_perimeter_counts() {
        // Player 1 completes a bridge at once, with 7 pieces on the bottom
        // perimeter to the opponent's 2.
        let path = format!(
            "{}/tests/data/tactics/win1-6.caminos",
            env!("CARGO_MANIFEST_DIR")
        );
        let pos = parse_game(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mover = Game::side_to_move(&pos);
        let mut after = pos;
        after.play(pos.winning_move().unwrap());
        let by_count = outcome(after.perimeter_result()).unwrap();
        assert_eq!(by_count, Outcome::Win(1 - mover));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut play = |score| {
            let policy = Playout {
                win: true,
                score,
                ..Playout::default()
            };
            Game::policy_playout(&mut pos.clone(), &mut rng, policy, None, None, &mut |_| {})
        };
        assert!((0..20).all(|_| play(0) == Outcome::Win(mover)));
        assert!((0..20).all(|_| play(100) == by_count));
    }
}
