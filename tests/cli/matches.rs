//! `cabra match`, `cabra selfplay` and `cabra tactics` end to end, with
//! tiny budgets.

use crate::common::*;

#[test]
fn match_json_summary_and_game_files() {
    let dir = std::env::temp_dir().join(format!("cabra-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let r = ok_json(&[
        "match",
        "--a",
        "default",
        "--b",
        "baseline",
        "--games",
        "4",
        "--iterations",
        "300",
        "--threads",
        "1",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r["games"], 4);
    let (w, d, l) = (
        r["wins"].as_u64().unwrap(),
        r["draws"].as_u64().unwrap(),
        r["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 4);
    let score = r["score"].as_f64().unwrap();
    assert!((score - (w as f64 + 0.5 * d as f64) / 4.0).abs() < 1e-9);
    for key in ["elo", "elo_ci95", "elo_low", "elo_high"] {
        assert!(r[key].as_f64().unwrap().is_finite(), "{key}");
    }
    // Every game is a valid record that `cabra check` accepts, and each
    // opening is played once with each colour.
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "caminos"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 4);
    // And one record a game beside them.
    let records = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 4);
    let moves = |p: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    for f in &files {
        let out = cabra(&["check", f.to_str().unwrap()]);
        assert!(out.status.success(), "{}", f.display());
    }
    let (g1, g2) = (moves(&files[0]), moves(&files[1]));
    let header = std::fs::read_to_string(&files[0]).unwrap();
    let n = header
        .lines()
        .find_map(|l| l.strip_prefix("# opening: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap();
    assert!((2..=4).contains(&n));
    assert_eq!(g1[..n], g2[..n]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_text_output_and_bad_configurations() {
    let out = cabra(&[
        "match",
        "--a",
        "iterations=100",
        "--b",
        "baseline,iterations=100",
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("score") && text.contains("Elo"), "{text}");
    for bad in ["nonsense", "c=x", "colour=red"] {
        let out = cabra(&["match", "--a", bad, "--games", "2", "--iterations", "10"]);
        assert!(!out.status.success(), "{bad}");
    }
}

#[test]
fn match_plays_the_openings_of_a_file_in_turn_with_both_colours() {
    let dir = std::env::temp_dir().join(format!("cabra-openings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("openings.txt");
    // Two openings, one in notation and one as digits; then a third pair
    // comes back to the first.
    std::fs::write(
        &book,
        "# two openings\nL E180 600, L T180 460\n\n110 120 121 122  # L E180 110\n",
    )
    .unwrap();
    let games = dir.join("games");
    let out = cabra(&[
        "match",
        "--a",
        "iterations=100",
        "--b",
        "baseline,iterations=100",
        "--games",
        "6",
        "--quiet",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game =
        |g: usize| std::fs::read_to_string(games.join(format!("game-{g:04}.caminos"))).unwrap();
    let first_moves = |g: usize, n: usize| -> Vec<String> {
        game(g)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(n)
            .map(|l| l.split('#').nth(1).unwrap().trim().to_string())
            .collect()
    };
    for g in [1, 2, 5, 6] {
        assert_eq!(first_moves(g, 2), ["L E180 600", "L T180 460"], "game {g}");
    }
    for g in [3, 4] {
        assert_eq!(first_moves(g, 1), ["L E180 110"], "game {g}");
        assert!(game(g).contains("# opening: 1 placement, opening 2 of"));
    }
    // A pair gives each player each colour.
    let players = |g: usize| game(g).lines().next().unwrap().to_string();
    assert_ne!(players(1), players(2));
    // A bad opening stops the match before any game, naming its line.
    std::fs::write(&book, "L E180 600\nL E180 600, L E180 600\n").unwrap();
    let out = cabra(&[
        "match",
        "--games",
        "2",
        "--iterations",
        "10",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2, placement 2 (L E180 600): cube 600 is already taken"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_writes_games() {
    let dir = std::env::temp_dir().join(format!("cabra-selfplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = cabra(&[
        "selfplay",
        "--games",
        "2",
        "--iterations",
        "200",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    // Two games and their records.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    assert!(dir.join("game-0002.caminos").is_file());
    assert!(dir.join("results.jsonl").is_file());
    // A shorter run forced over it leaves no game of the old run beside
    // its records, and no file of the user's.
    std::fs::write(dir.join("mine.caminos"), "").unwrap();
    let forced = cabra(&[
        "selfplay",
        "--games",
        "1",
        "--iterations",
        "200",
        "--quiet",
        "--force",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert!(dir.join("game-0001.caminos").is_file());
    assert!(!dir.join("game-0002.caminos").exists());
    assert!(dir.join("mine.caminos").is_file());
    let records = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 1);
    // Forced as another shard, with no game of the old run in its range:
    // the old games go all the same.
    let shard = cabra(&[
        "selfplay",
        "--games",
        "4",
        "--iterations",
        "200",
        "--quiet",
        "--force",
        "--shard",
        "1/2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(shard.status.success(), "{}", stderr(&shard));
    assert!(!dir.join("game-0001.caminos").exists());
    assert!(dir.join("game-0003.caminos").is_file() && dir.join("game-0004.caminos").is_file());
    assert!(dir.join("mine.caminos").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_counts_games_lost_on_time() {
    // Two milliseconds for a whole game: every game is lost on time, and
    // the summary gives the win to the other colour.
    let dir = temp_dir();
    let out = ok(&[
        "selfplay",
        "--games",
        "2",
        "--clock",
        "2ms",
        "--threads",
        "1",
        "--out",
        dir.path().join("g").to_str().unwrap(),
    ]);
    let line = out.lines().last().unwrap();
    assert!(line.contains("(2 lost by adjudication)"), "{line}");
    let won: usize = ["player 1 won ", "player 2 won "]
        .iter()
        .map(|w| {
            line.split(w)
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(won, 2, "{line}");
}

#[test]
fn the_tactical_suite_with_a_small_budget() {
    // A small budget for CI: wins in one and must-blocks are all found; a
    // win in two needs its proof over every reply, which a small budget may
    // not reach (the default budget of 100k iterations solves them all;
    // docs/STRENGTH.md).
    let r = ok_json(&[
        "tactics",
        "tests/data/tactics",
        "--iterations",
        "20000",
        "--json",
    ]);
    let total = r["total"].as_u64().unwrap();
    assert!(total >= 18, "{total} positions");
    for p in r["positions"].as_array().unwrap() {
        if p["kind"] != "win2" {
            assert_eq!(p["solved"], true, "{p}");
        }
    }
    assert!(r["solved"].as_u64().unwrap() >= 15, "{r}");
}

#[test]
fn tactics_checks_answers_by_the_rules() {
    // The baseline has no win check or solver but with a tiny budget still
    // answers; whatever it says, the command reports a count.
    let r = ok_json(&[
        "tactics",
        "tests/data/tactics/win1-1.caminos",
        "--engine",
        "baseline",
        "--iterations",
        "10",
        "--json",
    ]);
    assert_eq!(r["total"], 1);
}
