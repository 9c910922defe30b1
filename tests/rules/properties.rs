//! Property tests: random legal games checked, at every ply, against the
//! slow reference model of `reference.rs`, written directly from RULES.md.
//!
//! Case counts are kept small so the file runs in a few seconds in release.

use crate::reference::*;

use std::collections::{BTreeSet, HashSet};

use cabra::game::bridge::visible;
use cabra::game::record::{parse_game, write_game};
use cabra::game::{
    Cell, Move, PLACEMENT_COUNT, Piece, Placement, PlacementError, PlacementList, Player, Position,
    Status, Volume, WinReason, table,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn all_cells() -> impl Iterator<Item = Cell> {
    (0..8).flat_map(|x| (0..8).flat_map(move |y| (0..3).map(move |z| Cell::new(x, y, z).unwrap())))
}

// ------------------------------------------- checks of one position

/// Everything about `pos` that the model can say, compared.
fn check_position(pos: &Position, m: &Model) -> Result<(), TestCaseError> {
    let (one, two) = (pos.cubes(Player::One), pos.cubes(Player::Two));
    // No two cubes overlap; four cubes per placement.
    prop_assert!(!one.intersects(two));
    prop_assert_eq!(one | two, pos.occupied());
    prop_assert_eq!(pos.occupied().count() as usize, 4 * pos.plies());
    prop_assert_eq!(pos.plies(), m.placed.len());
    for c in all_cells() {
        let owner = m.grid[c.x() as usize][c.y() as usize][c.z() as usize];
        prop_assert_eq!(pos.owner(c), owner, "owner of {}", c);
        // Nothing floats.
        if owner.is_some() {
            if let Some(b) = c.below() {
                prop_assert!(pos.occupied().contains(b), "{} floats", c);
            }
        }
    }
    // The history is the model's, and the pieces left and the perimeter
    // counts follow from it.
    prop_assert_eq!(pos.placements().len(), m.placed.len());
    let mut used = [[0u8; 4]; 2];
    for (i, (&p, (owner, piece, cells))) in pos.placements().iter().zip(&m.placed).enumerate() {
        prop_assert_eq!(lib_cells(p), (*piece, *cells));
        prop_assert_eq!(Player::of_parity(i), *owner);
        used[i % 2][piece.index()] += 1;
    }
    for p in Player::BOTH {
        for k in Piece::ALL {
            let left = pos.pieces_left(p, k);
            prop_assert_eq!(left, START[k.index()] - used[p.index()][k.index()]);
            prop_assert_eq!(left, m.left[p.index()][k.index()]);
        }
        prop_assert_eq!(pos.perimeter_count(p), m.perimeter(p), "perimeter of {}", p);
        // Bridges, from either player's side.
        prop_assert_eq!(
            pos.has_bridge(p),
            slow_bridge(&m.grid, p),
            "bridge of {}",
            p
        );
    }
    prop_assert_eq!(pos.status(), m.status);
    if !pos.status().is_over() {
        prop_assert_eq!(pos.to_move(), m.to_move);
        prop_assert_eq!(pos.to_move(), Player::of_parity(pos.plies()));
        // While the game is on nobody has a bridge.
        prop_assert!(!slow_bridge(&m.grid, Player::One) && !slow_bridge(&m.grid, Player::Two));
    }
    Ok(())
}

/// Legality: the move list, `is_legal` and `check` of every table entry
/// against the model's cell-by-cell check of the same cells.
fn check_legality(pos: &Position, m: &Model) -> Result<Vec<Placement>, TestCaseError> {
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    let moves: Vec<Placement> = list.to_vec();
    prop_assert!(
        moves.windows(2).all(|w| w[0] < w[1]),
        "table order, no repeats"
    );
    prop_assert_eq!(pos.count_legal_placements(), moves.len());
    let mut via_each = Vec::new();
    pos.for_each_legal_placement(|p| via_each.push(p));
    prop_assert_eq!(&via_each, &moves);

    let lib: BTreeSet<(Piece, Cells)> = moves.iter().map(|&p| lib_cells(p)).collect();
    let slow: BTreeSet<(Piece, Cells)> = ref_entries()
        .iter()
        .filter(|(k, c)| m.legal(*k, c))
        .copied()
        .collect();
    prop_assert_eq!(&lib, &slow, "legal placements");

    let occ = pos.occupied();
    let mover = pos.to_move();
    for i in 0..PLACEMENT_COUNT {
        let p = Placement::try_from(i).unwrap();
        let (piece, cells) = lib_cells(p);
        let want = m.legal(piece, &cells);
        prop_assert_eq!(pos.is_legal(p), want, "is_legal {}", p);
        match pos.check(p) {
            Ok(()) => prop_assert!(want, "check passed {}", p),
            Err(e) => {
                prop_assert!(!want, "check refused a legal {}: {}", p, e);
                // Whatever the reason given, it must be true.
                match e {
                    PlacementError::GameOver(s) => {
                        prop_assert!(m.status.is_over());
                        prop_assert_eq!(s, m.status);
                    }
                    PlacementError::NoPieceLeft { player, piece: k } => {
                        prop_assert_eq!((player, k), (mover, piece));
                        prop_assert_eq!(m.left[mover.index()][piece.index()], 0);
                    }
                    PlacementError::Occupied(c) => {
                        prop_assert!(cells.contains(&[c.x(), c.y(), c.z()]) && occ.contains(c));
                    }
                    PlacementError::Floating(c) => {
                        let b = c.below();
                        prop_assert!(cells.contains(&[c.x(), c.y(), c.z()]) && b.is_some());
                        let b = b.unwrap();
                        prop_assert!(!occ.contains(b) && !cells.contains(&[b.x(), b.y(), b.z()]));
                    }
                    other => prop_assert!(false, "a placement refused as a special move: {other}"),
                }
            }
        }
    }
    Ok(moves)
}

/// One random legal game driven by `choices`, checked at every ply.
fn run_game(choices: &[u32]) -> Result<Position, TestCaseError> {
    let mut pos = Position::new();
    let mut m = Model::new();
    let mut line = vec![pos];
    for &choice in choices {
        check_position(&pos, &m)?;
        let moves = check_legality(&pos, &m)?;
        if pos.status().is_over() {
            break;
        }
        prop_assert!(!moves.is_empty(), "an ongoing game has a legal placement");

        // random_move draws only legal placements.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(choice));
        for _ in 0..4 {
            let r = pos.random_move(&mut rng);
            prop_assert!(
                r.is_some_and(|r| moves.binary_search(&r).is_ok()),
                "{:?}",
                r
            );
        }

        // The winning-move finder: exactly the legal placements after which
        // the mover has won by bridge.
        let mut wins = Vec::new();
        pos.for_each_winning_move(|p| wins.push(p));
        wins.sort();
        let mut want = Vec::new();
        for &p in &moves {
            let mut q = pos;
            q.play_unchecked(p);
            if q.status()
                == (Status::Won {
                    winner: pos.to_move(),
                    by: WinReason::Bridge,
                })
            {
                want.push(p);
            }
        }
        prop_assert_eq!(&wins, &want);
        prop_assert_eq!(pos.winning_move().is_some(), !want.is_empty());

        let p = moves[choice as usize % moves.len()];
        // play then undo restores the position exactly.
        let before = pos;
        pos.play_unchecked(p);
        let after = pos;
        prop_assert_eq!(pos.undo(), Some(Move::Place(p)));
        prop_assert_eq!(pos, before);
        prop_assert_eq!(pos.play(p), Ok(()));
        prop_assert_eq!(pos, after);

        let (piece, cells) = lib_cells(p);
        m.play(piece, &cells);
        line.push(pos);
    }
    check_position(&pos, &m)?;
    check_legality(&pos, &m)?;
    prop_assert!(pos.status().is_over(), "28 choices always finish a game");
    if matches!(
        pos.status(),
        Status::Draw {
            by: WinReason::Perimeter,
        } | Status::Won {
            by: WinReason::Perimeter,
            ..
        }
    ) {
        // The game ended because the side to move cannot place.
        prop_assert_eq!(
            pos.random_move(&mut Xoshiro256PlusPlus::seed_from_u64(1)),
            None
        );
    }

    // Undo all the way back, through every position of the game, and check
    // that each reads back from its own record.
    let mut back = pos;
    while let Some(top) = line.pop() {
        prop_assert_eq!(back, top);
        prop_assert_eq!(parse_game(&write_game(&back)), Ok(back));
        if line.is_empty() {
            prop_assert_eq!(back.undo(), None);
        } else {
            prop_assert!(back.undo().is_some());
        }
    }
    prop_assert_eq!(back, Position::new());
    Ok(pos)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_games_agree_with_the_reference_model(
        choices in prop::collection::vec(any::<u32>(), 28)
    ) {
        run_game(&choices)?;
    }

    #[test]
    fn a_random_playout_replays_to_the_same_position(seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::new();
        let status = pos.random_playout(&mut rng);
        prop_assert!(status.is_over());
        prop_assert_eq!(pos.status(), status);
        let mut replay = Position::new();
        for &p in pos.placements() {
            prop_assert_eq!(replay.play(p), Ok(()));
        }
        prop_assert_eq!(replay, pos);
        prop_assert_eq!(parse_game(&write_game(&pos)), Ok(pos));
    }
}

// ---------------------------------------------------------- bare volumes

/// An arbitrary (not necessarily reachable) owner for every cell; `a` and
/// `b` are the percentages of cells for player 1 and player 2.
fn grid_from(v: &[u8], a: u8, b: u8) -> (Grid, Volume, Volume) {
    let mut grid: Grid = [[[None; 3]; 8]; 8];
    let (mut one, mut two) = (Volume::EMPTY, Volume::EMPTY);
    for (c, &r) in all_cells().zip(v) {
        let owner = if r < a {
            one.insert(c);
            Some(Player::One)
        } else if r < a + b {
            two.insert(c);
            Some(Player::Two)
        } else {
            None
        };
        grid[c.x() as usize][c.y() as usize][c.z() as usize] = owner;
    }
    (grid, one, two)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn has_bridge_and_visible_agree_with_the_rules_on_any_volume(
        v in prop::collection::vec(0u8..100, 192),
        a in 20u8..65,
        b in 0u8..35,
    ) {
        let (grid, one, two) = grid_from(&v, a, b);
        for (p, own, opp) in [(Player::One, one, two), (Player::Two, two, one)] {
            prop_assert_eq!(
                cabra::game::bridge::has_bridge(own, opp),
                slow_bridge(&grid, p)
            );
            let vis = visible(own, opp);
            for c in all_cells() {
                let want = own.contains(c)
                    && (c.z() + 1..3).all(|h| !opp.contains(Cell::new(c.x(), c.y(), h).unwrap()));
                prop_assert_eq!(vis.contains(c), want, "{}", c);
            }
        }
    }
}

#[test]
fn the_bare_volume_sample_has_bridges_and_non_bridges() {
    // The same comparison on a fixed sample, counting both outcomes so the
    // property above is known to see both.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let (mut yes, mut no) = (0, 0);
    for i in 0..2000 {
        let v: Vec<u8> = (0..192)
            .map(|_| (rand::RngCore::next_u32(&mut rng) % 100) as u8)
            .collect();
        let (grid, one, two) = grid_from(&v, 25 + (i % 40) as u8, 20);
        let got = cabra::game::bridge::has_bridge(one, two);
        assert_eq!(got, slow_bridge(&grid, Player::One));
        if got {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 200 && no > 200, "{yes} bridges, {no} without");
}

// ----------------------------------------------------------- the table

#[test]
fn the_table_is_exactly_the_reference_placements() {
    let lib: Vec<(Piece, Cells)> = (0..PLACEMENT_COUNT)
        .map(|i| lib_cells(Placement::try_from(i).unwrap()))
        .collect();
    let lib_set: HashSet<_> = lib.iter().copied().collect();
    assert_eq!(lib_set.len(), PLACEMENT_COUNT, "no duplicates");
    let ref_set: HashSet<_> = ref_entries().iter().copied().collect();
    assert_eq!(ref_entries().len(), 2497);
    assert_eq!(lib_set, ref_set);
}

#[test]
fn every_entry_matches_its_shape_and_its_masks() {
    let t = table();
    for (i, e) in t.entries().iter().enumerate() {
        let shape = &t.shapes()[e.shape as usize];
        assert_eq!(e.piece, shape.piece, "entry {i}");
        // The cells are the shape's cells moved to (x, y, 0).
        let mut moved: Vec<[u8; 3]> = shape
            .cells
            .iter()
            .map(|&[x, y, z]| [x + e.x, y + e.y, z])
            .collect();
        moved.sort();
        let (_, cells) = lib_cells(Placement::try_from(i).unwrap());
        assert_eq!(moved, cells, "entry {i}");
        // The support: the cell under each cube at z > 0 that is not a cube
        // of the piece.
        let mut support = [0u64; 2];
        for &[x, y, z] in &cells {
            if z > 0 && !cells.contains(&[x, y, z - 1]) {
                support[z as usize - 1] |= 1u64 << (y * 8 + x);
            }
        }
        assert_eq!(
            e.support_cells().layers(),
            [support[0], support[1], 0],
            "entry {i} ({})",
            Placement::try_from(i).unwrap()
        );
        let rim = cells.iter().any(|&[x, y, z]| z == 0 && on_rim(x, y));
        assert_eq!(e.on_perimeter, rim, "entry {i}");
        assert_eq!(
            t.placement_at(e.shape as usize, e.x, e.y),
            Some(Placement::try_from(i).unwrap())
        );
        // The position is the smallest corner of the bounding box.
        assert_eq!(e.x, cells.iter().map(|c| c[0]).min().unwrap());
        assert_eq!(e.y, cells.iter().map(|c| c[1]).min().unwrap());
    }
}

// ------------------------------------------------ uniform random moves

/// Draws `n` moves and returns the chi-square statistic against the uniform
/// distribution over the legal placements (and checks every draw is legal).
fn chi_square(pos: &Position, n: usize, seed: u64) -> (f64, usize) {
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    let k = list.len();
    let mut counts = vec![0usize; k];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..n {
        let p = pos.random_move(&mut rng).expect("a legal move exists");
        let i = list
            .binary_search(&p)
            .expect("random_move draws a legal move");
        counts[i] += 1;
    }
    let expected = n as f64 / k as f64;
    let chi: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    (chi, k)
}

fn load_perft(name: &str) -> Position {
    let path = format!(
        "{}/tests/data/perft/{name}.caminos",
        env!("CARGO_MANIFEST_DIR")
    );
    parse_game(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn random_move_is_roughly_uniform() {
    // Positions with 11, 12, 34 and 1,345 legal placements: the first ones
    // make the table draws miss and fall back to picking by rank, the empty
    // board takes the table draws. The bound is mean + 6 standard
    // deviations of the chi-square distribution: loose, but a move drawn
    // twice as often as it should be would blow it.
    for (pos, n) in [
        (load_perft("perft_03"), 20_000),
        (load_perft("perft_07"), 20_000),
        (load_perft("perft_00"), 40_000),
        (Position::new(), 200_000),
    ] {
        let (chi, k) = chi_square(&pos, n, 99);
        let df = (k - 1) as f64;
        let bound = df + 6.0 * (2.0 * df).sqrt();
        assert!(
            chi < bound,
            "{k} moves: chi-square {chi:.1} over {bound:.1}"
        );
    }
}

#[test]
fn random_move_is_none_without_a_legal_move() {
    // random_039: player 1 still holds an O, but nothing fits.
    let path = format!(
        "{}/tests/data/games/random_039.caminos",
        env!("CARGO_MANIFEST_DIR")
    );
    let pos = parse_game(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..100 {
        assert_eq!(pos.random_move(&mut rng), None);
    }
}
