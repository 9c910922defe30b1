//! The special moves of RULES.md section 9: the swap and the time machine,
//! when they are legal and what they do.

use super::Position;
use crate::game::error::PlacementError;
use crate::game::player::Player;
use crate::game::rules::Move;
use crate::game::table::Placement;

impl Position {
    /// Why the special move `m` is not legal here, or `Ok` if it is.
    pub(super) fn check_special(&self, m: Move) -> Result<(), PlacementError> {
        match m {
            Move::Place(p) => self.check_placement(p),
            Move::Swap => {
                if self.status.is_over() {
                    Err(PlacementError::GameOver(self.status))
                } else if !self.rules.swap {
                    Err(PlacementError::NotInRules {
                        what: m,
                        rules: self.rules,
                    })
                } else if self.made != 1 {
                    Err(PlacementError::SwapTurn)
                } else {
                    Ok(())
                }
            }
            Move::TimeMachine => self.check_time_machine(),
        }
    }

    fn check_time_machine(&self) -> Result<(), PlacementError> {
        use PlacementError::*;
        if self.status.is_over() {
            return Err(GameOver(self.status));
        }
        if !self.rules.time_machine() {
            return Err(NotInRules {
                what: Move::TimeMachine,
                rules: self.rules,
            });
        }
        let me = self.to_move;
        if self.tm_used[me.index()] {
            return Err(TimeMachineUsed(me));
        }
        let n = self.on_board as usize;
        if n < 2 || self.owner_of(n - 1) == me || self.owner_of(n - 2) != me {
            return Err(TimeMachineOrder);
        }
        if self.swapped && n - 2 == 0 {
            return Err(TimeMachineRecoloured);
        }
        Ok(())
    }

    /// Calls `f` with the special moves (`swap`, `tm`) legal here.
    pub(crate) fn for_each_special(&self, mut f: impl FnMut(Move)) {
        for m in [Move::Swap, Move::TimeMachine] {
            if self.check_special(m).is_ok() {
                f(m);
            }
        }
    }

    /// Moves the piece of `p` from `from`'s colour to the other player's.
    pub(super) fn recolour(&mut self, p: Placement, from: Player) {
        let e = p.entry();
        let (a, b) = (from.index(), from.other().index());
        self.cubes[a] = self.cubes[a] & !e.cells;
        self.cubes[b] |= e.cells;
        self.left[a][e.piece.index()] += 1;
        self.left[b][e.piece.index()] -= 1;
        self.perimeter[a] -= e.on_perimeter as u8;
        self.perimeter[b] += e.on_perimeter as u8;
    }

    /// Section 9.3: player 1's first piece becomes player 2's; player 1
    /// moves next.
    pub(super) fn swap(&mut self) {
        debug_assert!(self.check_special(Move::Swap).is_ok());
        self.recolour(self.board[0], Player::One);
        self.swapped = true;
        self.record(Move::Swap);
        self.to_move = Player::One;
    }

    /// Section 9.2: the last two placements go back to their owners'
    /// stocks; the caller moves again.
    pub(super) fn time_machine(&mut self) {
        debug_assert!(self.check_special(Move::TimeMachine).is_ok());
        for _ in 0..2 {
            self.on_board -= 1;
            let i = self.on_board as usize;
            self.lift(self.board[i], self.owner_of(i));
            // Unused slots stay at their initial value: equal positions
            // compare and hash equal.
            self.board[i] = Placement(0);
        }
        self.tm_used[self.to_move.index()] = true;
        self.record(Move::TimeMachine);
    }
}
