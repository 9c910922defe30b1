//! An opponent for every player through the API: the strength levels a
//! game's engine plays at, hints counted in the saved file, and pondering
//! while a human thinks (`--ponder`).

use std::time::{Duration, Instant};

use cabra::engine::levels::{LEVELS, TOP};
use serde_json::{Value, json};

use super::{LONG, game_path};
use crate::http::Server;

/// Asks for an engine move and waits for its report.
fn engine_move(s: &Server, id: &str, budget: Value) -> Value {
    let mut events = s.events(id);
    s.ok("POST", &game_path(id, "/think"), Some(budget));
    events.wait_for("moved", LONG)
}

#[test]
fn the_levels_are_listed_and_a_games_level_plays_its_iterations() {
    let s = Server::start(&["--threads", "1"]);
    let info = s.ok("GET", "/api/info", None);
    let levels = info["levels"].as_array().unwrap();
    assert_eq!(levels.len(), LEVELS.len());
    for (l, v) in LEVELS.iter().zip(levels) {
        assert_eq!(v["number"], l.number, "{v}");
        assert_eq!(v["elo"], l.elo, "{v}");
        assert_eq!(v["interval"], l.interval, "{v}");
        assert!(!v["description"].as_str().unwrap().is_empty(), "{v}");
    }
    assert_eq!(info["level"], TOP);
    let id = s.new_game();
    assert_eq!(s.ok("GET", &game_path(&id, ""), None)["level"], TOP);
    // Level 3 searches its own iterations: a long time only caps them.
    let v = s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "level": 3, "sides": [1] })),
    );
    assert_eq!(
        (v["level"].as_u64(), &v["engine_sides"]),
        (Some(3), &json!([1]))
    );
    let moved = engine_move(&s, &id, json!({ "time_ms": 600000 }));
    assert_eq!(
        moved["iterations"],
        LEVELS[3].iterations.unwrap(),
        "{moved}"
    );
    // Back at the top, the page's limits hold again.
    s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "level": TOP })),
    );
    let moved = engine_move(&s, &id, json!({ "iterations": 300 }));
    assert_eq!(moved["iterations"], 300, "{moved}");
    // By rating: the nearest level.
    let v = s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "elo": LEVELS[5].elo + 1 })),
    );
    assert_eq!(v["level"], 5);
    // A new game can start at a level, with its sides.
    let (status, v) = s.json(
        "POST",
        "/api/games",
        Some(json!({ "level": 4, "sides": [1], "rules": "bridget" })),
    );
    assert_eq!(status, 201, "{v}");
    assert_eq!(
        (v["level"].as_u64(), &v["engine_sides"]),
        (Some(4), &json!([1]))
    );
    let (status, v) = s.json("POST", "/api/games", Some(json!({ "level": 12 })));
    assert_eq!(status, 400, "{v}");
    // Bad requests say why.
    for (body, says) in [
        (json!({ "level": 99 }), "the levels are 0 to"),
        (json!({ "sides": [3] }), "the players are 1 and 2"),
        (json!({ "level": 2, "elo": 500 }), "not both"),
    ] {
        let (status, v) = s.json("POST", &game_path(&id, "/engine"), Some(body));
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
}

#[test]
fn a_hint_is_the_full_engines_and_the_saved_file_counts_it() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    // At level 1 the engine's moves search one iteration; a hint searches
    // the limits asked for, as the full engine.
    s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "level": 1 })),
    );
    let v = s.ok(
        "POST",
        &game_path(&id, "/hint"),
        Some(json!({ "iterations": 400 })),
    );
    assert_eq!(v["iterations"], 400, "{v}");
    assert_eq!(v["hints"], 1, "{v}");
    assert_eq!(v["state"]["hints"], 1, "{v}");
    assert_eq!(v["state"]["ply"], 0, "a hint is not played");
    // It is a legal placement for the side to move.
    let hinted = v["move"].as_str().unwrap().to_string();
    s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": hinted })),
    );
    let (_, saved) = s.raw("GET", &game_path(&id, "/record"), &[], b"");
    let saved = String::from_utf8(saved).unwrap();
    assert!(saved.contains("# hints: 1\n"), "{saved}");
    // A loaded file with a count goes on counting.
    let file = saved.replace("# hints: 1", "# hints: 4");
    let (status, body) = s.raw("POST", &game_path(&id, "/load"), &[], file.as_bytes());
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!((status, v["hints"].as_u64()), (200, Some(4)), "{v}");
    let v = s.ok(
        "POST",
        &game_path(&id, "/hint"),
        Some(json!({ "iterations": 50 })),
    );
    assert_eq!(v["hints"], 5, "{v}");
    let (_, saved) = s.raw("GET", &game_path(&id, "/record"), &[], b"");
    let saved = String::from_utf8(saved).unwrap();
    assert_eq!(saved.matches("# hints:").count(), 1, "{saved}");
    assert!(saved.contains("# hints: 5\n"), "{saved}");
    // A new game starts at none, and saves none.
    let v = s.ok("POST", &game_path(&id, "/new"), None);
    assert_eq!(v["hints"], 0);
    let (_, saved) = s.raw("GET", &game_path(&id, "/record"), &[], b"");
    assert!(!String::from_utf8(saved).unwrap().contains("hints"));
}

/// Polls the game until `pred` holds of its state; the state.
fn until(s: &Server, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let v = s.ok("GET", &game_path(id, ""), None);
        if pred(&v) {
            return v;
        }
        assert!(start.elapsed() < LONG, "not within {LONG:?}: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_server_ponders_a_humans_turn_and_stops_for_the_move() {
    let s = Server::start(&["--threads", "1", "--ponder"]);
    assert_eq!(s.ok("GET", "/api/info", None)["ponder"], true);
    let id = s.new_game();
    let _listening = s.events(&id);
    // The human plays 1 against the engine: its turn is pondered.
    s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "sides": [2] })),
    );
    let first = until(&s, &id, |v| {
        v["pondering"] == true && v["pondered"].as_u64() > Some(0)
    });
    let later = until(&s, &id, |v| {
        v["pondered"].as_u64() > first["pondered"].as_u64()
    });
    assert_eq!(later["busy"], Value::Null, "a ponder leaves the game idle");
    // The move stops it at once.
    let v = s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "O T0 330" })),
    );
    assert_eq!(v["pondering"], false, "{v}");
    // The engine replies, and the human's next turn is pondered again.
    let moved = engine_move(&s, &id, json!({ "iterations": 200 }));
    assert_eq!(moved["state"]["to_move"], 1, "{moved}");
    until(&s, &id, |v| v["pondering"] == true);
}

#[test]
fn another_games_search_is_not_delayed_by_a_ponder() {
    let s = Server::start(&["--threads", "1", "--ponder"]);
    let pondered = s.new_game();
    let _listening = s.events(&pondered);
    s.ok(
        "POST",
        &game_path(&pondered, "/engine"),
        Some(json!({ "sides": [2] })),
    );
    until(&s, &pondered, |v| v["pondering"] == true);
    // The ponder holds the only thread, with no limit: another game's
    // search takes it from it at once.
    let other = s.new_game();
    let start = Instant::now();
    let moved = engine_move(&s, &other, json!({ "iterations": 100 }));
    assert_eq!(moved["iterations"], 100, "{moved}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        s.ok("GET", &game_path(&pondered, ""), None)["pondering"],
        false
    );
}

#[test]
fn a_level_below_the_top_never_ponders() {
    let s = Server::start(&["--threads", "1", "--ponder"]);
    let id = s.new_game();
    let _listening = s.events(&id);
    s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "sides": [2], "level": 6 })),
    );
    s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "O T0 330" })),
    );
    let moved = engine_move(&s, &id, json!({}));
    assert_eq!(moved["state"]["to_move"], 1, "{moved}");
    std::thread::sleep(Duration::from_millis(800));
    let v = s.ok("GET", &game_path(&id, ""), None);
    assert_eq!(
        (v["pondering"].as_bool(), v["pondered"].as_u64()),
        (Some(false), Some(0)),
        "{v}"
    );
    // Without --ponder, the full engine does not ponder either.
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let _listening = s.events(&id);
    s.ok(
        "POST",
        &game_path(&id, "/engine"),
        Some(json!({ "sides": [2] })),
    );
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(s.ok("GET", &game_path(&id, ""), None)["pondering"], false);
}

#[test]
fn every_module_the_page_imports_is_served() {
    let s = Server::start(&["--threads", "1"]);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli/serve/page");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // `import { a } from './name.js';`
        for name in text.split("from './").skip(1) {
            let name = name.split('\'').next().unwrap();
            let (status, body) = s.raw("GET", &format!("/assets/{name}"), &[], b"");
            assert_eq!(status, 200, "{name}, imported by {path:?}, is not served");
            assert_eq!(body, std::fs::read(dir.join(name)).unwrap(), "{name}");
            seen += 1;
        }
    }
    assert!(seen >= 6, "only {seen} imports found");
}
