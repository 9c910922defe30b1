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

impl Position {
    /// Places `p` and sets a bridge win if it makes one; whether it did.
    /// Like the uniform playout, leaves the end by lack of moves to the
    /// next draw.
    #[inline(always)]
    fn place_and_judge(&mut self, p: Placement) -> bool {
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

    /// A playout with simple tactics, for the search (the plain
    /// [`Position::random_playout`] stays the uniform reference):
    ///
    /// - `win`: a player who can complete a bridge at once does so;
    /// - `block_tries > 0`: a random placement after which the opponent
    ///   could complete a bridge at once is redrawn, up to `block_tries`
    ///   draws in all (the last draw is played whatever it allows).
    ///
    /// Calls `record` with each placement played.
    pub fn policy_playout<R: RngCore + ?Sized>(
        &mut self,
        rng: &mut R,
        win: bool,
        block_tries: u32,
        mut record: impl FnMut(Placement),
    ) -> Status {
        // Whether the side to move is known to have no immediate win.
        let mut no_win_known = false;
        loop {
            if self.status().is_over() {
                return self.status();
            }
            if win && !no_win_known {
                if let Some(p) = self.winning_move() {
                    self.place_and_judge(p);
                    record(p);
                    return self.status();
                }
            }
            no_win_known = false;
            let Some(mut p) = self.random_move(rng) else {
                let s = self.perimeter_result();
                self.set_status(s);
                return s;
            };
            if block_tries > 0 {
                for t in 1..=block_tries {
                    let mut q = *self;
                    if q.place_and_judge(p) || q.winning_move().is_none() {
                        // (A win for the mover ends the game: nothing to fear.)
                        no_win_known = true;
                        break;
                    }
                    if t == block_tries {
                        break;
                    }
                    p = self.random_move(rng).expect("a move was found before");
                }
            }
            let won = self.place_and_judge(p);
            record(p);
            if won {
                return self.status();
            }
        }
    }
}
