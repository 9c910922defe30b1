//! RULES.md section 9 (the `bridget` rules and the swap option): the
//! public vectors of an independent implementation (`tests/data/variants`),
//! then one test per rule with an explained position.

use crate::common::*;

use cabra::game::perft::perft;
use cabra::game::record::{parse_record, write_game};
use cabra::game::{
    Move, Piece, PlacementError, Player, Position, Rules, Status, Variant, WinReason,
    parse_placement,
};

fn load(rel: &str) -> Position {
    let bytes = std::fs::read(data(rel)).unwrap();
    parse_record(&bytes)
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .position
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

#[test]
fn every_variant_game_ends_as_the_vectors_say() {
    let rows = rows("variants/games.tsv");
    assert!(rows.len() >= 30);
    for r in rows {
        let file = &r[0];
        let pos = load(&format!("variants/games/{file}"));
        let s = pos.status();
        assert_eq!(s.code(), r[2], "{file}: winner");
        assert_eq!(s.reason().unwrap_or("-"), r[3], "{file}: reason");
        assert_eq!(pos.plies().to_string(), r[4], "{file}: moves");
        assert_eq!(pos.rules(), r[5].parse::<Rules>().unwrap(), "{file}: rules");
        assert_eq!(pos.placements().len().to_string(), r[6], "{file}: on board");
        let [e1, e2] = Player::BOTH.map(|p| pos.edge_count(p).to_string());
        assert_eq!(
            (e1, e2),
            (r[7].clone(), r[8].clone()),
            "{file}: edge columns"
        );
        let [p1, p2] = Player::BOTH.map(|p| pos.perimeter_count(p).to_string());
        assert_eq!((p1, p2), (r[9].clone(), r[10].clone()), "{file}: perimeter");
        assert_eq!(yes(pos.swapped()), r[11], "{file}: swap");
        let [t1, t2] = Player::BOTH.map(|p| yes(pos.time_machine_used(p)));
        assert_eq!((t1, t2), (r[12].as_str(), r[13].as_str()), "{file}: tm");
        // Writing the game and reading it back gives the same position.
        let again = parse_record(write_game(&pos).as_bytes()).unwrap().position;
        assert_eq!(again, pos, "{file}: round trip");
    }
}

#[test]
fn every_variant_perft_count_matches() {
    for r in rows("variants/perft.tsv") {
        let pos = load(&format!("variants/perft/{}", r[0]));
        assert_eq!(pos.plies().to_string(), r[1], "{}: moves", r[0]);
        assert_eq!(Status::Ongoing.code(), "ongoing");
        let to_move = format!("p{}", pos.to_move().number());
        assert_eq!(to_move, r[2], "{}: side to move", r[0]);
        assert_eq!(
            pos.rules(),
            r[6].parse::<Rules>().unwrap(),
            "{}: rules",
            r[0]
        );
        let mut specials = Vec::new();
        pos.for_each_legal(|m| {
            if m.placement().is_none() {
                specials.push(m.to_string());
            }
        });
        let specials = if specials.is_empty() {
            "-".to_string()
        } else {
            specials.join(" ")
        };
        assert_eq!(specials, r[7], "{}: special moves", r[0]);
        let [t1, t2] = Player::BOTH.map(|p| yes(pos.time_machine_used(p)));
        assert_eq!(
            (t1, t2),
            (r[8].as_str(), r[9].as_str()),
            "{}: tm used",
            r[0]
        );
        for (depth, want) in r[3..6].iter().enumerate() {
            if want.is_empty() {
                continue;
            }
            let got = perft(&pos, depth as u32 + 1);
            assert_eq!(got.to_string(), *want, "{} depth {}", r[0], depth + 1);
        }
    }
}

#[test]
fn every_bad_variant_file_is_rejected_at_its_line() {
    let rows = rows("variants/bad.tsv");
    assert!(rows.len() >= 6);
    for r in rows {
        let bytes = std::fs::read(data(&format!("variants/bad/{}", r[0]))).unwrap();
        let err = parse_record(&bytes).expect_err(&r[0]);
        assert_eq!(err.line.to_string(), r[1], "{}: {err}", r[0]);
    }
}

fn place(s: &str) -> Move {
    Move::Place(parse_placement(s).unwrap_or_else(|e| panic!("{s}: {e}")))
}

fn game(rules: &str, moves: &[&str]) -> Position {
    let rules: Rules = rules.parse().unwrap();
    let moves: Vec<Move> = moves
        .iter()
        .map(|m| cabra::game::parse_move(m).unwrap())
        .collect();
    Position::from_moves(rules, &moves).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn r9_1_bridget_counts_edge_columns_seen_from_above() {
    // Player 1: O T0 000 (000 100 010 110) tops edge columns 00, 10, 01;
    // player 2: O T0 660 (660 760 670 770) tops 76, 67, 77; player 1:
    // L T0 300 (300 400 500 310) tops 30, 40, 50.
    let mut pos = game("bridget", &["O T0 000", "O T0 660", "L T0 300"]);
    assert_eq!(pos.edge_count(Player::One), 6);
    assert_eq!(pos.edge_count(Player::Two), 3);
    // Player 2 lays an L on its side over that L: L N0 200 is 200 201 301
    // 401, resting on the floor at 200 and on player 1's cubes 300 and 400.
    // Columns 30 and 40 are now topped by player 2, and 20 is new: 4 to 6.
    pos.play(place("L N0 200")).unwrap();
    assert_eq!(pos.top(3, 0), Ok(Some((Player::Two, 1))));
    assert_eq!(pos.edge_count(Player::One), 4);
    assert_eq!(pos.edge_count(Player::Two), 6);
    // The perimeter count does not look at the tops: player 1's covered L
    // still counts (O and L: 2), player 2 has its O and L on the rim too.
    assert_eq!(pos.perimeter_count(Player::One), 2);
    assert_eq!(pos.perimeter_count(Player::Two), 2);
    // The hand-built endings of the vectors: more edge columns wins,
    // although the perimeter count would say otherwise.
    let p1 = load("variants/games/pub_hand_edge_p1.caminos");
    assert_eq!(
        p1.status(),
        Status::Won {
            winner: Player::One,
            by: WinReason::Edge
        }
    );
    assert!(p1.perimeter_count(Player::One) > p1.perimeter_count(Player::Two));
    let draw = load("variants/games/pub_hand_edge_draw.caminos");
    assert_eq!(
        draw.status(),
        Status::Draw {
            by: WinReason::Edge
        }
    );
    assert_ne!(
        draw.perimeter_count(Player::One),
        draw.perimeter_count(Player::Two)
    );
}

/// The parts of two positions a player sees: cubes, stocks, side to move.
fn same_board(a: &Position, b: &Position) -> bool {
    Player::BOTH.into_iter().all(|p| {
        a.cubes(p) == b.cubes(p)
            && Piece::ALL
                .into_iter()
                .all(|k| a.pieces_left(p, k) == b.pieces_left(p, k))
    }) && a.to_move() == b.to_move()
        && a.placements() == b.placements()
}

#[test]
fn r9_2_the_time_machine_restores_the_callers_earlier_position() {
    // Player 1 O T0 000, player 2 O T0 660, player 1 L T0 300: player 2's
    // turn, the last placement is player 1's and the one before player 2's.
    let earlier = game("bridget", &["O T0 000"]);
    let mut pos = game("bridget", &["O T0 000", "O T0 660", "L T0 300"]);
    assert!(pos.is_legal(Move::TimeMachine));
    let before = pos;
    pos.play(Move::TimeMachine).unwrap();
    // Both placements are off the board, their pieces back in stock, and
    // player 2 moves again at once, as after player 1's first placement.
    assert!(same_board(&pos, &earlier), "{pos:?}");
    assert_eq!(pos.to_move(), Player::Two);
    assert_eq!(pos.status(), Status::Ongoing);
    // Its use is part of the position (and of its hash): not the same
    // position as `earlier`.
    assert!(pos.time_machine_used(Player::Two) && !pos.time_machine_used(Player::One));
    assert_ne!(pos, earlier);
    // Once per game: not again, even later.
    assert_eq!(
        pos.check(Move::TimeMachine),
        Err(PlacementError::TimeMachineUsed(Player::Two))
    );
    pos.play(place("Z T0 440")).unwrap();
    pos.play(place("T T0 300")).unwrap();
    assert_eq!(
        pos.check(Move::TimeMachine),
        Err(PlacementError::TimeMachineUsed(Player::Two))
    );
    // Undo gives back exactly the position before the call.
    let mut back = pos;
    for _ in 0..3 {
        back.undo();
    }
    assert_eq!(back, before);
    // The record says `tm` and reads back to the same position.
    let text = write_game(&pos);
    assert!(text.contains("\ntm\n"), "{text}");
    assert_eq!(parse_record(text.as_bytes()).unwrap().position, pos);
}

#[test]
fn r9_2_when_the_time_machine_may_not_be_called() {
    // Not under the caminos rules.
    let caminos = game("caminos swap", &["O T0 000", "O T0 660", "L T0 300"]);
    assert_eq!(
        caminos.check(Move::TimeMachine),
        Err(PlacementError::NotInRules {
            what: Move::TimeMachine,
            rules: "caminos swap".parse().unwrap()
        })
    );
    // Not before two placements are on the board.
    for moves in [&[][..], &["O T0 000"][..]] {
        let pos = game("bridget", moves);
        assert_eq!(
            pos.check(Move::TimeMachine),
            Err(PlacementError::TimeMachineOrder),
            "{moves:?}"
        );
    }
    // Not to take back the piece a swap recoloured: player 1 L T0 020,
    // player 2 swaps (the L is player 2's now), player 1 O T0 660. The
    // placement before player 1's is the recoloured L, which player 2 did
    // not place.
    let pos = game("bridget swap", &["L T0 020", "swap", "O T0 660"]);
    assert_eq!(pos.to_move(), Player::Two);
    assert_eq!(
        pos.check(Move::TimeMachine),
        Err(PlacementError::TimeMachineRecoloured)
    );
    // Player 1, though, may take back its O and player 2's next piece.
    let mut pos = pos;
    pos.play(place("O T0 000")).unwrap();
    assert!(pos.is_legal(Move::TimeMachine));
}

#[test]
fn r9_2_the_time_machine_does_not_keep_a_game_alive() {
    // The vector game ends by the edge count with player 2 to move and its
    // time machine unused; a `tm` line after the end is refused at its line.
    let rows = rows("variants/bad.tsv");
    let row = rows
        .iter()
        .find(|r| r[0] == "pub_vbad_05_tm_after_edge_end.caminos")
        .unwrap();
    let bytes = std::fs::read(data("variants/bad/pub_vbad_05_tm_after_edge_end.caminos")).unwrap();
    let err = parse_record(&bytes).unwrap_err();
    assert_eq!(err.line.to_string(), row[1]);
    assert!(
        err.kind.to_string().contains("already over"),
        "{}",
        err.kind.to_string()
    );
    // The game up to that line ended although the time machine was unused.
    let text = String::from_utf8(bytes).unwrap();
    let before: Vec<&str> = text.lines().take(err.line - 1).collect();
    let pos = parse_record(before.join("\n").as_bytes()).unwrap().position;
    assert!(pos.status().is_over());
    assert!(!pos.time_machine_used(pos.to_move()));
    assert_eq!(pos.count_legal(), 0);
}

#[test]
fn r9_3_swap_recolours_player_1s_first_piece_on_the_second_turn_only() {
    // Player 1 L T0 020 (020 120 220 030, on the west and north... rim).
    let mut pos = game("caminos swap", &["L T0 020"]);
    let l = parse_placement("L T0 020").unwrap();
    pos.play(Move::Swap).unwrap();
    // The cubes are player 2's now, an L goes back to player 1's stock and
    // out of player 2's, the perimeter piece counts for player 2, and
    // player 1 moves next.
    assert_eq!(pos.cubes(Player::Two), l.entry().cells);
    assert!(pos.cubes(Player::One).is_empty());
    assert_eq!(pos.pieces_left(Player::One, Piece::L), 4);
    assert_eq!(pos.pieces_left(Player::Two, Piece::L), 3);
    assert_eq!(pos.perimeter_count(Player::Two), 1);
    assert_eq!(pos.perimeter_count(Player::One), 0);
    assert_eq!(pos.to_move(), Player::One);
    assert!(pos.swapped());
    // Never on another turn: not first, not third, not without the option.
    assert_eq!(
        game("caminos swap", &[]).check(Move::Swap),
        Err(PlacementError::SwapTurn)
    );
    assert_eq!(
        game("caminos swap", &["L T0 020", "O T0 660"]).check(Move::Swap),
        Err(PlacementError::SwapTurn)
    );
    assert!(matches!(
        game("bridget", &["L T0 020"]).check(Move::Swap),
        Err(PlacementError::NotInRules { .. })
    ));
    // Undo swaps back.
    let mut back = pos;
    back.undo();
    assert_eq!(back, game("caminos swap", &["L T0 020"]));
}

#[test]
fn r9_3_a_time_machine_back_to_the_second_turn_does_not_allow_a_swap() {
    // Player 1 O T0 000, player 2 O T0 660, player 1 L T0 300, player 2
    // calls the time machine: the board is as after player 1's first
    // placement, player 2 to move, but the swap was the second turn only.
    let pos = game("bridget swap", &["O T0 000", "O T0 660", "L T0 300", "tm"]);
    assert_eq!(pos.placements().len(), 1);
    assert_eq!(pos.to_move(), Player::Two);
    assert_eq!(pos.check(Move::Swap), Err(PlacementError::SwapTurn));
}

#[test]
fn r9_3_a_bridge_may_run_through_the_swapped_piece() {
    let pos = load("variants/games/pub_hand_swap_bridge_we.caminos");
    assert_eq!(
        pos.status(),
        Status::Won {
            winner: Player::Two,
            by: WinReason::Bridge
        }
    );
    assert!(pos.swapped());
}

#[test]
fn r9_4_the_rules_line_and_the_special_lines() {
    let text =
        "# rules: Swap Bridget\n000 010 100 110\nswap\n660 670 760 770\n300 310 400 500\ntm\n";
    let r = parse_record(text.as_bytes()).unwrap();
    let pos = r.position;
    assert_eq!(
        pos.rules(),
        Rules {
            variant: Variant::Bridget,
            swap: true
        }
    );
    assert!(pos.swapped() && pos.time_machine_used(Player::One));
    // Written back: the rules line first, `swap` and `tm` lines.
    assert_eq!(
        write_game(&pos),
        "# rules: bridget swap\n000 010 100 110  # O T0 000\nswap\n660 670 760 770  # O T0 660\n300 310 400 500  # L T0 300\ntm\n"
    );
    // No rules line: caminos without swap.
    assert!(
        parse_record(b"000 010 100 110\n")
            .unwrap()
            .position
            .rules()
            .is_default()
    );
}
