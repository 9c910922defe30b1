//! Tests of games between players: fair openings, faults, the clock.

use super::*;
use crate::engine::clock::allocation;

#[test]
fn openings_never_hand_the_next_player_a_win_in_one() {
    // About 2% of uniform prefixes of 2-4 placements do (seed 95 is
    // the first), so 500 seeds would meet several without the redraw.
    for seed in 0..500 {
        let opening = random_opening(&Position::new(), seed, 2, 4).unwrap();
        assert!((2..=4).contains(&opening.len()), "seed {seed}");
        let mut pos = Position::new();
        for &mv in &opening {
            assert!(pos.is_legal(mv));
            pos.play_unchecked(mv);
            assert!(!pos.status().is_over(), "seed {seed}");
            assert_eq!(pos.winning_move(), None, "seed {seed}");
        }
    }
}

#[test]
fn a_game_between_tiny_engines_finishes_with_fair_colours() {
    let a = EngineConfig::parse("iterations=50").unwrap();
    let b = EngineConfig::parse("baseline,iterations=50").unwrap();
    let opening = random_opening(&Position::new(), 3, 2, 4).unwrap();
    assert!((2..=4).contains(&opening.len()));
    for first in 0..2 {
        let g = play_engines(
            [&a, &b],
            first,
            Position::new(),
            &opening,
            9,
            &Arc::new(AtomicBool::new(false)),
        )
        .unwrap()
        .unwrap();
        assert!(g.position.status().is_over());
        assert_eq!(&g.position.placements()[..opening.len()], &opening[..]);
        assert!([0.0, 0.5, 1.0].contains(&g.score));
        assert_eq!(g.forfeit, None);
    }
}

/// A player that answers from a script: `Ok` placements in turn, then
/// the fault.
struct Scripted(Vec<Result<Move, Fault>>);

impl Contestant for Scripted {
    fn genmove(&mut self, _: &Position, _: Option<OnClock>) -> Result<Move, Fault> {
        if self.0.is_empty() {
            return Err(Fault::Garbage("script ended".into()));
        }
        self.0.remove(0)
    }
}

#[test]
fn a_faulty_player_loses_with_its_reason_whichever_colour_it_has() {
    let stop = AtomicBool::new(false);
    let opening = random_opening(&Position::new(), 5, 2, 2).unwrap();
    let taken = opening[0];
    for first in 0..2 {
        for faulty in 0..2 {
            let mut good = EnginePlayer::new(
                EngineHandle::new(EngineConfig::parse("iterations=30,seed=1").unwrap()),
                &Arc::new(AtomicBool::new(false)),
            );
            // The faulty player answers a placement already on the board.
            let mut bad = Scripted(vec![Ok(Move::Place(taken))]);
            let players: [&mut dyn Contestant; 2] = if faulty == 0 {
                [&mut bad, &mut good]
            } else {
                [&mut good, &mut bad]
            };
            let g = play_game(players, first, Position::new(), &opening, None, &stop)
                .unwrap()
                .unwrap();
            let f = g.forfeit.expect("a forfeit");
            assert_eq!(f.loser, faulty);
            assert_eq!(f.fault.kind(), "illegal");
            // The message names the move; its source says why, once.
            assert!(
                f.fault.to_string().starts_with("illegal placement"),
                "{}",
                f.fault
            );
            assert!(
                !f.fault.to_string().contains("already taken"),
                "{}",
                f.fault
            );
            let why = std::error::Error::source(&f.fault).expect("a source");
            assert!(why.to_string().contains("already taken"), "{why}");
            // The move and the rule it broke, in types; the rule is the source.
            match &f.fault {
                Fault::Illegal { placement, source } => {
                    assert_eq!(*placement, Move::Place(taken));
                    assert!(matches!(source, PlacementError::Occupied(_)), "{source}");
                }
                other => panic!("{other:?}"),
            }
            let source = std::error::Error::source(&f.fault).expect("a source");
            assert!(source.downcast_ref::<PlacementError>().is_some());
            assert_eq!(g.score, if faulty == 0 { 0.0 } else { 1.0 });
            // The game stops where the fault happened.
            assert_eq!(g.position.plies(), f.ply);
            assert!(!g.position.status().is_over());
        }
    }
}

#[test]
fn faults_name_their_kind_and_a_stop_is_no_result() {
    let stop = AtomicBool::new(false);
    let opening = random_opening(&Position::new(), 6, 2, 2).unwrap();
    let mut a = Scripted(vec![Err(Fault::Timeout {
        limit: Duration::from_millis(1100),
    })]);
    let mut b = Scripted(vec![]);
    let g = play_game([&mut a, &mut b], 0, Position::new(), &opening, None, &stop)
        .unwrap()
        .unwrap();
    let f = g.forfeit.unwrap();
    assert_eq!((f.loser, f.fault.kind()), (0, "timeout"));
    assert_eq!(f.fault.to_string(), "no answer within 1.1s");
    assert_eq!(g.score, 0.0);
    stop.store(true, Ordering::SeqCst);
    let mut a = Scripted(vec![Err(Fault::Crashed("killed".into()))]);
    let mut b = Scripted(vec![]);
    assert!(
        play_game([&mut a, &mut b], 0, Position::new(), &opening, None, &stop)
            .unwrap()
            .is_none()
    );
}

/// A player that takes `delay` for each placement (the first legal
/// one) and records the clocks it was given.
struct Slow {
    delay: Duration,
    seen: Vec<Option<OnClock>>,
}

impl Contestant for Slow {
    fn genmove(&mut self, pos: &Position, clock: Option<OnClock>) -> Result<Move, Fault> {
        self.seen.push(clock);
        std::thread::sleep(self.delay);
        let mut list = crate::game::PlacementList::new();
        pos.legal_placements(&mut list);
        Ok(Move::Place(list[0]))
    }
}

#[test]
fn the_clock_runs_down_gets_its_increments_and_falls() {
    let stop = AtomicBool::new(false);
    let opening = random_opening(&Position::new(), 7, 2, 2).unwrap();
    let ms = Duration::from_millis;
    let clock = Clock {
        control: TimeControl {
            main: ms(250),
            increment: ms(25),
        },
        margin: ms(50),
    };
    let slow = || Slow {
        delay: ms(100),
        seen: Vec::new(),
    };
    let (mut a, mut b) = (slow(), slow());
    let g = play_game(
        [&mut a, &mut b],
        0,
        Position::new(),
        &opening,
        Some(clock),
        &stop,
    )
    .unwrap()
    .unwrap();
    // Each placement costs 100 ms (more on a busy machine) and gives
    // back 25: A's clock falls first.
    let f = g.forfeit.expect("a loss on time");
    assert_eq!((f.loser, f.fault.kind()), (0, "timeout"));
    assert_eq!(g.score, 0.0);
    let left: Vec<Duration> = a.seen.iter().map(|c| c.unwrap().left).collect();
    assert_eq!(left[0], ms(250));
    for w in left.windows(2) {
        // At least 100 ms spent (never below zero), 25 ms back.
        let at_most = w[0].saturating_sub(ms(100)) + ms(25);
        assert!(w[1] <= at_most, "{left:?}");
    }
    // The clock fell by the fourth placement: 250, 175, 100, 25 ms left.
    assert!(left.len() <= 4, "{left:?}");
    assert!(a.seen.iter().all(|c| c.unwrap().increment == ms(25)));
    assert_eq!(g.moves[0] as usize, a.seen.len());
    assert!(g.thought[0] >= ms(100) * a.seen.len() as u32);
    // Without a clock nobody sees one and nobody loses on time.
    let quick = || Slow {
        delay: ms(1),
        seen: Vec::new(),
    };
    let (mut a, mut b) = (quick(), quick());
    let g = play_game([&mut a, &mut b], 0, Position::new(), &opening, None, &stop)
        .unwrap()
        .unwrap();
    assert!(g.forfeit.is_none() && g.position.status().is_over());
    assert!(a.seen.iter().chain(&b.seen).all(Option::is_none));
}

#[test]
fn an_engine_on_a_clock_spends_its_share_or_less() {
    let ms = Duration::from_millis;
    for early_stop in ["on", "off"] {
        let config = EngineConfig::parse(&format!("earlystop={early_stop}")).unwrap();
        let engine = EngineHandle::new(config);
        let mut p = EnginePlayer::new(engine, &Arc::new(AtomicBool::new(false)));
        let pos = Position::new();
        let clock = OnClock {
            left: ms(2000),
            increment: Duration::ZERO,
        };
        let start = Instant::now();
        let mv = p.genmove(&pos, Some(clock)).unwrap();
        let used = start.elapsed();
        assert!(pos.is_legal(mv));
        // 1.5 / 14 of two seconds, less the overhead: about 184 ms.
        let share = allocation(clock.left, clock.increment, &pos);
        // The margin is wide for a busy machine; a bug would spend
        // far more of the two seconds.
        assert!(
            used < share + ms(400),
            "{early_stop}: {used:?} for {share:?}"
        );
        if early_stop == "off" {
            // On a busy machine a slice that ends late makes the next ones
            // end that much earlier (`Sliced::run`), so the search may
            // end a little before its share.
            assert!(used + ms(50) >= share, "{used:?} for {share:?}");
        }
    }
}

#[test]
fn games_run_side_by_side_and_come_back_in_order() {
    use std::sync::atomic::AtomicUsize;
    let (running, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let out = play_concurrently(9, 3, |g| {
        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(20));
        running.fetch_sub(1, Ordering::SeqCst);
        g * 10
    });
    assert_eq!(out, (0..9).map(|g| g * 10).collect::<Vec<_>>());
    assert!((2..=3).contains(&most.load(Ordering::SeqCst)));
    assert!(play_concurrently(0, 4, |g| g).is_empty());
}

#[test]
fn a_game_that_cannot_be_set_up_is_refused_before_it_starts() {
    let stop = Arc::new(AtomicBool::new(false));
    let opening = random_opening(&Position::new(), 5, 2, 2).unwrap();
    // The second placement of this opening takes the first one's cubes.
    let bad = [opening[0], opening[0]];
    let asked = |players: &[Scripted; 2]| players.iter().map(|p| p.0.len()).collect::<Vec<_>>();
    let mut players = [Scripted(vec![]), Scripted(vec![])];
    let [a, b] = &mut players;
    let e = play_game([a, b], 0, Position::new(), &bad, None, &stop).unwrap_err();
    match &e {
        MatchError::IllegalOpening {
            number, placement, ..
        } => assert_eq!((*number, *placement), (2, opening[0])),
        other => panic!("{other:?}"),
    }
    assert!(!e.to_string().contains("already taken"), "{e}");
    let why = std::error::Error::source(&e).expect("a source");
    assert!(why.to_string().contains("already taken"), "{why}");
    assert_eq!(asked(&players), [0, 0]);
    // The first to move is the first given (0) or the second (1), no other.
    let [a, b] = &mut players;
    assert_eq!(
        play_game([a, b], 7, Position::new(), &opening, None, &stop).unwrap_err(),
        MatchError::NoSuchPlayer(7)
    );
    let engine = EngineConfig::parse("iterations=30").unwrap();
    let engines = [&engine; 2];
    assert_eq!(
        play_engines(engines, 7, Position::new(), &opening, 1, &stop).unwrap_err(),
        MatchError::NoSuchPlayer(7)
    );
    assert!(matches!(
        play_engines(engines, 0, Position::new(), &bad, 1, &stop),
        Err(MatchError::IllegalOpening { number: 2, .. })
    ));
    // An engine without limits would never move: refused.
    let endless = EngineConfig::default();
    assert_eq!(
        play_engines([&engine, &endless], 0, Position::new(), &opening, 1, &stop).unwrap_err(),
        MatchError::Unlimited { player: 1 }
    );
    // A level's iterations are its limits.
    let level = EngineConfig::parse("level=3").unwrap();
    let g = play_engines([&level, &engine], 0, Position::new(), &opening, 1, &stop);
    assert!(g.unwrap().unwrap().position.status().is_over());
}

#[test]
fn an_opening_of_more_placements_than_the_least_is_refused() {
    let start = Position::new();
    assert_eq!(
        random_opening(&start, 1, 5, 2),
        Err(MatchError::OpeningLengths { min: 5, max: 2 })
    );
    // Lengths past any game's end draw a whole game's worth at most.
    let all = random_opening(&start, 1, 0, usize::MAX).unwrap();
    assert!(all.len() < 200, "{}", all.len());
    assert_eq!(random_opening(&start, 1, 3, 3).unwrap().len(), 3);
}
