//! Out-of-range and nonsense input to the checked calls of `cabra::game`.

use cabra::game::record::parse_record;
use cabra::game::{
    Cell, Face, GameLine, MOVE_COUNT, Move, NotationError, Orientation, PLACEMENT_COUNT, Piece,
    Placement, PlacementError, Player, Position, RangeError, Rules, Status, parse_move,
    parse_placement, parse_placement_or_cells, table,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn numbers_out_of_range_make_nothing() {
    for i in [PLACEMENT_COUNT, PLACEMENT_COUNT + 1, 9999, usize::MAX] {
        assert_eq!(Placement::try_from(i), Err(RangeError::Placement(i)));
    }
    assert!(Placement::try_from(u16::MAX).is_err());
    assert!(Placement::try_from(PLACEMENT_COUNT - 1).is_ok());
    for id in [MOVE_COUNT, MOVE_COUNT + 1, 1_000_000, usize::MAX] {
        assert_eq!(Move::from_id(id), None);
    }
    assert_eq!(Move::from_id(MOVE_COUNT - 1), Some(Move::TimeMachine));
    for (x, y, z) in [
        (8, 0, 0),
        (0, 8, 0),
        (0, 0, 3),
        (9, 9, 9),
        (11, 0, 0),
        (255, 255, 255),
    ] {
        assert_eq!(Cell::new(x, y, z), Err(RangeError::Cell { x, y, z }));
    }
    assert!(matches!(
        Cell::from_digits([9, 0, 0]),
        Err(NotationError::CubeOffBoard { .. })
    ));
    assert_eq!(Piece::from_index(4), None);
    assert_eq!(Piece::from_index(usize::MAX), None);
    assert_eq!(Player::from_index(2), None);
    for degrees in [45, 360, 450, u32::MAX] {
        assert_eq!(Orientation::from_degrees(Face::T, degrees), None);
    }
    let t = table();
    assert_eq!(t.placement_at(51, 0, 0), None);
    assert_eq!(t.placement_at(usize::MAX, 0, 0), None);
    assert_eq!(t.placement_at(0, 8, 0), None);
    assert_eq!(t.placement_at(0, 255, 255), None);
}

#[test]
fn a_position_refuses_what_it_cannot_do() {
    let pos = Position::new();
    for (x, y) in [(8, 0), (0, 8), (8, 8), (255, 255)] {
        assert_eq!(pos.top(x, y), Err(RangeError::Column { x, y }));
    }
    assert_eq!(pos.top(7, 7), Ok(None));
    // The special moves are not in the default rules; tm needs two
    // placements; swap comes only second.
    let mut p = pos;
    assert!(matches!(
        p.play(Move::Swap),
        Err(PlacementError::NotInRules { .. })
    ));
    assert!(p.play(Move::TimeMachine).is_err());
    let mut swap = Position::with_rules("swap".parse().unwrap());
    assert_eq!(swap.play(Move::Swap), Err(PlacementError::SwapTurn));
    assert_eq!(swap, Position::with_rules("swap".parse().unwrap()));
    // A finished game takes nothing, and lists nothing.
    let mut won = Position::new();
    for text in ["L T90 200", "O T0 660", "L T90 230", "O T0 640", "O T0 260"] {
        won.play(parse_placement(text).unwrap()).unwrap();
    }
    assert!(won.status().is_over());
    for p in Placement::all() {
        assert!(matches!(won.play(p), Err(PlacementError::GameOver(_))));
        assert!(!won.is_legal(p));
    }
    assert_eq!(won.count_legal(), 0);
    assert_eq!(
        won.random_move(&mut Xoshiro256PlusPlus::seed_from_u64(1)),
        None
    );
    // An illegal game record is refused with its index.
    let twice: Move = "L E180 110".parse().unwrap();
    assert!(matches!(
        Position::from_moves(Rules::default(), &[twice, twice]),
        Err(cabra::game::MoveError {
            index: 1,
            why: PlacementError::Occupied(_),
            ..
        })
    ));
    let mut line = GameLine::new(Position::new());
    assert!(line.goto(1).is_err());
    assert!(line.goto(usize::MAX).is_err());
    assert_eq!(line.undo(), None);
    assert_eq!(line.redo(), None);
    assert!(matches!(pos.status(), Status::Ongoing));
}

#[test]
fn the_two_counts_of_legal_moves_agree_under_every_rule() {
    for rules in ["caminos", "bridget", "caminos swap", "bridget swap"] {
        let mut pos = Position::with_rules(rules.parse().unwrap());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        while !pos.status().is_over() {
            let mut list = cabra::game::MoveList::new();
            pos.legal_moves(&mut list);
            assert_eq!(
                list.len(),
                pos.count_legal(),
                "{rules} after {}",
                pos.plies()
            );
            let mut each = 0;
            pos.for_each_legal(|_| each += 1);
            assert_eq!(each, list.len());
            let m = list[rng.random_range(0..list.len())];
            pos.play(m).unwrap();
        }
    }
}

/// Strings a person or a program may send by mistake.
fn nonsense() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        " ",
        "L",
        "L T",
        "L T0",
        "L T0 0",
        "L T0 0000",
        "L T999999999999 000",
        "L T0 999",
        "L T0 -10",
        "L T0 1e3",
        "O Q0 000",
        "é",
        "L é0 000",
        "L T0 00é",
        "Lé",
        "Léééé",
        "\u{0}",
        "LT090000000000000000000000",
        "swap swap",
        "tm tm",
        "0",
        "000 000 000 000",
        "999 999 999 999",
        "110 120 121",
        "110 120 121 122 123",
        "110 120 121 12x",
        "c101",
        "L E180 110 trailing",
        "L E180 1 1 0 0",
        "l e 1 8 0 1 1 0",
        "\t\n\r",
        "T T0 000 000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    out.push("L".repeat(10_000));
    out.push("9".repeat(10_000));
    // Random short strings over the alphabet of the notation and beyond.
    let alphabet: Vec<char> = "LTZOBNSEWltzobnsew0123456789 #,-é\u{1F600}"
        .chars()
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..20_000 {
        let n = rng.random_range(0..16);
        out.push(
            (0..n)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect(),
        );
    }
    out
}

#[test]
fn nonsense_notation_is_an_error_never_a_panic() {
    let mut readable = 0;
    for s in nonsense() {
        // Each call either reads a placement that prints back canonically
        // and reads again, or says why not.
        for result in [
            parse_placement(&s),
            parse_placement_or_cells(&s),
            s.parse::<Placement>(),
        ] {
            match result {
                Ok(p) => {
                    readable += 1;
                    assert_eq!(parse_placement(&p.to_string()), Ok(p), "{s:?}");
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        if let Ok(m) = parse_move(&s) {
            assert_eq!(m.to_string().parse::<Move>(), Ok(m), "{s:?}");
        }
        let _ = s.parse::<Rules>();
        assert!(Position::from_code(&s).is_err() || s == "c101", "{s:?}");
    }
    assert!(readable > 0, "some random strings are placements");
}

#[test]
fn bad_files_name_their_line_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let pieces: [&[u8]; 10] = [
        b"110 120 121 122",
        b"660 661 670 671",
        b"swap",
        b"tm",
        b"# rules: bridget swap",
        b"# rules: hex",
        b"\xff\xfe",
        b"L E180 110",
        b"999 999 999 999",
        b"",
    ];
    for _ in 0..3_000 {
        let mut file = Vec::new();
        for _ in 0..rng.random_range(0..8) {
            file.extend_from_slice(pieces[rng.random_range(0..pieces.len())]);
            file.push([b'\n', b'\r'][rng.random_range(0..2)]);
        }
        match parse_record(&file) {
            Ok(r) => assert!(r.position.plies() <= cabra::game::MAX_MOVES),
            Err(e) => {
                assert!(e.line >= 1);
                assert!(e.to_string().starts_with(&format!("line {}: ", e.line)));
            }
        }
    }
}

#[test]
fn position_codes_that_do_not_check_out_are_refused() {
    let mut pos = Position::new();
    pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
    let code = pos.to_code();
    assert_eq!(Position::from_code(&code), Ok(pos));
    // Every change of one character is refused (or, rarely, another game
    // whose check also matches: then it is a legal one).
    let digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for i in 0..code.len() {
        for c in digits.chars() {
            let mut changed = code.clone();
            changed.replace_range(i..i + 1, &c.to_string());
            if changed != code {
                if let Ok(other) = Position::from_code(&changed) {
                    assert_eq!(Position::from_code(&other.to_code()), Ok(other));
                }
            }
        }
    }
    assert!(Position::from_code(&code[..code.len() - 1]).is_err());
    assert!(Position::from_code(&format!("{code}é")).is_err());
    // `Display` and `FromStr` are the same code.
    assert_eq!(pos.to_string(), code);
    assert_eq!(code.parse::<Position>(), Ok(pos));
    assert!("c1".parse::<Position>().is_err());
    assert!("".parse::<Position>().is_err());
}

#[cfg(feature = "serde")]
#[test]
fn serialized_games_are_checked_when_read() {
    let mut pos = Position::with_rules("bridget swap".parse().unwrap());
    pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
    pos.play(Move::Swap).unwrap();
    let json = serde_json::to_string(&pos).unwrap();
    assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
    for bad in [
        r#"{"rules":"hex","moves":[]}"#,
        r#"{"moves":["swap"]}"#,
        r#"{"moves":["L E180 999"]}"#,
        r#"{"moves":[7]}"#,
        r#"{"moves":[], "extra": 1}"#,
        r#"[]"#,
    ] {
        assert!(serde_json::from_str::<Position>(bad).is_err(), "{bad}");
    }
    assert_eq!(
        serde_json::from_str::<Move>(r#""tm""#).unwrap(),
        Move::TimeMachine
    );
}

#[test]
fn engine_calls_with_extreme_input_answer_without_a_panic() {
    use cabra::engine::clock::{OnClock, allocation};
    use cabra::engine::{Budget, EngineConfig, EngineHandle, Request, parse_count};
    use std::time::Duration;

    // Counts and ratings past what the types hold are errors.
    assert!(parse_count("999999999999999999999999999999G").is_err());
    assert!(EngineConfig::parse("iterations=999999999999999999999999999999G").is_err());
    assert!(EngineConfig::parse(&format!("elo={}", i32::MIN)).is_ok());
    // A level past the table is refused and changes nothing.
    let mut c = EngineConfig::parse("level=3").unwrap();
    let before = c.clone();
    assert!(c.set_level(200).is_err());
    assert_eq!(c, before);
    // Past its budget, a search is at most all the way through it.
    let b = Budget::iterations(10);
    assert_eq!(b.fraction(Duration::ZERO, 1_000, 0), 1.0);
    assert_eq!(b.fraction(Duration::ZERO, 5, 0), 0.5);
    assert!(EngineConfig::parse(&format!("elo={}", i32::MAX)).is_ok());
    // The hint for a key without a value shows what it takes.
    let e = EngineConfig::parse("level").unwrap_err().to_string();
    assert!(!e.contains("level=-"), "{e}");
    assert!(cabra::search::Replies::new(0).get(0, 5).is_none());
    // A clock of the longest duration, and a time limit past what an
    // Instant holds: the search runs (and is stopped), the share saturates.
    let pos = Position::new();
    assert!(allocation(Duration::MAX, Duration::MAX, &pos) > Duration::ZERO);
    let engine = EngineHandle::new(EngineConfig::parse("threads=1").unwrap());
    let clocked = Request::new(pos)
        .clock(Some(OnClock {
            left: Duration::MAX,
            increment: Duration::ZERO,
        }))
        .limits(Budget::iterations(200));
    assert!(engine.search(clocked).unwrap().report.best.is_some());
    for request in [
        Request::new(pos).limits(Budget::time(Duration::MAX)),
        Request::analysis(pos)
            .until_stopped()
            .report_every(Duration::MAX),
    ] {
        let job = engine.start(request, |_| {}).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let thought = job.stop_and_wait().unwrap();
        assert!(thought.report.best.is_some());
    }
}

#[test]
fn a_small_memory_share_still_grows_a_tree() {
    use cabra::engine::{Budget, EngineConfig, EngineHandle, Request, TreeMemory};
    use std::sync::Arc;

    // The endgame tables alone take more than 16 MiB: the tree still gets
    // its smallest share, and searches.
    let memory = Arc::new(TreeMemory::new(16 << 20, 1));
    let config = EngineConfig::parse("threads=1,seed=1").unwrap();
    let engine = EngineHandle::with_memory(config, &memory);
    let request = Request::new(Position::new()).limits(Budget::iterations(5_000));
    let thought = engine.search(request).unwrap();
    assert!(
        thought.report.nodes > 1_000,
        "{} nodes",
        thought.report.nodes
    );
    assert!(thought.report.top.len() > 1);
}

#[test]
fn changes_during_a_search_until_stopped_do_not_wait_for_it() {
    use cabra::engine::{EngineConfig, EngineHandle, Request};

    let engine = EngineHandle::new(EngineConfig::parse("threads=1").unwrap());
    let (reported, report) = std::sync::mpsc::channel();
    let job = engine
        .start(Request::new(Position::new()).until_stopped(), move |_| {
            let _ = reported.send(());
        })
        .unwrap();
    // Once the search runs, neither call waits for it (only a stop ends it).
    report.recv().unwrap();
    engine.forget();
    engine.set_config(EngineConfig::parse("threads=1,c=0.3").unwrap());
    assert!(engine.is_busy());
    let thought = job.stop_and_wait().unwrap();
    assert!(thought.interrupted);
    // The next search has the new configuration and a fresh tree.
    assert_eq!(
        engine.config(),
        EngineConfig::parse("threads=1,c=0.3").unwrap()
    );
    assert_eq!(engine.nodes(), 0);
    // More threads than a search may have, set in the public field, count
    // as the most it may have.
    engine.set_config(EngineConfig {
        threads: Some(100_000),
        ..EngineConfig::default()
    });
    assert_eq!(engine.threads(), cabra::engine::MAX_THREADS);
}

#[test]
fn small_types_read_back_what_they_print() {
    use cabra::game::{Cell, Face, Move, NotationError, Orientation, Piece, Player};
    for c in ["000", "121", "772"] {
        assert_eq!(c.parse::<Cell>().unwrap().to_string(), c);
    }
    for p in ["L", "T", "Z", "O"] {
        assert_eq!(p.parse::<Piece>().unwrap().to_string(), p);
    }
    for p in Player::BOTH {
        assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        assert_eq!(p.number().to_string().parse::<Player>(), Ok(p));
    }
    for o in ["T0", "B90", "N180", "S270", "E0", "W90"] {
        assert_eq!(o.parse::<Orientation>().unwrap().to_string(), o);
    }
    assert_eq!("w".parse::<Face>().unwrap().letter(), 'W');
    // Garbage is an error that says what was expected, never a panic.
    let garbage = [
        "", " ", "9", "1234", "LL", "é", "E45", "E0180", "player 3", "00", "99x",
    ];
    for text in garbage {
        for result in [
            text.parse::<Cell>().err(),
            text.parse::<Piece>().err(),
            text.parse::<Player>().err(),
            text.parse::<Orientation>().err(),
            text.parse::<Face>().err(),
        ] {
            let e: NotationError = result.expect(text);
            assert!(!e.to_string().is_empty());
        }
    }
    assert!("800".parse::<Cell>().is_err() && "003".parse::<Cell>().is_err());
    // Moves sort as their ids do.
    let mut moves = [Move::TimeMachine, Move::Swap, "L E180 110".parse().unwrap()];
    moves.sort();
    let ids: Vec<usize> = moves.iter().map(|m| m.id()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    // Debug output of the lists and handles names what they hold.
    let mut list = cabra::game::MoveList::new();
    cabra::game::Position::new().legal_moves(&mut list);
    assert!(format!("{list:?}").starts_with('['));
    assert!(format!("{:?}", cabra::game::table()).contains("2497"));
}

#[cfg(feature = "serde")]
#[test]
fn small_types_serialize_as_they_print_and_read_back() {
    use cabra::engine::Budget;
    use cabra::game::{Cell, Face, Orientation, Piece, Player, Rules, Status, WinReason};
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;
    use std::time::Duration;

    fn round<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: T, json: &str) {
        assert_eq!(serde_json::to_string(&value).unwrap(), json);
        assert_eq!(serde_json::from_str::<T>(json).unwrap(), value);
    }
    round("121".parse::<Cell>().unwrap(), r#""121""#);
    round(Piece::Z, r#""Z""#);
    round("E180".parse::<Orientation>().unwrap(), r#""E180""#);
    round(Face::W, r#""W""#);
    round(Player::Two, "2");
    round(
        "bridget,swap".parse::<Rules>().unwrap(),
        r#""bridget swap""#,
    );
    round(Status::Ongoing, r#"{"result":"ongoing"}"#);
    round(
        Status::Won {
            winner: Player::One,
            by: WinReason::Bridge,
        },
        r#"{"result":"won","winner":1,"by":"bridge"}"#,
    );
    round(
        Status::Draw {
            by: WinReason::Perimeter,
        },
        r#"{"result":"draw","by":"perimeter"}"#,
    );
    round(
        Budget::time(Duration::from_millis(1500)),
        r#"{"time":{"secs":1,"nanos":500000000},"iterations":null,"nodes":null}"#,
    );
    // What does not check out is an error when read, never a panic or a
    // value made up.
    for bad in [r#""800""#, r#""12""#, "121", "null"] {
        assert!(serde_json::from_str::<Cell>(bad).is_err(), "{bad}");
    }
    for bad in ["0", "3", "-1", r#""1""#, "1.5"] {
        assert!(serde_json::from_str::<Player>(bad).is_err(), "{bad}");
    }
    for bad in [r#""Q""#, r#""E45""#, r#""chess""#] {
        assert!(serde_json::from_str::<Piece>(bad).is_err());
        assert!(serde_json::from_str::<Orientation>(bad).is_err());
        assert!(serde_json::from_str::<Rules>(bad).is_err());
    }
    assert!(serde_json::from_str::<Status>(r#"{"result":"won","by":"bridge"}"#).is_err());
    assert!(
        serde_json::from_str::<Budget>(r#"{"time":null,"iterations":-5,"nodes":null}"#).is_err()
    );
    assert!(
        serde_json::from_str::<Budget>(r#"{"tiem":null,"iterations":5,"nodes":null}"#).is_err()
    );
}

#[cfg(feature = "serde")]
#[test]
fn reports_read_back_what_they_write() {
    use cabra::engine::analysis::MoveAnalysis;
    use cabra::engine::{Budget, EngineConfig, EngineHandle, ReportView, Request};
    use cabra::search::Report;

    let mut pos = Position::new();
    pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
    let engine = EngineHandle::new(EngineConfig::parse("threads=1,seed=3").unwrap());
    let thought = engine
        .search(Request::new(pos).limits(Budget::iterations(300)))
        .unwrap();
    let mut report: Report<String> = thought.report.clone().map_moves(|m| m.to_string());
    let json = serde_json::to_string(&report).unwrap();
    assert_eq!(
        serde_json::from_str::<Report<String>>(&json).unwrap(),
        report
    );
    // A NaN is written as null, and reads back as NaN, not as an error.
    let mut odd = report.clone();
    odd.winrate = f64::NAN;
    odd.top[0].winrate = f64::NAN;
    let json = serde_json::to_string(&odd).unwrap();
    assert!(json.contains(r#""winrate":null"#), "{json}");
    let back = serde_json::from_str::<Report<String>>(&json).unwrap();
    assert!(back.winrate.is_nan() && back.top[0].winrate.is_nan());
    // A rate that a parser without exact float reading gets one unit off
    // (seen in CI): the report must still read back equal.
    report.iterations_per_second = 391_433.350_643_385_96;
    let json = serde_json::to_string(&report).unwrap();
    assert_eq!(
        serde_json::from_str::<Report<String>>(&json).unwrap(),
        report
    );
    let view = ReportView::of(&pos, &thought);
    assert!(!view.top.is_empty() && view.best.is_some());
    let json = serde_json::to_string(&view).unwrap();
    assert!(json.contains(r#""move":"#), "{json}");
    assert_eq!(serde_json::from_str::<ReportView>(&json).unwrap(), view);
    // A report missing a field is refused, not filled in.
    let cut = json.replacen(r#""iterations":"#, r#""iterationz":"#, 1);
    assert!(serde_json::from_str::<ReportView>(&cut).is_err());
    let marked = r#"{"ply":1,"player":1,"played":"O T0 000","best":"L E180 110",
        "winrate_before":0.6,"winrate_after":0.3,"loss":0.3,"mark":"blunder",
        "proven_before":null,"proven_after":"loss","iterations":100}"#;
    let a: MoveAnalysis = serde_json::from_str(marked).unwrap();
    assert_eq!(a.mark.map(|m| m.text()), Some("blunder"));
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        serde_json::from_str::<serde_json::Value>(marked).unwrap()
    );
    let again: MoveAnalysis = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!(again, a);
}
