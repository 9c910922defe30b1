//! `cabra match` between programs: broken fake programs lose every game
//! with the right reason and the match ends; a real `cabra gtp` and an
//! old build through `search --json` play whole games.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::*;

/// Runs `cabra` and fails the test if it has not ended within two minutes
/// (a match must never hang on a program that does not answer).
fn cabra_within(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cabra"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            panic!("cabra {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out, &format!("{args:?}"));
    out
}

/// A program argument quoting `path` for the command line.
fn quoted(path: &std::path::Path) -> String {
    format!("'{}'", path.display())
}

/// The fake GTP program broken as `mode` says.
#[cfg(unix)]
fn fake(mode: &str) -> String {
    format!("gtp:sh {} {mode}", quoted(&data("fakes/fake-gtp.sh")))
}

/// Plays a short match; returns the JSON summary and the game files' texts.
fn short_match(a: &str, b: &str, extra: &[&str]) -> (Value, Vec<String>) {
    let dir = temp_dir();
    let out_dir = dir.path().join("games");
    let mut args = vec![
        "match",
        "--a",
        a,
        "--b",
        b,
        "--games",
        "2",
        "--quiet",
        "--json",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    // 300 iterations a placement, unless the games are on a clock.
    if !extra.contains(&"--clock") {
        args.extend(["--iterations", "300"]);
    }
    args.extend_from_slice(extra);
    let out = cabra_within(&args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let summary: Value = serde_json::from_str(&stdout(&out)).unwrap();
    // The game files (beside them, results.jsonl holds their records).
    let mut files: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "caminos"))
        .collect();
    files.sort();
    let texts = files
        .iter()
        .map(|f| {
            // Every game file is a valid record, forfeited games too.
            let check = cabra(&["check", f.to_str().unwrap()]);
            assert!(
                check.status.success(),
                "{}: {}",
                f.display(),
                stderr(&check)
            );
            std::fs::read_to_string(f).unwrap()
        })
        .collect();
    (summary, texts)
}

// The fake programs are shell scripts.
#[cfg(unix)]
#[test]
fn broken_programs_lose_every_game_with_the_reason() {
    for (mode, kind, words) in [
        (
            "crash",
            "crash",
            "crashed: exited with status 3 (fake: crashing on purpose)",
        ),
        ("illegal", "illegal", "is already taken"),
        ("silent", "timeout", "no answer within 300ms"),
        (
            "garbage",
            "garbage",
            "unreadable answer: 'hello, this is not GTP'",
        ),
        // Endless output costs the match no more than a MiB.
        ("flood", "garbage", "an answer of over 1024 KiB to genmove"),
        // A line break in an answer stays out of the game file's lines.
        ("lines", "error", "answered an error: cannot move L T0 000"),
    ] {
        // The broken program as B, then as A.
        for (a, b, loser) in [
            ("iterations=300".to_string(), fake(mode), "B"),
            (fake(mode), "iterations=300".to_string(), "A"),
        ] {
            // Reading a MiB of flood takes longer than 300 ms on a loaded
            // machine; the silent program must still time out.
            let margin = if mode == "flood" { "5s" } else { "300ms" };
            let (s, games) = short_match(&a, &b, &["--margin", margin]);
            assert_eq!(s["games"], 2, "{mode}");
            let lost = if loser == "A" { "losses" } else { "wins" };
            assert_eq!(s[lost], 2, "{mode}: {s}");
            let forfeits = s["forfeits"].as_array().unwrap();
            assert_eq!(forfeits.len(), 2, "{mode}: {s}");
            for f in forfeits {
                assert_eq!(f["loser"], loser, "{mode}");
                assert_eq!(f["kind"], kind, "{mode}");
                let reason = f["reason"].as_str().unwrap();
                assert!(reason.contains(words), "{mode}: {reason}");
                assert!(reason.contains("lost by adjudication"), "{reason}");
            }
            assert_eq!(games.len(), 2);
            for g in &games {
                let result = g.lines().find(|l| l.starts_with("# result: ")).unwrap();
                assert!(result.contains(words), "{mode}: {result}");
                assert!(result.contains(&format!("({loser} = ")), "{result}");
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn a_line_break_in_a_player_name_stays_in_its_comment() {
    // The words after the break are arguments the fake ignores; in a game
    // file's header they must not become a placement line.
    let b = format!("{}\nL T0 000", fake("crash"));
    let (s, games) = short_match("iterations=300", &b, &["--margin", "300ms"]);
    assert_eq!(s["wins"], 2, "{s}");
    for g in &games {
        let header = g.lines().next().unwrap();
        assert!(
            header.contains("crash L T0 000,") || header.ends_with("crash L T0 000"),
            "{header}"
        );
    }
}

#[cfg(unix)]
#[test]
fn the_text_summary_lists_the_games_lost_by_adjudication() {
    let out = cabra_within(&[
        "match",
        "--a",
        "iterations=300",
        "--b",
        &fake("illegal"),
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("A wins 2"), "{text}");
    assert!(
        text.contains("programs: 100ms a placement, 1 thread, lost beyond 1.1s"),
        "{text}"
    );
    for g in [1, 2] {
        assert!(text.contains(&format!("game {g}: player ")), "{text}");
    }
    assert!(text.matches("illegal placement").count() == 2, "{text}");
}

#[test]
fn cabra_gtp_plays_whole_games_as_a_program() {
    let program = format!(
        "gtp:{} gtp --engine baseline",
        quoted(env!("CARGO_BIN_EXE_cabra").as_ref())
    );
    let (s, games) = short_match("iterations=300", &program, &["--margin", "20s"]);
    assert_eq!(s["games"], 2);
    assert_eq!(s["forfeits"].as_array().unwrap().len(), 0, "{s}");
    assert_eq!(s["b"], program.as_str());
    for g in &games {
        let result = g.lines().find(|l| l.starts_with("# result: ")).unwrap();
        assert!(
            result.contains("wins") || result.contains("draw"),
            "{result}"
        );
        assert!(!result.contains("in progress"), "{result}");
    }
}

#[test]
fn an_old_build_plays_through_search_json() {
    // This build's `search --json` is what old builds offer.
    let legacy = format!("legacy:{}", env!("CARGO_BIN_EXE_cabra"));
    let (s, games) = short_match(&legacy, "baseline", &["--margin", "20s"]);
    assert_eq!(s["games"], 2);
    assert_eq!(s["forfeits"].as_array().unwrap().len(), 0, "{s}");
    for g in &games {
        assert!(g.contains(&format!("= {legacy}")), "{g}");
        assert!(!g.contains("in progress"), "{g}");
    }
}

#[test]
fn programs_play_on_a_game_clock() {
    let gtp = format!(
        "gtp:{} gtp --threads 1",
        quoted(env!("CARGO_BIN_EXE_cabra").as_ref())
    );
    let legacy = format!("legacy:{}", env!("CARGO_BIN_EXE_cabra"));
    for b in [gtp, legacy] {
        let (s, games) = short_match("default", &b, &["--clock", "1s+20ms", "--margin", "5s"]);
        assert_eq!(s["games"], 2);
        assert_eq!(s["clock"], "1s+20ms");
        assert_eq!(s["forfeits"].as_array().unwrap().len(), 0, "{s}");
        let limits = s["program_limits"].as_str().unwrap();
        assert!(limits.starts_with("clock 1s+20ms a game"), "{limits}");
        // Each player's thinking fits in its clock: a second and the
        // increments, over at least five placements a game.
        for t in s["seconds_per_placement"].as_array().unwrap() {
            let t = t.as_f64().unwrap();
            assert!(t > 0.0 && t < 0.25, "{s}");
        }
        for g in &games {
            assert!(!g.contains("in progress"), "{g}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_program_silent_on_a_clock_loses_on_time() {
    let (s, _) = short_match(
        "default",
        &fake("silent"),
        &["--clock", "200ms", "--margin", "100ms"],
    );
    let forfeits = s["forfeits"].as_array().unwrap();
    assert_eq!(forfeits.len(), 2, "{s}");
    for f in forfeits {
        assert_eq!(f["kind"], "timeout");
        // Its whole clock and the margin.
        let reason = f["reason"].as_str().unwrap();
        assert!(reason.contains("no answer within 300ms"), "{reason}");
    }
}

#[test]
fn a_program_that_cannot_start_stops_the_match_at_once() {
    for b in [
        "gtp:/no/such/program gtp",
        "legacy:/no/such/cabra",
        "gtp:'unclosed",
    ] {
        let out = cabra_within(&["match", "--b", b, "--games", "2", "--quiet"]);
        assert!(!out.status.success(), "{b}");
        let err = stderr(&out);
        assert!(
            err.contains("cannot start") || err.contains("quote"),
            "{b}: {err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_program_that_stops_starting_mid_match_stops_it() {
    // Starts twice (the check before the match, game 1), then fails:
    // game 2 is not scored as its loss, the match stops with an error,
    // and game 1's record stays for a rerun.
    let dir = temp_dir();
    let count = dir.path().join("launches");
    let script = dir.path().join("flaky.sh");
    std::fs::write(
        &script,
        format!(
            "n=$(cat '{count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '{count}'\n\
             if [ $n -gt 2 ]; then echo 'cannot load weights' >&2; exit 7; fi\n\
             exec sh {fake} illegal\n",
            count = count.display(),
            fake = quoted(&data("fakes/fake-gtp.sh")),
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("games");
    let b = format!("gtp:sh {}", quoted(&script));
    let out = cabra_within(&[
        "match",
        "--b",
        &b,
        "--games",
        "4",
        "--iterations",
        "50",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("game 2: B = gtp:sh")
            && err.contains("did not start")
            && err.contains("cannot load weights"),
        "{err}"
    );
    let records = std::fs::read_to_string(out_dir.join("results.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 1, "{records}");
}
