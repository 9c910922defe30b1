//! Caminos tactics: the search finds the one winning placement, the one
//! placement that stops the opponent's bridge, and proves a lost position.
//! The positions come from seeded random games; each test first checks the
//! property it relies on with the rules alone.

use cabra::game::Position;
use cabra::game::record::parse_game;
use cabra::search::{Budget, Game, Outcome, Proven, SearchConfig, Searcher};

/// Player 1 to move has exactly one placement that completes a bridge.
const ONE_WIN: &str = "\
550 560 640 650  # Z T90 540
450 451 452 551  # T E270 450
610 620 630 730  # L T270 610
010 110 120 220  # Z T0 010
160 240 250 260  # L B270 140
100 200 201 300  # T S0 100
350 351 360 361  # O E0 350
410 500 510 520  # T T90 400
310 311 411 511  # L N0 310
230 231 330 430  # L S0 230
";

/// Player 1 to move: every placement but one lets player 2 bridge next move.
const ONE_BLOCK: &str = "\
410 510 600 610  # L T180 400
150 250 260 360  # Z T0 150
020 030 031 040  # T S90 020
670 770 771 772  # L E90 670
611 710 711 712  # T E90 610
120 200 210 220  # L B270 100
640 641 642 650  # L E0 640
500 501 601 602  # Z W90 500
320 330 340 440  # L T270 320
460 461 560 561  # O N0 460
010 011 021 022  # Z E0 010
430 431 432 530  # L E270 430
520 521 522 531  # T E0 520
050 060 061 070  # T S90 050
750 751 760 761  # O E0 750
370 371 470 471  # O N0 370
";

/// Player 2 to move: whatever it places, player 1 bridges next move.
const LOST: &str = "\
550 560 640 650  # Z T90 540
450 451 452 551  # T E270 450
610 620 630 730  # L T270 610
010 110 120 220  # Z T0 010
160 240 250 260  # L B270 140
100 200 201 300  # T S0 100
350 351 360 361  # O E0 350
410 500 510 520  # T T90 400
310 311 411 511  # L N0 310
230 231 330 430  # L S0 230
660 661 760 761  # O N0 660
060 070 071 072  # L E180 060
121 221 320 321  # L N180 120
540 541 542 552  # L W0 540
270 370 371 470  # T S0 270
130 131 132 140  # L E0 130
050 150 151 251  # Z S0 050
";

/// The legal placements of `pos` split into (wins at once, safe, lost at
/// once): safe means the opponent then has no immediate win.
fn classify(pos: &Position) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let me = Game::side_to_move(pos);
    let mut moves = Vec::new();
    Game::legal_moves(pos, &mut moves);
    let (mut wins, mut safe, mut lost) = (vec![], vec![], vec![]);
    for m in moves {
        let mut after = *pos;
        Game::play(&mut after, m);
        let id = Position::move_id(m);
        match Game::outcome(&after) {
            Some(Outcome::Win(w)) if w == me => wins.push(id),
            Some(Outcome::Draw) => safe.push(id),
            Some(Outcome::Win(_)) => lost.push(id),
            None if after.winning_move().is_some() => lost.push(id),
            None => safe.push(id),
        }
    }
    (wins, safe, lost)
}

fn search(pos: Position, threads: usize, iterations: u64) -> cabra::search::Report<usize> {
    search_with(pos, threads, iterations, SearchConfig::default())
}

fn search_with(
    pos: Position,
    threads: usize,
    iterations: u64,
    base: SearchConfig,
) -> cabra::search::Report<usize> {
    let config = SearchConfig {
        threads,
        seed: 11,
        top_moves: 2_000, // every legal root move (at most 1,345)
        ..base
    };
    Searcher::new(pos, config)
        .search(&Budget::iterations(iterations))
        .map_moves(Position::move_id)
}

#[test]
fn plays_the_only_winning_placement() {
    let pos = parse_game(ONE_WIN).unwrap();
    assert_eq!(Game::side_to_move(&pos), 0);
    let (wins, _, _) = classify(&pos);
    assert_eq!(wins.len(), 1);
    for threads in [1, 2] {
        let r = search(pos, threads, 2_000);
        assert_eq!(r.best, Some(wins[0]), "{threads} threads");
        assert_eq!(r.proven, Some(Proven::Win));
        assert_eq!(r.winrate, 1.0);
    }
}

#[test]
fn plays_the_only_placement_that_stops_a_bridge() {
    let pos = parse_game(ONE_BLOCK).unwrap();
    assert_eq!(Game::side_to_move(&pos), 0);
    let (wins, safe, lost) = classify(&pos);
    assert!(wins.is_empty());
    assert_eq!(
        safe.len(),
        1,
        "exactly one placement prevents every winning reply"
    );
    assert!(lost.len() > 100);
    // Blocking the bridge does not save the game: twelve placements from
    // the end, the exact endgame proves it lost on the perimeter counts.
    // The safe placement is still the one played.
    let r = search(pos, 1, 200_000);
    assert_eq!(r.proven, Some(Proven::Loss));
    assert_eq!(r.best, Some(safe[0]));
    // Without the exact endgame the solver refutes every other placement
    // by the bridge it allows, and proves nothing about the safe one.
    let bridges_only = SearchConfig {
        endgame: false,
        ..SearchConfig::default()
    };
    for threads in [1, 2] {
        let r = search_with(pos, threads, 3_000, bridges_only.clone());
        assert_eq!(r.best, Some(safe[0]), "{threads} threads");
        assert_ne!(r.proven, Some(Proven::Loss));
        // The other placements were refuted by the solver, not just outvoted.
        let refuted = r
            .top
            .iter()
            .filter(|t| t.proven == Some(Proven::Loss))
            .count();
        assert_eq!(refuted, lost.len());
    }
}

#[test]
fn reports_a_lost_position_as_proven_lost() {
    let pos = parse_game(LOST).unwrap();
    assert_eq!(Game::side_to_move(&pos), 1);
    let (wins, safe, lost) = classify(&pos);
    assert!(wins.is_empty() && safe.is_empty() && !lost.is_empty());
    let r = search(pos, 1, 20_000);
    assert_eq!(r.proven, Some(Proven::Loss));
    assert_eq!(r.winrate, 0.0);
    assert!(
        r.iterations < 20_000,
        "the search stops once the root is solved"
    );
    assert_eq!(r.top.len(), lost.len());
    assert!(r.best.is_some_and(|b| lost.contains(&b)));
}

/// Iterations until the root of `pos` is proven, with threat-aware
/// expansion on or off.
fn iterations_to_prove(pos: Position, threats: bool) -> (u64, Option<Proven>) {
    let config = SearchConfig {
        threats,
        seed: 3,
        ..SearchConfig::default()
    };
    let r = Searcher::new(pos, config).search(&Budget::iterations(200_000));
    (r.iterations, r.proven)
}

#[test]
fn threat_aware_expansion_proves_wins_in_two_sooner() {
    let (mut with_total, mut without_total) = (0, 0);
    for k in 1..=6 {
        // The suite's wins in two: no win in one, but a placement after
        // which every reply lets the mover bridge.
        let path = format!(
            "{}/tests/data/tactics/win2-{k}.caminos",
            env!("CARGO_MANIFEST_DIR")
        );
        let pos = parse_game(&std::fs::read_to_string(path).unwrap()).unwrap();
        let (wins, _, _) = classify(&pos);
        assert!(wins.is_empty(), "win2-{k}: no win in one");
        let (with, proof) = iterations_to_prove(pos, true);
        assert_eq!(proof, Some(Proven::Win), "win2-{k}");
        let (without, _) = iterations_to_prove(pos, false);
        eprintln!("win2-{k}: {with} iterations with threats, {without} without");
        with_total += with;
        without_total += without;
    }
    // Below the winning placement every reply loses at once: with threats
    // on, that node is proven as soon as it is expanded, without a child
    // (and a playout) per reply.
    assert!(
        with_total * 5 < without_total,
        "{with_total} vs {without_total} iterations"
    );
}

#[test]
fn empty_board_search_is_reproducible_and_sane() {
    let run = || {
        let mut r = search(Position::new(), 1, 5_000);
        r.seconds = 0.0;
        r.iterations_per_second = 0.0;
        r
    };
    let r = run();
    assert_eq!(r, run());
    assert_eq!(r.iterations, 5_000);
    assert_eq!(r.nodes, 5_001, "one new node per iteration");
    assert_eq!(r.top.iter().map(|t| t.visits).sum::<u64>(), 5_000);
    assert!(r.top.len() <= 1_345);
    assert!(r.pv.len() >= 2);
}

#[test]
fn the_move_played_heads_the_list_even_among_ties() {
    // 100 iterations over 1,345 root moves: many of the most visited tie
    // on visits, and the list must break ties as the choice does.
    // The baseline (plain UCT, uniform playouts) ties often.
    let baseline = cabra::engine::EngineConfig::parse("baseline").unwrap();
    for seed in 1..=8 {
        let config = SearchConfig {
            seed,
            top_moves: 5,
            ..baseline.search.clone()
        };
        let r = Searcher::with_playout(Position::new(), config, baseline.playout)
            .search(&Budget::iterations(100));
        assert_eq!(r.best, r.top.first().map(|m| m.mv), "seed {seed}");
    }
}

#[test]
fn every_top_move_has_its_own_principal_variation() {
    let pos = Position::new();
    let r = search(pos, 2, 20_000);
    assert!(r.top.len() > 1);
    for m in &r.top {
        assert_eq!(m.pv.first(), Some(&m.mv));
        // Each line is a legal sequence from the root.
        let mut p = pos;
        for &id in &m.pv {
            let mv = Position::move_from_id(id);
            assert!(p.is_legal(mv), "{:?}", m.pv);
            p.play_move_unchecked(mv);
        }
    }
    let best = r.top.iter().find(|m| Some(m.mv) == r.best).unwrap();
    assert_eq!(best.pv, r.pv);
    assert!(r.top.iter().any(|m| m.pv.len() > 1));
}

#[test]
fn a_reused_tree_plays_the_win_after_a_root_move_proven_lost() {
    // The loser's root keeps its moves as proven losses without children;
    // advancing into one must still find the winner's bridge.
    let pos = parse_game(LOST).unwrap();
    let config = SearchConfig {
        threads: 1,
        seed: 5,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(pos, config);
    let r = s.search(&Budget::iterations(20_000));
    assert_eq!(r.proven, Some(Proven::Loss));
    let lost = r.best.unwrap();
    s.advance(lost);
    let r = s.search(&Budget::iterations(20_000));
    assert_eq!(r.proven, Some(Proven::Win));
    let mut after = pos;
    after.play_move_unchecked(lost);
    after.play_move_unchecked(r.best.unwrap());
    assert_eq!(after.status().winner(), Some(cabra::game::Player::One));
}

#[test]
fn replay_plays_as_play_does_but_for_the_end_by_count() {
    // Seeded random games to their ends: `replay` (the search's step
    // through known nodes) leaves every position as `play` does, except
    // that a game ended by the count still reads as going on.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let mut count_ends = 0;
    for _ in 0..200 {
        let (mut played, mut replayed) = (Position::new(), Position::new());
        let mut moves = Vec::new();
        while played.outcome().is_none() {
            Game::legal_moves(&played, &mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            Game::play(&mut played, mv);
            Game::replay(&mut replayed, mv);
            assert_eq!(replayed.moves(), played.moves());
            assert_eq!(replayed.occupied(), played.occupied());
            assert_eq!(replayed.side_to_move(), played.side_to_move());
            match played.status() {
                s @ cabra::game::Status::Won {
                    by: cabra::game::WinReason::Bridge,
                    ..
                } => assert_eq!(replayed.status(), s),
                cabra::game::Status::Ongoing => assert!(replayed.outcome().is_none()),
                _ => {
                    count_ends += 1;
                    assert!(replayed.outcome().is_none());
                }
            }
        }
    }
    assert!(count_ends > 0, "some games must end by the count");
}
