//! Playing on in a position proven lost or drawn.
//!
//! A position proven lost is lost only against best play. The proof ends
//! the search at once, and every move then looks the same to the tree (a
//! loss), so the move played would be whichever the search had happened to
//! visit most before the proof: often a careless one, such as a piece on
//! the bottom perimeter that matters if the game ends on the counts. An
//! opponent that has not found the win yet may still miss it. So the
//! engine searches such a position again, for the rest of its budget,
//! without the solver: the plain statistics of the playouts then prefer
//! the moves after which the opponent most often goes wrong, the way a
//! human player looks for the swindle in a lost game. Of its most visited
//! moves it plays the first that leaves the opponent no win in one.
//!
//! A position proven drawn is searched again in the same way, and the
//! engine plays the most visited move of that search that the exact
//! endgame search proves still draws: of the moves that keep the draw,
//! the one that leaves the opponent the most ways to lose.

use std::time::{Duration, Instant};

use super::budget::Budget;
use super::endgame::Endgame;
use crate::game::{Move, Position, Status};
use crate::search::{MoveStats, Proven, Report, SearchConfig};

/// The most nodes of the second search's tree.
pub(crate) const MAX_NODES: usize = 1 << 20;

/// Node budget of the exact search that checks that a move keeps a draw.
const DRAW_CHECK_NODES: u64 = 100_000;

/// How many of the second search's moves, most visited first, are checked
/// for keeping a draw: the checks come at the end of the budget, so they
/// must be few.
const CANDIDATES: usize = 8;

/// The most time kept back from a drawn position's second search for the
/// draw checks (a quarter of the time when that is less). The checks have
/// the first half of it, the second half is slack for what follows: on a
/// busy machine (the whole test suite on two cores) the answer came up to
/// 160 ms after the checks ended, and without this reserve the checks
/// would either end past the move's time or find no time at all. A
/// proven draw loses little by a shorter search for the best try.
const DRAW_CHECK_RESERVE: Duration = Duration::from_millis(250);

/// The time kept back from a drawn position's second search of a move of
/// `t`.
fn reserve(t: Duration) -> Duration {
    DRAW_CHECK_RESERVE.min(t / 4)
}

/// When, in a move of `t`, the checks that a move keeps a draw end.
pub(crate) fn checks_end(t: Duration) -> Duration {
    t - reserve(t) / 2
}

/// Whether the report of a search that began at `start` is a proven loss
/// or draw with budget left to look for the best try (a budget with no
/// limit at all, as for analysis until stopped, does not qualify: nothing
/// would end the second search).
pub(crate) fn applies(report: &Report<Move>, budget: &Budget, start: Instant) -> bool {
    let left = match (budget.time, budget.iterations) {
        (Some(t), _) if start.elapsed() >= t => false,
        (_, Some(n)) if report.iterations >= n => false,
        (None, None) => budget.nodes.is_some(),
        _ => true,
    };
    matches!(report.proven, Some(Proven::Loss | Proven::Draw)) && report.best.is_some() && left
}

/// The time kept back from a lost position's second search of a move of
/// `t`, for what follows it (every move listed, the win-in-one tests, the
/// second tree dropped): without it the answer came after the move's time
/// (1.10 s for 1 s with the whole test suite on two cores).
fn loss_reserve(t: Duration) -> Duration {
    Duration::from_millis(50).min(t / 20)
}

/// The second search's budget after a `first` search that proved the
/// position lost or drawn: the rest of the move's, less, with a time
/// limit, the reserve of the checks that a move keeps the draw (a draw) or
/// of the answer's own work (a loss).
pub(crate) fn second_budget(budget: Budget, first: &Report<Move>) -> Budget {
    match (first.proven, budget.time) {
        (Some(Proven::Draw), Some(t)) => Budget {
            time: Some(t - reserve(t)),
            ..budget
        },
        (Some(Proven::Loss), Some(t)) => Budget {
            time: Some(t - loss_reserve(t)),
            ..budget
        },
        _ => budget,
    }
}

/// The search that looks for the best try: the engine's own, without the
/// solver (and so without what needs it: the win-in-one check, the threat
/// test and the exact endgame), whose proofs would make every move equal.
pub(crate) fn search_config(search: &SearchConfig) -> SearchConfig {
    SearchConfig {
        solver: false,
        ..search.clone()
    }
}

/// The second search's seed: its own, but fixed by the engine's seed and
/// the position, so that a search with a fixed seed stays reproducible.
pub(crate) fn seed(seed: u64, pos: &Position) -> u64 {
    seed ^ 0x5717_D1E5 ^ ((pos.moves().len() as u64) << 32)
}

/// What progress shows of the second search: the position keeps the value
/// the `first` search proved. A lost position's moves are ranked by the
/// second search's visits; a drawn one shows the first search's moves
/// until the end, when the move to play is checked.
pub(crate) fn present(second: Report<Move>, first: &Report<Move>) -> Report<Move> {
    match first.proven {
        Some(Proven::Loss) => lost(second, first),
        _ => Report {
            iterations: second.iterations,
            seconds: second.seconds,
            ..first.clone()
        },
    }
}

/// The report of the position from the `first` search, which proved it
/// lost or drawn, and the `second`, which looked for the best try.
/// The checks that a move keeps a draw give up when `stop` says so (the
/// search's clock): the move is then the first search's.
pub(crate) fn conclude(
    pos: &Position,
    first: Report<Move>,
    second: Report<Move>,
    checks: &mut Endgame,
    stop: &dyn Fn() -> bool,
) -> Report<Move> {
    match first.proven {
        Some(Proven::Loss) => avoid_loss_in_one(pos, lost(second, &first)),
        _ => drawn(pos, first, &second, checks, stop),
    }
}

/// Every move of a lost position is lost; the second search ranks them.
fn lost(mut second: Report<Move>, first: &Report<Move>) -> Report<Move> {
    second.proven = first.proven;
    second.winrate = first.winrate;
    second.nodes += first.nodes;
    for m in &mut second.top {
        m.proven = Some(Proven::Loss);
        m.winrate = 0.0;
    }
    second
}

/// A lost position's move to play: of the search's moves, the most
/// visited after which the opponent cannot win at once, or failing that
/// any legal move after which it cannot. When the playouts lose after every
/// move, or the budget left after the proof was small, the visits alone do
/// not tell a try from a move that loses at once. The engine applies it to
/// every position it has proven lost, swindle or not.
pub(crate) fn avoid_loss_in_one(pos: &Position, mut report: Report<Move>) -> Report<Move> {
    let mover = pos.to_move();
    let safe = |mv: Move| {
        let mut after = *pos;
        if after.play(mv).is_err() {
            return false;
        }
        match after.status() {
            // After `tm` the mover moves again: the opponent has no move yet.
            Status::Ongoing => after.to_move() == mover || after.winning_move().is_none(),
            status => status.winner().is_none_or(|w| w == mover),
        }
    };
    if report.best.is_none() {
        return report;
    }
    // The most visited safe move listed; else any safe legal move, so
    // that the opponent has to find the win (a few milliseconds at most:
    // one win-in-one test per legal move).
    let pick = match report.top.iter().position(|m| safe(m.mv)) {
        Some(i) => report.top.remove(i),
        None => {
            let mut legal = Vec::new();
            crate::search::Game::legal_moves(pos, &mut legal);
            let Some(mv) = legal.into_iter().find(|&m| safe(m)) else {
                return report;
            };
            MoveStats {
                mv,
                visits: 0,
                winrate: 0.0,
                proven: Some(Proven::Loss),
                pv: vec![mv],
            }
        }
    };
    report.best = Some(pick.mv);
    report.pv = pick.pv.clone();
    report.top.insert(0, pick);
    report
}

/// A drawn position: the first search's report, with the move to play the
/// second search's most visited move that keeps the draw (checked by
/// `endgame`, whose table keeps proven bounds only, so it serves from move
/// to move), listed first.
fn drawn(
    pos: &Position,
    mut first: Report<Move>,
    second: &Report<Move>,
    endgame: &mut Endgame,
    stop: &dyn Fn() -> bool,
) -> Report<Move> {
    first.iterations = second.iterations;
    first.seconds = second.seconds;
    first.nodes += second.nodes;
    // Past the deadline no check starts (one under way gives up within
    // [`super::endgame::STOP_CHECK`] nodes).
    let Some(pick) = second
        .top
        .iter()
        .take(CANDIDATES)
        .take_while(|_| !stop())
        .find(|m| keeps_draw(pos, m.mv, endgame, stop))
    else {
        return first;
    };
    first.top.retain(|m| m.mv != pick.mv);
    first.top.insert(
        0,
        MoveStats {
            winrate: 0.5,
            proven: Some(Proven::Draw),
            ..pick.clone()
        },
    );
    first.best = Some(pick.mv);
    first.pv = pick.pv.clone();
    first
}

/// Whether playing `mv` at `pos` is proven to give its player at least a
/// draw (a move after which the same player moves again is not judged);
/// not when `stop` ends the check first.
fn keeps_draw(pos: &Position, mv: Move, endgame: &mut Endgame, stop: &dyn Fn() -> bool) -> bool {
    let mover = pos.to_move();
    let mut after = *pos;
    if after.play(mv).is_err() {
        return false;
    }
    match after.status() {
        Status::Ongoing if after.to_move() == mover => false,
        Status::Ongoing => endgame
            .solve_until(&after, DRAW_CHECK_NODES, stop)
            .is_some_and(|(value, _)| value <= 0),
        status => status.winner().is_none_or(|w| w == mover),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::record::parse_game;
    use crate::search::Game;

    /// Player 1 to move, lost: after 475 of its 487 legal placements
    /// player 2 completes a bridge at once (a game against the baseline).
    fn lost() -> Position {
        parse_game(include_str!("../../games/lost-position.caminos")).unwrap()
    }

    /// The placements after which the opponent cannot win at once.
    fn safe(pos: &Position) -> Vec<Move> {
        let mut legal = Vec::new();
        Game::legal_moves(pos, &mut legal);
        assert_eq!(legal.len(), 487);
        legal
            .into_iter()
            .filter(|&m| {
                let mut p = *pos;
                p.play_move_unchecked(m);
                p.winning_move().is_none()
            })
            .collect()
    }

    fn think(config: &str, pos: &Position) -> Report<Move> {
        let config = format!("{config},seed=1");
        crate::engine::tests::think(&config, pos, Budget::iterations(100_000)).report
    }

    #[test]
    fn a_lost_position_is_searched_on_for_a_move_that_does_not_lose_at_once() {
        let pos = lost();
        let safe = safe(&pos);
        assert_eq!(safe.len(), 12);
        let r = think("default", &pos);
        assert_eq!(r.proven, Some(Proven::Loss));
        assert_eq!(r.winrate, 0.0);
        // The whole budget was spent, and on the best try.
        assert!(r.iterations >= 100_000, "{} iterations", r.iterations);
        let best = r.best.unwrap();
        assert!(safe.contains(&best), "{best} lets the opponent win at once");
        assert_eq!(r.top[0].mv, best);
        assert!(r.top.iter().all(|m| m.proven == Some(Proven::Loss)));
    }

    #[test]
    fn a_drawn_position_is_searched_on_for_a_move_that_keeps_the_draw() {
        let pos = parse_game(include_str!("../../games/drawn-position.caminos")).unwrap();
        let first = think("default,swindle=off", &pos);
        assert_eq!(first.proven, Some(Proven::Draw));
        assert!(
            first.iterations < 100_000,
            "{} iterations",
            first.iterations
        );
        let r = think("default", &pos);
        assert_eq!(r.proven, Some(Proven::Draw));
        assert!(r.iterations >= 100_000, "{} iterations", r.iterations);
        let best = r.best.unwrap();
        assert_eq!((r.top[0].mv, r.top[0].proven), (best, Some(Proven::Draw)));
        // The exact search of the position after it: player 2 cannot win.
        let mut after = pos;
        after.play_move_unchecked(best);
        let (value, _) = Endgame::new().solve(&after, 10_000_000).unwrap();
        assert_eq!(value, 0, "{best} does not keep the draw");
    }

    #[test]
    fn a_lost_position_plays_the_most_visited_try_that_does_not_lose_at_once() {
        let pos = lost();
        let safe = safe(&pos);
        let mut legal = Vec::new();
        Game::legal_moves(&pos, &mut legal);
        let unsafe_moves: Vec<Move> = legal.into_iter().filter(|m| !safe.contains(m)).collect();
        let stats = |mv: Move, visits: u64| MoveStats {
            mv,
            visits,
            winrate: 0.0,
            proven: Some(Proven::Loss),
            pv: vec![mv],
        };
        let report = |top: Vec<MoveStats<Move>>| Report {
            best: Some(top[0].mv),
            winrate: 0.0,
            proven: Some(Proven::Loss),
            iterations: 100,
            nodes: 100,
            seconds: 0.0,
            iterations_per_second: 0.0,
            pv: top[0].pv.clone(),
            top,
            threads: 1,
        };
        let (blunder, other, try_) = (unsafe_moves[0], unsafe_moves[1], safe[0]);
        let r = avoid_loss_in_one(
            &pos,
            report(vec![stats(blunder, 50), stats(other, 40), stats(try_, 30)]),
        );
        assert_eq!((r.best, r.pv.clone()), (Some(try_), vec![try_]));
        let order: Vec<Move> = r.top.iter().map(|m| m.mv).collect();
        assert_eq!(order, [try_, blunder, other]);
        // With no safe move among them, a safe legal move is played: the
        // opponent must find its win.
        let r = avoid_loss_in_one(&pos, report(vec![stats(blunder, 50), stats(other, 40)]));
        let best = r.best.unwrap();
        assert!(safe.contains(&best), "{best} lets the opponent win at once");
        assert_eq!((r.top[0].mv, r.top[0].visits), (best, 0));
        assert_eq!(r.top.len(), 3);
    }

    #[test]
    fn a_drawn_positions_second_search_leaves_time_for_the_draw_checks() {
        let ms = Duration::from_millis;
        let mut first = think("default,swindle=off", &lost());
        // A lost position keeps back a little for the answer's own work.
        let lost_time = |t| second_budget(Budget::time(ms(t)), &first).time;
        assert_eq!(lost_time(1000), Some(ms(950)));
        assert_eq!(lost_time(200), Some(ms(190)));
        assert_eq!(lost_time(5000), Some(ms(4950)));
        first.proven = Some(Proven::Draw);
        let time = |b: Budget| second_budget(b, &first).time;
        assert_eq!(time(Budget::time(ms(1000))), Some(ms(750)));
        assert_eq!(time(Budget::time(ms(200))), Some(ms(150)));
        assert_eq!(time(Budget::time(ms(5000))), Some(ms(4750)));
        // The checks have half of what was kept back.
        assert_eq!(checks_end(ms(1000)), ms(875));
        assert_eq!(checks_end(ms(200)), ms(175));
        let counted = Budget::iterations(1000);
        assert_eq!(second_budget(counted, &first), counted);
    }

    #[test]
    fn without_swindle_the_proof_ends_the_search() {
        let r = think("default,swindle=off", &lost());
        assert_eq!(r.proven, Some(Proven::Loss));
        assert!(r.iterations < 100_000, "{} iterations", r.iterations);
    }

    #[test]
    fn a_search_with_no_limit_is_not_searched_on() {
        let pos = lost();
        let r = think("default,swindle=off", &pos);
        let start = Instant::now();
        assert!(!applies(&r, &Budget::UNLIMITED, start));
        assert!(applies(&r, &Budget::iterations(r.iterations + 1), start));
        assert!(!applies(&r, &Budget::iterations(r.iterations), start));
        let mut unproven = r.clone();
        unproven.proven = None;
        assert!(!applies(&unproven, &Budget::iterations(1 << 30), start));
    }
}
