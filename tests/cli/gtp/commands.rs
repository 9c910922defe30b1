//! Every command of `cabra gtp`, and a whole game of the engine against
//! itself.

use super::session::Session;
use crate::common::*;

/// A session with a small, reproducible budget.
fn quick() -> Session {
    Session::start(&["--threads", "1", "--iterations", "300", "--seed", "3"])
}

#[test]
fn administrative_commands() {
    let mut s = quick();
    assert_eq!(s.ok("protocol_version"), "2");
    assert_eq!(s.ok("name"), "cabra");
    assert_eq!(s.ok("version"), env!("CARGO_PKG_VERSION"));
    let list = s.ok("list_commands");
    let names: Vec<&str> = list.lines().collect();
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "komi",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "loadcaminos",
        "savecaminos",
        "result",
        "final_score",
        "legal_moves",
        "time_settings",
        "time_left",
        "cabra-rules",
        "cabra-set",
        "cabra-get",
        "cabra-analyze",
        "genmove_analyze",
    ] {
        assert!(names.contains(&c), "{c} in {names:?}");
        assert_eq!(s.ok(&format!("known_command {c}")), "true");
    }
    assert_eq!(s.ok("known_command fixed_handicap"), "false");
    // What GUIs send on connecting: the one board size, and a komi that
    // changes nothing.
    assert_eq!(s.ok("boardsize 8"), "");
    assert!(s.fails("boardsize 19").contains("unacceptable size"));
    assert_eq!(s.ok("komi 6.5"), "");
    assert!(s.fails("komi lots").starts_with("usage: komi"));
    // Commands are case-sensitive.
    assert_eq!(s.ok("known_command NAME"), "false");
    assert!(s.fails("known_command").starts_with("usage: known_command"));
    // Ids come back on the answer.
    s.send("42 name");
    let a = s.answer();
    assert_eq!((a.ok, a.id, a.text.as_str()), (true, Some(42), "cabra"));
    s.send("43 quit");
    let a = s.answer();
    assert_eq!((a.ok, a.id), (true, Some(43)));
    s.wait();
}

#[test]
fn play_undo_result_showboard_and_legal_moves() {
    let mut s = quick();
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    // Every legal placement from the empty board (perft depth 1 = 1345),
    // and those of one piece type.
    let all = s.ok("legal_moves");
    assert_eq!(all.lines().count(), 1345);
    let o = s.ok("legal_moves O");
    assert!(
        !o.is_empty() && o.lines().all(|l| l.starts_with("O ")),
        "{o}"
    );
    assert!(s.fails("legal_moves Q").contains("not a piece"));
    // Both notations, and players as 1/2 or x/o.
    s.ok("play 1 L E180 110");
    s.ok("play o 330 340 430 440");
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    let dir = temp_dir();
    let file = dir.path().join("two.caminos");
    std::fs::write(&file, "110 120 121 122\n330 340 430 440\n").unwrap();
    let board = s.ok("showboard");
    let shown = ok(&["show", file.to_str().unwrap()]);
    assert_eq!(board.trim(), shown.trim(), "the board of cabra show");
    assert!(!s.ok("legal_moves").lines().any(|l| l == "L E180 110"));
    s.ok("undo");
    s.ok("undo");
    assert!(s.fails("undo").contains("nothing to undo"));
    s.ok("play x L E180 110");
    s.ok("clear_board");
    assert_eq!(s.ok("legal_moves").lines().count(), 1345);
    s.close();
}

#[test]
fn load_save_result_and_final_score_agree_with_check() {
    let mut s = quick();
    for r in rows("games.tsv") {
        let (file, moves) = (&r[0], r[4].parse::<usize>().unwrap());
        let path = data(&format!("games/{file}"));
        let path = path.to_str().unwrap();
        let loaded = s.ok(&format!("loadcaminos {path}"));
        let check = ok(&["check", path]);
        let words = check.trim().strip_prefix("ok: ").unwrap();
        assert_eq!(loaded, words, "{file}");
        let (_, status) = words.split_once("; ").unwrap();
        assert_eq!(s.ok("result"), status, "{file}");
        let score = s.ok_or_err("final_score");
        match r[2].as_str() {
            "p1" => assert_eq!(score, Ok("1+".into())),
            "p2" => assert_eq!(score, Ok("2+".into())),
            "draw" => assert_eq!(score, Ok("0".into())),
            _ => assert!(score.is_err(), "{file}"),
        }
        // The first placements only.
        if moves > 2 {
            let part = s.ok(&format!("loadcaminos {path} 2"));
            assert!(part.starts_with("2 placements; in progress"), "{part}");
        }
        assert!(
            s.fails(&format!("loadcaminos {path} {}", moves + 1))
                .contains(&format!("holds only {moves} placements"))
        );
        // A negative count is a bad count, not part of the file's name.
        assert_eq!(
            s.fails(&format!("loadcaminos {path} -1")),
            "'-1' is not a number of moves"
        );
    }
    // A saved game reads back the same (atomic save, a comment header).
    let dir = temp_dir();
    let out = dir.path().join("saved.caminos");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/midgame-9.caminos");
    s.ok(&format!("loadcaminos {}", path.to_str().unwrap()));
    s.ok(&format!("savecaminos {}", out.to_str().unwrap()));
    let saved = std::fs::read_to_string(&out).unwrap();
    assert!(saved.starts_with("# saved by cabra gtp"), "{saved}");
    let moves = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split('#').next().unwrap().trim().to_string())
            .collect()
    };
    let original = std::fs::read_to_string(&path).unwrap();
    assert_eq!(moves(&saved), moves(&original));
    // Errors: a missing file, a bad file, a directory to save to.
    assert!(
        s.fails("loadcaminos /no/such/file.caminos")
            .contains("cannot read")
    );
    let bad = dir.path().join("bad.caminos");
    std::fs::write(&bad, "110 120 121 122\n110 120 121 122\n").unwrap();
    let e = s.fails(&format!("loadcaminos {}", bad.to_str().unwrap()));
    assert!(e.contains("line 2"), "{e}");
    // The position is unchanged by a failed load.
    assert!(s.ok("result").contains("in progress"));
    assert!(
        s.fails(&format!("savecaminos {}", dir.path().to_str().unwrap()))
            .contains("not a regular file")
    );
    assert!(s.fails("savecaminos").starts_with("usage"));
    // A mistyped option is refused, not taken into the file's name.
    let e = s.fails(&format!("savecaminos --Force {}", bad.to_str().unwrap()));
    assert!(e.contains("unknown option '--Force'"), "{e}");
    // A file this session neither loaded nor saved is kept unless told.
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "mine").unwrap();
    let other = other.to_str().unwrap();
    let e = s.fails(&format!("savecaminos {other}"));
    assert!(e.contains("savecaminos --force"), "{e}");
    assert_eq!(std::fs::read_to_string(other).unwrap(), "mine");
    s.ok(&format!("savecaminos --force {other}"));
    assert!(
        std::fs::read_to_string(other)
            .unwrap()
            .starts_with("# saved by cabra gtp")
    );
    // Saved once, it is the session's: replaced without --force.
    std::fs::write(other, "changed").unwrap();
    s.ok(&format!("savecaminos {other}"));
    assert!(
        std::fs::read_to_string(other)
            .unwrap()
            .starts_with("# saved by cabra gtp")
    );
    // So is a file it loaded.
    let loaded = dir.path().join("loaded.caminos");
    std::fs::copy(&path, &loaded).unwrap();
    let loaded = loaded.to_str().unwrap();
    s.ok(&format!("loadcaminos {loaded}"));
    s.ok(&format!("savecaminos {loaded}"));
    // A file loaded in part is not the session's to shorten: its later
    // moves are kept unless told, and a whole load makes it the session's.
    let part = dir.path().join("part.caminos");
    std::fs::copy(&path, &part).unwrap();
    let part = part.to_str().unwrap();
    s.ok(&format!("loadcaminos {part} 2"));
    let e = s.fails(&format!("savecaminos {part}"));
    assert!(e.contains("only part of") && e.contains("--force"), "{e}");
    assert_eq!(
        moves(&std::fs::read_to_string(part).unwrap()),
        moves(&original)
    );
    s.ok(&format!("loadcaminos {part}"));
    s.ok(&format!("savecaminos {part}"));
    assert_eq!(
        moves(&std::fs::read_to_string(part).unwrap()),
        moves(&original)
    );
    s.close();
}

#[test]
fn rules_swap_and_the_time_machine() {
    let mut s = quick();
    assert_eq!(s.ok("cabra-rules"), "caminos");
    assert!(
        s.fails("play 1 swap")
            .contains("illegal move swap: the swap is not part")
    );
    assert!(
        s.fails("cabra-rules chess")
            .contains("unknown rules word 'chess'")
    );
    s.ok("play 1 L E180 110");
    // New rules start a new game.
    s.ok("cabra-rules bridget swap");
    assert_eq!(s.ok("cabra-rules"), "bridget swap");
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    assert!(!s.ok("legal_moves").lines().any(|l| l == "swap"));
    s.ok("play 1 L E180 110");
    // Player 2's first turn may be swap; legal_moves lists it.
    assert!(s.ok("legal_moves").lines().any(|l| l == "swap"));
    assert!(!s.ok("legal_moves L").lines().any(|l| l == "swap"));
    s.ok("play 2 swap");
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    s.ok("play 1 O T0 330");
    s.ok("play 2 O T0 550");
    // The time machine: player 1 takes back the last two placements and
    // moves again.
    assert!(s.ok("legal_moves").lines().any(|l| l == "tm"));
    s.ok("play x time machine");
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    assert!(
        s.fails("play 1 tm")
            .contains("illegal move tm: player 1 has already used")
    );
    // The engine plays under these rules, and a saved game keeps them.
    let mv = s.ok("genmove 1");
    assert!(!mv.is_empty());
    let dir = temp_dir();
    let file = dir.path().join("bridget.caminos");
    s.ok(&format!("savecaminos {}", file.to_str().unwrap()));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("# rules: bridget swap"), "{text}");
    assert!(
        text.lines().any(|l| l == "swap") && text.lines().any(|l| l == "tm"),
        "{text}"
    );
    s.ok("clear_board");
    assert_eq!(s.ok("cabra-rules"), "bridget swap");
    let loaded = s.ok(&format!("loadcaminos {}", file.to_str().unwrap()));
    // Under the variants a swap and a time machine are moves, not placements.
    assert!(loaded.starts_with("6 moves"), "{loaded}");
    s.ok("undo");
    s.ok("undo");
    assert!(
        s.ok("legal_moves").lines().any(|l| l == "tm"),
        "undo takes back the time machine"
    );
    s.close();
}

#[test]
fn settings_and_the_clock() {
    let mut s = quick();
    let get = |s: &mut Session| -> std::collections::BTreeMap<String, String> {
        s.ok("cabra-get")
            .lines()
            .map(|l| {
                let (k, v) = l.split_once(' ').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect()
    };
    let before = get(&mut s);
    assert_eq!(before["iterations"], "300");
    assert_eq!(before["threads"], "1");
    assert_eq!(before["seed"], "3");
    assert_eq!(before["clock"], "off");
    s.ok("cabra-set c 0.5");
    s.ok("cabra-set iterations 2k");
    s.ok("cabra-set time 300ms");
    s.ok("cabra-set seed 9");
    s.ok("cabra-set resign on");
    s.ok("cabra-set threats off");
    let after = get(&mut s);
    assert_eq!(after["c"], "0.5");
    assert_eq!(after["iterations"], "2000");
    assert_eq!(after["time"], "300ms");
    assert_eq!(after["seed"], "9");
    assert_eq!(after["resign"], "on");
    assert_eq!(after["threats"], "off");
    s.ok("cabra-set time none");
    assert_eq!(get(&mut s)["time"], "-");
    assert!(s.fails("cabra-set c -1").contains("positive"));
    assert!(s.fails("cabra-set bogus 1").contains("unknown key"));
    assert!(s.fails("cabra-set seed x").contains("not a seed"));
    assert!(s.fails("cabra-set threads 0").contains("threads"));
    assert!(s.fails("cabra-set c").starts_with("usage"));
    // The clock: main time and byo-yomi, then what is left.
    s.ok("time_settings 60 10 5");
    assert!(get(&mut s)["clock"].starts_with("main 60.0s, byo-yomi 10.0s/5"));
    s.ok("time_left 2 7 3");
    assert!(get(&mut s)["clock"].ends_with("left: 1 60.000s, 2 7.000s/3"));
    // A search (of 50 ms) charges the clock of the side that moved.
    s.ok("cabra-set iterations none");
    s.ok("cabra-set time 50ms");
    let mv = s.ok("genmove 1");
    assert!(!mv.is_empty());
    let clock = get(&mut s)["clock"].clone();
    let left: f64 = clock
        .split("left: 1 ")
        .nth(1)
        .and_then(|t| t.split('s').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{clock}"));
    assert!(left < 60.0, "{clock}");
    assert!(
        clock.ends_with("2 7.000s/3"),
        "the other clock stands: {clock}"
    );
    assert!(s.fails("time_settings 1 2").starts_with("usage"));
    assert!(s.fails("time_left 3 1 0").contains("not a player"));
    assert!(s.fails("time_settings a 0 0").contains("seconds"));
    // No time limit (byo-yomi time without stones).
    s.ok("time_settings 0 1 0");
    assert_eq!(get(&mut s)["clock"], "off");
    s.close();
}

#[test]
fn a_whole_game_against_itself() {
    let mut s = quick();
    let mut played = Vec::new();
    let mut player = 1;
    while s.ok("result").contains("in progress") {
        let mv = s.ok(&format!("genmove {player}"));
        assert_ne!(mv, "resign");
        played.push(mv);
        player = 3 - player;
        assert!(played.len() <= 28);
    }
    assert!(
        s.fails(&format!("genmove {player}"))
            .contains("the game is over")
    );
    // The saved game is the moves played, and `cabra check` agrees.
    let dir = temp_dir();
    let file = dir.path().join("self.caminos");
    s.ok(&format!("savecaminos {}", file.to_str().unwrap()));
    let result = s.ok("result");
    let check = ok(&["check", file.to_str().unwrap()]);
    assert!(check.contains(&result), "{check} / {result}");
    let shown: serde_json::Value =
        serde_json::from_str(&ok(&["show", "--json", file.to_str().unwrap()])).unwrap();
    let moves: Vec<String> = shown["record"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves, played);
    s.send("quit");
    assert!(s.answer().ok);
    s.wait();
}

/// Player 2 to move: whatever it places, player 1 bridges next move.
const LOST: &str = "\
550 560 640 650
450 451 452 551
610 620 630 730
010 110 120 220
160 240 250 260
100 200 201 300
350 351 360 361
410 500 510 520
310 311 411 511
230 231 330 430
660 661 760 761
060 070 071 072
121 221 320 321
540 541 542 552
270 370 371 470
130 131 132 140
050 150 151 251
";

#[test]
fn resigning_when_proven_lost() {
    let dir = temp_dir();
    let file = dir.path().join("lost.caminos");
    std::fs::write(&file, LOST).unwrap();
    let mut s = Session::start(&["--threads", "1", "--iterations", "20k", "--resign"]);
    s.ok(&format!("loadcaminos {}", file.to_str().unwrap()));
    assert_eq!(s.ok("result"), "in progress, player 2 to move");
    assert_eq!(s.ok("genmove 2"), "resign");
    // Resigning places nothing.
    assert_eq!(s.ok("result"), "in progress, player 2 to move");
    s.ok("cabra-set resign off");
    let mv = s.ok("genmove 2");
    assert_ne!(mv, "resign");
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    // The engine then finds player 1's bridge.
    s.ok("genmove 1");
    assert_eq!(s.ok("result"), "player 1 wins by bridge");
    assert_eq!(s.ok("final_score"), "1+");
    s.close();
}
