use std::ops::ControlFlow;
use std::time::Instant;

use super::*;
use crate::engine::clock::OnClock;
use crate::engine::{BudgetError, ConfigError};
use crate::game::Position;
use crate::game::record::parse_game;

fn handle(config: &str) -> EngineHandle {
    EngineHandle::new(EngineConfig::parse(config).unwrap())
}

fn midgame() -> Position {
    parse_game(include_str!("../../../games/midgame-9.caminos")).unwrap()
}

#[test]
fn a_search_runs_on_its_own_thread_and_stops_when_told() {
    let h = handle("threads=1,seed=1");
    let job = h
        .start(Request::new(midgame()).until_stopped(), |_| {})
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    assert!(h.is_busy() && !job.is_finished());
    let t0 = Instant::now();
    let t = job.stop_and_wait().unwrap();
    assert!(
        t0.elapsed() < Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    assert!(t.interrupted && t.report.best.is_some());
    assert!(!h.is_busy());
    // The handle's stopper stops whatever job runs when it is used.
    let stopper = h.stopper();
    let job = h
        .start(Request::new(midgame()).until_stopped(), |_| {})
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    stopper.stop();
    assert!(job.wait().unwrap().interrupted);
}

#[test]
fn a_new_job_stops_the_one_running_and_each_has_its_own_stop() {
    let h = handle("threads=1,seed=1");
    let first = h
        .start(Request::new(midgame()).until_stopped(), |_| {})
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let second = h
        .start(
            Request::new(midgame()).limits(Budget::iterations(1_000)),
            |_| {},
        )
        .unwrap();
    assert!(first.wait().unwrap().interrupted);
    let t = second.wait().unwrap();
    assert!(!t.interrupted, "the second search has a stop of its own");
    assert_eq!(t.report.iterations, 1_000);
}

#[test]
fn progress_comes_at_the_period_asked_and_a_listener_can_stop_it() {
    let h = handle("threads=1,seed=1");
    let (tx, rx) = std::sync::mpsc::channel();
    let request = Request::new(midgame())
        .limits(Budget::time(Duration::from_millis(300)))
        .report_every(Duration::from_millis(20));
    let t = h
        .start(request, move |p| {
            let _ = tx.send(p.elapsed);
        })
        .unwrap()
        .wait()
        .unwrap();
    let reports: Vec<Duration> = rx.try_iter().collect();
    assert!(reports.len() >= 8, "{} reports", reports.len());
    assert!(!t.interrupted);
    struct Leaving(usize);
    impl Listener for Leaving {
        fn progress(&mut self, _: &Progress) -> ControlFlow<()> {
            self.0 += 1;
            if self.0 == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    let request = Request::new(midgame())
        .until_stopped()
        .report_every(Duration::from_millis(10));
    let t = h.start_with(request, Leaving(0)).unwrap().wait().unwrap();
    assert!(t.interrupted && t.report.seconds < 2.0);
}

#[test]
fn limits_come_from_the_request_then_the_configuration_then_the_fallback() {
    let pos = midgame();
    let ms = Duration::from_millis;
    // No limit anywhere: until stopped, unless the program gave a fallback.
    let request = Request::new(pos);
    assert_eq!(handle("threads=1").budget(&request), Budget::UNLIMITED);
    let plain = handle("threads=1").with_fallback(Budget::time(ms(1_000)));
    assert_eq!(plain.fallback(), Budget::time(ms(1_000)));
    assert_eq!(plain.budget(&request), Budget::time(ms(1_000)));
    // A level's iterations stand for the fallback.
    let level = handle("level=5").with_fallback(Budget::time(ms(1_000)));
    assert_eq!(level.budget(&request), Budget::iterations(64));
    let own = handle("threads=1,iterations=700");
    assert_eq!(own.budget(&request), Budget::iterations(700));
    let asked = request.clone().limits(Budget::time(ms(50)));
    assert_eq!(own.budget(&asked), Budget::time(ms(50)));
    // Unlimited is asked for, not taken for "the configuration's".
    let endless = request.clone().limits(Budget::UNLIMITED);
    assert_eq!(own.budget(&endless), Budget::UNLIMITED);
    assert_eq!(
        own.budget(&request.clone().until_stopped()),
        Budget::UNLIMITED
    );
    assert!(own.search(asked).unwrap().report.iterations > 0);
    // A clock caps the time and lets a move stop once settled.
    let clock = OnClock {
        left: ms(1_400),
        increment: Duration::ZERO,
    };
    let on_clock = Request::new(pos).clock(Some(clock));
    let b = plain.budget(&on_clock);
    let config = plain.config();
    assert!(b.time.unwrap() < ms(1_000), "{b:?}");
    assert!(early_stop_of(&config, &on_clock));
    assert!(!early_stop_of(&config, &Request::new(pos)), "off the clock");
    let analysis = Request::analysis(pos).clock(Some(clock));
    assert!(
        !early_stop_of(&config, &analysis),
        "an analysis uses its whole time"
    );
    let level = EngineConfig::parse("level=5,earlystop=on").unwrap();
    assert!(
        !early_stop_of(&level, &on_clock),
        "a level searches its iterations"
    );
}

#[test]
fn a_failed_job_is_reported_and_the_next_one_gets_a_fresh_engine() {
    let h = handle("threads=1,seed=1");
    let job = h.spawn(|_: &mut Thinker| -> u32 { panic!("a bug") });
    assert_eq!(job.wait(), Err(Failed));
    let t = h
        .search(Request::new(midgame()).limits(Budget::iterations(500)))
        .unwrap();
    assert_eq!(t.report.iterations, 500);
}

#[test]
fn handles_sharing_a_memory_budget_keep_within_it() {
    let cap = 24 << 20;
    let memory = Arc::new(TreeMemory::new(cap, 1));
    let config = EngineConfig::parse("threads=1,seed=1").unwrap();
    let handles: Vec<EngineHandle> = (0..3)
        .map(|_| EngineHandle::with_memory(config.clone(), &memory))
        .collect();
    for h in &handles {
        let t = h
            .search(Request::new(midgame()).limits(Budget::iterations(300_000)))
            .unwrap();
        // A tree stops growing at its share of the budget.
        assert!(
            t.report.nodes as usize <= cap / BYTES_PER_NODE,
            "{}",
            t.report.nodes
        );
        assert!(memory.used() <= cap, "{} > {cap}", memory.used());
    }
    // The older trees gave way to the newer.
    assert!(memory.kept() <= 2, "{}", memory.kept());
    drop(handles);
    assert_eq!(memory.used(), 0);
}

#[test]
fn a_limit_of_zero_is_refused_before_anything_starts() {
    let h = handle("threads=1,seed=1");
    let ms = Duration::from_millis;
    let zero = |b: Budget| Request::new(midgame()).limits(b);
    let nodes = Budget {
        nodes: Some(0),
        ..Budget::UNLIMITED
    };
    for (b, e) in [
        (Budget::iterations(0), BudgetError::NoIterations),
        (Budget::time(Duration::ZERO), BudgetError::NoTime),
        (nodes, BudgetError::NoNodes),
    ] {
        assert_eq!(h.start(zero(b), |_| {}).err(), Some(SearchError::Budget(e)));
        assert_eq!(h.search(zero(b)).unwrap_err(), SearchError::Budget(e));
        let refused = h.spawn(move |t| t.search(&zero(b), &mut |_: &Progress| {}).err());
        assert_eq!(refused.wait().unwrap(), Some(SearchError::Budget(e)));
        // A handle's fallback of 0 is refused as well where it applies,
        // and not where the request's own limits stand in for it.
        let fallback = handle("threads=1,seed=1").with_fallback(b);
        assert_eq!(
            fallback.search(Request::analysis(midgame())).unwrap_err(),
            SearchError::Budget(e)
        );
        let own = Request::analysis(midgame()).limits(Budget::iterations(10));
        assert_eq!(fallback.search(own).unwrap().report.iterations, 10);
    }
    // The configuration's limits too (they cannot be parsed, but can be set).
    let mut config = h.config();
    config.budget = Budget::iterations(0);
    h.set_config(config);
    let request = Request::new(midgame());
    assert_eq!(
        h.search(request.clone()).unwrap_err(),
        SearchError::Budget(BudgetError::NoIterations)
    );
    // A request of its own limits still needs the configuration's to be sound.
    let own = request.clone().limits(Budget::iterations(10));
    assert!(h.search(own).is_err());
    // A clock's share of 0 is no limit of theirs: a move is still found.
    let h = handle("threads=1,seed=1");
    let t = h.search(request.share(Some(ms(0)))).unwrap();
    assert!(t.report.best.is_some());
}

#[test]
fn a_configuration_set_field_by_field_is_checked_where_a_search_starts() {
    let h = handle("threads=1,seed=1");
    let request = Request::new(midgame()).limits(Budget::iterations(50));
    type Spoil = fn(&mut EngineConfig);
    let broken: [(&str, Spoil); 7] = [
        ("c", |c| c.search.uct.c = f32::NAN),
        ("fpu", |c| c.search.uct.fpu = f32::NAN),
        ("temperature", |c| c.temperature = f32::INFINITY),
        ("randomness", |c| c.randomness = 255),
        ("level", |c| c.level = Some(200)),
        ("node_cap", |c| c.search.node_cap = 0),
        ("threads", |c| c.threads = Some(0)),
    ];
    for (key, spoil) in broken {
        let mut config = h.config();
        spoil(&mut config);
        h.set_config(config);
        match h.search(request.clone()) {
            Err(SearchError::Config(ConfigError::BadValue { key: k, .. })) => assert_eq!(k, key),
            other => panic!("{key}: {other:?}"),
        }
        let refused = h.spawn({
            let request = request.clone();
            move |t| t.search(&request, &mut |_: &Progress| {}).err()
        });
        assert!(refused.wait().unwrap().is_some(), "{key}");
        h.set_config(EngineConfig::parse("threads=1,seed=1").unwrap());
    }
    // Every named configuration and level passes.
    for text in [
        "default",
        "baseline",
        "random",
        "level=3",
        "elo=1200",
        "fpu=inf,threats=5",
    ] {
        assert_eq!(EngineConfig::parse(text).unwrap().check(), Ok(()), "{text}");
    }
    assert!(h.search(request).is_ok());
}
