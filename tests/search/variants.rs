//! The engine under the variants of RULES.md section 9: it calls the time
//! machine when that is the only way to win, not when it throws a win
//! away, and it takes or declines the swap as its evaluation says.

use crate::common::*;

use cabra::engine::Proven;
use cabra::engine::{Budget, EngineConfig, EngineHandle, Report, Request};
use cabra::game::record::parse_record;
use cabra::game::{Move, Position};

fn load(rel: &str) -> Position {
    parse_record(&std::fs::read(data(rel)).unwrap())
        .unwrap()
        .position
}

/// The default engine's choice at `pos` with one thread and a seed,
/// listing `top` moves.
fn think(pos: &Position, iterations: u64, top: usize) -> Report<Move> {
    let config = EngineConfig::parse("threads=1,seed=1").unwrap();
    let engine = EngineHandle::new(config);
    let request = Request::new(*pos)
        .limits(Budget::iterations(iterations))
        .top_moves(top);
    engine.search(request).unwrap().report
}

/// Every placement of the side to move leaves the opponent a win in one.
fn every_placement_loses(pos: &Position) -> bool {
    let mut all = true;
    pos.for_each_legal_placement(|p| {
        let mut q = *pos;
        q.play_unchecked(p);
        all &= !q.status().is_over() && q.winning_move().is_some();
    });
    all
}

#[test]
fn the_engine_calls_the_time_machine_when_it_is_the_only_win() {
    let pos = load("variant-tactics/tm-wins.caminos");
    // What the file says, checked by the rules alone.
    assert!(pos.winning_move().is_none());
    assert!(every_placement_loses(&pos));
    let mut after = pos;
    after.play(Move::TimeMachine).unwrap();
    assert!(after.winning_move().is_some());

    let r = think(&pos, 20_000, 10);
    assert_eq!(r.best, Some(Move::TimeMachine));
    assert_eq!(r.proven, Some(Proven::Win));
    assert_eq!(r.pv.len(), 2, "tm, then the winning placement");
    assert_eq!(r.pv[1].placement(), after.winning_move());
}

#[test]
fn the_engine_does_not_call_the_time_machine_when_that_loses() {
    let pos = load("variant-tactics/tm-loses.caminos");
    let win = pos.winning_move().expect("a win in one");
    let mut after = pos;
    after.play(Move::TimeMachine).unwrap();
    assert!(after.winning_move().is_none());
    assert!(every_placement_loses(&after));

    let r = think(&pos, 20_000, 10);
    assert_eq!(r.best, Some(Move::Place(win)));
    assert_eq!(r.proven, Some(Proven::Win));
    // And after the call the engine sees the loss.
    let r = think(&after, 20_000, 10);
    assert_eq!(r.proven, Some(Proven::Loss));
}

/// The engine's choice for player 2 after player 1's first placement under
/// `caminos swap`, and its win rates for the swap and for the best placement.
fn swap_choice(first: &str) -> (Move, f64, f64) {
    let text = format!("# rules: caminos swap\n{first}\n");
    let pos = parse_record(text.as_bytes()).unwrap().position;
    let r = think(&pos, 100_000, 3_000);
    let swap = r
        .top
        .iter()
        .find(|m| m.mv == Move::Swap)
        .expect("swap searched");
    let best_place = r
        .top
        .iter()
        .filter(|m| m.mv != Move::Swap)
        .max_by_key(|m| m.visits)
        .expect("placements searched");
    (r.best.unwrap(), swap.winrate, best_place.winrate)
}

#[test]
fn the_engine_takes_or_declines_the_swap_by_its_evaluation() {
    // A flat O in the north-west corner, its own favourite opening: the
    // engine rates the swap above its best placement and swaps (100,000
    // iterations, seed 1; it does at seeds 2 and 3 too).
    let (choice, swap, place) = swap_choice("000 010 100 110");
    assert_eq!(choice, Move::Swap);
    assert!(swap > place, "{swap} {place}");
    // A flat L along the same corner, and a T in the middle of the board:
    // it rates a placement higher and declines (by 9 points or more at
    // seeds 1 to 3).
    for first in ["000 100 110 120", "340 350 360 450"] {
        let (choice, swap, place) = swap_choice(first);
        assert_ne!(choice, Move::Swap, "{first}");
        assert!(place > swap, "{first}: {swap} {place}");
    }
}
