use std::time::Duration;

use super::*;

#[test]
fn parses_names_and_keys() {
    let b = EngineConfig::parse("baseline").unwrap();
    assert!(!b.search.solver && !b.reuse && b.search.uct.fpu.is_infinite());
    assert_eq!(b.playout, Policy::UNIFORM);
    let d = EngineConfig::parse("default").unwrap();
    assert_eq!(d, EngineConfig::default());
    let x = EngineConfig::parse("baseline, c=0.5, time=200ms, reuse=on").unwrap();
    assert_eq!(x.search.uct.c, 0.5);
    assert!(x.reuse && !x.search.solver);
    assert_eq!(x.budget.time, Some(Duration::from_millis(200)));
    // A key is the name of the field it sets, underscores left out.
    let u = EngineConfig::parse("early_stop=off,fpu_drop=0.5,win_check=off,seed=7").unwrap();
    assert!(!u.early_stop && !u.search.win_check);
    assert_eq!((u.search.uct.fpu_drop, u.seed), (0.5, Some(7)));
    for bad in [
        "fast",
        "c=abc",
        "c=-1",
        "c=0",
        "c=inf",
        "c=NaN",
        "bogus=1",
        "threads=0",
        "threads=257",
        "fpu=2",
        "fpudrop=2",
        "fpudrop=-0.1",
        "fpudrop=x",
        "prim=101",
        "threats=maybe",
        "threats=-1",
        "reply=sometimes",
        "time=0",
        "iterations=0",
        "rave=on",
        "rootc=0.4",
        "pblock=256",
        "endgame=maybe",
        "prior=2",
        "pshape=50",
        "rimlast=on",
        "rimprior=5",
        "pscore=101",
        "value=101",
        "weights=no/such/file.bin",
        "treply=on",
        "seed=-1",
        "level=12",
        "level=-1",
        "level=x",
        "elo=abc",
        "temperature=-1",
        "temperature=nan",
        "randomness=101",
    ] {
        assert!(EngineConfig::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_learnt_evaluation_is_configured_by_share_and_weights() {
    let x = EngineConfig::parse("value=30,weights=builtin").unwrap();
    assert_eq!(x.playout.value, 30);
    assert_eq!(x.playout.weights, crate::engine::value::Weights::Builtin);
    let text = x.describe();
    assert!(text.contains("value=30,weights=builtin"), "{text}");
    assert_eq!(EngineConfig::parse("baseline").unwrap().playout.value, 0);
}

#[test]
fn keys_set_the_search_and_playouts() {
    let x = EngineConfig::parse(
        "threats=off,pwin=off,reply=off,pblock=0,endgame=off,prior=off,pscore=20",
    )
    .unwrap();
    assert_eq!(x.playout.pscore, 20);
    assert!(!x.search.threats && !x.playout.pwin && !x.search.reply);
    assert!(!x.search.endgame && !x.search.prior);
    assert_eq!(x.playout.pblock, 0);
    let t = EngineConfig::parse("baseline,threats=4").unwrap();
    assert!(t.search.threats && t.search.threat_visits == 4);
    let d = EngineConfig::default();
    assert_eq!(d.playout, Policy::SHIPPED);
    assert!(d.search.endgame && d.playout.pblock == 4 && d.search.prior);
    let b = EngineConfig::baseline();
    assert!(!b.search.endgame && b.playout.pblock == 0 && !b.search.prior);
    assert!(d.search.threats && d.search.threat_visits == DEFAULT_THREAT_VISITS);
    assert!(d.search.reply);
    assert_eq!((d.search.uct.fpu_drop, b.search.uct.fpu_drop), (0.25, 0.0));
    let f = EngineConfig::parse("default,fpudrop=0.4").unwrap();
    assert_eq!(f.search.uct.fpu_drop, 0.4);
}

#[test]
fn every_key_reads_back_what_it_describes() {
    for text in [
        "default",
        "baseline",
        "c=0.7,threats=3,pscore=20,threads=2,time=150ms,seed=3,nodes=1M",
        "level=3",
        "random",
        "elo=900,reuse=on",
        "temperature=0.5,randomness=10",
    ] {
        let c = EngineConfig::parse(text).unwrap();
        let again: String = c
            .describe()
            .split(',')
            .filter(|kv| !kv.ends_with("=-"))
            .collect::<Vec<_>>()
            .join(",");
        let mut back = EngineConfig::parse(&again).unwrap();
        back.name = c.name.clone();
        assert_eq!(back, c, "{text}");
    }
    let e = EngineConfig::parse("basline").unwrap_err();
    assert_eq!(e, ConfigError::UnknownName("basline".into()));
    assert!(e.to_string().contains("did you mean 'baseline'"), "{e}");
    // A key without its value is named as a key, not as a near miss of itself.
    let e = EngineConfig::parse("solver").unwrap_err();
    assert_eq!(e, ConfigError::NoValue("solver".into()));
    assert_eq!(
        e.to_string(),
        "'solver' is a key: give it a value, e.g. solver=on"
    );
    // A bad value names its key, inside the item it came in.
    match EngineConfig::parse("default,c=-1").unwrap_err() {
        ConfigError::In { item, source } => {
            assert_eq!(item, "c=-1");
            assert!(
                matches!(*source, ConfigError::BadValue { key: "c", .. }),
                "{source}"
            );
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_level_sets_its_search_and_the_top_level_gives_it_back() {
    let l = EngineConfig::parse("level=3").unwrap();
    let level = crate::engine::levels::Level::get(3).unwrap();
    assert_eq!(l.fixed_level(), Some(level));
    assert_eq!((l.threads, l.reuse, l.swindle), (Some(1), false, false));
    assert_eq!(
        (l.temperature, l.randomness),
        (level.temperature, level.randomness)
    );
    // Keys after the level change what it set.
    assert!(EngineConfig::parse("level=3,reuse=on").unwrap().reuse);
    // elo= picks the nearest level.
    let near = crate::engine::levels::Level::nearest(level.elo);
    assert_eq!(
        EngineConfig::parse(&format!("elo={}", level.elo))
            .unwrap()
            .level,
        Some(near.number)
    );
    // Back to the top: the full engine again, its threads left to the front end.
    let mut top = l.clone();
    top.set_level(crate::engine::levels::TOP).unwrap();
    assert!(top.fixed_level().is_none());
    assert_eq!(
        (top.threads, top.reuse, top.swindle, top.early_stop),
        (None, true, true, true)
    );
    assert_eq!((top.temperature, top.randomness), (0.0, 0));
    let random = EngineConfig::parse("random").unwrap();
    assert!(random.fixed_level().is_some_and(|l| l.is_random()));
}

#[test]
fn a_refused_value_says_why_in_types_and_keeps_its_source() {
    use std::error::Error;

    use crate::engine::units::ValueError;
    let why = |text: &str| match EngineConfig::parse(text).unwrap_err() {
        ConfigError::In { source, .. } => match *source {
            ConfigError::BadValue { why, .. } => why,
            e => panic!("{e:?}"),
        },
        e => panic!("{e:?}"),
    };
    assert_eq!(
        why("c=-1"),
        KeyValueError::NotPositive { value: "-1".into() }
    );
    let top = u64::from(crate::engine::levels::TOP);
    assert_eq!(
        why("level=12"),
        KeyValueError::OutOfRange {
            value: "12".into(),
            what: "a level",
            min: 0,
            max: top,
        }
    );
    // Each error of the chain says its own part, the cause once.
    let e = EngineConfig::parse("level=12").unwrap_err();
    assert_eq!(e.to_string(), "in 'level=12'");
    let mut chain = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        chain = format!("{chain}: {c}");
        cause = c.source();
    }
    assert_eq!(
        chain,
        format!(
            "in 'level=12': cannot set level (`cabra engines` lists the levels): '12' is not a level, 0 to {top}"
        )
    );
    assert_eq!(
        why("fpu=2").to_string(),
        "'2' is not a value from 0 to 1 or inf"
    );
    assert_eq!(
        why("seed=-1").to_string(),
        "'-1' is not a seed, 0 to 18446744073709551615"
    );
    // A limit's own error is the source.
    let e = EngineConfig::new_with("iterations", "0");
    assert_eq!(
        e.source().unwrap().downcast_ref::<KeyValueError>(),
        Some(&KeyValueError::Value(ValueError::CountTooSmall))
    );
    let w = why("weights=no/such/file.bin");
    assert!(
        w.to_string().starts_with("cannot read 'no/such/file.bin'"),
        "{w}"
    );
    // `Weights` is the load error itself (transparent): its source is the
    // reading's.
    assert!(!w.to_string().contains("No such file"), "{w}");
    let io = w.source().unwrap();
    assert!(io.downcast_ref::<std::io::Error>().is_some(), "{io:?}");
}

impl EngineConfig {
    /// The error of setting `key` to `value` on the default engine.
    fn new_with(key: &str, value: &str) -> ConfigError {
        EngineConfig::default().set(key, value).unwrap_err()
    }
}
