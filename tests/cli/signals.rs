//! Interrupted commands print what is finished: `analyze` the placements
//! analyzed, `match` the summary so far, `search` its report so far,
//! `play` the code of an unsaved game; then they exit with the status a shell gives a command its signal
//! ended (128 and its number), so that a script sees it was cut short.

use std::io::Write;
use std::process::Child;
use std::time::{Duration, Instant};

use crate::common::*;

/// Sends `signal` to the child, then waits (at most 20 s) for its output.
fn signal_and_wait(mut child: Child, signal: i32, after: Duration) -> std::process::Output {
    std::thread::sleep(after);
    // SAFETY: kill with the pid of our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the command did not end"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The status a shell reports for a command ended by `signal`.
fn status_of(signal: i32) -> Option<i32> {
    Some(128 + signal)
}

#[test]
fn an_interrupted_analysis_prints_the_placements_finished() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // A long budget: without the signal this would take minutes.
        let game = data("games/random_000.caminos");
        let child = spawn(&[
            "analyze",
            game.to_str().unwrap(),
            "--iterations",
            "3M",
            "--threads",
            "1",
            "--json",
        ]);
        let out = signal_and_wait(child, signal, Duration::from_millis(1500));
        assert_no_panic(&out, "analyze");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(j["interrupted"], true);
        let done = j["moves"].as_array().unwrap().len();
        assert!(done < j["placements"].as_u64().unwrap() as usize);
        assert_eq!(out.status.code(), status_of(signal), "signal {signal}");
    }
}

#[test]
fn an_interrupted_search_prints_what_it_found() {
    // A minute's budget: the signal cuts it short.
    let child = spawn(&["search", "--time", "60s", "--threads", "1", "--json"]);
    let out = signal_and_wait(child, libc::SIGINT, Duration::from_millis(1500));
    assert_no_panic(&out, "search");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(j["interrupted"], true);
    assert!(j["seconds"].as_f64().unwrap() < 30.0, "{j}");
    assert!(j["iterations"].as_u64().unwrap() > 0, "{j}");
    assert!(j["best"].is_string(), "{j}");
    assert_eq!(out.status.code(), status_of(libc::SIGINT));
}

#[test]
fn an_interrupted_match_prints_the_summary_so_far() {
    let child = spawn(&[
        "match",
        "--games",
        "400",
        "--time",
        "50ms",
        "--threads",
        "1",
        "--json",
    ]);
    let out = signal_and_wait(child, libc::SIGTERM, Duration::from_millis(2500));
    assert_no_panic(&out, "match");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(j["interrupted"], true);
    let games = j["games"].as_u64().unwrap();
    assert!(games < 400, "{j}");
    assert_eq!(out.status.code(), status_of(libc::SIGTERM));
}

#[test]
fn an_interrupted_match_does_not_wait_for_a_silent_program() {
    // The fake never answers genmove, and may take a minute to; the
    // signal must end the match well before (signal_and_wait allows 20 s).
    let fake = format!("gtp:sh {} silent", data("fakes/fake-gtp.sh").display());
    let child = spawn(&[
        "match",
        "--b",
        &fake,
        "--games",
        "2",
        "--iterations",
        "200",
        "--margin",
        "60s",
        "--threads",
        "1",
        "--json",
    ]);
    let out = signal_and_wait(child, libc::SIGINT, Duration::from_millis(1500));
    assert_no_panic(&out, "match");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(j["interrupted"], true);
    assert_eq!(j["games"], 0, "the game cut short is no result: {j}");
    assert_eq!(out.status.code(), status_of(libc::SIGINT));
}

#[test]
fn a_terminated_session_prints_the_code_of_its_unsaved_game() {
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let mut child = spawn(&["play", "--you", "both"]);
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"L E180 110\nO T0 330\n").unwrap();
        input.flush().unwrap();
        // Keep standard input open: the session waits for more.
        let out = signal_and_wait(child, signal, Duration::from_millis(800));
        drop(input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("pos c1"), "{err}");
        assert_eq!(out.status.code(), status_of(signal), "signal {signal}");
    }
}

#[test]
fn a_session_ended_while_the_engine_answers_keeps_the_placement_just_made() {
    let mut child = spawn(&["play", "--time", "30s", "--threads", "1"]);
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"L E180 110\n").unwrap();
    input.flush().unwrap();
    // The engine thinks half a minute on its reply: the signal comes first.
    let out = signal_and_wait(child, libc::SIGTERM, Duration::from_millis(1500));
    drop(input);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("This game (1 placement) was not saved"),
        "{err}"
    );
    assert_eq!(out.status.code(), status_of(libc::SIGTERM));
}

#[test]
fn an_interrupted_analysis_engine_answers_the_searches_under_way() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut child = spawn(&["analysis", "--threads", "1", "--workers", "1"]);
        let mut input = child.stdin.take().unwrap();
        // Without the signal this would take hours; stdin stays open.
        writeln!(
            input,
            r#"{{"id": "long", "moves": ["L E180 110"], "turns": [0, 1], "iterations": "1000M"}}"#
        )
        .unwrap();
        let out = signal_and_wait(child, signal, Duration::from_millis(1500));
        drop(input);
        assert_no_panic(&out, "analysis");
        let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert_eq!(answers[0]["interrupted"], true);
        assert!(answers[0]["iterations"].as_u64().unwrap() > 0);
        assert_eq!(answers[1]["terminated"], true);
        assert_eq!(out.status.code(), status_of(signal), "signal {signal}");
    }
}
