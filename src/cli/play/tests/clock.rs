//! The engine on a game clock in the REPL (`set clock`).

use super::*;

/// The engine's time left, as `set` lists it.
fn clock_line(s: &mut Session) -> String {
    let t = ok(s, "set");
    t.lines()
        .find(|l| l.starts_with("clock"))
        .unwrap_or_else(|| panic!("{t}"))
        .to_string()
}

#[test]
fn the_engine_plays_on_its_clock_and_the_clock_runs_down() {
    let mut s = session(You::One);
    assert_eq!(clock_line(&mut s), "clock       -");
    let t = ok(&mut s, "set clock 2s+100ms");
    assert!(t.contains("clock of 2s+100ms"), "{t}");
    assert!(clock_line(&mut s).contains("(2s left on the engine's clock)"));
    assert!(ok(&mut s, "set").contains("against the engine (on a clock of 2s+100ms)"));
    // The engine answers within its share and says what it has left.
    let t = ok(&mut s, "L T0 000");
    let line = t
        .lines()
        .find(|l| l.starts_with("The engine's clock: "))
        .unwrap_or_else(|| panic!("{t}"));
    let left = parse_duration(
        line.trim_start_matches("The engine's clock: ")
            .trim_end_matches(" left."),
    )
    .unwrap();
    // At most its share spent (1.5/14 of 2 s and 90% of the increment,
    // less 30 ms: 274 ms), then 100 ms back.
    let (main, inc) = (
        parse_duration("2s").unwrap(),
        parse_duration("100ms").unwrap(),
    );
    let floor = parse_duration("1.7s").unwrap();
    assert!(left < main + inc && left > floor, "{line}");
    assert_eq!(s.position().placements().len(), 2);
    // A new game restarts it.
    ok(&mut s, "new");
    assert!(clock_line(&mut s).contains("(2s left on the engine's clock)"));
    ok(&mut s, "L T0 000");
    // Bad clocks are refused and change nothing.
    for bad in ["set clock soon", "set clock 1s+", "set clock"] {
        err(&mut s, bad);
    }
    assert!(clock_line(&mut s).contains("2s+100ms"));
    // Back to a budget per placement.
    let t = ok(&mut s, "set clock off");
    assert!(t.contains("60 iterations a placement"), "{t}");
    assert_eq!(clock_line(&mut s), "clock       -");
    ok(&mut s, "set clock 1m");
    ok(&mut s, "set time 20ms");
    assert_eq!(clock_line(&mut s), "clock       -");
}

#[test]
fn the_clock_stands_for_a_limit_given_at_start() {
    // As `cabra play --iterations 1`, then `set clock`: the clock's share
    // sets the search, not the one iteration.
    let engine = defaults::PLAY.handle(EngineConfig {
        threads: Some(1),
        seed: Some(1),
        budget: Budget::iterations(1),
        ..EngineConfig::default()
    });
    let record = Record {
        position: Position::new(),
        header: Vec::new(),
    };
    let options = Options {
        budget: Budget::iterations(1),
        ..options(You::One, false)
    };
    let mut s = Session::new(record, None, options, engine, Box::new(QuietUi::default()));
    ok(&mut s, "set clock 2s+100ms");
    assert!(ok(&mut s, "set").contains("iterations  1   (not while the clock runs)"));
    let t = ok(&mut s, "L T0 000");
    let iterations: u64 = t
        .split_whitespace()
        .zip(t.split_whitespace().skip(1))
        .find(|(_, w)| w.starts_with("iteration"))
        .and_then(|(n, _)| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("{t}"));
    assert!(iterations > 100, "{t}");
    // Off again, the one iteration a placement is back.
    ok(&mut s, "set clock off");
    let t = ok(&mut s, "O T0 660");
    assert!(t.contains(" 1 iteration"), "{t}");
}
