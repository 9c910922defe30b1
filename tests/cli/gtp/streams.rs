//! Live analysis: `cabra-analyze` streams `info` lines until the next
//! command, which is then run; `genmove_analyze` streams, then plays.

use super::session::Session;
use crate::common::{cabra_with_input, stdout};

/// One candidate of an `info` line.
#[derive(Debug)]
struct Candidate {
    mv: String,
    visits: u64,
    winrate: f64,
    proven: String,
    order: usize,
    pv: Vec<String>,
}

/// Reads an `info` line: `info move M visits V winrate W proven P order O
/// pv M M ...`, once per candidate (placements are three words).
fn parse_info(line: &str) -> Vec<Candidate> {
    assert!(line.starts_with("info move "), "{line}");
    line.split("info ")
        .filter(|e| !e.trim().is_empty())
        .map(|entry| {
            let w: Vec<&str> = entry.split_whitespace().collect();
            let key = |i: usize, k: &str| assert_eq!(w[i], k, "{entry}");
            key(0, "move");
            key(4, "visits");
            key(6, "winrate");
            key(8, "proven");
            key(10, "order");
            key(12, "pv");
            let pv: Vec<String> = w[13..].chunks(3).map(|c| c.join(" ")).collect();
            assert!(w[13..].len() % 3 == 0, "{entry}");
            Candidate {
                mv: w[1..4].join(" "),
                visits: w[5].parse().unwrap(),
                winrate: w[7].parse().unwrap(),
                proven: w[9].to_string(),
                order: w[11].parse().unwrap(),
                pv,
            }
        })
        .collect()
}

/// Checks the candidates of one line: ordered, most visited first, each
/// a legal placement heading its own principal variation.
fn check_candidates(c: &[Candidate], max: usize, legal: &[String]) {
    assert!(!c.is_empty() && c.len() <= max, "{c:?}");
    for (i, m) in c.iter().enumerate() {
        assert_eq!(m.order, i);
        assert!((0.0..=1.0).contains(&m.winrate), "{m:?}");
        assert!(["none", "win", "loss", "draw"].contains(&m.proven.as_str()));
        assert_eq!(m.pv.first(), Some(&m.mv));
        assert!(legal.contains(&m.mv), "{m:?}");
        if i > 0 {
            assert!(c[i - 1].visits >= m.visits, "{c:?}");
        }
    }
}

#[test]
fn an_analysis_stream_is_stopped_by_the_next_command() {
    let mut s = Session::start(&["--threads", "1", "--seed", "1"]);
    s.ok("play 1 L E180 110");
    let legal: Vec<String> = s.ok("legal_moves").lines().map(String::from).collect();
    s.send("3 cabra-analyze 2 maxmoves 3");
    assert_eq!(s.line(), "=3 ");
    // A few updates, each with more visits in all.
    let mut totals = Vec::new();
    for _ in 0..3 {
        let c = parse_info(&s.line());
        check_candidates(&c, 3, &legal);
        totals.push(c.iter().map(|m| m.visits).sum::<u64>());
    }
    assert!(totals.windows(2).all(|w| w[0] <= w[1]), "{totals:?}");
    // The command stops the stream: the answer ends with its blank line
    // (perhaps after a last update), and the command is answered.
    s.send("4 name");
    loop {
        let l = s.line();
        if l.is_empty() {
            break;
        }
        parse_info(&l);
    }
    let a = s.answer();
    assert_eq!((a.ok, a.id, a.text.as_str()), (true, Some(4), "cabra"));
    // Analysis places nothing.
    assert_eq!(s.ok("result"), "in progress, player 2 to move");
    // A command that fails is run too; then a stream for the named player.
    s.send("cabra-analyze 2 interval 1");
    assert_eq!(s.line(), "= ");
    parse_info(&s.line());
    s.send("play 1 L E180 110");
    while !s.line().is_empty() {}
    assert!(s.answer().text.contains("player 2 is to move"));
    assert!(s.fails("cabra-analyze 1").contains("player 2 is to move"));
    assert!(
        s.fails("cabra-analyze 2 maxmoves 0")
            .contains("number of moves")
    );
    assert!(s.fails("cabra-analyze soon").contains("not an interval"));
    s.close();
}

#[test]
fn the_end_of_the_input_stops_a_stream() {
    let mut s = Session::start(&["--threads", "1"]);
    s.send("cabra-analyze 1");
    assert_eq!(s.line(), "= ");
    parse_info(&s.line());
    // Closing the input ends the stream's answer and the session: every
    // line left is an update or the blank line that ends the answer.
    s.close_input();
    let rest: Vec<String> = std::iter::from_fn(|| s.next_line()).collect();
    assert_eq!(rest.last().map(String::as_str), Some(""), "{rest:?}");
    for l in &rest[..rest.len() - 1] {
        parse_info(l);
    }
    let err = s.wait();
    assert!(err.is_empty(), "{err}");
}

#[test]
fn genmove_analyze_streams_then_plays() {
    let mut s = Session::start(&["--threads", "1", "--iterations", "30k", "--seed", "2"]);
    let legal: Vec<String> = s.ok("legal_moves").lines().map(String::from).collect();
    s.send("genmove_analyze 1 1 maxmoves 2");
    assert_eq!(s.line(), "= ");
    let mut last = None;
    let mut lines: Vec<String> = Vec::new();
    let played = loop {
        let l = s.line();
        if let Some(mv) = l.strip_prefix("play ") {
            break mv.to_string();
        }
        let c = parse_info(&l);
        check_candidates(&c, 2, &legal);
        last = Some(c);
        lines.push(l);
    };
    assert_eq!(s.line(), "", "a blank line ends the answer");
    // The final update is not the last progress line again.
    assert!(lines.windows(2).all(|w| w[0] != w[1]), "{lines:#?}");
    assert!(legal.contains(&played));
    // The last update names the placement played first (most visited).
    let last = last.expect("at least the final update");
    assert_eq!(last[0].mv, played);
    assert_eq!(s.ok("result"), "in progress, player 2 to move");
    // The placement is on the board: undo takes it back.
    s.ok("undo");
    assert_eq!(s.ok("result"), "in progress, player 1 to move");
    assert!(s.fails("genmove_analyze 2").contains("player 1 is to move"));
    assert!(s.fails("genmove_analyze").starts_with("usage"));
    s.close();
}

#[test]
fn genmove_analyze_stopped_early_still_plays() {
    let mut s = Session::start(&["--threads", "1", "--time", "60s"]);
    s.send("genmove_analyze x 1");
    assert_eq!(s.line(), "= ");
    parse_info(&s.line());
    s.send("5 result");
    let played = loop {
        let l = s.line();
        if let Some(mv) = l.strip_prefix("play ") {
            break mv.to_string();
        }
    };
    assert_eq!(s.line(), "");
    assert_ne!(played, "resign");
    let a = s.answer();
    assert_eq!(a.id, Some(5));
    assert_eq!(a.text, "in progress, player 2 to move");
    s.close();
}

/// The entries of the last `info` line of a piped session's answer.
fn last_info(out: &str) -> Vec<Candidate> {
    let line = out
        .lines()
        .rfind(|l| l.starts_with("info "))
        .unwrap_or_else(|| panic!("no info line: {out}"));
    parse_info(line)
}

#[test]
fn genmove_analyze_plays_a_searched_move_however_soon_it_is_stopped() {
    // The next line is there at once: the stop comes before the first
    // iteration, and the placement played is still a searched one.
    let args = ["gtp", "--threads", "1", "--time", "60s", "--seed", "1"];
    let out = cabra_with_input(&args, "genmove_analyze 1\nname\n");
    let text = stdout(&out);
    let first = &last_info(&text)[0];
    assert!(first.visits > 0, "{text}");
    assert!(text.contains(&format!("play {}\n", first.mv)), "{text}");
    assert!(text.ends_with("= cabra\n\n"), "{text}");
    // The end of the input does not stop it: the move's budget runs out.
    let args = [
        "gtp",
        "--threads",
        "1",
        "--iterations",
        "3000",
        "--seed",
        "1",
    ];
    let out = cabra_with_input(&args, "genmove_analyze 1 maxmoves 1000\n");
    let text = stdout(&out);
    let visits: u64 = last_info(&text).iter().map(|c| c.visits).sum();
    assert!(visits > 1000, "{visits} visits: {text}");
}
