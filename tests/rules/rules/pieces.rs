//! Sections 1 to 4: the board and its coordinates, the players and their
//! pieces, the orientations, the piece notation.

use super::*;

// ------------------------------------------------ 1. Board and coordinates

#[test]
fn r1_a_cell_is_written_x_then_y_then_z() {
    // `120` is x = 1, y = 2, z = 0.
    assert_eq!(c("120"), Cell::new(1, 2, 0).unwrap());
    assert_eq!(Cell::new(1, 2, 0).unwrap().to_string(), "120");
    assert_eq!(Cell::new(7, 0, 2).unwrap().to_string(), "702");
    let four = cells_from_digits(&[1, 1, 0, 1, 2, 0, 1, 2, 1, 1, 2, 2]).unwrap();
    assert_eq!(
        four,
        [
            Cell::new(1, 1, 0).unwrap(),
            Cell::new(1, 2, 0).unwrap(),
            Cell::new(1, 2, 1).unwrap(),
            Cell::new(1, 2, 2).unwrap()
        ]
    );
    // In the bitboards, layer z holds bit y * 8 + x.
    let pos = game(&["110 120 121 122"]);
    let own = pos.cubes(P1);
    assert_eq!(own.layers()[0], bit(1, 1) | bit(1, 2));
    assert_eq!(own.layers()[1], bit(1, 2));
    assert_eq!(own.layers()[2], bit(1, 2));
    assert_eq!(bit(1, 2), 1 << 17);
    assert_eq!(pos.owner(c("121")), Some(P1));
    assert_eq!(pos.owner(c("211")), None);
}

#[test]
fn r1_the_volume_is_8_by_8_by_3() {
    assert!(Cell::from_digits([7, 7, 2]).is_ok());
    assert!(Cell::from_digits([0, 0, 0]).is_ok());
    let e = |d| Cell::from_digits(d).unwrap_err();
    assert!(e([8, 0, 0]).to_string().contains("x must be 0 to 7"));
    assert!(e([0, 8, 0]).to_string().contains("y must be 0 to 7"));
    assert!(e([0, 0, 3]).to_string().contains("z must be 0 to 2"));
    // Every cell of every table entry lies inside the volume: the volume's
    // three layers are 64-bit boards, so being there is being inside.
    let mut all = Volume::EMPTY;
    for e in table().entries() {
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
    for e in table().entries() {
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
        pos.play(mv(s)).unwrap();
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
    assert_eq!(after.play(fifth), Err(want.clone()));
    assert_eq!(after, pos, "a refused placement changes nothing");
    assert_eq!(want.to_string(), "player 1 has no L left");
    // No L appears among the legal moves, but a T in that corner is fine.
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    assert!(list.iter().all(|p| p.entry().piece != Piece::L));
    assert!(pos.is_legal(mv("T T90 600")));
}

#[test]
fn r2_a_third_o_is_refused() {
    // After FOUR_LS player 2 has used both O's; player 1 plays a T and then
    // player 2's third O is refused, while an L there is fine.
    let mut pos = game(&FOUR_LS);
    pos.play(mv("T T90 600")).unwrap();
    assert_eq!(pos.to_move(), P2);
    assert_eq!(
        pos.play(mv("O T0 640")),
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
        .map(|c| [c.x() as i32, c.y() as i32, c.z() as i32])
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
    assert_eq!(table().shapes().len(), 51);
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
        let p = Placement::try_from(e).unwrap();
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
