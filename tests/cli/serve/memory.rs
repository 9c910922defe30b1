//! What the server holds for its games: the search trees of all games
//! within one memory budget, and no search left running for a game that
//! nobody follows any more.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{LONG, game_path};
use crate::http::Server;

/// The server's resident memory, in bytes.
fn rss(s: &Server) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
    let kb: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line");
    kb * 1024
}

/// Waits (at most `within`) until no game's engine works; how long it took.
fn until_idle(s: &Server, within: Duration) -> Duration {
    let start = Instant::now();
    loop {
        if s.ok("GET", "/api/info", None)["working"] == 0 {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < within,
            "a search still runs after {within:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_trees_of_many_games_stay_within_the_memory_budget() {
    let mb = 1usize << 20;
    let cap = 96 * mb;
    let s = Server::start(&["--threads", "2", "--memory", "96M"]);
    assert_eq!(s.ok("GET", "/api/info", None)["memory_bytes"], cap);
    let start = rss(&s);
    // Six games think in turn, each long enough to fill the budget
    // alone; together their trees would hold several times it.
    let mut most = 0;
    for _ in 0..6 {
        let id = s.new_game();
        let mut events = s.events(&id);
        s.ok(
            "POST",
            &game_path(&id, "/think"),
            Some(json!({ "time_ms": 2500 })),
        );
        let moved = events.wait_for("moved", LONG);
        let info = s.ok("GET", "/api/info", None);
        let used = info["memory_used_bytes"].as_u64().unwrap() as usize;
        assert!(used <= cap, "{used} bytes of trees for a budget of {cap}");
        assert!(moved["nodes"].as_u64().unwrap() as usize * 36 <= cap);
        most = most.max(rss(&s));
    }
    // What the process holds beyond what it started with: the budget, and
    // some slack for the allocator and the threads' stacks.
    let grown = most.saturating_sub(start);
    assert!(
        grown <= cap + 48 * mb,
        "the server grew by {} MiB for a budget of {} MiB",
        grown / mb,
        cap / mb
    );
}

#[test]
fn a_search_whose_client_went_away_stops() {
    let s = Server::start(&["--threads", "1"]);
    // A client that asks for ten minutes and hangs up at once.
    let id = s.new_game();
    s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 600000 })),
    );
    let took = until_idle(&s, Duration::from_secs(5));
    assert!(took <= Duration::from_secs(3), "stopped after {took:?}");
    // The move of a search nobody followed is not played.
    assert_eq!(s.ok("GET", &game_path(&id, ""), None)["ply"], 0);
    // A page that listens, then goes away: its search stops too.
    let id = s.new_game();
    let mut events = s.events(&id);
    s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 600000 })),
    );
    events.wait_for("thinking", LONG);
    drop(events);
    let took = until_idle(&s, Duration::from_secs(5));
    assert!(took <= Duration::from_secs(3), "stopped after {took:?}");
    // So does the analysis of a long game nobody waits for.
    let id = s.new_game();
    for m in ["L E180 110", "O T0 330", "T T0 550", "L T270 040"] {
        s.ok(
            "POST",
            &game_path(&id, "/place"),
            Some(json!({ "move": m })),
        );
    }
    s.ok(
        "POST",
        &game_path(&id, "/analyze"),
        Some(json!({ "iterations": 1_000_000_000 })),
    );
    let took = until_idle(&s, Duration::from_secs(5));
    assert!(took <= Duration::from_secs(3), "stopped after {took:?}");
}

#[test]
fn a_followed_search_runs_its_course() {
    // A client that polls the game now and then keeps its search going.
    let s = Server::start(&["--threads", "1"]);
    let id = s.new_game();
    s.ok(
        "POST",
        &game_path(&id, "/think"),
        Some(json!({ "time_ms": 3000 })),
    );
    // The job waits for its thread first: a moment, longer on a busy
    // machine.
    let asked = Instant::now();
    while s.ok("GET", &game_path(&id, ""), None)["busy"] == "waiting" {
        assert!(asked.elapsed() < Duration::from_secs(2), "never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) {
        assert_eq!(s.ok("GET", &game_path(&id, ""), None)["busy"], "thinking");
        std::thread::sleep(Duration::from_millis(500));
    }
    let end = Instant::now();
    while s.ok("GET", &game_path(&id, ""), None)["busy"] != serde_json::Value::Null {
        assert!(end.elapsed() < LONG);
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(s.ok("GET", &game_path(&id, ""), None)["ply"], 1);
}
