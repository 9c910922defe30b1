//! Sections 7 and 8: the end of a game without a bridge, and the
//! `.caminos` format.

use super::*;

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
        assert!(prev.is_legal(last));
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
    let empty_floor = !pos.occupied().layers()[0];
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
        pos.play(mv(s)).unwrap();
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
    for e in table().entries() {
        let floor_rim = e
            .cells
            .cells()
            .any(|q| q.z() == 0 && (q.x() % 7 == 0 || q.y() % 7 == 0));
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
            .any(|q| q.z() == 0 && (q.x() == 0 || q.x() == 7 || q.y() == 0 || q.y() == 7));
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
    assert!(e.kind.to_string().contains("found 11 digits"), "{e}");
    let e = err("110 120 121 122\n\n550 650 560 6601\n");
    assert_eq!(e.line, 3);
    assert!(e.kind.to_string().contains("found 13 digits"), "{e}");
    let e = err("110 120 121 122\nplayer two resigns\n");
    assert_eq!(e.line, 2);
    assert!(e.kind.to_string().contains("found 0 digits"), "{e}");
    assert_eq!(e.to_string(), format!("line 2: {}", e.kind));
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
        assert!(e.kind.to_string().contains(want), "{text}: {e}");
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
        assert!(e.kind.to_string().contains(want), "{text:?}: {e}");
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
    assert!(e.kind.to_string().contains("player 1 has no L left"), "{e}");
}

#[test]
fn r8_a_placement_after_the_end_names_the_line() {
    // Five placements end hand_straight_bridge with P1's bridge; a sixth
    // line (P2's legal-looking O) is refused.
    let mut text = write_game(&load("hand_straight_bridge"));
    text += "\n000 100 010 110\n";
    let e = err(&text);
    assert_eq!(e.line, 7);
    assert!(e.kind.to_string().contains("already over"), "{e}");
    assert!(
        e.kind.to_string().contains("player 1 wins by bridge"),
        "{e}"
    );
    // And after a game that ended on the perimeter count.
    let mut text = write_game(&load("hand_perimeter_p1"));
    text += "000 100 010 110\n";
    let e = err(&text);
    assert_eq!(e.line, 29);
    assert!(e.kind.to_string().contains("already over"), "{e}");
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
        assert!(e.kind.to_string().contains(want), "{name}: {e}");
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
