//! Section 5: when a placement is legal.

use super::*;

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
            .to_string()
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
    assert!(
        err.to_string().contains("does not touch the board"),
        "{err}"
    );
    let err = placement_from_cells([c("001"), c("101"), c("201"), c("011")]).unwrap_err();
    assert!(err.to_string().contains("lowest cube is at z = 1"), "{err}");
    // In notation the position's z must be 0.
    assert!(parse_placement("O T0 001").is_err());
    // Every entry of the table has a cube at z = 0.
    for e in table().entries() {
        assert_ne!(e.cells.layers()[0], 0);
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
    assert!(after.play(p).is_err());
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
    after.play(p).unwrap();
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
    assert_eq!(t.entries().len(), 2497);
    let mut per_piece = [0; 4];
    let mut distinct = HashSet::new();
    for e in t.entries() {
        per_piece[e.piece.index()] += 1;
        assert!(distinct.insert(e.cells));
    }
    assert_eq!(per_piece, [1168, 584, 584, 161]);
}

#[test]
fn r5_1345_placements_are_legal_on_the_empty_board() {
    let pos = Position::new();
    assert_eq!(pos.count_legal_placements(), 1345);
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    assert_eq!(list.len(), 1345);
    let mut per_piece = [0; 4];
    for p in list.iter() {
        per_piece[p.entry().piece.index()] += 1;
        // On the empty board a legal placement has no outside support.
        assert!(p.entry().support_cells().is_empty(), "{p}");
    }
    assert_eq!(per_piece, [752, 264, 168, 161]);
    // The others are exactly the ones that need support.
    let need = table()
        .entries()
        .iter()
        .filter(|e| !e.support_cells().is_empty())
        .count();
    assert_eq!(need, 2497 - 1345);
}

#[test]
fn r5_pieces_never_move() {
    let moves = ["O T0 220", "O T0 660", "L N0 120", "L T0 000", "T T0 440"];
    let mut pos = Position::new();
    let mut before = Volume::EMPTY;
    for s in moves {
        pos.play(mv(s)).unwrap();
        assert!(before.is_subset(pos.occupied()));
        assert_eq!(
            pos.occupied().count(),
            before.count() + 4,
            "only the new cubes appear"
        );
        before = pos.occupied();
    }
}
