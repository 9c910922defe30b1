//! A complete random game from a position: the engine of every Monte Carlo
//! simulation. Allocation-free; the position is played in place.

use rand::RngCore;

use super::bridge;
use super::player::{Status, WinReason};
use super::position::Position;

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
            let Some(p) = self.random_move(rng) else {
                let s = self.perimeter_result();
                self.set_status(s);
                return s;
            };
            let mover = self.to_move();
            let e = self.place(p);
            if bridge::completes_bridge(self.cubes(mover), self.cubes(mover.other()), e.cells) {
                let s = Status::Won {
                    winner: mover,
                    by: WinReason::Bridge,
                };
                self.set_status(s);
                return s;
            }
        }
    }
}
