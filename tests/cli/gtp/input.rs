//! Malformed input: every bad line gets `? reason` and the session goes
//! on; the end of the input ends it cleanly.

use super::session::Session;
use crate::common::*;

/// The session still answers properly.
fn alive(s: &mut Session) {
    s.send("99 name");
    let a = s.answer();
    assert_eq!((a.ok, a.id, a.text.as_str()), (true, Some(99), "cabra"));
}

#[test]
fn unknown_commands_bad_ids_and_empty_lines() {
    let mut s = Session::start(&["--threads", "1", "--iterations", "200"]);
    assert_eq!(s.fails("frobnicate 19"), "unknown command");
    s.send("5 frobnicate");
    let a = s.answer();
    assert_eq!(
        (a.ok, a.id, a.text.as_str()),
        (false, Some(5), "unknown command")
    );
    assert!(s.fails("12x name").contains("invalid id"));
    assert!(
        s.fails("123456789012345678901234567890 name")
            .contains("too large")
    );
    s.send("77");
    let a = s.answer();
    assert_eq!((a.ok, a.id), (false, Some(77)));
    assert!(a.text.contains("no command"), "{}", a.text);
    // Empty lines, white space and comments get no answer at all: the
    // next answer is the one to `name`.
    s.send_bytes(b"\n   \n\t\n# a comment\n\r\n");
    alive(&mut s);
    // GTP preprocessing: tabs are spaces, control characters go, a
    // comment ends the command.
    s.send_bytes(b"\tplay\t1 L\x07 E180 110   # first move\r\n");
    assert!(s.answer().ok);
    assert_eq!(s.ok("result"), "in progress, player 2 to move");
    s.close();
}

#[test]
fn bad_placements_and_wrong_players() {
    let mut s = Session::start(&["--threads", "1", "--iterations", "200"]);
    for (line, reason) in [
        ("play 1", "missing placement"),
        ("play", "usage: play PLAYER PLACEMENT"),
        ("play 1 X T0 000", "piece letter"),
        ("play 1 L T0 900", "off the board"),
        ("play 1 L T0 001", "z = 0"),
        ("play 1 L T0 700", "does not fit"),
        ("play 1 110 120 121", "found 9 digits"),
        ("play 1 000 200 400 600", "do not form"),
        ("play 3 L E180 110", "not a player"),
        ("play 2 L E180 110", "player 1 is to move"),
        ("genmove 2", "player 1 is to move"),
        ("genmove", "usage: genmove PLAYER"),
        ("genmove white", "player 1 is to move"),
        ("undo", "nothing to undo"),
    ] {
        let e = s.fails(line);
        assert!(e.contains(reason), "{line}: {e}");
    }
    s.ok("play 1 L E180 110");
    // Occupied cubes, a floating piece, a used-up piece type.
    assert!(s.fails("play 2 L E180 110").contains("already taken"));
    assert!(s.fails("play 2 O T0 551").contains("z = 0"));
    assert!(s.fails("play 2 111 211 112 212").contains("does not touch"));
    s.ok("play 2 O T0 330");
    s.ok("play 1 O T0 550");
    s.ok("play 2 O T0 600");
    s.ok("play 1 O T0 060");
    assert!(
        s.fails("play 2 O T0 040")
            .contains("player 2 has no O left")
    );
    assert_eq!(s.ok("result"), "in progress, player 2 to move");
    alive(&mut s);
    s.close();
}

#[test]
fn long_lines_and_binary_garbage() {
    let mut s = Session::start(&["--threads", "1", "--iterations", "200"]);
    // A line far over the cap: one answer, and the session goes on.
    let long = format!("play 1 {}\n", "L".repeat(1_000_000));
    s.send_bytes(long.as_bytes());
    assert!(s.answer().text.contains("too long"));
    alive(&mut s);
    // Not UTF-8: refused, with its id when it has one.
    s.send_bytes(b"8 play 1 \xff\xfe\xfd\n");
    let a = s.answer();
    assert_eq!((a.ok, a.id), (false, Some(8)));
    assert!(a.text.contains("UTF-8"));
    // Random bytes: whatever they hold, every non-empty line gets one
    // answer and nothing breaks. Lines are made of bytes from a fixed
    // generator; each ends with a line end.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut expected = 0;
    for _ in 0..200 {
        let mut line = Vec::new();
        let len = (x % 60) as usize;
        for _ in 0..len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = (x >> 24) as u8;
            if b != b'\n' {
                line.push(b);
            }
        }
        x = x.wrapping_add(1);
        line.push(b'\n');
        s.send_bytes(&line);
        s.send("name");
        expected += 1;
    }
    // Each `name` is answered; garbage lines answer `?` (or nothing when
    // they hold only white space and control characters).
    let mut names = 0;
    while names < expected {
        let a = s.answer();
        if a.ok && a.text == "cabra" {
            names += 1;
        } else {
            assert!(!a.ok || a.text.is_empty(), "{a:?}");
        }
    }
    alive(&mut s);
    s.close();
}

#[test]
fn the_end_of_the_input_ends_the_session_cleanly() {
    // Without quit, without a final line end, with a command cut short.
    for input in ["name\nplay 1", "", "\n\n", "quit\nname\n"] {
        let out = cabra_with_input(&["gtp"], input);
        assert!(out.status.success(), "{input:?}: {}", stderr(&out));
        let text = stdout(&out);
        let answers = text.matches("\n\n").count();
        let lines = input.lines().filter(|l| !l.trim().is_empty()).count();
        // quit ends the session: the line after it is not read.
        let expected = if input.starts_with("quit") { 1 } else { lines };
        assert_eq!(answers, expected, "{input:?}: {text:?}");
    }
}
