//! `cabra serve` under the rule variants and the swap option, through the
//! same API.

use serde_json::json;

use super::game_path;
use crate::http::Server;

#[test]
fn variants_swap_and_time_machine_through_the_api() {
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    let place = |m: &str| {
        s.json(
            "POST",
            &game_path(&id, "/place"),
            Some(json!({ "move": m })),
        )
    };
    // Under the default rules there is no swap.
    s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "L T0 000" })),
    );
    let (status, v) = place("swap");
    assert_eq!(status, 422, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("not part of the caminos rules")
    );
    // caminos swap: player 2 takes player 1's first piece.
    let v = s.ok(
        "POST",
        &game_path(&id, "/new"),
        Some(json!({ "rules": "swap" })),
    );
    assert_eq!(
        (v["rules"].as_str(), v["special"].as_array().map(Vec::len)),
        (Some("caminos swap"), Some(0))
    );
    let v = s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "L T0 000" })),
    );
    assert_eq!(v["special"], json!(["swap"]));
    let v = s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "swap" })),
    );
    assert_eq!(
        (v["swapped"].as_bool(), v["to_move"].as_u64()),
        (Some(true), Some(1))
    );
    assert_eq!(
        v["line"][1],
        json!({ "ply": 2, "player": 2, "move": "swap", "cells": null })
    );
    let (_, saved) = s.raw("GET", &game_path(&id, "/record"), &[], b"");
    assert_eq!(
        String::from_utf8(saved).unwrap(),
        "# rules: caminos swap\n000 010 100 200  # L T0 000\nswap\n"
    );
    // bridget: the time machine takes back the last two placements.
    let v = s.ok(
        "POST",
        &game_path(&id, "/new"),
        Some(json!({ "rules": "bridget" })),
    );
    assert_eq!(v["count"], "edge");
    for m in ["L T0 000", "O T0 660"] {
        s.ok(
            "POST",
            &game_path(&id, "/place"),
            Some(json!({ "move": m })),
        );
    }
    let v = s.ok(
        "POST",
        &game_path(&id, "/place"),
        Some(json!({ "move": "tm" })),
    );
    assert_eq!(v["time_machine_used"], json!([true, false]));
    assert_eq!(
        (v["ply"].as_u64(), v["to_move"].as_u64()),
        (Some(3), Some(1))
    );
    let svg = s.ok("POST", &game_path(&id, "/view"), None)["board"].clone();
    assert!(
        !svg.as_str().unwrap().contains("class=\"cube p"),
        "the board is empty again"
    );
    let (status, v) = place("tm");
    assert_eq!(status, 422);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("tm is illegal: player 1 has already used the time machine"),
        "{v}"
    );
    // Undo takes back the time machine itself.
    let v = s.ok("POST", &game_path(&id, "/undo"), None);
    assert_eq!(
        (v["ply"].as_u64(), v["to_move"].as_u64()),
        (Some(2), Some(1))
    );
    let (status, v) = s.json(
        "POST",
        &game_path(&id, "/new"),
        Some(json!({ "rules": "chess" })),
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("unknown rules word"));
}
