//! `--ponder`: the engine thinks on the player's time.

use super::*;

fn pondering_session(config: &str) -> Session {
    let engine = defaults::PLAY.handle(EngineConfig::parse(config).unwrap());
    let record = Record {
        position: Position::new(),
        header: Vec::new(),
    };
    let options = Options {
        ponder: true,
        threads: None,
        ..options(You::One, false)
    };
    Session::new(record, None, options, engine, Box::new(QuietUi::default()))
}

#[test]
fn the_engine_thinks_while_the_player_does_and_stops_for_their_line() {
    let mut s = pondering_session("threads=1,seed=1");
    assert!(!s.handle("L E180 110").error);
    // The engine answered; now it is the player's turn, and it ponders.
    assert!(s.is_pondering());
    // Any line stops it first, and a command sees the tree it grew (on a
    // busy machine the search may need a few turns of the player).
    let mut nodes = 0;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let r = s.handle("set");
        assert!(!r.error, "{}", r.text);
        nodes = s.kept_nodes();
        if nodes > 1_000 {
            break;
        }
    }
    assert!(nodes > 1_000, "{nodes}");
    // ...and it goes on after the command, while it is still their turn.
    assert!(s.is_pondering());
    assert!(s.handle("quit").quit || s.handle("quit").quit);
}

#[test]
fn a_level_below_the_top_never_ponders() {
    let mut s = pondering_session("level=4,seed=1");
    assert!(!s.handle("L E180 110").error);
    assert!(!s.is_pondering());
    // `set` says so.
    let t = s.handle("set").text;
    assert!(
        t.contains("ponder      on    (but a level below the top never"),
        "{t}"
    );
}

#[test]
fn set_says_whether_the_engine_ponders() {
    let t = pondering_session("threads=1,seed=1").handle("set").text;
    assert!(
        t.contains("ponder      on    (the engine thinks on your time)"),
        "{t}"
    );
    let t = session(You::One).handle("set").text;
    assert!(
        t.contains("ponder      off   (`cabra play --ponder`"),
        "{t}"
    );
}
