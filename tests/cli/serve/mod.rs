//! `cabra serve` through its HTTP API, as the page uses it: a server on
//! port 0 per test, real sockets, JSON in and out, events as a browser
//! receives them.

use std::time::Duration;

use cabra::game::record::{parse_record, write_record};
use serde_json::{Value, json};

use crate::common::{cabra, data, stderr, temp_dir};
use crate::http::Server;

mod coach;
mod connections;
mod jobs;
mod memory;
mod safety;
mod variants;

const LONG: Duration = Duration::from_secs(60);

fn game_path(id: &str, rest: &str) -> String {
    format!("/api/games/{id}{rest}")
}

/// The placements of a record file, as the cells of each line.
fn placements(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data(file)).unwrap();
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn a_whole_game_undo_redo_goto_save_and_load() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let moves = placements("games/hand_straight_bridge.caminos");
    let mut state = Value::Null;
    for m in &moves {
        state = s.ok(
            "POST",
            &game_path(&id, "/place"),
            Some(json!({ "move": m })),
        );
    }
    assert_eq!(state["ply"], 5);
    assert_eq!(state["result"], "p1");
    assert_eq!(state["by"], "bridge");
    assert_eq!(state["line"][0]["move"], "L T90 200");
    assert_eq!(state["line"][0]["cells"], "200 300 310 320");
    // The game is over: no more placements.
    let (status, v) = s.json(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "O T0 000" })),
    );
    assert_eq!(status, 422, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("the game is over"),
        "{v}"
    );
    // Undo twice, redo once, go to ply 1 and back to the end.
    s.ok("POST", &game_path(&id, "/undo"), None);
    let v = s.ok("POST", &game_path(&id, "/undo"), None);
    assert_eq!(
        (v["ply"].as_u64(), v["can_redo"].as_bool()),
        (Some(3), Some(true))
    );
    assert_eq!(
        v["line"].as_array().unwrap().len(),
        5,
        "the line keeps the moves undone"
    );
    let v = s.ok("POST", &game_path(&id, "/redo"), None);
    assert_eq!(v["ply"], 4);
    let v = s.ok("POST", &game_path(&id, "/goto"), Some(json!({ "ply": 1 })));
    assert_eq!(
        (v["ply"].as_u64(), v["to_move"].as_u64()),
        (Some(1), Some(2))
    );
    let v = s.ok("POST", &game_path(&id, "/goto"), Some(json!({ "ply": 5 })));
    assert_eq!(v["result"], "p1");
    let (status, _) = s.json("POST", &game_path(&id, "/goto"), Some(json!({ "ply": 6 })));
    assert_eq!(status, 400);
    // Saving gives the bytes `cabra play` saves: the canonical record.
    let (status, saved) = s.raw("GET", &game_path(&id, "/record"), &[], b"");
    assert_eq!(status, 200);
    let bytes = std::fs::read(data("games/hand_straight_bridge.caminos")).unwrap();
    let record = parse_record(&bytes).unwrap();
    let expected = write_record(&[], &record.position);
    // The game was played move by move, so no header comments.
    assert_eq!(String::from_utf8(saved.clone()).unwrap(), expected);
    // Loading the original file keeps its header comments on save.
    let (status, v) = {
        let (st, body) = s.raw("POST", &game_path(&id, "/load"), &[], &bytes);
        (st, serde_json::from_slice::<Value>(&body).unwrap())
    };
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 5);
    let (_, saved) = s.raw("GET", &game_path(&id, "/record"), &[], b"");
    assert_eq!(
        saved,
        write_record(&record.header, &record.position).into_bytes()
    );
    // The position code gives the same game back.
    let code = v["code"].as_str().unwrap().to_string();
    s.ok("POST", &game_path(&id, "/new"), None);
    let v = s.ok(
        "POST",
        &game_path(&id, "/code"),
        Some(json!({ "code": code })),
    );
    assert_eq!(
        (v["ply"].as_u64(), v["result"].as_str()),
        (Some(5), Some("p1"))
    );
}

#[test]
fn illegal_placements_say_why() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let place = |body: Value| s.json("POST", &game_path(&id, "/place"), Some(body));
    let error = |(status, v): (u16, Value), want_status: u16, want: &str| {
        assert_eq!(status, want_status, "{v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(want), "{e:?} should say {want:?}");
    };
    assert_eq!(place(json!({ "move": "L T0 000" })).0, 200);
    error(
        place(json!({ "move": "O T0 000" })),
        422,
        "occupied: cube 000 is already taken",
    );
    // L E180 at 330 stands upright on nothing: 331 would overhang.
    error(place(json!({ "move": "L N0 330" })), 422, "overhang");
    error(
        place(json!({ "move": "111 121 122 112" })),
        400,
        "does not touch the board",
    );
    error(place(json!({ "move": "X T0 000" })), 400, "piece letter");
    // Aimed at a column off the board: the piece is not moved onto it
    // (at an edge it is), and the cube outside is named.
    error(
        place(json!({ "aim": { "piece": "T", "orientation": "T0", "x": 8, "y": 3 } })),
        422,
        "out of the volume: aimed at x = 8, y = 3, the piece would reach",
    );
    error(
        place(json!({ "aim": { "piece": "O", "orientation": "T0", "x": 0, "y": 0 } })),
        422,
        "occupied",
    );
    error(place(json!({})), 400, "either `move`");
    // The aim is also answered by the view, with the cells of the ghost.
    let v = s.ok(
        "POST",
        &game_path(&id, "/view"),
        Some(json!({ "rotation": 1, "layers": 2, "aim": { "piece": "O", "orientation": "T0", "x": 0, "y": 0 } })),
    );
    assert_eq!(v["aim"]["legal"], false);
    assert!(v["aim"]["reason"].as_str().unwrap().starts_with("occupied"));
    assert!(
        v["board"]
            .as_str()
            .unwrap()
            .contains(r#"data-rotation="1""#)
    );
    assert!(v["board"].as_str().unwrap().contains("ghost illegal"));
    assert_eq!(
        v["top"]
            .as_str()
            .unwrap()
            .matches("<rect class=\"column")
            .count(),
        64
    );
    // A legal aim names its placement; two O each, so a third is refused.
    let v = s.ok(
        "POST",
        &game_path(&id, "/view"),
        Some(json!({ "aim": { "piece": "O", "orientation": "T0", "x": 5, "y": 5 } })),
    );
    assert_eq!(
        (v["aim"]["legal"].as_bool(), v["aim"]["move"].as_str()),
        (Some(true), Some("O T0 550"))
    );
    for m in ["O T0 660", "L T0 050", "O T0 220", "L T0 540"] {
        assert_eq!(place(json!({ "move": m })).0, 200, "{m}");
    }
    error(
        place(json!({ "move": "O T0 440" })),
        422,
        "player 2 has no O left",
    );
    let v = s.ok("GET", &game_path(&id, "/legal?piece=O"), None);
    assert_eq!(
        v["moves"].as_array().unwrap().len(),
        0,
        "player 2 has used both O: {v}"
    );
    let v = s.ok("GET", &game_path(&id, "/legal?piece=L"), None);
    assert!(v["moves"].as_array().unwrap().len() > 100);
}

#[test]
fn bad_requests_get_clear_errors_and_the_server_goes_on() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let path = game_path(&id, "/place");
    // Malformed JSON and wrong fields.
    let (status, body) = s.raw("POST", &path, &[], b"{\"move\": ");
    assert_eq!(status, 400);
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("not the JSON expected"),
        "{v}"
    );
    let (status, _) = s.json("POST", &path, Some(json!({ "move": 7 })));
    assert_eq!(status, 400);
    // Errors axum finds itself are JSON too: a game id that is not UTF-8.
    let (status, body) = s.raw("GET", "/api/games/%FF", &[], b"");
    assert_eq!(status, 400);
    let v: Value = serde_json::from_slice(&body).expect("a JSON error");
    assert!(v["error"].as_str().unwrap().contains("UTF-8"), "{v}");
    // A field the call does not know is an error, not ignored.
    let (status, v) = s.json(
        "POST",
        &game_path(&id, "/view"),
        Some(json!({ "rotaton": 2 })),
    );
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("rotaton"), "{v}");
    // An aim's errors name the field that is wrong, as it was sent.
    for (aim, says) in [
        (
            json!({ "piece": "", "orientation": "T0", "x": 3, "y": 3 }),
            "`` is not a piece",
        ),
        (
            json!({ "piece": "L", "orientation": "", "x": 3, "y": 3 }),
            "`` is not an orientation of the L",
        ),
        (
            json!({ "piece": "L", "orientation": "T", "x": 3, "y": 3 }),
            "`T` is not an orientation of the L",
        ),
    ] {
        let (status, v) = s.json("POST", &path, Some(json!({ "aim": aim })));
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
    // A query string is decoded: %4C is L.
    let v = s.ok("GET", &game_path(&id, "/legal?piece=%4C"), None);
    assert_eq!(v["piece"], "L");
    let (status, _) = s.json(
        "POST",
        &game_path(&id, "/view"),
        Some(json!({ "rotation": 9 })),
    );
    assert_eq!(status, 400);
    // A body over the cap, declared or not.
    let big = vec![b' '; 100 * 1024];
    let (status, body) = s.raw("POST", &path, &[], &big);
    assert_eq!(status, 413);
    assert!(String::from_utf8_lossy(&body).contains("larger than 64 KiB"));
    // Unknown games and routes, wrong methods: JSON errors.
    assert_eq!(s.json("GET", "/api/games/nope", None).0, 404);
    assert_eq!(s.json("GET", "/api/nothing", None).0, 404);
    assert_eq!(s.json("DELETE", "/api/shapes", None).0, 405);
    assert_eq!(s.json("POST", &game_path(&id, "/undo"), None).0, 409);
    // Foreign Origin and Host (DNS rebinding) are refused.
    for headers in [
        vec![("Origin", "http://evil.example")],
        vec![("Origin", "null")],
        vec![("Host", "evil.example")],
        vec![("Host", "attacker.example:8080")],
    ] {
        let (status, body) = s.raw("POST", "/api/games", &headers, b"{}");
        assert_eq!(status, 403, "{headers:?}");
        assert!(String::from_utf8_lossy(&body).contains("refused"));
    }
    let port = s.addr.rsplit(':').next().unwrap();
    let origin = format!("http://localhost:{port}");
    let (status, _) = s.raw("POST", "/api/games", &[("Origin", &origin)], b"{}");
    assert_eq!(status, 201);
    // After all that, the game still plays.
    let v = s.ok("POST", &path, Some(json!({ "move": "L E180 110" })));
    assert_eq!(v["ply"], 1);
    // The page itself and its files.
    let (status, page) = s.raw("GET", "/", &[], b"");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&page).contains("/assets/app.js"));
    let (status, _) = s.raw("GET", "/assets/app.js", &[], b"");
    assert_eq!(status, 200);
}

#[test]
fn a_bad_file_gets_the_line_that_cabra_check_names() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    for name in ["bad_14_floating.caminos", "bad_01_digits11.caminos"] {
        let file = data(&format!("bad/{name}"));
        let (status, body) = s.raw(
            "POST",
            &game_path(&id, "/load"),
            &[],
            &std::fs::read(&file).unwrap(),
        );
        assert_eq!(status, 422);
        let v: Value = serde_json::from_slice(&body).unwrap();
        let message = v["error"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("line {}: ", v["line"])),
            "{message}"
        );
        let check = cabra(&["check", file.to_str().unwrap()]);
        assert!(
            stderr(&check).contains(message),
            "{} vs {message}",
            stderr(&check)
        );
    }
}

#[test]
fn many_games_at_once_each_get_an_engine_move() {
    let s = Server::start(&["--threads", "2", "--max-games", "12"]);
    std::thread::scope(|scope| {
        for i in 0..10 {
            let s = &s;
            scope.spawn(move || {
                let id = s.new_game();
                if i % 2 == 1 {
                    s.ok(
                        "POST",
                        &game_path(&id, "/place"),
                        Some(json!({ "move": "O T0 330" })),
                    );
                }
                let mut events = s.events(&id);
                let v = s.ok(
                    "POST",
                    &game_path(&id, "/think"),
                    Some(json!({ "iterations": 300 })),
                );
                // Thinking at once, or waiting while two others search.
                assert!(v["busy"] == "thinking" || v["busy"] == "waiting", "{v}");
                let moved = events.wait_for("moved", LONG);
                assert_eq!(moved["state"]["ply"], i % 2 + 1);
                assert!(moved["iterations"].as_u64().unwrap() >= 300);
            });
        }
    });
    // Two more fit, the thirteenth does not.
    s.new_game();
    s.new_game();
    let (status, v) = s.json("POST", "/api/games", None);
    assert_eq!(status, 503);
    assert!(v["error"].as_str().unwrap().contains("12 games"));
}

#[test]
fn a_search_stopped_midway_plays_its_best_move_so_far() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let mut events = s.events(&id);
    let v = s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 600000 })),
    );
    // The server's thread is free: no wait for it is announced.
    assert_eq!(v["busy"], "thinking");
    let (_, first) = events.next(LONG);
    assert_eq!(first["busy"], "thinking", "{first}");
    let t = events.wait_for("thinking", LONG);
    assert_eq!(t["player"], 1);
    assert!(t["pv"].as_array().is_some_and(|pv| !pv.is_empty()), "{t}");
    // While it thinks the game does not change.
    let (status, _) = s.json(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "O T0 330" })),
    );
    assert_eq!(status, 409);
    assert_eq!(s.ok("GET", &game_path(&id, ""), None)["busy"], "thinking");
    s.ok("POST", &game_path(&id, "/stop"), None);
    let moved = events.wait_for("moved", LONG);
    assert_eq!(moved["interrupted"], true);
    assert_eq!(moved["state"]["ply"], 1);
    assert!(moved["seconds"].as_f64().unwrap() < 60.0);
    let v = s.ok("GET", &game_path(&id, ""), None);
    assert_eq!(
        (v["busy"].clone(), v["ply"].as_u64()),
        (Value::Null, Some(1))
    );
    assert_eq!(s.json("POST", &game_path(&id, "/stop"), None).0, 409);
}

#[test]
fn a_short_game_is_analysed_with_its_graph() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    for m in placements("games/hand_straight_bridge.caminos") {
        s.ok(
            "POST",
            &game_path(&id, "/place"),
            Some(json!({ "move": m })),
        );
    }
    assert_eq!(s.json("GET", &game_path(&id, "/analysis"), None).0, 404);
    let mut events = s.events(&id);
    s.ok(
        "POST",
        &game_path(&id, "/analyze"),
        Some(json!({ "iterations": 400 })),
    );
    let progress = events.wait_for("analyzing", LONG);
    assert_eq!(progress["total"], 5);
    let a = events.wait_for("analysis", LONG);
    assert_eq!(a["complete"], true);
    assert_eq!(a["moves"].as_array().unwrap().len(), 5);
    assert_eq!(a["moves"][4]["played"], "O T0 260");
    assert_eq!(a["plot"].as_str().unwrap().matches("data-ply=").count(), 5);
    assert_eq!(
        s.ok("GET", &game_path(&id, "/analysis"), None)["moves"],
        a["moves"]
    );
    // Analyzed again with a budget far too large, and stopped before it
    // finishes a placement: the first analysis stays.
    s.ok(
        "POST",
        &game_path(&id, "/analyze"),
        Some(json!({ "iterations": 1_000_000_000 })),
    );
    events.wait_state(|s| s["busy"] == "analyzing", LONG);
    s.ok("POST", &game_path(&id, "/stop"), None);
    events.wait_state(|s| s["busy"].is_null(), LONG);
    assert_eq!(
        s.ok("GET", &game_path(&id, "/analysis"), None)["moves"],
        a["moves"]
    );
    // A new line drops it.
    s.ok("POST", &game_path(&id, "/new"), None);
    assert_eq!(s.json("GET", &game_path(&id, "/analysis"), None).0, 404);
}

#[test]
fn idle_games_expire() {
    let s = Server::start(&["--threads", "1", "--idle", "300ms"]);
    let id = s.new_game();
    std::thread::sleep(Duration::from_millis(1500));
    let (status, v) = s.json("GET", &game_path(&id, ""), None);
    assert_eq!(status, 404);
    assert!(v["error"].as_str().unwrap().contains("expired"));
}

#[test]
fn pictures_from_the_command_line() {
    let dir = temp_dir();
    let board = dir.path().join("board.svg");
    let game = data("games/hand_straight_bridge.caminos");
    let o = cabra(&[
        "show",
        game.to_str().unwrap(),
        "--svg",
        board.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!("wrote {} (the board)\n", board.display())
    );
    let svg = std::fs::read_to_string(&board).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"cube p1").count(), 12);
    assert!(svg.contains("bridge"), "the winning bridge is marked");
    assert!(svg.contains("player 1 wins by bridge"));
    let plot = dir.path().join("plot.svg");
    let o = cabra(&[
        "analyze",
        game.to_str().unwrap(),
        "--iterations",
        "300",
        "--threads",
        "1",
        "--svg",
        plot.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "wrote {} (the win chances move by move)\n",
            plot.display()
        )),
        "{}",
        stderr(&o)
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert_eq!(svg.matches("data-ply=").count(), 5);
}

#[test]
fn a_picture_never_replaces_a_game_file() {
    let dir = temp_dir();
    let game = dir.path().join("game.caminos");
    let text = std::fs::read_to_string(data("games/hand_straight_bridge.caminos")).unwrap();
    std::fs::write(&game, &text).unwrap();
    let other = dir.path().join("other.caminos");
    std::fs::write(&other, &text).unwrap();
    let g = game.to_str().unwrap();
    for (out, why) in [
        (&game, "is the game file being read"),
        (&other, "exists and is not an SVG picture"),
    ] {
        for cmd in [
            vec!["show", g, "--svg", out.to_str().unwrap()],
            vec![
                "analyze",
                g,
                "--iterations",
                "50",
                "--threads",
                "1",
                "--svg",
                out.to_str().unwrap(),
            ],
        ] {
            let o = cabra(&cmd);
            assert!(!o.status.success(), "{cmd:?}");
            assert!(stderr(&o).contains(why), "{cmd:?}: {}", stderr(&o));
            assert_eq!(std::fs::read_to_string(out).unwrap(), text, "{cmd:?}");
        }
    }
    // An earlier picture is replaced, as before.
    let board = dir.path().join("board.svg");
    std::fs::write(&board, "<svg></svg>").unwrap();
    let o = cabra(&["show", g, "--svg", board.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&board).unwrap().len() > 100);
}
