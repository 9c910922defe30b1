//! `cabra analysis`: JSON queries in, JSON answers out, queries run at
//! once and matched by id, bad queries answered with an error,
//! reproducible with one thread per query and a seed.

use serde_json::{Value, json};

use crate::common::*;

/// Runs `cabra analysis` on these queries (one per line); returns the
/// answers in the order written.
fn analysis(args: &[&str], queries: &[String]) -> Vec<Value> {
    let mut all = vec!["analysis"];
    all.extend_from_slice(args);
    let input: String = queries.iter().fold(String::new(), |s, q| s + q + "\n");
    let out = cabra_with_input(&all, &input);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// An answer without its timing (the only part that varies between runs).
fn steady(a: &Value) -> Value {
    let mut a = a.clone();
    for timing in ["seconds", "iterations_per_second"] {
        a.as_object_mut().unwrap().remove(timing);
    }
    a
}

fn moves_of(file: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let shown: Value =
        serde_json::from_str(&ok(&["show", "--json", path.to_str().unwrap()])).unwrap();
    shown["record"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn concurrent_queries_are_matched_by_id_and_reproducible() {
    let game = moves_of("games/midgame-9.caminos");
    // Six queries of different games and turns.
    let queries: Vec<String> = (0..6)
        .map(|i| {
            json!({
                "id": format!("q{i}"),
                "moves": game[..i + 2],
                "turns": [i, i + 2],
                "iterations": 1500,
                "top": 3,
                "seed": i,
            })
            .to_string()
        })
        .collect();
    let args = ["--threads", "1", "--workers", "2"];
    let answers = analysis(&args, &queries);
    assert_eq!(answers.len(), 12);
    for i in 0..6 {
        let id = format!("q{i}");
        let mine: Vec<&Value> = answers.iter().filter(|a| a["id"] == id.as_str()).collect();
        let turns: Vec<u64> = mine.iter().map(|a| a["turn"].as_u64().unwrap()).collect();
        assert_eq!(
            turns,
            vec![i as u64, i as u64 + 2],
            "{id}: one answer per turn, in order"
        );
        for a in &mine {
            assert_eq!(a["iterations"], 1500);
            let top = a["top"].as_array().unwrap();
            assert!(!top.is_empty() && top.len() <= 3);
            assert_eq!(a["best"], a["pv"][0]);
            for m in top {
                assert_eq!(m["pv"][0], m["move"]);
            }
        }
        // Each answer is the one its query gets alone.
        let alone = analysis(&["--threads", "1", "--workers", "1"], &queries[i..=i]);
        let alone: Vec<Value> = alone.iter().map(steady).collect();
        let mine: Vec<Value> = mine.iter().map(|a| steady(a)).collect();
        assert_eq!(mine, alone, "{id}");
    }
    // The same queries again give the same answers.
    let again = analysis(&args, &queries);
    let key = |a: &Value| (a["id"].to_string(), a["turn"].as_u64().unwrap());
    let mut first: Vec<Value> = answers.iter().map(steady).collect();
    let mut second: Vec<Value> = again.iter().map(steady).collect();
    first.sort_by_key(key);
    second.sort_by_key(key);
    assert_eq!(first, second);
}

#[test]
fn a_long_query_does_not_hold_up_a_short_one() {
    let long = json!({"id": "long", "iterations": "100k"}).to_string();
    let short = json!({"id": "short", "iterations": 1000}).to_string();
    let queries = [long, short];
    // Two workers: the short query, second in, is answered first.
    let ids: Vec<Value> = analysis(&["--threads", "1", "--workers", "2"], &queries)
        .iter()
        .map(|a| a["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!("short"), json!("long")]);
    // One worker: in turn.
    let ids: Vec<Value> = analysis(&["--threads", "1", "--workers", "1"], &queries)
        .iter()
        .map(|a| a["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!("long"), json!("short")]);
}

#[test]
fn an_answer_agrees_with_cabra_search() {
    let dir = temp_dir();
    let game = moves_of("games/midgame-9.caminos");
    let file = dir.path().join("part.caminos");
    let q = json!({"id": 1, "moves": game[..5], "iterations": 3000, "seed": 8, "top": 10});
    let a = &analysis(&["--threads", "1"], &[q.to_string()])[0];
    // The same position as a file, searched by `cabra search`.
    let cells: Vec<String> = game[..5]
        .iter()
        .map(|m| {
            let p = cabra::game::parse_placement_or_cells(m).unwrap();
            cabra::game::record::cells_text(p)
        })
        .collect();
    std::fs::write(&file, cells.join("\n")).unwrap();
    let s = ok_json(&[
        "search",
        file.to_str().unwrap(),
        "--iterations",
        "3000",
        "--threads",
        "1",
        "--seed",
        "8",
        "--json",
    ]);
    for k in ["best", "winrate", "proven", "pv", "iterations", "nodes"] {
        assert_eq!(a[k], s[k], "{k}");
    }
    assert_eq!(a["top"], s["top"]);
}

#[test]
fn bad_queries_get_an_error_and_the_others_go_on() {
    let queries: Vec<String> = [
        "not json",
        "[1, 2]",
        r#"{"moves": []}"#,
        r#"{"id": "u", "iteration": 5}"#,
        r#"{"id": "m", "moves": ["L E180 110", "L E180 110"]}"#,
        r#"{"id": "t", "moves": ["L E180 110"], "turns": [5]}"#,
        r#"{"id": "s", "moves": ["L E180 110"], "turns": ["1"]}"#,
        r#"{"id": "e", "engine": "warp=9"}"#,
        r#"{"id": "good", "iterations": 500}"#,
        "",
        r#"{"id": 12, "game": "110 120 121 122\n", "iterations": 500, "turns": [0, 1]}"#,
        r#"{"id": [1], "moves": []}"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let answers = analysis(&["--threads", "1", "--workers", "2"], &queries);
    let error = |id: Value| -> String {
        let e: Vec<&Value> = answers
            .iter()
            .filter(|a| a["id"] == id && a.get("error").is_some())
            .collect();
        assert_eq!(e.len(), 1, "{id}: {answers:?}");
        e[0]["error"].as_str().unwrap().to_string()
    };
    let nulls: Vec<&Value> = answers.iter().filter(|a| a["id"].is_null()).collect();
    assert_eq!(nulls.len(), 4, "{nulls:?}");
    // Without an id, the input line finds the query.
    let mut lines: Vec<u64> = nulls.iter().map(|a| a["line"].as_u64().unwrap()).collect();
    lines.sort();
    assert_eq!(lines, [1, 2, 3, 12]);
    assert!(
        answers
            .iter()
            .all(|a| a["id"].is_null() || a.get("line").is_none())
    );
    assert!(error(json!("u")).contains("unknown field \"iteration\""));
    assert!(error(json!("m")).contains("illegal"));
    assert!(error(json!("t")).contains("not a turn of this game"));
    assert!(error(json!("s")).contains("turns are whole numbers"));
    assert!(error(json!("e")).contains("unknown key"));
    let good: Vec<&Value> = answers.iter().filter(|a| a["id"] == "good").collect();
    assert_eq!(good.len(), 1);
    assert_eq!(good[0]["iterations"], 500);
    let twelve: Vec<u64> = answers
        .iter()
        .filter(|a| a["id"] == 12)
        .map(|a| a["turn"].as_u64().unwrap())
        .collect();
    assert_eq!(twelve, vec![0, 1]);
    // Control characters, and a finished game (answered without a search).
    let out = cabra_with_input(&["analysis"], "\u{0}\u{1}{\n");
    assert!(out.status.success());
    assert!(stdout(&out).contains("\"error\""));
    let won = std::fs::read_to_string(data("games/hand_broken_bridge_detour.caminos")).unwrap();
    let q = json!({"id": "over", "game": won}).to_string();
    let a = &analysis(&[], &[q])[0];
    assert_eq!(a["result"], "p1");
    // No search ran: the answer has no report.
    assert!(a["to_move"].is_null());
    for key in ["best", "winrate", "iterations", "top"] {
        assert!(a.get(key).is_none(), "{key}: {a}");
    }
}

#[test]
#[allow(
    clippy::zombie_processes,
    reason = "the child is waited for below; 1.85's lint misses it"
)]
fn a_script_may_write_every_query_before_it_reads() {
    // Far more than the pipes hold, both ways: with reading one query
    // ahead of the engines, each side waited for the other for ever.
    const QUERIES: usize = 3000;
    let mut child = spawn(&["analysis", "--threads", "1", "--workers", "1"]);
    let pid = child.id().to_string();
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let finished = finished.clone();
        std::thread::spawn(move || {
            for _ in 0..1200 {
                if finished.load(std::sync::atomic::Ordering::Relaxed) {
                    return false;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid])
                .status();
            true
        })
    };
    let mut input = child.stdin.take().unwrap();
    for i in 0..QUERIES {
        let q = json!({"id": i, "moves": ["L E180 110"], "turns": [0, 1], "iterations": 1});
        use std::io::Write;
        if writeln!(input, "{q}").is_err() {
            break;
        }
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    finished.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(
        !watchdog.join().unwrap(),
        "no answer within 2 minutes: a deadlock"
    );
    assert_no_panic(&out, "analysis");
    assert_eq!(stdout(&out).lines().count(), 2 * QUERIES);
}

#[test]
fn queries_are_terminated_by_id_or_all_at_once() {
    use std::io::{BufRead, Write};
    let mut child = spawn(&["analysis", "--threads", "1", "--workers", "1"]);
    let mut input = child.stdin.take().unwrap();
    let lines = std::io::BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in lines.lines().map_while(Result::ok) {
            let _ = tx.send(serde_json::from_str(&line).unwrap());
        }
    });
    let endless = |id: &str| json!({"id": id, "moves": ["L E180 110"], "turns": [0, 1], "iterations": "1000M"});
    let quick = |id: &str| json!({"id": id, "moves": [], "iterations": 100});
    let mut send = |q: Value| writeln!(input, "{q}").unwrap();
    let next = || {
        rx.recv_timeout(std::time::Duration::from_secs(60))
            .expect("an answer within a minute")
    };
    // A search under way stops and answers as it stands; its other turn
    // is answered without a search.
    send(endless("a"));
    std::thread::sleep(std::time::Duration::from_secs(2));
    send(json!({"id": "stop-a", "action": "terminate", "terminate_id": "a"}));
    let mut got = vec![next(), next(), next()];
    got.sort_by_key(|a| a.to_string());
    assert_eq!(got[0]["action"], "terminate", "{got:?}");
    assert_eq!(got[0]["terminate_id"], "a");
    assert_eq!(
        (got[1]["turn"].as_u64(), got[1]["interrupted"].as_bool()),
        (Some(0), Some(true)),
        "{got:?}"
    );
    assert!(got[1]["iterations"].as_u64().unwrap() > 0);
    assert_eq!(got[2], json!({"id": "a", "turn": 1, "terminated": true}));
    // terminate_all: the query under way and the one waiting for it, not
    // one read after it.
    send(endless("b"));
    send(quick("c"));
    std::thread::sleep(std::time::Duration::from_secs(2));
    send(json!({"id": "all", "action": "terminate_all"}));
    send(quick("d"));
    send(json!({"id": "x", "action": "pause"}));
    drop(input);
    let got: Vec<Value> = (0..6).map(|_| next()).collect();
    let of = |id: &str| -> Vec<&Value> { got.iter().filter(|a| a["id"] == id).collect() };
    assert_eq!(of("b").len(), 2, "{got:?}");
    assert!(of("b").iter().any(|a| a["interrupted"] == true));
    assert_eq!(
        of("c"),
        [&json!({"id": "c", "turn": 0, "terminated": true})]
    );
    assert_eq!(of("d")[0]["iterations"], 100);
    assert_eq!(of("all")[0]["action"], "terminate_all");
    assert!(
        of("x")[0]["error"]
            .as_str()
            .unwrap()
            .contains("terminate_all")
    );
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out, "analysis with terminations");
}
