//! The engine's jobs for a game seen through the API: a search stopped
//! before it got its threads, and games kept while they are searched or
//! watched.

use std::time::Duration;

use serde_json::{Value, json};

use super::{LONG, game_path, placements};
use crate::http::Server;

#[test]
fn a_search_stopped_while_it_waits_for_threads_plays_a_searched_move() {
    let s = Server::start(&["--threads", "1"]);
    // The first game takes the only thread for ten minutes.
    let busy = s.new_game();
    let mut busy_events = s.events(&busy);
    s.ok(
        "POST",
        &game_path(&busy, "/think"),
        Some(json!({ "time_ms": 600000 })),
    );
    busy_events.wait_for("thinking", LONG);
    // Player 1 wins at once here with O T0 260 (the bridge of
    // games/hand_straight_bridge.caminos), not with the first legal placement.
    let id = s.new_game();
    for m in &placements("games/hand_straight_bridge.caminos")[..4] {
        s.ok(
            "POST",
            &game_path(&id, "/place"),
            Some(json!({ "move": m })),
        );
    }
    let mut events = s.events(&id);
    let v = s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 600000 })),
    );
    assert_eq!(v["busy"], "waiting");
    let v = s.ok("POST", &game_path(&id, "/stop"), None);
    assert_eq!(v["stopping"], "waiting");
    // It stops waiting, and a short search answers: not the first legal
    // placement, which a search without iterations would name.
    let moved = events.wait_for("moved", LONG);
    assert_eq!(moved["interrupted"], true);
    assert!(moved["iterations"].as_u64().unwrap() > 0, "{moved}");
    assert_eq!(moved["state"]["result"], "p1", "{moved}");
    assert_eq!(s.ok("GET", &game_path(&busy, ""), None)["busy"], "thinking");
    s.ok("POST", &game_path(&busy, "/stop"), None);
    busy_events.wait_for("moved", LONG);
}

#[test]
fn games_do_not_expire_while_searched_or_watched() {
    let s = Server::start(&["--threads", "1", "--idle", "1s"]);
    // A search longer than the expiry, nobody listening: the game is
    // there after the move (its time counts from the end of the search).
    let id = s.new_game();
    s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 1500 })),
    );
    std::thread::sleep(Duration::from_millis(1800));
    let (status, v) = s.json("GET", &game_path(&id, ""), None);
    assert_eq!(status, 200, "{v}");
    // A game whose events a page listens to stays, untouched.
    let watched = s.new_game();
    let _events = s.events(&watched);
    std::thread::sleep(Duration::from_millis(2000));
    assert_eq!(s.json("GET", &game_path(&watched, ""), None).0, 200);
    assert_eq!(s.json("GET", &game_path(&id, ""), None).0, 404);
}

/// The moves the engine of a new game plays at 300 iterations a move from
/// the empty board, three in a row.
fn first_moves(s: &Server) -> Vec<String> {
    let id = s.new_game();
    let mut events = s.events(&id);
    (0..3)
        .map(|_| {
            s.ok(
                "POST",
                &game_path(&id, "/think"),
                Some(json!({ "iterations": 300 })),
            );
            events.wait_for("moved", LONG)["move"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_given_seed_makes_every_game_replayable() {
    // With --seed every game searches with it: the same moves each time.
    let s = Server::start(&["--threads", "1", "--seed", "7"]);
    let first = first_moves(&s);
    assert_eq!(first_moves(&s), first);
    assert_eq!(first_moves(&s), first);
    // Without it each game has a seed of its own: in eight games of three
    // moves at least two differ (the same 24 moves by chance is beyond
    // belief at 300 iterations from 1,345 placements).
    let s = Server::start(&["--threads", "1"]);
    let games: Vec<_> = (0..8).map(|_| first_moves(&s)).collect();
    assert!(games.iter().any(|g| g != &games[0]), "{games:?}");
}

#[test]
fn a_search_stopped_without_its_move_leaves_the_game_as_it_was() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let mut events = s.events(&id);
    s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 600000 })),
    );
    events.wait_for("thinking", LONG);
    let v = s.ok(
        "POST",
        &game_path(&id, "/stop"),
        Some(json!({ "play": false })),
    );
    assert_eq!(
        (v["stopping"].as_str(), v["play"].as_bool()),
        (Some("thinking"), Some(false))
    );
    // The engine is idle again, nothing was played, and no `moved` came.
    let (name, state) = loop {
        let (name, data) = events.next(LONG);
        if name != "thinking" {
            break (name, data);
        }
    };
    assert_eq!(name, "state", "{state}");
    assert_eq!(
        (state["busy"].clone(), state["ply"].as_u64()),
        (Value::Null, Some(0))
    );
    // The next search plays as usual; an unknown field is refused.
    s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "iterations": 50 })),
    );
    assert_eq!(events.wait_for("moved", LONG)["state"]["ply"], 1);
    let (status, v) = s.json(
        "POST",
        &game_path(&id, "/stop"),
        Some(json!({ "plays": 0 })),
    );
    assert_eq!(status, 400, "{v}");
}

#[test]
fn an_engine_move_for_a_version_the_game_has_left_is_refused() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let v = s.ok("GET", &game_path(&id, ""), None)["version"].clone();
    s.ok("POST", &game_path(&id, "/new"), None);
    let (status, answer) = s.json(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "iterations": 50, "version": v })),
    );
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("the game changed"),
        "{answer}"
    );
    let now = s.ok("GET", &game_path(&id, ""), None);
    assert_eq!(now["busy"], Value::Null);
    let answer = s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "iterations": 50, "version": now["version"] })),
    );
    assert_eq!(answer["busy"], "thinking");
}
