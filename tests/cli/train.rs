//! The training pipeline of docs/TRAINING.md at a small size, as a user
//! runs it: self-play writes games, `train` fits weights to them, and an
//! engine with `weights=FILE` plays with them. Damaged or missing weights
//! are errors that say so.

use crate::common::*;
use std::path::Path;

#[test]
fn generate_train_load_and_play() {
    let dir = temp_dir();
    let games = dir.path().join("games");
    let weights = dir.path().join("w.bin");
    let (g, w) = (games.to_str().unwrap(), weights.to_str().unwrap());
    selfplay(g, 6, 100, 1);
    check_targets(&games, 100);
    // With a temperature the move played is often not the most visited.
    let warm = dir.path().join("warm");
    success(cabra(&[
        "selfplay",
        "--engine",
        "default,temperature=1",
        "--games",
        "6",
        "--iterations",
        "300",
        "--threads",
        "1",
        "--seed",
        "4",
        "--quiet",
        "--out",
        warm.to_str().unwrap(),
    ]));
    check_targets(&warm, 300);
    let out = success(cabra(&[
        "train",
        "--data",
        g,
        "--out",
        w,
        "--epochs",
        "3",
        "--holdout",
        "3",
    ]));
    assert!(out.contains("6 games"), "{out}");
    assert!(out.contains("epoch 3/3: loss"), "{out}");
    assert!(out.contains("held out"), "{out}");
    let bytes = std::fs::read(&weights).unwrap();
    assert_eq!(&bytes[..8], b"CABRAVAL");
    // The checksum printed is the one the file ends with.
    let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
    assert!(out.contains(&format!("checksum {sum:016x}")), "{out}");

    // Trained again without --force: refused, the file left as it was.
    let again = cabra(&["train", "--data", g, "--out", w, "--epochs", "1"]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    assert_eq!(std::fs::read(&weights).unwrap(), bytes);

    // The same games in a second folder (a copy, or a whole run and its
    // shards) train once, as a merge counts them once.
    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(games.join("results.jsonl"), copy.join("results.jsonl")).unwrap();
    let both = dir.path().join("both.bin");
    let o = cabra(&[
        "train",
        "--data",
        g,
        copy.to_str().unwrap(),
        "--out",
        both.to_str().unwrap(),
        "--epochs",
        "1",
    ]);
    assert!(
        stdout(&o).contains("6 games to learn from"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("6 games recorded twice"),
        "{}",
        stderr(&o)
    );

    // A game played by an engine that values every leaf with them.
    let played = dir.path().join("played");
    let engine = format!("default,value=100,weights={w}");
    let out = success(cabra(&[
        "selfplay",
        "--engine",
        &engine,
        "--games",
        "2",
        "--iterations",
        "300",
        "--threads",
        "1",
        "--seed",
        "2",
        "--quiet",
        "--out",
        played.to_str().unwrap(),
    ]));
    assert!(out.contains("2 games written"), "{out}");
    let records = std::fs::read_to_string(played.join("results.jsonl")).unwrap();
    assert!(
        records.contains(&format!("value=100,weights={w}")),
        "{records}"
    );
}

#[test]
fn the_same_games_train_the_same_weights_however_split() {
    let dir = temp_dir();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let run = |out: &str, shard: Option<&str>| {
        let mut args = vec![
            "selfplay",
            "--games",
            "4",
            "--iterations",
            "60",
            "--threads",
            "1",
            "--seed",
            "8",
            "--quiet",
            "--out",
            out,
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        success(cabra(&args));
    };
    let (whole, s0, s1) = (path("whole"), path("s0"), path("s1"));
    run(&whole, None);
    run(&s0, Some("0/2"));
    run(&s1, Some("1/2"));
    let checksum = |data: &[&str], out: &str| {
        let mut args = vec!["train", "--data"];
        args.extend(data);
        args.extend(["--out", out, "--epochs", "2", "--holdout", "0"]);
        let text = success(cabra(&args));
        text.lines()
            .last()
            .unwrap()
            .split("checksum ")
            .nth(1)
            .unwrap()[..16]
            .to_string()
    };
    let one = checksum(&[&whole], &path("a.bin"));
    assert_eq!(checksum(&[&s0, &s1], &path("b.bin")), one);
    assert_eq!(checksum(&[&s1, &s0], &path("c.bin")), one);
}

/// Each record in `games` holds the search's targets of each engine
/// placement, the placement played first.
fn check_targets(games: &Path, iterations: u64) {
    let text = std::fs::read_to_string(games.join("results.jsonl")).unwrap();
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["match"]["format"], 2);
        let (all, opening) = (
            r["placements"].as_array().unwrap().len(),
            r["opening"].as_array().unwrap().len(),
        );
        let search = r["search"].as_array().expect("a search field");
        assert_eq!(search.len(), all - opening);
        let placements = r["placements"].as_array().unwrap();
        for (i, s) in search.iter().enumerate() {
            // A search may stop early on a proof.
            assert!(s["iterations"].as_u64().unwrap() <= iterations);
            let w = s["winrate"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&w));
            let visits = s["visits"].as_array().unwrap();
            assert!((1..=25).contains(&visits.len()), "{visits:?}");
            // The placement played comes first, the others once each,
            // visited (visits count those of the kept tree).
            let played = placements[opening + i].as_str().unwrap();
            let played = played.split('#').nth(1).unwrap().trim();
            assert_eq!(visits[0][0], played, "{visits:?}");
            assert!(
                visits[1..]
                    .iter()
                    .all(|v| v[1].as_u64().unwrap() > 0 && v[0] != played)
            );
        }
    }
}

#[test]
fn damaged_or_missing_weights_are_refused() {
    let dir = temp_dir();
    let bad = dir.path().join("bad.bin");
    let mut bytes = std::fs::read("weights/value.bin").unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&bad, &bytes).unwrap();
    let engine = format!("default,value=50,weights={}", bad.display());
    refused(
        &["search", "--engine", &engine, "--iterations", "100"],
        "checksum",
    );
    refused(
        &[
            "search",
            "--engine",
            "default,weights=no/such.bin",
            "--iterations",
            "100",
        ],
        "cannot read 'no/such.bin'",
    );
    // An empty file, and an endless one that is not read to its end.
    let nothing = dir.path().join("nothing.bin");
    std::fs::write(&nothing, b"").unwrap();
    for (file, says) in [
        (nothing.to_str().unwrap(), "the file is empty"),
        ("/dev/zero", "not a Cabra weights file"),
    ] {
        let engine = format!("default,weights={file}");
        refused(
            &["search", "--engine", &engine, "--iterations", "100"],
            says,
        );
    }
    let empty = dir.path().to_str().unwrap();
    refused(
        &["train", "--data", empty, "--out", "x.bin"],
        "holds no results.jsonl",
    );
    refused(
        &[
            "train",
            "--data",
            "games",
            "--out",
            "x.bin",
            "--holdout",
            "1",
        ],
        "--holdout 1 would hold out every game",
    );
    // A folder's name, checked before any work.
    refused(
        &["train", "--data", "games", "--out", "no/such/dir/"],
        "names a directory, not a file",
    );
}

#[test]
fn training_data_is_read_in_game_order_and_checked() {
    let dir = temp_dir();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (a, b) = (path("a"), path("b"));
    selfplay(&a, 4, 50, 3);
    // The same games, listed in another order (as games that end in
    // another order are): the same weights.
    let records = std::fs::read_to_string(dir.path().join("a/results.jsonl")).unwrap();
    std::fs::create_dir(&b).unwrap();
    let reversed: String = records.lines().rev().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("b/results.jsonl"), reversed).unwrap();
    let train = |data: &str, out: &str| {
        success(cabra(&[
            "train",
            "--data",
            data,
            "--out",
            out,
            "--epochs",
            "1",
            "--holdout",
            "2",
        ]))
    };
    let (wa, wb) = (path("a.bin"), path("b.bin"));
    train(&a, &wa);
    train(&b, &wb);
    assert_eq!(std::fs::read(&wa).unwrap(), std::fs::read(&wb).unwrap());

    refused(
        &["train", "--data", &a, &b, &a, "--out", "x.bin"],
        "given twice",
    );
    let own = format!("{a}/results.jsonl");
    refused(
        &["train", "--data", &a, "--out", &own, "--force"],
        "is the training data itself",
    );
    assert_eq!(std::fs::read_to_string(&own).unwrap(), records);
    for rate in ["nan", "-1", "0", "inf"] {
        refused(
            &["train", "--data", &a, "--out", "x.bin", "--rate", rate],
            "not a step size",
        );
    }
    // A run that diverges writes nothing, and leaves the file it would
    // have replaced as it was.
    let before = std::fs::read(&wa).unwrap();
    refused(
        &[
            "train", "--data", &a, "--out", &wa, "--force", "--rate", "1e30", "--epochs", "2",
        ],
        "training diverged",
    );
    assert_eq!(std::fs::read(&wa).unwrap(), before);

    // Records of a later format, or search estimates outside 0 to 1.
    let c = path("c");
    std::fs::create_dir(&c).unwrap();
    let later = records.replace("\"format\":2", "\"format\":3");
    assert_ne!(later, records);
    std::fs::write(dir.path().join("c/results.jsonl"), later).unwrap();
    refused(
        &["train", "--data", &c, "--out", "x.bin"],
        "records of format 3",
    );
    let bad: String = records
        .lines()
        .map(|l| {
            let mut r: serde_json::Value = serde_json::from_str(l).unwrap();
            for s in r["search"].as_array_mut().unwrap() {
                s["winrate"] = 7.5.into();
            }
            format!("{r}\n")
        })
        .collect();
    // A search list one entry short.
    let short: String = records
        .lines()
        .map(|l| {
            let mut r: serde_json::Value = serde_json::from_str(l).unwrap();
            r["search"].as_array_mut().unwrap().pop();
            format!("{r}\n")
        })
        .collect();
    std::fs::write(dir.path().join("c/results.jsonl"), short).unwrap();
    refused(
        &["train", "--data", &c, "--out", "x.bin"],
        "search entries for",
    );
    std::fs::write(dir.path().join("c/results.jsonl"), bad).unwrap();
    refused(
        &[
            "train",
            "--data",
            &c,
            "--out",
            "x.bin",
            "--search-weight",
            "1",
        ],
        "not from 0 to 1",
    );

    // A placement the position does not allow: the file's line, the
    // game and the move are named.
    let mut lines: Vec<serde_json::Value> = records
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let game = lines[1]["game"].clone();
    let p = lines[1]["placements"].as_array_mut().unwrap();
    p[3] = p[2].clone();
    let illegal: String = lines.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.path().join("c/results.jsonl"), illegal).unwrap();
    refused(
        &["train", "--data", &c, "--out", "x.bin"],
        &format!("c/results.jsonl line 2 (game {game}): move 4 is illegal"),
    );
}

#[test]
fn fine_tuning_reports_where_it_starts_and_its_best_epoch() {
    let dir = temp_dir();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let data = path("sp");
    selfplay(&data, 4, 50, 5);
    let out = success(cabra(&[
        "train",
        "--data",
        &data,
        "--out",
        &path("w.bin"),
        "--from",
        "builtin",
        "--epochs",
        "3",
        "--holdout",
        "2",
    ]));
    let before = out
        .lines()
        .position(|l| l.starts_with("before training: held out"));
    let first = out.lines().position(|l| l.starts_with("epoch 1/3"));
    assert!(before.is_some() && before < first, "{out}");
    // Which epoch did best on the held-out games, unless the last did.
    let losses: Vec<f64> = out
        .lines()
        .filter(|l| l.starts_with("epoch "))
        .map(|l| l.split("held out ").nth(1).unwrap()[..6].parse().unwrap())
        .collect();
    let start: f64 = out.lines().nth(before.unwrap()).unwrap()
        ["before training: held out ".len()..][..6]
        .parse()
        .unwrap();
    // Epoch 0: the starting weights.
    let all: Vec<f64> = std::iter::once(start).chain(losses).collect();
    let best = (0..4).min_by(|&a, &b| all[a].total_cmp(&all[b])).unwrap();
    assert_eq!(out.contains("lowest before training"), best == 0, "{out}");
    // Too large a step: every epoch is worse than the weights started from.
    let worse = success(cabra(&[
        "train",
        "--data",
        &data,
        "--out",
        &path("w2.bin"),
        "--from",
        "builtin",
        "--epochs",
        "3",
        "--holdout",
        "2",
        "--rate",
        "0.05",
    ]));
    assert!(worse.contains("lowest before training"), "{worse}");
    assert!(!worse.contains("lowest after epoch"), "{worse}");
    assert_eq!(
        out.contains(&format!("lowest after epoch {best}")),
        best == 1 || best == 2,
        "{out}"
    );
    // Match records hold no search estimates: --search-weight says so.
    let m = path("m");
    success(cabra(&[
        "match",
        "--a",
        "default",
        "--b",
        "baseline",
        "--games",
        "2",
        "--iterations",
        "50",
        "--out",
        &m,
    ]));
    let o = cabra(&[
        "train",
        "--data",
        &m,
        "--out",
        &path("m.bin"),
        "--epochs",
        "1",
        "--search-weight",
        "0.5",
    ]);
    assert_no_panic(&o, "train --search-weight on match records");
    assert!(stderr(&o).contains("weighs nothing"), "{}", stderr(&o));
}

#[test]
fn progress_that_cannot_be_written_does_not_lose_the_run() {
    let dir = temp_dir();
    let data = dir.path().join("games");
    selfplay(data.to_str().unwrap(), 2, 50, 1);
    let out = dir.path().join("w.bin");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_cabra"))
        .args(["train", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .args(["--epochs", "2"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_no_panic(&o, "train > /dev/full");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write the progress"),
        "{}",
        stderr(&o)
    );
    assert_eq!(&std::fs::read(&out).unwrap()[..8], b"CABRAVAL");
}

/// Self-play of `games` games at `iterations` a move, one thread, into `out`.
fn selfplay(out: &str, games: u32, iterations: u32, seed: u64) {
    let (games, iterations, seed) = (games.to_string(), iterations.to_string(), seed.to_string());
    success(cabra(&[
        "selfplay",
        "--games",
        &games,
        "--iterations",
        &iterations,
        "--threads",
        "1",
        "--seed",
        &seed,
        "--quiet",
        "--out",
        out,
    ]));
}

/// Runs `cabra args`, which must fail cleanly with an error that says `says`.
fn refused(args: &[&str], says: &str) {
    let o = cabra(args);
    assert_no_panic(&o, says);
    assert!(!o.status.success(), "{args:?} succeeded");
    assert!(stderr(&o).contains(says), "{}", stderr(&o));
}

/// Runs one step of `scripts/train-round.sh` on `dir` with the test's
/// build as `CABRA`, and `env` set.
fn round(step: &str, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut c = std::process::Command::new("bash");
    c.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/train-round.sh"))
        .arg(step)
        .arg(dir)
        .args(args)
        .env("CABRA", env!("CARGO_BIN_EXE_cabra"))
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn the_scripted_round_generates_trains_gates_and_ships() {
    let tmp = temp_dir();
    let dir = tmp.path().join("round-1");
    let dest = tmp.path().join("value.bin");
    let dest_env = [("DEST", dest.to_str().unwrap())];
    // Each step refuses to run before the one it needs.
    let early = round("train", &dir, &[], &[]);
    assert!(!early.status.success());
    assert!(stderr(&early).contains("run the selfplay step first"));
    let o = round(
        "selfplay",
        &dir,
        &[
            "--games",
            "4",
            "--iterations",
            "50",
            "--seed",
            "3",
            "--quiet",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = round("train", &dir, &["--epochs", "2"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("value.bin").is_file());
    // A gate the new weights cannot pass: nothing is shipped.
    let args = ["--games", "2", "--iterations", "50", "--quiet"];
    let o = round("gate", &dir, &args, &[("MIN_SCORE", "1.01")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("gate failed"), "{}", stdout(&o));
    let o = round("ship", &dir, &[], &dest_env);
    assert!(!o.status.success());
    assert!(!dest.exists());
    // One they pass: the file shipped is the one trained, and loads.
    let o = round("gate", &dir, &args, &[("MIN_SCORE", "0")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let gate: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("gate.json")).unwrap()).unwrap();
    assert_eq!(gate["games"], 2);
    let o = round("ship", &dir, &[], &dest_env);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&dest).unwrap(),
        std::fs::read(dir.join("value.bin")).unwrap()
    );
    let engine = format!("default,weights={}", dest.display());
    ok(&["search", "--engine", &engine, "--iterations", "100"]);
    // Weights trained again after the gate are not the ones that passed.
    let o = round("train", &dir, &["--epochs", "1", "--seed", "7"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = round("ship", &dir, &[], &dest_env);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("run the gate step"), "{}", stderr(&o));
    // What a step sets itself is not taken from its options.
    for (step, opt) in [
        ("selfplay", "--engine=default"),
        ("train", "--out"),
        ("gate", "--b"),
    ] {
        let o = round(step, &dir, &[opt, "x"], &[]);
        assert_eq!(o.status.code(), Some(2), "{step} {opt}");
        assert!(stderr(&o).contains("sets"), "{}", stderr(&o));
    }
    let o = round("gate", &dir, &args, &[("MIN_SCORE", "abc")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("MIN_SCORE=abc"), "{}", stderr(&o));
}
