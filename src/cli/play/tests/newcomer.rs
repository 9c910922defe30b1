//! What a person new to the program runs into.

use super::*;

#[test]
fn a_mistyped_piece_letter_or_extra_words_never_run_a_command() {
    let mut s = session(You::Both);
    // `Q` is `quit`: `Q T0 330` (Q typed for O) must not quit.
    let r = s.handle("Q T0 330");
    assert!(r.error && !r.quit, "{}", r.text);
    // Answered first as the placement it looks like.
    assert!(
        r.text
            .starts_with("error: `Q` is no piece: the pieces are L, T, Z and O"),
        "{}",
        r.text
    );
    assert!(err(&mut s, "quit T0 330").contains("`quit` takes no argument"));
    let r = s.handle("quit now");
    assert!(r.error && !r.quit, "{}", r.text);
    for line in [
        "show me",
        "history please",
        "new game",
        "go fast",
        "result now",
    ] {
        assert!(s.handle(line).error, "{line}");
    }
    // An unknown piece letter in a placement says what the pieces are.
    assert!(err(&mut s, "place X T0 000").contains("L, T, Z or O"));
    assert!(s.handle("quit").quit);
}

#[test]
fn save_asks_before_replacing_a_file_it_did_not_write() {
    let dir = temp_dir("ask");
    let other = dir.join("notes.txt");
    std::fs::write(&other, "precious").unwrap();
    let name = other.display().to_string();
    // In a script: refused, with the way to force it.
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    let e = err(&mut s, &format!("save {name}"));
    assert!(e.contains("save! "), "{e}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "precious");
    ok(&mut s, &format!("save! {name}"));
    assert!(
        std::fs::read_to_string(&other)
            .unwrap()
            .contains("L E180 110")
    );
    // `save --force` too; and a file the session wrote is replaced freely.
    std::fs::write(&other, "precious").unwrap();
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    ok(&mut s, &format!("save --force {name}"));
    ok(&mut s, "O T0 330");
    ok(&mut s, "save");
    assert!(
        std::fs::read_to_string(&other)
            .unwrap()
            .contains("O T0 330")
    );
    // At a terminal: a question; `no` keeps the file, `yes` replaces it.
    std::fs::write(&other, "precious").unwrap();
    let mut s = session_with(You::Both, true);
    ok(&mut s, "L E180 110");
    let q = ok(&mut s, &format!("save {name}"));
    assert!(
        q.contains("exists and this session did not write it."),
        "{q}"
    );
    // The prompt asks the question, once, until it is answered.
    assert!(!q.contains('?'), "the question is the prompt's: {q}");
    assert!(s.prompt().starts_with("replace "), "{}", s.prompt());
    assert!(s.prompt().ends_with("? (yes/no)> "), "{}", s.prompt());
    assert!(ok(&mut s, "no").contains("Not saved"));
    assert!(s.prompt().starts_with("move 2"), "{}", s.prompt());
    // Another command drops the save, and says so first.
    ok(&mut s, &format!("save {name}"));
    let r = ok(&mut s, "O T0 330");
    assert!(r.starts_with("Not saved: "), "{r}");
    assert!(r.contains("O T0 330"), "{r}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "precious");
    ok(&mut s, &format!("save {name}"));
    assert!(ok(&mut s, "yes").contains("Saved 2 placements"));
    assert!(
        std::fs::read_to_string(&other)
            .unwrap()
            .contains("L E180 110")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_loaded_files_header_comments_survive_a_save() {
    let dir = temp_dir("header");
    let file = dir.join("game.caminos");
    std::fs::write(
        &file,
        "# my game, from the club\n# round 3\n110 120 121 122  # L E180 110\n",
    )
    .unwrap();
    let mut s = session(You::Both);
    ok(&mut s, &format!("load {}", file.display()));
    ok(&mut s, "O T0 330");
    ok(&mut s, "save");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("# my game, from the club\n# round 3\n110 120 121 122"),
        "{text}"
    );
    assert!(text.contains("O T0 330"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn set_you_none_lets_the_engine_play_at_once() {
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    let t = ok(&mut s, "set you none");
    assert!(s.position().status().is_over(), "{t}");
    assert!(t.contains("Game over"), "{t}");
    // Against the engine, `set you 1` when it is player 2's turn: it answers.
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    ok(&mut s, "set you 1");
    assert_eq!(s.position().plies(), 2);
}

#[test]
fn the_board_warns_of_a_win_in_one_against_the_engine() {
    // After player 1's L T0 000 ... the sample position block-1 (player 1
    // to move faces player 2's bridge next move).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tactics/block-1.caminos"
    ))
    .unwrap();
    let pos = parse_game(&text).unwrap();
    let code = pos.to_code();
    let mut s = session(You::One);
    let board = ok(&mut s, &format!("pos {code}"));
    assert!(board.contains("threatens to win next move"), "{board}");
    assert!(board.contains("; stop it or lose"), "{board}");
    // Once `go` has proven the position lost, the warning says so
    // instead of telling the side to move to stop the threat.
    ok(&mut s, "set iterations 3000");
    let go = ok(&mut s, "go");
    assert!(go.contains("(proven loss)"), "{go}");
    let board = ok(&mut s, "show");
    assert!(!board.contains("stop it"), "{board}");
    let words = board.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("the engine has proven that player 2 loses against best play"),
        "{board}"
    );
    ok(&mut s, "set threats off");
    assert!(!ok(&mut s, "show").contains("threatens"));
    // Two people: off unless asked for.
    let mut s = session(You::Both);
    assert!(!ok(&mut s, &format!("pos {code}")).contains("threatens"));
}

#[test]
fn help_draws_the_pieces_and_names_the_special_moves() {
    let mut s = session(You::Both);
    // Each piece, then the orientations one piece at a time.
    let pieces = ok(&mut s, "help pieces");
    for name in ["L T0", "T T0", "Z T0", "O T0", "L 24, T 12, Z 12, O 3"] {
        assert!(pieces.contains(name), "{name}");
    }
    let l = ok(&mut s, "help pieces L");
    for name in ["L: 24 orientations", "E180", "W270"] {
        assert!(l.contains(name), "{name}");
    }
    assert!(ok(&mut s, "help pieces t").contains("T: 12 orientations"));
    assert!(ok(&mut s, "help tm").contains("time machine"));
    // A bad placement points to the drawings.
    assert!(err(&mut s, "L X0 000").contains("help pieces"));
}

#[test]
fn after_the_end_undo_is_described_as_it_works() {
    let read = |name: &str| {
        let path = format!("{}/tests/data/games/{name}", env!("CARGO_MANIFEST_DIR"));
        parse_game(&std::fs::read_to_string(path).unwrap())
            .unwrap()
            .to_code()
    };
    // Player 2 (the engine, as you play player 1) won: `undo` takes back
    // its placement and yours, and says so.
    let mut s = session(You::One);
    ok(&mut s, &format!("pos {}", read("random_000.caminos")));
    let e = err(&mut s, "L E180 110");
    assert!(
        e.contains(
            "`undo` takes back the engine's last placement and yours (L S180 500, L S90 130)"
        ),
        "{e}"
    );
    let e = err(&mut s, "go");
    assert!(
        e.contains("`undo` takes back the engine's last placement and yours"),
        "{e}"
    );
    ok(&mut s, "undo");
    assert_eq!(s.position().plies(), 16);
    // Player 1 (you) won: only your last placement.
    let mut s = session(You::One);
    ok(
        &mut s,
        &format!("pos {}", read("hand_straight_bridge.caminos")),
    );
    let e = err(&mut s, "L E180 110");
    assert!(
        e.contains("`undo` takes back the last placement (O T0 260)"),
        "{e}"
    );
    ok(&mut s, "undo");
    assert_eq!(s.position().plies(), 4);
}

#[test]
fn game_over_says_who_won_against_the_engine() {
    // games/straight-bridge.caminos: player 1's fifth placement bridges.
    let before_the_bridge = || {
        let mut s = session(You::Both);
        for m in ["L T90 200", "O T0 660", "L T90 230", "O T0 640"] {
            ok(&mut s, m);
        }
        s
    };
    let mut s = before_the_bridge();
    ok(&mut s, "set you 1");
    let t = ok(&mut s, "O T0 260");
    assert!(t.contains("Game over: player 1 wins"), "{t}");
    assert!(t.contains("You win."), "{t}");
    // The engine as player 1 finds the same bridge.
    let t = ok(&mut before_the_bridge(), "set you 2");
    assert!(t.contains("Game over: player 1 wins"), "{t}");
    assert!(t.contains("The engine wins."), "{t}");
    // Two people at one board: no "you".
    let t = ok(&mut before_the_bridge(), "O T0 260");
    assert!(t.contains("Game over") && !t.contains("win."), "{t}");
}

#[test]
fn another_game_never_goes_silently_into_the_file_of_the_last() {
    let dir = temp_dir("left-files");
    let file = dir.join("m.caminos");
    let name = file.display().to_string();
    let mut s = session(You::Both);
    ok(&mut s, "L E180 110");
    ok(&mut s, &format!("save {name}"));
    let kept = std::fs::read_to_string(&file).unwrap();
    // After `new`, `pos` or loading another file, a plain `save` has no
    // file, and the old file is replaced only when the player says so.
    let other = dir.join("o.caminos");
    std::fs::write(&other, "000 010 100 110\n").unwrap();
    let code = s.position().to_code();
    let empty = format!("pos {}", cabra::game::Position::new().to_code());
    for leave in [
        "new".to_string(),
        format!("load {}", other.display()),
        empty,
    ] {
        ok(&mut s, &format!("pos {code}"));
        ok(&mut s, &leave);
        if leave == "new" || leave.starts_with("pos") {
            assert!(
                err(&mut s, "save").contains("expected a file name"),
                "{leave}"
            );
        }
        let refused = err(&mut s, &format!("save {name}"));
        assert!(
            refused.contains("holds the game this session had before"),
            "{leave}: {refused}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), kept, "{leave}");
    }
    // Saving to it by force makes it this game's file again.
    ok(&mut s, &format!("save! {name}"));
    ok(&mut s, "O T0 550");
    ok(&mut s, "save");
}

#[test]
fn the_threads_chosen_come_back_with_the_full_engine() {
    let mut s = session(You::One);
    let t = ok(&mut s, "set threads 1");
    assert!(t.contains("1 thread"), "{t}");
    let at = ok(&mut s, "set level 3");
    assert!(at.contains("level 3"), "{at}");
    let t = ok(&mut s, "set threads 2");
    assert!(t.contains("at level 3"), "{t}");
    let t = ok(&mut s, "set iterations 100k");
    assert!(t.contains("at level 3"), "{t}");
    ok(&mut s, "set level 11");
    assert!(ok(&mut s, "set").contains("threads     2\n"));
}

#[test]
fn a_long_list_of_moves_suggests_only_pieces_that_can_be_placed() {
    let pos = parse_game(include_str!("../../../../games/drawn-position.caminos")).unwrap();
    let mut s = session(You::Both);
    ok(&mut s, &format!("pos {}", pos.to_code()));
    let t = ok(&mut s, "moves");
    assert!(t.contains("L 0, T 21, Z 15, O 0"), "{t}");
    assert!(t.contains("`moves T` (or Z)"), "{t}");
    assert!(!t.contains("`moves L`"), "{t}");
}
