//! The library's errors that wrap another name their own part in their
//! message and leave the cause to [`Error::source`] (the `std::error`
//! convention), so that a front end printing the chain of causes (anyhow's
//! `{:#}`, or a loop over `source()`) says each cause once.

use std::error::Error;

use cabra::engine::clock::TimeControl;
use cabra::engine::matches::{Fault, MatchError};
use cabra::engine::value::{self, LoadError};
use cabra::engine::{ConfigError, EngineConfig, KeyValueError, ValueError};
use cabra::game::{Move, PlacementError, Position, parse_placement};

/// The messages of `e` and its causes, outermost first.
fn links(e: &(dyn Error + 'static)) -> Vec<String> {
    let mut links = vec![e.to_string()];
    let mut cause = e.source();
    while let Some(c) = cause {
        links.push(c.to_string());
        cause = c.source();
    }
    links
}

/// Checks that no error of `e`'s chain repeats its source's message, and
/// that the chain, joined as anyhow's `{:#}` joins it, says `cause` once;
/// returns the joined chain.
fn says_once(e: &(dyn Error + 'static), cause: &str) -> String {
    let mut link: Option<&(dyn Error + 'static)> = Some(e);
    while let Some(l) = link {
        if let Some(source) = l.source() {
            let (own, theirs) = (l.to_string(), source.to_string());
            assert!(
                !own.contains(&theirs),
                "{l:?}: its message '{own}' repeats its source's '{theirs}'"
            );
        }
        link = l.source();
    }
    let chain = links(e).join(": ");
    assert_eq!(chain.matches(cause).count(), 1, "'{cause}' in '{chain}'");
    chain
}

/// A placement's error: the swap, which the default rules do not have.
fn placement_error() -> PlacementError {
    Position::new().play(Move::Swap).unwrap_err()
}

#[test]
fn config_errors_say_their_cause_once() {
    let e = EngineConfig::parse("level=99").unwrap_err();
    assert!(matches!(e, ConfigError::In { .. }), "{e:?}");
    assert_eq!(e.to_string(), "in 'level=99'");
    let chain = says_once(&e, "is not a level");
    assert!(
        chain.starts_with("in 'level=99': cannot set level"),
        "{chain}"
    );
    assert_eq!(links(&e).len(), 3, "{chain}");

    let e = EngineConfig::default().set("threads", "abc").unwrap_err();
    assert!(matches!(e, ConfigError::BadValue { .. }), "{e:?}");
    assert_eq!(e.to_string(), "cannot set threads");
    assert_eq!(
        says_once(&e, "'abc'"),
        format!(
            "cannot set threads: 'abc' is not a number of threads from 1 to {}",
            cabra::engine::MAX_THREADS
        )
    );

    // Each item's error names its item once.
    let e = EngineConfig::parse("time=1s,c=-1").unwrap_err();
    assert_eq!(
        says_once(&e, "c=-1"),
        "in 'c=-1': cannot set c: '-1' is not a positive number"
    );
}

#[test]
fn value_errors_say_their_cause_once() {
    // A time control's part, and why it was refused.
    for (text, part, cause) in [
        ("5s+x", "increment", "'x' is not a duration"),
        ("x", "main time", "'x' is not a duration"),
        ("0s", "main time", "the time must be more than 0"),
    ] {
        let e = TimeControl::parse(text).unwrap_err();
        assert!(matches!(e, ValueError::TimeControl { .. }), "{e:?}");
        assert_eq!(e.to_string(), part);
        assert!(says_once(&e, cause).starts_with(&format!("{part}: ")));
    }
    // A key's value error adds nothing to the value's own (transparent).
    let inner = TimeControl::parse("5s+x").unwrap_err();
    let e = KeyValueError::Value(inner.clone());
    assert_eq!(links(&e), links(&inner));
    says_once(&e, "'x'");
    let e = EngineConfig::default().set("iterations", "0").unwrap_err();
    assert_eq!(
        says_once(&e, "at least 1"),
        "cannot set iterations: the count must be at least 1"
    );
}

#[test]
fn weights_errors_say_their_cause_once() {
    let missing = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-weights.bin");
    let e = value::load(&missing).unwrap_err();
    assert!(matches!(e, LoadError::Read { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!("cannot read '{}'", missing.display())
    );
    // The promise of its docs: the source is the reading's error.
    let io = e.source().expect("a source");
    assert!(io.downcast_ref::<std::io::Error>().is_some(), "{io:?}");
    says_once(&e, &io.to_string());

    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("not-weights.bin");
    std::fs::write(&bad, b"hello, not weights").unwrap();
    let e = value::load(&bad).unwrap_err();
    assert!(matches!(e, LoadError::Weights { .. }), "{e:?}");
    // The source is the bytes' error (a type of the library's own).
    let why = e.source().expect("a source");
    assert!(why.downcast_ref::<std::io::Error>().is_none(), "{why:?}");
    let chain = says_once(&e, "not a Cabra weights file");
    assert_eq!(
        chain.matches(&bad.display().to_string()).count(),
        1,
        "{chain}"
    );

    // As a key's value: the key, then the load error's chain (the key's
    // value error is the load error itself).
    let key = format!("weights={}", bad.display());
    let e = EngineConfig::parse(&key).unwrap_err();
    let chain = says_once(&e, "not a Cabra weights file");
    assert!(
        chain.starts_with(&format!("in '{key}': cannot set weights: '")),
        "{chain}"
    );
    let e = EngineConfig::default()
        .set("weights", &missing.display().to_string())
        .unwrap_err();
    let ConfigError::BadValue { why, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(matches!(why, KeyValueError::Weights(_)), "{why:?}");
    assert_eq!(
        why.to_string(),
        format!("cannot read '{}'", missing.display())
    );
    says_once(&e, &io.to_string());
}

#[test]
fn match_errors_say_their_cause_once() {
    let placement = parse_placement("L T90 200").unwrap();
    let why = placement_error().to_string();

    let e = Fault::Illegal {
        placement: Move::Place(placement),
        source: placement_error(),
    };
    assert_eq!(e.to_string(), format!("illegal placement {placement}"));
    assert_eq!(
        says_once(&e, &why),
        format!("illegal placement {placement}: {why}")
    );

    let e = MatchError::IllegalOpening {
        number: 2,
        placement,
        source: placement_error(),
    };
    assert!(!e.to_string().contains(&why), "{e}");
    says_once(&e, &why);
}
