//! A complete random game from a position: the engine of every Monte Carlo
//! simulation. Allocation-free; the position is played in place.

use rand::RngCore;

use super::bridge;
use super::player::{Status, WinReason};
use super::position::Position;
use super::table::Placement;

impl Position {
    /// Plays uniformly random legal placements until the game ends and returns
    /// the result. The end of the game comes for free: the random draw finds
    /// no legal placement.
    #[inline]
    pub fn random_playout<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> Status {
        if self.status().is_over() {
            return self.status();
        }
        loop {
            let Some(p) = self.random_placement(rng) else {
                return self.end_by_count();
            };
            if self.place_in_playout(p) {
                return self.status();
            }
        }
    }

    /// Places `p` (legal for the side to move) as a playout does: the cubes
    /// go on the board and the mover wins if they complete a bridge
    /// (returns whether they did), but the end by lack of placements is
    /// left to the next draw: a [`Position::random_move`] that finds none,
    /// then [`Position::end_by_count`]. Cheaper than [`Position::play`],
    /// which looks for a legal placement after every move.
    #[inline(always)]
    pub(crate) fn place_in_playout(&mut self, p: Placement) -> bool {
        let mover = self.to_move();
        let e = self.place(p);
        if bridge::completes_bridge(self.cubes(mover), self.cubes(mover.other()), e.cells) {
            self.set_status(Status::Won {
                winner: mover,
                by: WinReason::Bridge,
            });
            true
        } else {
            false
        }
    }

    /// Ends the game by the count of the rules (sections 7 and 9.1), for a
    /// playout that found no legal placement for the side to move, and
    /// returns the result.
    #[inline]
    pub(crate) fn end_by_count(&mut self) -> Status {
        let s = self.count_result();
        self.set_status(s);
        s
    }
}
