//! One test (at least) per rule of RULES.md, each on a small hand-built
//! position explained in its comments. Positions are built by playing
//! placements from notation (`L T90 200`) or from four cells
//! (`110 120 121 122`), exactly as a player would type them.
//!
//! Pictures of the floor in the comments use x to the right, y down.

use crate::common::*;

use std::collections::{BTreeSet, HashSet};

use cabra::game::bitboard::{EAST, NORTH, RIM, SOUTH, WEST, bit};
use cabra::game::bridge::{flood, has_bridge, visible};
use cabra::game::record::{parse_game, parse_record, placement_line, write_game};
use cabra::game::{
    Cell, MAX_PLIES, Move, MoveList, PLACEMENT_COUNT, Piece, Placement, PlacementError, Player,
    Position, RecordError, SHAPE_COUNT, Status, Volume, WinReason, cells_from_digits, parse_move,
    parse_placement, parse_placement_or_cells, placement_from_cells, table,
};

// ---------------------------------------------------------------- helpers

/// A placement from notation or four cells; panics with the reason otherwise.
fn mv(s: &str) -> Placement {
    parse_placement_or_cells(s).unwrap_or_else(|e| panic!("`{s}`: {e}"))
}

/// Plays the placements in order from the empty board, each checked.
fn game(moves: &[&str]) -> Position {
    let mut pos = Position::new();
    for (i, s) in moves.iter().enumerate() {
        pos.try_play(mv(s))
            .unwrap_or_else(|e| panic!("move {} `{s}` refused: {e}", i + 1));
    }
    pos
}

/// Like [`game`], but checks that nobody has won before the last move, and
/// returns the position before the last move too.
fn game_until_last(moves: &[&str]) -> (Position, Position) {
    let before = game(&moves[..moves.len() - 1]);
    assert_eq!(before.status(), Status::Ongoing, "ended early: {before:?}");
    let mut after = before;
    after
        .try_play(mv(moves[moves.len() - 1]))
        .unwrap_or_else(|e| panic!("last move refused: {e}"));
    (before, after)
}

/// A cell from its three digits.
fn c(s: &str) -> Cell {
    let d: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
    Cell::from_digits([d[0], d[1], d[2]]).unwrap()
}

/// A volume from cells written `XYZ`, space separated.
fn vol(s: &str) -> Volume {
    let mut v = Volume::EMPTY;
    for t in s.split_whitespace() {
        v.insert(c(t));
    }
    v
}

/// The cells of a placement, ascending, space separated.
fn cells(p: Placement) -> String {
    let v: Vec<String> = p.entry().cells.cells().map(|c| c.to_string()).collect();
    v.join(" ")
}

fn load(name: &str) -> Position {
    let text = std::fs::read_to_string(data(&format!("games/{name}.caminos"))).unwrap();
    parse_game(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn bridge_win(p: Player) -> Status {
    Status::Won {
        winner: p,
        by: WinReason::Bridge,
    }
}

fn perimeter_win(p: Player) -> Status {
    Status::Won {
        winner: p,
        by: WinReason::Perimeter,
    }
}

const P1: Player = Player::One;
const P2: Player = Player::Two;

/// After a game-ending placement nobody may place anything.
fn assert_nothing_more(pos: &Position) {
    assert!(pos.status().is_over());
    assert_eq!(pos.count_legal(), 0);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert!(list.is_empty());
    assert_eq!(pos.winning_move(), None);
    for i in 0..PLACEMENT_COUNT {
        let p = Placement(i as u16);
        assert!(!pos.is_legal(p));
    }
    assert_eq!(
        pos.check(mv("O T0 330")),
        Err(PlacementError::GameOver(pos.status()))
    );
}

/// Whether some placement of `piece` would fit the board as it stands (for
/// whichever player), checked cell by cell: all four cells empty and every
/// cube at z > 0 on a cube or on a cube of the piece itself.
fn piece_fits_somewhere(pos: &Position, piece: Piece) -> bool {
    let occ = pos.occupied();
    table().entries.iter().any(|e| {
        e.piece == piece
            && !e.cells.intersects(occ)
            && e.cells.cells().all(|q| match q.below() {
                None => true,
                Some(b) => occ.contains(b) || e.cells.contains(b),
            })
    })
}

// ------------------------------------------------ 1. Board and coordinates

#[test]
fn r1_a_cell_is_written_x_then_y_then_z() {
    // `120` is x = 1, y = 2, z = 0.
    assert_eq!(c("120"), Cell { x: 1, y: 2, z: 0 });
    assert_eq!(Cell::new(1, 2, 0).to_string(), "120");
    assert_eq!(Cell::new(7, 0, 2).to_string(), "702");
    let four = cells_from_digits(&[1, 1, 0, 1, 2, 0, 1, 2, 1, 1, 2, 2]).unwrap();
    assert_eq!(
        four,
        [
            Cell::new(1, 1, 0),
            Cell::new(1, 2, 0),
            Cell::new(1, 2, 1),
            Cell::new(1, 2, 2)
        ]
    );
    // In the bitboards, layer z holds bit y * 8 + x.
    let pos = game(&["110 120 121 122"]);
    let own = pos.cubes(P1);
    assert_eq!(own.0[0], bit(1, 1) | bit(1, 2));
    assert_eq!(own.0[1], bit(1, 2));
    assert_eq!(own.0[2], bit(1, 2));
    assert_eq!(bit(1, 2), 1 << 17);
    assert_eq!(pos.owner(c("121")), Some(P1));
    assert_eq!(pos.owner(c("211")), None);
}

#[test]
fn r1_the_volume_is_8_by_8_by_3() {
    assert!(Cell::from_digits([7, 7, 2]).is_ok());
    assert!(Cell::from_digits([0, 0, 0]).is_ok());
    let e = |d| Cell::from_digits(d).unwrap_err();
    assert!(e([8, 0, 0]).contains("x must be 0 to 7"));
    assert!(e([0, 8, 0]).contains("y must be 0 to 7"));
    assert!(e([0, 0, 3]).contains("z must be 0 to 2"));
    // Every cell of every table entry lies inside the volume: the volume's
    // three layers are 64-bit boards, so being there is being inside.
    let mut all = Volume::EMPTY;
    for e in &table().entries {
        all |= e.cells;
    }
    assert_eq!(
        all.count(),
        8 * 8 * 3,
        "every cell is used by some placement"
    );
}

#[test]
fn r1_edges_north_y0_south_y7_west_x0_east_x7() {
    for i in 0..8 {
        assert_ne!(NORTH & bit(i, 0), 0);
        assert_ne!(SOUTH & bit(i, 7), 0);
        assert_ne!(WEST & bit(0, i), 0);
        assert_ne!(EAST & bit(7, i), 0);
    }
    for m in [NORTH, SOUTH, WEST, EAST] {
        assert_eq!(m.count_ones(), 8);
    }
    assert_eq!(RIM, NORTH | SOUTH | WEST | EAST);
    assert_eq!(RIM.count_ones(), 28);
}

// --------------------------------------------------- 2. Players and pieces

#[test]
fn r2_each_player_starts_with_4_l_4_t_4_z_2_o() {
    let pos = Position::new();
    for p in [P1, P2] {
        let left = Piece::ALL.map(|k| pos.pieces_left(p, k));
        assert_eq!(left, [4, 4, 4, 2], "{p}");
    }
    assert_eq!(pos.to_move(), P1);
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.plies(), 0);
    assert!(pos.occupied().is_empty());
}

#[test]
fn r2_the_canonical_shapes_are_the_four_tetrominoes() {
    // T0 at 000 is the canonical shape itself (RULES.md section 2).
    assert_eq!(cells(mv("L T0 000")), "000 010 100 200");
    assert_eq!(cells(mv("T T0 000")), "000 100 110 200");
    assert_eq!(cells(mv("Z T0 000")), "000 100 110 210");
    assert_eq!(cells(mv("O T0 000")), "000 010 100 110");
    for e in &table().entries {
        assert_eq!(e.cells.count(), 4);
    }
}

#[test]
fn r2_player_one_places_first_and_turns_alternate() {
    let moves = ["O T0 000", "O T0 600", "O T0 060", "O T0 660", "L T0 330"];
    let mut pos = Position::new();
    for (i, s) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { P1 } else { P2 };
        assert_eq!(pos.to_move(), mover, "before move {}", i + 1);
        pos.try_play(mv(s)).unwrap();
        for q in mv(s).entry().cells.cells() {
            assert_eq!(pos.owner(q), Some(mover), "{q}");
        }
        assert_eq!(pos.to_move(), mover.other());
    }
    let hist: Vec<String> = pos.moves().iter().map(|p| p.to_string()).collect();
    assert_eq!(hist, moves);
    assert_eq!(pos.plies(), 5);
    assert_eq!(pos.cubes(P1).count(), 12);
    assert_eq!(pos.cubes(P2).count(), 8);
    // One piece per turn: each move takes exactly one piece from the mover.
    assert_eq!(pos.pieces_left(P1, Piece::O), 0);
    assert_eq!(pos.pieces_left(P1, Piece::L), 3);
    assert_eq!(pos.pieces_left(P2, Piece::O), 0);
    assert_eq!(pos.pieces_left(P2, Piece::L), 4);
}

/// Player 1 plays four L's (moves 1, 3, 5, 7) in the north-west, player 2
/// four pieces (two of them O's) in the south-west; nobody spans the board.
const FOUR_LS: [&str; 8] = [
    "L T0 000", // P1: 000 100 200 010
    "L T0 050", // P2: 050 150 250 060
    "L T0 300", // P1: 300 400 500 310
    "L T0 350", // P2: 350 450 550 360
    "L T0 020", // P1: 020 120 220 030
    "O T0 160", // P2: 160 260 170 270
    "L T0 320", // P1: 320 420 520 330
    "O T0 460", // P2: 460 560 470 570
];

#[test]
fn r2_a_fifth_l_is_refused() {
    let pos = game(&FOUR_LS);
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.to_move(), P1);
    assert_eq!(pos.pieces_left(P1, Piece::L), 0);
    assert_eq!(pos.pieces_left(P2, Piece::L), 2);
    // Any L at all, here one that would otherwise fit on the empty floor
    // of the north-east corner (600 700 710 720).
    let fifth = mv("L T90 600");
    let want = PlacementError::NoPieceLeft {
        player: P1,
        piece: Piece::L,
    };
    assert_eq!(pos.check(fifth), Err(want.clone()));
    assert!(!pos.is_legal(fifth));
    let mut after = pos;
    assert_eq!(after.try_play(fifth), Err(want.clone()));
    assert_eq!(after, pos, "a refused placement changes nothing");
    assert_eq!(want.to_string(), "player 1 has no L left");
    // No L appears among the legal moves, but a T in that corner is fine.
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert!(list.iter().all(|p| p.entry().piece != Piece::L));
    assert!(pos.is_legal(mv("T T90 600")));
}

#[test]
fn r2_a_third_o_is_refused() {
    // After FOUR_LS player 2 has used both O's; player 1 plays a T and then
    // player 2's third O is refused, while an L there is fine.
    let mut pos = game(&FOUR_LS);
    pos.try_play(mv("T T90 600")).unwrap();
    assert_eq!(pos.to_move(), P2);
    assert_eq!(
        pos.try_play(mv("O T0 640")),
        Err(PlacementError::NoPieceLeft {
            player: P2,
            piece: Piece::O
        })
    );
    assert!(pos.is_legal(mv("L T90 640")));
}

// ------------------------------------------------------- 3. Orientations

fn cell_set(p: Placement) -> BTreeSet<[i32; 3]> {
    p.entry()
        .cells
        .cells()
        .map(|c| [c.x as i32, c.y as i32, c.z as i32])
        .collect()
}

#[test]
fn r3_every_name_turns_the_piece_as_the_formula_says() {
    // All 24 names are accepted for every piece, and each gives exactly the
    // cells of the face map and turn of RULES.md section 3 (placed at 000).
    for piece in Piece::ALL {
        for face in ['T', 'B', 'N', 'S', 'E', 'W'] {
            for angle in [0, 90, 180, 270] {
                let name = format!("{piece} {face}{angle} 000");
                let p = parse_placement(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(p.entry().piece, piece);
                assert_eq!(cell_set(p), oriented(piece, face, angle), "{name}");
            }
        }
    }
}

#[test]
fn r3_each_shape_has_exactly_the_canonical_name_of_the_rules() {
    let listed = [
        (
            Piece::L,
            "T0 T90 T180 T270 B0 B90 B180 B270 N0 N90 N180 N270 \
             S0 S90 S180 S270 E0 E90 E180 E270 W0 W90 W180 W270",
        ),
        (Piece::T, "T0 T90 T180 T270 N0 N90 S0 S90 E0 E90 E180 E270"),
        (Piece::Z, "T0 T90 B0 B90 N0 N90 S0 S90 E0 E90 W0 W90"),
        (Piece::O, "T0 N0 E0"),
    ];
    let mut total = 0;
    for (piece, names) in listed {
        let want: BTreeSet<&str> = names.split_whitespace().collect();
        // The names printed for all 24 spellings are exactly the listed ones.
        let mut printed = BTreeSet::new();
        let mut shapes = BTreeSet::new();
        for face in ['T', 'B', 'N', 'S', 'E', 'W'] {
            for angle in [0, 90, 180, 270] {
                let p = parse_placement(&format!("{piece} {face}{angle} 000")).unwrap();
                let out = p.to_string();
                let name = out.split(' ').nth(1).unwrap().to_string();
                // The same shape always prints the same name.
                printed.insert(name);
                shapes.insert(oriented(piece, face, angle));
            }
        }
        let printed: BTreeSet<&str> = printed.iter().map(String::as_str).collect();
        assert_eq!(printed, want, "{piece}");
        assert_eq!(shapes.len(), want.len(), "{piece}: distinct shapes");
        // A canonical name prints as itself.
        for n in &want {
            let s = format!("{piece} {n} 000");
            assert_eq!(parse_placement(&s).unwrap().to_string(), s);
        }
        total += want.len();
    }
    assert_eq!(total, 51);
    assert_eq!(SHAPE_COUNT, 51);
    assert_eq!(table().shapes.len(), 51);
    // Two spellings of one T shape: B0 turns it over, which is T180.
    assert_eq!(
        parse_placement("T B0 000").unwrap().to_string(),
        "T T180 000"
    );
    assert_eq!(
        parse_placement("O W270 340").unwrap().to_string(),
        "O N0 340"
    );
}

// --------------------------------------------------- 4. Piece notation

#[test]
fn r4_the_rules_example_l_e180_110() {
    let p = parse_placement("L E180 110").unwrap();
    assert_eq!(cells(p), "110 120 121 122");
    assert_eq!(p.to_string(), "L E180 110");
    assert_eq!(mv("110 120 121 122"), p);
}

#[test]
fn r4_the_position_is_the_bounding_box_corner_not_a_cube() {
    // L T180: `..#` over `###`; its box starts at 000, which holds no cube.
    assert_eq!(cells(mv("L T180 000")), "010 110 200 210");
    assert_eq!(cells(mv("L T180 350")), "360 460 550 560");
}

#[test]
fn r4_input_is_forgiving_about_case_and_spacing() {
    let p = mv("L E180 110");
    for s in [
        "l e180 110",
        "LE180110",
        "le180110",
        "  L   E180   110  ",
        "L e 180 1 1 0",
        "\tL\tE180\t110\n",
    ] {
        assert_eq!(parse_placement(s).unwrap(), p, "{s:?}");
        assert_eq!(parse_move(s).unwrap(), Move::Place(p), "{s:?}");
    }
    // Any of the 24 names: E180 of this L is also reachable as... itself only
    // (L has 24 distinct shapes), but O W90 and O N0 are one shape.
    assert_eq!(mv("o w90 340"), mv("O N0 340"));
    assert_eq!(mv("O N0 340").to_string(), "O N0 340");
}

#[test]
fn r4_output_is_canonical_and_spaced() {
    for e in 0..PLACEMENT_COUNT {
        let p = Placement(e as u16);
        let s = p.to_string();
        let parts: Vec<&str> = s.split(' ').collect();
        assert_eq!(parts.len(), 3, "{s}");
        assert_eq!(parts[2].len(), 3, "{s}");
        assert!(parts[2].ends_with('0'), "{s}: position has z = 0");
        assert_eq!(parse_placement(&s).unwrap(), p, "{s} reads back");
        assert_eq!(
            parse_move(&cells(p)).unwrap(),
            Move::Place(p),
            "{s} from its cells"
        );
    }
}

#[test]
fn r4_bad_notation_is_refused_with_a_reason() {
    let e = |s: &str| parse_placement(s).unwrap_err().to_string();
    assert!(e("").contains("expected a placement"));
    assert!(e("Q T0 000").contains("piece letter"));
    assert!(e("L X0 000").contains("face"));
    assert!(e("L T45 000").contains("angle"));
    assert!(e("L T360 000").contains("angle"));
    assert!(e("L T0 00").contains("position"));
    assert!(e("L T0 800").contains("off the board"));
    assert!(e("L T0 080").contains("off the board"));
    // Inside the board, but the piece would stick out east / south.
    assert!(e("L T0 600").contains("does not fit"));
    assert!(e("L T90 070").contains("does not fit"));
    assert!(e("L T0 001").contains("z = 0"));
    assert!(e("L T0 0a0").contains("digits"));
}

// ---------------------------------------------------- 5. Legal placement

#[test]
fn r5_1_nothing_outside_the_volume() {
    // L T0 is three wide: at x = 5 it ends on the east edge, at x = 6 it
    // would leave the board and there is no such placement.
    let t = table();
    let l_t0 = mv("L T0 000").entry().shape as usize;
    assert!(t.placement_at(l_t0, 5, 0).is_some());
    assert!(t.placement_at(l_t0, 6, 0).is_none());
    assert!(t.placement_at(l_t0, 0, 6).is_some());
    assert!(t.placement_at(l_t0, 0, 7).is_none());
    assert!(t.placement_at(l_t0, 8, 0).is_none());
    assert_eq!(cells(mv("L T0 560")), "560 570 660 760");
    assert!(parse_move("660 760 860 670").is_err());
    assert!(
        parse_move("113 112 111 110")
            .unwrap_err()
            .0
            .contains("z must be 0 to 2")
    );
}

#[test]
fn r5_2_no_overlap_with_an_own_cube() {
    // P1 O at 000; P2 far away; P1's L T0 100 would reuse 100 and 110.
    let pos = game(&["O T0 000", "O T0 660"]);
    assert_eq!(
        pos.check(mv("L T0 100")),
        Err(PlacementError::Occupied(c("100")))
    );
    assert!(pos.is_legal(mv("L T0 200")));
}

#[test]
fn r5_2_no_overlap_with_an_opponent_cube() {
    // P1 O at 000; P2 tries the L T0 at 100 over P1's 100 and 110.
    let pos = game(&["O T0 000"]);
    assert_eq!(
        pos.check(mv("L T0 100")),
        Err(PlacementError::Occupied(c("100")))
    );
    assert_eq!(
        PlacementError::Occupied(c("100")).to_string(),
        "cube 100 is already taken"
    );
}

#[test]
fn r5_2_no_overlap_above_the_floor() {
    // P1 `L E180 110` stands a column 120-121-122. P2's L 021 121 221 220
    // (a bar at z = 1 on a foot at 220) would share only 121 with it.
    let pos = game(&["L E180 110"]);
    let p = mv("021 121 221 220");
    assert_eq!(pos.check(p), Err(PlacementError::Occupied(c("121"))));
}

#[test]
fn r5_3_a_piece_must_touch_the_board() {
    // An upright O lifted by one level: the right shape, but not on the board.
    let err = placement_from_cells([c("111"), c("121"), c("122"), c("112")]).unwrap_err();
    assert!(err.contains("does not touch the board"), "{err}");
    let err = placement_from_cells([c("001"), c("101"), c("201"), c("011")]).unwrap_err();
    assert!(err.contains("lowest cube is at z = 1"), "{err}");
    // In notation the position's z must be 0.
    assert!(parse_placement("O T0 001").is_err());
    // Every entry of the table has a cube at z = 0.
    for e in &table().entries {
        assert_ne!(e.cells.0[0], 0);
    }
}

#[test]
fn r5_4_a_cube_over_an_empty_cell_floats() {
    // P1 O at 220 (220 320 230 330), P2 far away. P1's `L N0 020` is
    // 020 021 121 221: 021 stands on its own 020, 221 on P1's 220, but 121
    // would be over the empty 120.
    let pos = game(&["O T0 220", "O T0 660"]);
    let p = mv("L N0 020");
    assert_eq!(cells(p), "020 021 121 221");
    assert_eq!(pos.check(p), Err(PlacementError::Floating(c("121"))));
    let mut after = pos;
    assert!(after.try_play(p).is_err());
    assert_eq!(after, pos);
    assert_eq!(
        PlacementError::Floating(c("121")).to_string(),
        "cube 121 has nothing below it"
    );
}

#[test]
fn r5_4_a_cube_two_levels_up_needs_the_cell_right_below() {
    // P1 O at 000 fills 100 but not 101. The L 200 201 202 102 (a column
    // with a cube hanging out at the top) would put 102 over the empty 101.
    let pos = game(&["O T0 000", "O T0 660"]);
    let p = mv("200 201 202 102");
    assert_eq!(pos.check(p), Err(PlacementError::Floating(c("102"))));
    // The same L standing one column east, arm pointing west: the column
    // 300 301 302 carries itself, the arm 202 is over the empty 201.
    assert_eq!(
        pos.check(mv("300 301 302 202")),
        Err(PlacementError::Floating(c("202")))
    );
}

#[test]
fn r5_4_supported_by_own_cubes() {
    // As above, but `L N0 120` = 120 121 221 321: 121 on its own 120, 221
    // and 321 on P1's O (220, 320).
    let pos = game(&["O T0 220", "O T0 660"]);
    let p = mv("L N0 120");
    assert_eq!(cells(p), "120 121 221 321");
    assert_eq!(pos.check(p), Ok(()));
    let mut after = pos;
    after.try_play(p).unwrap();
    assert_eq!(after.owner(c("221")), Some(P1));
    assert_eq!(after.owner(c("220")), Some(P1));
}

#[test]
fn r5_4_supported_by_opponent_cubes() {
    // P2's O at 120 (120 220 130 230) carries P1's `L N0 020`: 121 on 120,
    // 221 on 220, both P2's.
    let pos = game(&["O T0 660", "O T0 120"]);
    let p = mv("L N0 020");
    assert_eq!(pos.check(p), Ok(()));
    // And a z = 2 cube on an opponent's z = 1 cube: P2's upright O N0 330
    // (330 430 331 431); P1's `L W180 330` = 340 341 342 332, its arm 332
    // rests on P2's 331.
    let pos = game(&["O T0 660", "O N0 330"]);
    let p = mv("L W180 330");
    assert_eq!(cells(p), "332 340 341 342");
    assert_eq!(pos.check(p), Ok(()));
}

#[test]
fn r5_the_table_has_2497_placements() {
    let t = table();
    assert_eq!(PLACEMENT_COUNT, 2497);
    assert_eq!(t.entries.len(), 2497);
    let mut per_piece = [0; 4];
    let mut distinct = HashSet::new();
    for e in &t.entries {
        per_piece[e.piece.index()] += 1;
        assert!(distinct.insert(e.cells));
    }
    assert_eq!(per_piece, [1168, 584, 584, 161]);
}

#[test]
fn r5_1345_placements_are_legal_on_the_empty_board() {
    let pos = Position::new();
    assert_eq!(pos.count_legal(), 1345);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert_eq!(list.len(), 1345);
    let mut per_piece = [0; 4];
    for p in list.iter() {
        per_piece[p.entry().piece.index()] += 1;
        // On the empty board a legal placement has no outside support.
        assert_eq!(p.entry().support, [0, 0], "{p}");
    }
    assert_eq!(per_piece, [752, 264, 168, 161]);
    // The others are exactly the ones that need support.
    let need = table()
        .entries
        .iter()
        .filter(|e| e.support != [0, 0])
        .count();
    assert_eq!(need, 2497 - 1345);
}

#[test]
fn r5_pieces_never_move() {
    let moves = ["O T0 220", "O T0 660", "L N0 120", "L T0 000", "T T0 440"];
    let mut pos = Position::new();
    let mut before = Volume::EMPTY;
    for s in moves {
        pos.try_play(mv(s)).unwrap();
        assert!(before.is_subset(pos.occupied()));
        assert_eq!(
            pos.occupied().count(),
            before.count() + 4,
            "only the new cubes appear"
        );
        before = pos.occupied();
    }
}

// --------------------------------------------------- 6. Bridges

#[test]
fn r6_visible_means_no_opponent_cube_anywhere_above() {
    // Column 00: own 000, own 001, opponent 002: both own cubes are hidden
    // (000 two levels below the opponent's cube). Column 10: own 100 under
    // own 101: both visible. Column 20: own 200 under opponent 201 under own
    // 202: 200 hidden, 202 visible.
    let own = vol("000 001 100 101 200 202");
    let opp = vol("002 201");
    assert_eq!(visible(own, opp), vol("100 101 202"));
    assert_eq!(visible(opp, own), vol("002"));
}

#[test]
fn r6_links_one_level_apart_orthogonal_columns_only() {
    // A chain of visible cubes, each pair checked on its own.
    let linked = |a: &str, b: &str| {
        let v = vol(&format!("{a} {b}"));
        flood(v, vol(a)) == v
    };
    assert!(linked("000", "001"), "same column, one apart");
    assert!(!linked("000", "002"), "same column, two apart");
    assert!(linked("000", "100"), "east neighbour, same height");
    assert!(linked("000", "010"), "south neighbour, same height");
    assert!(linked("330", "331") && linked("331", "430") && linked("330", "431"));
    assert!(linked("331", "231") && linked("331", "321") && linked("331", "341"));
    assert!(linked("000", "101"), "east neighbour, one up");
    assert!(!linked("000", "111"), "diagonal columns, one up");
    assert!(!linked("000", "110"), "diagonal columns, same height");
    assert!(!linked("330", "432"), "neighbours two levels apart");
    assert!(!linked("332", "230"), "neighbours two levels apart (down)");
    assert!(!linked("000", "200"), "not neighbours");
    assert!(!linked("070", "700"), "no wrap around the board");
    assert!(!linked("700", "010"), "no wrap from east edge to next row");
}

#[test]
fn r6_straight_north_south_bridge_at_floor_level() {
    // P1 fills column x = 3 at z = 0: 200 300 310 320, 230 330 340 350,
    // 260 360 270 370. P2 plays two O's in the south-east corner.
    let (before, after) =
        game_until_last(&["L T90 200", "O T0 660", "L T90 230", "O T0 640", "O T0 260"]);
    assert!(!before.has_bridge(P1));
    assert!(after.has_bridge(P1));
    assert!(!after.has_bridge(P2));
    assert_eq!(after.status(), bridge_win(P1));
    assert_eq!(after.plies(), 5);
    assert_eq!(after, load("hand_straight_bridge"));
    assert_nothing_more(&after);
}

#[test]
fn r6_west_east_bridge_at_floor_level() {
    // P1 fills row y = 2: 020 120 220 (030), 320 420 520 (330), 620 720
    // (630 730). P2's O's sit in the south-west corner.
    let (before, after) =
        game_until_last(&["L T0 020", "O T0 060", "L T0 320", "O T0 260", "O T0 620"]);
    assert!(!before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P1));
    // It is a west-east bridge: P1's cubes only cover rows 2 and 3.
    assert_eq!(after.cubes(P1).columns() & (NORTH | SOUTH), 0);
    assert_nothing_more(&after);
}

#[test]
fn r6_a_row_along_the_north_edge_is_a_west_east_bridge() {
    // 000 100 200 (010), 300 400 500 (310), 600 700 (610 710): all of row
    // y = 0 is P1's. It touches the north edge only, yet joins x = 0 to x = 7.
    let (_, after) = game_until_last(&["L T0 000", "O T0 660", "L T0 300", "O T0 640", "O T0 600"]);
    assert_eq!(after.status(), bridge_win(P1));
}

#[test]
fn r6_a_bridge_climbing_to_z1() {
    // tests/data/games/hand_climb_z1_ns.caminos: P2's O at 330 blocks
    // column x = 3 at y = 3, 4 on the floor. P1's `L N270 330`
    // (331 341 351 350) runs over it at z = 1 and hides P2's 330 and 340.
    // Chain: 300-310-320 -> 331 -> 341 -> 351 -> 360 -> 370.
    let (before, after) = game_until_last(&[
        "L T90 200",
        "O T0 330",
        "L N270 330",
        "O T0 660",
        "O T0 260",
    ]);
    assert_eq!(cells(mv("L N270 330")), "331 341 350 351");
    assert!(!before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P1));
    let vis2 = visible(after.cubes(P2), after.cubes(P1));
    assert!(!vis2.contains(c("330")) && !vis2.contains(c("340")));
    assert!(vis2.contains(c("430")) && vis2.contains(c("440")));
    assert_eq!(after, load("hand_climb_z1_ns"));
}

#[test]
fn r6_a_bridge_climbing_to_z2_one_level_at_a_time() {
    // tests/data/games/hand_climb_z2_ns.caminos. P2's upright O N0 330 is a
    // wall two high at y = 3 (330 331 430 431). P1 climbs it in steps of
    // one: 320 -> 321 (own, same column) -> 332 (on P2's 331) -> 342 ->
    // 341 -> 350 -> 360 -> 370.
    let (before, after) = game_until_last(&[
        "L S270 300",
        "O N0 330",
        "L W180 330",
        "O T0 660",
        "L T90 250",
    ]);
    assert_eq!(cells(mv("L S270 300")), "300 310 320 321");
    assert_eq!(cells(mv("L W180 330")), "332 340 341 342");
    assert!(!before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P1));
    assert_eq!(after, load("hand_climb_z2_ns"));
}

/// As the z = 2 climb, but P1's first L is `L T90 200` (200 300 310 320):
/// there is no 321, so the only way over the wall would be 320 -> 332, a
/// step of two levels between neighbouring columns.
const TWO_LEVEL_STEP: [&str; 5] = [
    "L T90 200",
    "O N0 330",
    "L W180 330",
    "O T0 660",
    "L T90 250",
];

#[test]
fn r6_a_two_level_step_is_not_a_link() {
    let pos = game(&TWO_LEVEL_STEP);
    // P1 has cubes on both the north (200, 300) and south (370) edges...
    let cols = pos.cubes(P1).columns();
    assert!(cols & NORTH != 0 && cols & SOUTH != 0);
    // ...but no bridge: 320 (z = 0) and 332 (z = 2) are two levels apart.
    assert!(!pos.has_bridge(P1));
    assert_eq!(pos.status(), Status::Ongoing);
    // Fill in the step: P2 plays away, then P1's T 220 221 222 321 puts a
    // cube at 321 on its own 320, and 320 -> 321 -> 332 is a chain.
    let mut pos = pos;
    pos.try_play(mv("L T0 500")).unwrap();
    assert_eq!(pos.status(), Status::Ongoing);
    let t = mv("220 221 222 321");
    assert_eq!(t.entry().piece, Piece::T);
    pos.try_play(t).unwrap();
    assert_eq!(pos.status(), bridge_win(P1));
}

#[test]
fn r6_player_two_climbs_to_z2_west_east() {
    // tests/data/games/hand_p2_climb_z2_we.caminos: P2's chain
    // 030-130-230 -> 231 -> 332 (on P1's 331) -> 432 -> 431 -> 530 -> 630 -> 730.
    let (before, after) = game_until_last(&[
        "O E0 330",
        "L S180 030",
        "O T0 060",
        "L W90 330",
        "T T0 560",
        "L T0 530",
    ]);
    assert!(!before.has_bridge(P2));
    assert_eq!(after.status(), bridge_win(P2));
    assert!(!after.has_bridge(P1));
    assert_eq!(after, load("hand_p2_climb_z2_we"));
}

#[test]
fn r6_an_opponent_cube_on_top_breaks_the_bridge() {
    // tests/data/games/hand_broken_bridge_ongoing.caminos: P1 fills column
    // x = 3 on the floor, but P2's `Z N0 310` (311 410 411 510) sits on P1's
    // 310, hiding it. No chain passes y = 1 and the game goes on.
    let pos = game(&["L T90 200", "Z N0 310", "L T90 230", "O T0 660", "O T0 260"]);
    assert_eq!(pos.status(), Status::Ongoing);
    assert!(!pos.has_bridge(P1));
    assert!(!visible(pos.cubes(P1), pos.cubes(P2)).contains(c("310")));
    assert_eq!(pos, load("hand_broken_bridge_ongoing"));
    // P1 goes around: O T0 110 adds 110 210 120 220, and 200 -> 210 -> 220
    // -> 320 avoids the hidden cube (hand_broken_bridge_detour.caminos).
    let mut pos = pos;
    pos.try_play(mv("O T0 640")).unwrap();
    pos.try_play(mv("O T0 110")).unwrap();
    assert_eq!(pos.status(), bridge_win(P1));
    assert_eq!(pos, load("hand_broken_bridge_detour"));
}

/// P1's column x = 3 on the floor (moves 1, 3, 7) with a Z at move 5 that
/// puts P1's own cube 341 on P1's 340: 341 440 441 540.
fn hidden_two_up(p2_move_6: &str) -> (Position, Position) {
    game_until_last(&[
        "L T90 200",       // P1: 200 300 310 320
        "O T0 660",        // P2
        "L T90 230",       // P1: 230 330 340 350
        "O T0 000",        // P2: 000 100 010 110
        "341 440 441 540", // P1: a Z standing on its own 340
        p2_move_6,
        "O T0 260", // P1: 260 360 270 370
    ])
}

#[test]
fn r6_an_opponent_cube_two_levels_up_still_hides() {
    // P2's L 240 241 242 342 puts 342 on P1's 341: P1's 340 (two levels
    // below 342) and 341 are both hidden, and the column is broken at y = 4.
    // P1's 440 441 540 touch 340/341 only, so they do not help.
    let (_, after) = hidden_two_up("240 241 242 342");
    assert_eq!(after.owner(c("341")), Some(P1));
    assert_eq!(after.owner(c("342")), Some(P2));
    let vis = visible(after.cubes(P1), after.cubes(P2));
    assert!(!vis.contains(c("340")) && !vis.contains(c("341")));
    assert!(!after.has_bridge(P1));
    assert_eq!(after.status(), Status::Ongoing);
}

#[test]
fn r6_own_cubes_above_do_not_hide() {
    // The same game with P2 playing away at move 6: 340 has only P1's own
    // 341 above it, stays visible, and column x = 3 is a bridge.
    let (before, after) = hidden_two_up("T T0 500");
    assert!(!before.has_bridge(P1));
    let vis = visible(after.cubes(P1), after.cubes(P2));
    assert!(vis.contains(c("340")) && vis.contains(c("341")));
    assert_eq!(after.status(), bridge_win(P1));
}

#[test]
fn r6_diagonal_contact_does_not_link() {
    //   x: 2 3 4 5     P1's north group 200 300 310 320 ends at (3, 2);
    // y=2  . # . .     the south group 430 440 450 550 + 460 560 470 570
    // y=3  . . # .     starts at (4, 3): the two only meet corner to corner.
    let moves = [
        "L T90 200",       // P1
        "O T0 000",        // P2
        "430 440 450 550", // P1: an L
        "O T0 660",        // P2
        "O T0 460",        // P1
    ];
    let pos = game(&moves);
    let cols = pos.cubes(P1).columns();
    assert!(cols & NORTH != 0 && cols & SOUTH != 0);
    assert!(!pos.has_bridge(P1));
    assert_eq!(pos.status(), Status::Ongoing);
    // O T0 230 (230 330 240 340) joins them through 330, which neighbours
    // both 320 and 430.
    let mut pos = pos;
    pos.try_play(mv("T T0 500")).unwrap();
    pos.try_play(mv("O T0 230")).unwrap();
    assert_eq!(pos.status(), bridge_win(P1));
}

#[test]
fn r6_player_two_bridges_north_south() {
    // P2 builds the column x = 3 of the straight bridge; P1 plays away
    // (000 100 010 110, 660 760 670 770, 050 150 250 060: no span).
    let (before, after) = game_until_last(&[
        "O T0 000",
        "L T90 200",
        "O T0 660",
        "L T90 230",
        "L T0 050",
        "O T0 260",
    ]);
    assert!(!before.has_bridge(P2) && !before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P2));
    assert_nothing_more(&after);
}

#[test]
fn r6_player_two_bridges_west_east() {
    let (before, after) = game_until_last(&[
        "O T0 000", "L T0 020", "O T0 060", "L T0 320", "L T0 350", "O T0 620",
    ]);
    assert!(!before.has_bridge(P2));
    assert_eq!(after.status(), bridge_win(P2));
    assert_eq!(after.cubes(P2).columns() & (NORTH | SOUTH), 0);
}

#[test]
fn r6_the_bridge_test_on_bare_volumes() {
    // The library's bridge test on volumes that need no game: a north-south
    // line of single cubes at z = 0 and at z = 2 (the formal rule does not
    // ask for support), broken by a gap, by a diagonal, or by a hidden cube.
    let ns = |z: u8| {
        let v: Vec<String> = (0..8).map(|y| format!("3{y}{z}")).collect();
        vol(&v.join(" "))
    };
    assert!(has_bridge(ns(0), Volume::EMPTY));
    assert!(has_bridge(ns(2), Volume::EMPTY));
    assert!(!has_bridge(ns(0), vol("341")), "hidden at y = 4");
    assert!(!has_bridge(ns(0), vol("342")), "hidden two levels up");
    assert!(
        has_bridge(ns(0) | vol("341"), Volume::EMPTY),
        "own cube above"
    );
    let mut gap = ns(0);
    gap.0[0] &= !bit(3, 4);
    assert!(!has_bridge(gap, Volume::EMPTY));
    assert!(
        !has_bridge(gap | vol("440"), Volume::EMPTY),
        "diagonal only"
    );
    assert!(
        has_bridge(gap | vol("430 440 450"), Volume::EMPTY),
        "detour"
    );
    assert!(
        has_bridge(gap | vol("331 341 351"), Volume::EMPTY),
        "over at z = 1"
    );
    assert!(
        !has_bridge(gap | vol("332 342 352"), Volume::EMPTY),
        "z = 2 is too high"
    );
    // West-east along y = 5 for the other colour; either may use either way.
    let we: Vec<String> = (0..8).map(|x| format!("{x}51")).collect();
    assert!(has_bridge(vol(&we.join(" ")), ns(0)));
}

// ---------------------------------------------------- 7. The end of the game

#[test]
fn r7_the_game_ends_when_the_mover_has_no_pieces_left() {
    // hand_perimeter_*.caminos: 28 placements, all 28 pieces, no bridge.
    for name in [
        "hand_perimeter_draw",
        "hand_perimeter_p1",
        "hand_perimeter_p2",
    ] {
        let pos = load(name);
        assert_eq!(pos.plies(), 28, "{name}");
        assert_eq!(MAX_PLIES, 28);
        for p in [P1, P2] {
            assert!(Piece::ALL.iter().all(|&k| pos.pieces_left(p, k) == 0));
            assert!(!pos.has_bridge(p), "{name}: {p}");
        }
        assert!(pos.status().is_over(), "{name}");
        assert_nothing_more(&pos);
        // Before the last placement the game was still on.
        let mut prev = pos;
        let last = prev.undo().unwrap();
        assert_eq!(prev.status(), Status::Ongoing);
        assert!(prev.is_legal_move(last));
    }
}

#[test]
fn r7_the_game_ends_when_no_remaining_piece_fits() {
    // random_039.caminos: after 26 placements player 1 still holds an O,
    // but an O always lies on the floor (T0 flat, N0 and E0 upright) and
    // needs two orthogonally neighbouring empty floor cells: there are none.
    // Player 2 still holds a T that would fit, yet the game is over: the
    // side to move cannot place.
    let pos = load("random_039");
    assert_eq!(pos.plies(), 26);
    assert_eq!(pos.to_move(), P1);
    let left = |p| Piece::ALL.map(|k| pos.pieces_left(p, k));
    assert_eq!(left(P1), [0, 0, 0, 1]);
    assert_eq!(left(P2), [0, 1, 0, 0]);
    let empty_floor = !pos.occupied().0[0];
    let neighbours =
        (empty_floor & (empty_floor >> 1) & !EAST) | (empty_floor & (empty_floor >> 8));
    assert_eq!(neighbours, 0, "no two empty floor cells side by side");
    assert!(!piece_fits_somewhere(&pos, Piece::O));
    assert!(piece_fits_somewhere(&pos, Piece::T), "player 2 could place");
    assert_eq!(pos.status(), perimeter_win(P1));
    assert_eq!((pos.perimeter_count(P1), pos.perimeter_count(P2)), (6, 8));
    assert_nothing_more(&pos);
}

#[test]
fn r7_the_game_ends_at_once_when_the_next_player_is_stuck() {
    // random_005.caminos: after 27 placements player 2 holds one O that
    // fits nowhere; the game ended with player 1's 14th piece.
    let pos = load("random_005");
    assert_eq!(pos.plies(), 27);
    assert_eq!(pos.to_move(), P2);
    assert_eq!(pos.pieces_left(P2, Piece::O), 1);
    assert!(!piece_fits_somewhere(&pos, Piece::O));
    assert_eq!(pos.status(), perimeter_win(P1));
}

#[test]
fn r7_a_piece_counts_once_and_only_for_floor_rim_cubes() {
    // 1 P1 O T0 330: interior, counts 0.
    // 2 P2 O T0 000 (000 100 010 110): three cubes on the rim, counts 1.
    // 3 P1 L 210 211 111 011: its only floor cube 210 is inside; 011 is
    //   over the rim cell 010 but at z = 1, so it does not count.
    // 4 P2 L T0 500 (500 600 700 510): three rim cubes, P2 now 2.
    // 5 P1 L T0 560 (560 660 760 570): 760 east edge, 570 south edge: 1.
    let steps: [(&str, u8, u8); 5] = [
        ("O T0 330", 0, 0),
        ("O T0 000", 0, 1),
        ("210 211 111 011", 0, 1),
        ("L T0 500", 0, 2),
        ("L T0 560", 1, 2),
    ];
    let mut pos = Position::new();
    for (s, a, b) in steps {
        pos.try_play(mv(s)).unwrap();
        assert_eq!(
            (pos.perimeter_count(P1), pos.perimeter_count(P2)),
            (a, b),
            "after {s}"
        );
    }
    assert!(!mv("210 211 111 011").entry().on_perimeter);
    assert!(mv("O T0 000").entry().on_perimeter);
    // The bottom perimeter is the rim at z = 0 only: an upright wall on the
    // rim counts through its floor cubes, a piece wholly inside never.
    for e in &table().entries {
        let floor_rim = e
            .cells
            .cells()
            .any(|q| q.z == 0 && (q.x % 7 == 0 || q.y % 7 == 0));
        assert_eq!(e.on_perimeter, floor_rim);
    }
}

/// Counts, from the history, the pieces of each player with a floor cube on the rim.
fn perimeter_from_history(pos: &Position) -> [u8; 2] {
    let mut n = [0; 2];
    for (i, p) in pos.placements().iter().enumerate() {
        let rim = p
            .entry()
            .cells
            .cells()
            .any(|q| q.z == 0 && (q.x == 0 || q.x == 7 || q.y == 0 || q.y == 7));
        n[i % 2] += rim as u8;
    }
    n
}

#[test]
fn r7_fewer_perimeter_pieces_wins_and_equal_is_a_draw() {
    let cases = [
        ("hand_perimeter_p1", [6, 8], perimeter_win(P1)),
        ("hand_perimeter_p2", [8, 6], perimeter_win(P2)),
        (
            "hand_perimeter_draw",
            [6, 6],
            Status::Draw {
                by: WinReason::Perimeter,
            },
        ),
    ];
    for (name, counts, status) in cases {
        let pos = load(name);
        assert_eq!(perimeter_from_history(&pos), counts, "{name}");
        assert_eq!(
            [pos.perimeter_count(P1), pos.perimeter_count(P2)],
            counts,
            "{name}"
        );
        assert_eq!(pos.status(), status, "{name}");
    }
}

// ------------------------------------------------ 8. The .caminos format

fn err(text: &str) -> RecordError {
    parse_game(text).expect_err("the text should be refused")
}

#[test]
fn r8_the_four_spellings_of_the_rules_mean_the_same_placement() {
    let want = game(&["L E180 110"]);
    for line in [
        "110120121122",
        "110 120 121 122",
        "x:1 y:1 z:0  x:1 y:2 z:0  x:1 y:2 z:1  x:1 y:2 z:2   # spelled out",
        "120 121 122 110   # L E180 110",
        "(1,2,2) (1,2,1) (1,2,0) (1,1,0)",
        "\t110,\t120;\t121|122\t",
        "110 120 121 122\r",
    ] {
        assert_eq!(parse_game(line).unwrap(), want, "{line:?}");
        assert_eq!(parse_game(&format!("{line}\n")).unwrap(), want, "{line:?}");
    }
}

#[test]
fn r8_comments_and_blank_lines_are_skipped() {
    let text = "\
# a game record
   \t
110 120 121 122   # P1, the comment's digits 999 do not count

   # an indented comment with digits 000 100 200 010
550 650 560 660 # P2
#
";
    let pos = parse_game(text).unwrap();
    assert_eq!(pos, game(&["L E180 110", "O T0 550"]));
    assert_eq!(parse_game("").unwrap(), Position::new());
    assert_eq!(parse_game("\n\n# nothing\n").unwrap(), Position::new());
}

#[test]
fn r8_a_line_needs_exactly_12_digits() {
    let e = err("# header\n110 120 121 12\n");
    assert_eq!(e.line, 2);
    assert!(e.reason.contains("found 11 digits"), "{e}");
    let e = err("110 120 121 122\n\n550 650 560 6601\n");
    assert_eq!(e.line, 3);
    assert!(e.reason.contains("found 13 digits"), "{e}");
    let e = err("110 120 121 122\nplayer two resigns\n");
    assert_eq!(e.line, 2);
    assert!(e.reason.contains("found 0 digits"), "{e}");
    assert_eq!(e.to_string(), format!("line 2: {}", e.reason));
}

#[test]
fn r8_coordinates_out_of_range_name_the_line() {
    for (text, want) in [
        ("810 820 821 822", "x must be 0 to 7"),
        ("180 280 380 181", "y must be 0 to 7"),
        ("003 103 203 013", "z must be 0 to 2"),
    ] {
        let e = err(&format!("# c\n110 120 121 122\n{text}\n"));
        assert_eq!(e.line, 3, "{text}");
        assert!(e.reason.contains(want), "{text}: {e}");
    }
}

#[test]
fn r8_illegal_placements_name_the_line_and_the_reason() {
    let cases: [(&str, usize, &str); 7] = [
        // Overlap with the opponent's cube 120.
        (
            "110 120 121 122\n020 120 220 030\n",
            2,
            "cube 120 is already taken",
        ),
        // Overlap with one's own cube, two moves later.
        (
            "110 120 121 122\n# p2:\n550 650 560 660\n100 110 200 300\n",
            4,
            "already taken",
        ),
        // L N0 020 over the empty 120.
        ("020 021 121 221\n", 1, "cube 121 has nothing below it"),
        // Not touching the board.
        (
            "550 650 560 660\n111 121 122 112\n",
            2,
            "does not touch the board",
        ),
        // Not a piece shape: a straight line, and a 3D "screw".
        ("000 200 400 600\n", 1, "do not form an L, T, Z or O"),
        ("210 220 221 321\n", 1, "do not form an L, T, Z or O"),
        // A cell listed twice.
        ("\n110 110 120 121\n", 2, "listed twice"),
    ];
    for (text, line, want) in cases {
        let e = err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.reason.contains(want), "{text:?}: {e}");
    }
}

#[test]
fn r8_an_exhausted_piece_type_names_the_line() {
    let mut text = String::from("# four L's each side, then a fifth for player 1\n");
    for s in FOUR_LS {
        text += &placement_line(mv(s));
        text.push('\n');
    }
    text += "600 700 710 720\n";
    let e = err(&text);
    assert_eq!(e.line, 10);
    assert!(e.reason.contains("player 1 has no L left"), "{e}");
}

#[test]
fn r8_a_placement_after_the_end_names_the_line() {
    // Five placements end hand_straight_bridge with P1's bridge; a sixth
    // line (P2's legal-looking O) is refused.
    let mut text = write_game(&load("hand_straight_bridge"));
    text += "\n000 100 010 110\n";
    let e = err(&text);
    assert_eq!(e.line, 7);
    assert!(e.reason.contains("already over"), "{e}");
    assert!(e.reason.contains("player 1 wins by bridge"), "{e}");
    // And after a game that ended on the perimeter count.
    let mut text = write_game(&load("hand_perimeter_p1"));
    text += "000 100 010 110\n";
    let e = err(&text);
    assert_eq!(e.line, 29);
    assert!(e.reason.contains("already over"), "{e}");
}

#[test]
fn r8_the_first_bad_line_is_reported_even_if_later_lines_are_bad_too() {
    let e = err("110 120 121 122\n1 2 3\n810 820 821 822\n");
    assert_eq!(e.line, 2);
}

#[test]
fn r8_every_bad_vector_file_names_its_line() {
    // The same checks as tests/vectors.rs, with the reason's wording.
    let words = [
        ("bad_01_digits11", "found 11 digits"),
        ("bad_05_range_x8", "x must be 0 to 7"),
        ("bad_11_overlap_own", "already taken"),
        ("bad_14_floating", "nothing below"),
        ("bad_18_not_touching", "does not touch"),
        ("bad_21_shape_screw_a", "do not form"),
        ("bad_26_shape_duplicate", "listed twice"),
        ("bad_28_extra_L_p1", "no L left"),
        ("bad_34_after_end_bridge", "already over"),
        ("bad_37_after_end_perimeter", "already over"),
    ];
    for (name, want) in words {
        let text = std::fs::read_to_string(data(&format!("bad/{name}.caminos"))).unwrap();
        let e = err(&text);
        assert!(e.reason.contains(want), "{name}: {e}");
    }
}

#[test]
fn r8_the_writer_uses_the_exact_form() {
    // Cells in ascending order, two spaces, `# `, the canonical notation.
    let pos = game(&["122 121 120 110", "O W90 550", "T B0 300"]);
    assert_eq!(
        write_game(&pos),
        "110 120 121 122  # L E180 110\n\
         550 551 650 651  # O N0 550\n\
         310 400 410 510  # T T180 300\n"
    );
    assert_eq!(
        placement_line(mv("L E180 110")),
        "110 120 121 122  # L E180 110"
    );
    assert_eq!(write_game(&Position::new()), "");
}

#[test]
fn r8_a_written_file_reads_back_to_the_same_game() {
    let dir = std::fs::read_dir(data("games")).unwrap();
    let mut n = 0;
    for entry in dir {
        let path = entry.unwrap().path();
        let pos = parse_record(&std::fs::read(&path).unwrap())
            .unwrap()
            .position;
        let text = write_game(&pos);
        let back = parse_game(&text).unwrap();
        assert_eq!(back, pos, "{}", path.display());
        assert_eq!(write_game(&back), text, "writing is stable");
        n += 1;
    }
    assert!(n >= 40);
}
