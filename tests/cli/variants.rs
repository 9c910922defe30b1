//! The rule variants (RULES.md section 9) through the command line: the
//! `--rules` and `--swap` options, files that declare their rules, and
//! `swap` and `tm` typed in `cabra play`.

use crate::common::*;

#[test]
fn check_names_an_edge_ending_and_refuses_conflicting_rules() {
    let file = data("variants/games/pub_hand_edge_p1.caminos");
    let f = file.to_str().unwrap();
    let j = ok_json(&["check", f, "--json"]);
    assert_eq!(j["result"], "p1");
    assert_eq!(j["by"], "edge");
    assert_eq!(j["rules"], "bridget");
    assert_eq!(j["edge"], serde_json::json!([9, 6]));
    let text = ok(&["check", f]);
    assert!(text.contains("under the bridget rules"), "{text}");
    assert!(
        text.contains("player 1 wins on edge columns (9 to 6: more wins)"),
        "{text}"
    );
    // The file says bridget: other rules on the command line are an error,
    // the same ones are fine.
    assert!(ok(&["check", f, "--rules", "bridget"]).starts_with("ok:"));
    // `--swap` alone speaks of the swap only: right for a `bridget swap`
    // file, wrong for this one.
    let swap_file = data("variants/games/pub_hand_tm_both.caminos");
    assert!(ok(&["check", swap_file.to_str().unwrap(), "--swap"]).starts_with("ok:"));
    for bad in [
        &["--rules", "caminos"][..],
        &["--swap"][..],
        &["--rules", "bridget swap"][..],
    ] {
        let mut args = vec!["check", f];
        args.extend_from_slice(bad);
        let o = cabra(&args);
        assert!(!o.status.success(), "{bad:?}");
        assert!(
            stderr(&o).contains("played under the bridget rules"),
            "{}",
            stderr(&o)
        );
    }
    // A file without a rules line is caminos.
    let plain = data("games/random_000.caminos");
    let o = cabra(&["check", plain.to_str().unwrap(), "--rules", "bridget"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no `# rules:` line"), "{}", stderr(&o));
    // So is one with a time machine or a swap that only the options' rules
    // allow: the conflict is named, not the line.
    let dir = temp_dir();
    for (moves, options) in [
        (
            "110 120 121 122\n330 340 430 440\ntm\n",
            &["--rules", "bridget"][..],
        ),
        ("110 120 121 122\nswap\n", &["--swap"][..]),
    ] {
        let file = dir.path().join("special.caminos");
        std::fs::write(&file, moves).unwrap();
        let mut args = vec!["check", file.to_str().unwrap()];
        args.extend_from_slice(options);
        let o = cabra(&args);
        assert!(!o.status.success(), "{options:?}");
        assert!(stderr(&o).contains("no `# rules:` line"), "{}", stderr(&o));
        assert!(stderr(&o).contains("but the options say"), "{}", stderr(&o));
    }
    // Unknown rules are a usage error.
    let o = cabra(&["perft", "-d", "1", "--rules", "chess"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn perft_counts_the_swap_as_a_move() {
    // From the start under `bridget swap`: 1,345 placements; at depth 2
    // each is answered by a placement (1,591,832 in all, as without swap)
    // or by the swap: 1,591,832 + 1,345 = 1,593,177, as the vectors say.
    assert_eq!(
        ok(&["perft", "-d", "1", "--rules", "bridget", "--swap"]).trim(),
        "1345"
    );
    assert_eq!(
        ok(&["perft", "-d", "2", "--rules", "bridget swap"]).trim(),
        "1593177"
    );
    assert_eq!(ok(&["perft", "-d", "2"]).trim(), "1591832");
}

#[test]
fn play_takes_swap_and_tm_like_placements() {
    let out = cabra_with_input(
        &[
            "play",
            "--you",
            "both",
            "--rules",
            "bridget",
            "--swap",
            "--iterations",
            "200",
            "--threads",
            "1",
            "--seed",
            "1",
        ],
        "O T0 000\nswap\nO T0 660\nL T0 300\ntm\nshow\nhistory\npos\nstatus\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("2. player 2 swaps"), "{text}");
    assert!(
        text.contains("5. player 1 calls the time machine"),
        "{text}"
    );
    assert!(text.contains("rules: bridget swap"), "{text}");
    assert!(text.contains("time machine used"), "{text}");
    assert!(text.contains("edge columns"), "{text}");
    assert!(text.contains("  5. player 1  tm"), "{text}");
    // `status` counts moves (a swap and a time machine place nothing) and
    // gives the edge columns, which decide a bridget game without a bridge.
    // The time machine took back O T0 660 and L T0 300: only the O on 000
    // is left, player 2's since the swap, on three edge columns (000,
    // 100, 010; 110 is inside).
    let status = text
        .lines()
        .find(|l| l.starts_with("In progress after"))
        .expect("a status line");
    assert_eq!(
        status,
        "In progress after 5 moves: player 1 to move; edge columns 0 (player 1) to 3 (player 2)."
    );
    // The position code carries the rules and the special moves.
    let code = text
        .lines()
        .find(|l| l.starts_with("c2"))
        .expect("a c2 position code");
    assert!(code.starts_with("c23"), "{code}");
    let back = cabra_with_input(
        &["play", "--you", "both"],
        &format!("pos {code}\nhistory\n"),
    );
    let back = stdout(&back);
    assert!(back.contains("  2. player 2  swap"), "{back}");
    // Under the default rules `swap` is refused with a reason.
    let out = cabra_with_input(&["play", "--you", "both"], "O T0 000\nswap\n");
    let text = stdout(&out);
    assert!(text.contains("not part of the caminos rules"), "{text}");
    // A refused special move is named once.
    let out = cabra_with_input(&["play", "--you", "both", "--rules", "bridget"], "tm\n");
    let text = stdout(&out);
    assert!(text.contains("error: tm: the time machine needs"), "{text}");
    assert!(!text.contains("tm: tm:"), "{text}");
}
