//! A complete random game from a position: the engine of every Monte Carlo
//! simulation. Allocation-free; the position is played in place.

use rand::RngCore;

use super::bridge;
use super::movegen::below;
use super::player::{Player, Status, WinReason};
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

/// The tactics of [`Position::policy_playout`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutRules {
    /// A player who can complete a bridge at once does so.
    pub win: bool,
    /// When the opponent threatens to complete a bridge, redraw placements
    /// that do not stop it, up to this many draws in all (0: off).
    pub block_tries: u32,
    /// Percent chance of redrawing (once) a placement that adds a piece to
    /// the mover's bottom-perimeter count, which the game's end counts
    /// against it (0: off).
    pub rim_redraw: u8,
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
    /// - `block_tries > 0`: when the opponent threatens to complete a
    ///   bridge ([`Position::threat`]), a random placement that does not stop
    ///   it is redrawn, up to `block_tries` draws in all (the last draw is
    ///   played whatever it allows). Draws that [`Position::may_stop`] rules
    ///   out cost no trial placement;
    /// - `rim_redraw`: a placement on the bottom perimeter is redrawn once
    ///   with this percent chance;
    /// - `reply(mover, previous)`: a placement to play instead of a random
    ///   one when it is legal (the last good reply to the opponent's
    ///   previous placement; `last` is the one that led to this position).
    ///   Return `None` for none.
    ///
    /// Calls `record` with each placement played.
    pub fn policy_playout<R: RngCore + ?Sized>(
        &mut self,
        rng: &mut R,
        rules: PlayoutRules,
        mut last: Option<Placement>,
        reply: impl Fn(Player, Placement) -> Option<Placement>,
        mut record: impl FnMut(Placement),
    ) -> Status {
        let PlayoutRules {
            win,
            block_tries,
            rim_redraw,
        } = rules;
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
            let good_reply = last
                .and_then(|m| reply(self.to_move(), m))
                .filter(|&r| self.is_legal(r));
            let mut p = match good_reply {
                Some(r) => r,
                None => {
                    let Some(mut p) = self.random_move(rng) else {
                        let s = self.perimeter_result();
                        self.set_status(s);
                        return s;
                    };
                    if rim_redraw > 0
                        && p.entry().on_perimeter
                        && below(rng, 100) < u32::from(rim_redraw)
                    {
                        p = self.random_move(rng).expect("a move was found before");
                    }
                    p
                }
            };
            if block_tries > 0 {
                if let Some(t) = self.threat() {
                    let region = self.defence_region(t);
                    for tries in 1..=block_tries {
                        if self.may_stop(region, p) {
                            let mut q = *self;
                            if q.place_and_judge(p) || q.winning_move().is_none() {
                                // (A win for the mover ends the game: nothing to fear.)
                                no_win_known = true;
                                break;
                            }
                        }
                        if tries == block_tries {
                            break;
                        }
                        p = self.random_move(rng).expect("a move was found before");
                    }
                }
            }
            let won = self.place_and_judge(p);
            record(p);
            last = Some(p);
            if won {
                return self.status();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::parse_game;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn tactic(name: &str) -> Position {
        let path = format!("{}/tests/data/tactics/{name}", env!("CARGO_MANIFEST_DIR"));
        parse_game(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// The first placement of each of `n` playouts from `pos`.
    fn first_moves(pos: &Position, rules: PlayoutRules, n: usize) -> Vec<Placement> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        (0..n)
            .map(|_| {
                let mut first = None;
                pos.clone().policy_playout(
                    &mut rng,
                    rules,
                    None,
                    |_, _| None,
                    |p| {
                        first.get_or_insert(p);
                    },
                );
                first.unwrap()
            })
            .collect()
    }

    #[test]
    fn taking_wins_ends_the_playout_with_the_winning_placement() {
        // One placement of the 347 legal ones wins at once.
        let pos = tactic("win1-1.caminos");
        let win = pos.winning_move().unwrap();
        let rules = PlayoutRules {
            win: true,
            ..PlayoutRules::default()
        };
        assert!(first_moves(&pos, rules, 20).iter().all(|&p| p == win));
        let uniform = first_moves(&pos, PlayoutRules::default(), 20);
        assert!(uniform.iter().any(|&p| p != win));
    }

    #[test]
    fn blocking_plays_placements_that_stop_the_threat_far_more_often() {
        // 14 of the 173 legal placements stop the opponent's bridge.
        let pos = tactic("block-1.caminos");
        assert!(pos.threat().is_some());
        let stops = |p: &Placement| {
            let mut q = pos;
            q.play(*p);
            q.winning_move().is_none()
        };
        let blocking = PlayoutRules {
            block_tries: 64,
            ..PlayoutRules::default()
        };
        let with = first_moves(&pos, blocking, 200)
            .iter()
            .filter(|p| stops(p))
            .count();
        let without = first_moves(&pos, PlayoutRules::default(), 200)
            .iter()
            .filter(|p| stops(p))
            .count();
        // Uniform: about 200 * 14/173 = 16. With 64 draws nearly all stop it.
        assert!(without < 40, "{without}");
        assert!(with > 180, "{with}");
    }

    #[test]
    fn rim_redraws_make_perimeter_placements_rarer() {
        let rim_share = |rules: PlayoutRules| {
            let moves = first_moves(&Position::new(), rules, 4000);
            moves.iter().filter(|p| p.entry().on_perimeter).count() as f64 / 4000.0
        };
        let uniform = rim_share(PlayoutRules::default());
        let shunned = rim_share(PlayoutRules {
            rim_redraw: 100,
            ..PlayoutRules::default()
        });
        // Uniform share u; redrawing every rim draw once leaves u * u.
        assert!(
            (shunned - uniform * uniform).abs() < 0.04,
            "{uniform} {shunned}"
        );
        assert!(shunned < uniform - 0.1, "{uniform} {shunned}");
    }

    /// The placements of one playout from `pos` whose replies come from `reply`.
    fn replayed(
        pos: &Position,
        last: Option<Placement>,
        reply: impl Fn(Player, Placement) -> Option<Placement>,
    ) -> Vec<Placement> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut moves = Vec::new();
        pos.clone()
            .policy_playout(&mut rng, PlayoutRules::default(), last, reply, |p| {
                moves.push(p)
            });
        moves
    }

    #[test]
    fn a_legal_stored_reply_is_played_and_an_illegal_one_is_not() {
        let start = Position::new();
        let uniform = replayed(&start, None, |_, _| None);
        // Told to, player 2 answers the (random) first placement with a
        // given legal placement: the middle one of its legal list.
        let answer = |first: Placement| {
            let mut after = start;
            after.play(first);
            let mut list = crate::game::MoveList::new();
            after.legal_moves(&mut list);
            list[list.len() / 2]
        };
        let first = uniform[0];
        let want = answer(first);
        let moves = replayed(&start, None, |mover, previous| {
            (mover == Player::Two && previous == first).then_some(want)
        });
        assert_eq!(moves[..2], [first, want]);
        // `last` is answered too: player 1 answers a "previous" placement.
        let opening = uniform[3];
        let moves = replayed(&start, Some(Placement(7)), |mover, previous| {
            (mover == Player::One && previous == Placement(7)).then_some(opening)
        });
        assert_eq!(moves[0], opening);
        // A reply that is not legal (it overlaps the first placement) is
        // passed over for a random placement.
        let moves = replayed(&start, None, |_, previous| Some(previous));
        assert!(moves.len() > 2 && moves[1] != moves[0]);
    }
}
