//! Playing the games of a match or of selfplay: several at once, each
//! from its paired opening (random, or from a file), each written to its
//! file.
//!
//! How many at once: in a game only the player to move thinks (an engine
//! of this program searches only when asked, `cabra gtp` does not think
//! on the opponent's time, a legacy build runs only for its own move), so
//! a game keeps `threads` cores busy, and `cores / threads` games at once
//! fill the machine without oversubscribing it even with two programs
//! per game. A program that thinks on its opponent's time needs
//! `--concurrency` set by hand.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::bail;
use cabra::engine::matches::{Clock, GameRecord, play_concurrently, play_game, random_opening};
use cabra::game::Status;
use cabra::game::record::{move_line, write_game};

use super::PlayOptions;
use super::players::{Limits, Spec};
use super::records::{ForfeitLine, MatchHeader, Recorder, ResultRecord, SearchLine};
use crate::cli::files::save_atomically;
use crate::cli::options::all_cores;
use crate::cli::shards::Shard;

/// The file of game `g` (from 0) in `dir`.
pub fn game_file(dir: &Path, g: usize) -> PathBuf {
    dir.join(format!("game-{:04}.caminos", g + 1))
}

/// Removes the game files (`game-NNNN.caminos`) of `dir`: left by the
/// earlier run that `--force` replaces, they would sit beside records
/// that no longer name them (or name other games: another seed, another
/// shard). Other files are left alone.
fn remove_game_files(dir: &Path) -> anyhow::Result<()> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| crate::cli::files::io_error("read", dir, &e))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let numbered = name
            .to_str()
            .and_then(|n| n.strip_prefix("game-")?.strip_suffix(".caminos"))
            .is_some_and(|n| n.len() >= 4 && n.bytes().all(|b| b.is_ascii_digit()));
        if numbered {
            std::fs::remove_file(entry.path())
                .map_err(|e| crate::cli::files::io_error("remove", &entry.path(), &e))?;
        }
    }
    Ok(())
}

/// Games at once: as asked, else cores / the threads of the hungrier
/// player.
pub fn concurrency(opts: &PlayOptions, threads: usize, games: usize) -> usize {
    opts.concurrency
        .map_or((all_cores() / threads).max(1), usize::from)
        .clamp(1, games.max(1))
}

/// Which games to play and where they go.
pub struct Plan<'a> {
    /// The games to play (from 0), in order.
    pub todo: Vec<usize>,
    /// The directory of the game files and the records.
    pub out: Option<&'a Path>,
    /// Where each finished game's record is appended.
    pub recorder: Option<&'a Recorder>,
    /// A rerun of a shard: the game files of games not yet recorded are
    /// left over from a killed run of the same match and replaced.
    pub resume: bool,
    /// The match's identity, recorded with every game.
    pub header: &'a MatchHeader,
    /// The shard being played (recorded with every game).
    pub shard: Shard,
}

/// Plays the games of `plan`, `concurrency` at a time, showing progress
/// on stderr; returns their records in game order (a game a signal
/// stopped is left out), and whether a signal stopped the match.
pub fn play_all(
    specs: &[Spec; 2],
    limits: &Limits,
    opts: &PlayOptions,
    plan: &Plan,
    score_a: bool,
) -> anyhow::Result<(Vec<ResultRecord>, bool)> {
    let out = plan.out;
    if opts.opening_min > opts.opening_max {
        crate::cli::options::usage_error(format!(
            "--opening-min {} is above --opening-max {}",
            opts.opening_min, opts.opening_max
        ));
    }
    let start = cabra::game::Position::with_rules(opts.rules.rules());
    let book = match &opts.openings {
        Some(path) => Some((path, super::openings::read_openings(path, &start)?)),
        None => None,
    };
    let games = plan.todo.len();
    let threads = specs.iter().map(|s| s.threads(limits)).max().unwrap_or(1);
    let concurrency = concurrency(opts, threads, games);
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| crate::cli::files::io_error("create", dir, &e))?;
        // Find out now, not after the last game, that the games cannot be kept.
        tempfile::Builder::new()
            .prefix(".cabra-write-test")
            .tempfile_in(dir)
            .map_err(|e| crate::cli::files::io_error("write in", dir, &e))?;
        if opts.force {
            // The records were emptied (a shard's too): the games go with them.
            remove_game_files(dir)?;
        } else if !plan.resume {
            if let Some(f) = plan
                .todo
                .iter()
                .map(|&g| game_file(dir, g))
                .find(|f| f.exists())
            {
                bail!(
                    "{} already exists: choose another --out directory, or --force to replace its games",
                    f.display()
                );
            }
        }
    }
    if specs.iter().any(Spec::is_program) {
        // A program that dies must not take the match with it.
        crate::cli::signals::ignore_broken_pipes();
    }
    for s in specs {
        s.check(limits, opts.rules.rules())
            .map_err(anyhow::Error::msg)?;
    }
    let seed = opts.budget.seed.unwrap_or(1);
    let clock = limits.clock.map(|control| Clock {
        control,
        margin: limits.margin,
    });
    let stop = Arc::new(AtomicBool::new(false));
    let raise = stop.clone();
    crate::cli::signals::stop_on_signal(move || raise.store(true, Ordering::SeqCst))?;
    let bar = if opts.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(games as u64)
    };
    bar.set_style(
        // The count is in the message, written with the tally in one call:
        // the bar's own {pos} could be drawn a game behind it.
        indicatif::ProgressStyle::with_template("{bar:30} {msg}  {elapsed}")
            .expect("a valid template"),
    );
    bar.set_message(format!("0/{} games", plan.todo.len()));
    // The time goes on between games.
    bar.enable_steady_tick(std::time::Duration::from_secs(1));
    // Without a terminal (a batch job's log) the bar is not drawn: a line
    // a game says how the run goes instead.
    let log_lines = !opts.quiet && !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let tally = Mutex::new([0u32; 3]);
    let play_one = |i: usize| -> anyhow::Result<Option<ResultRecord>> {
        let g = plan.todo[i];
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let pair = g / 2;
        let (opening, source) = match &book {
            Some((path, book)) => {
                let k = pair % book.len();
                let source = format!("opening {} of {}", k + 1, path.display());
                (book[k].clone(), Some(source))
            }
            None => (
                random_opening(
                    &start,
                    seed.wrapping_mul(0x9E37_79B9).wrapping_add(pair as u64),
                    usize::from(opts.opening_min),
                    usize::from(opts.opening_max),
                )?,
                None,
            ),
        };
        let game_seed = seed ^ (g as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let began = Instant::now();
        let started = |k: usize, seed: u64| {
            specs[k].start(limits, seed, &stop).map_err(|f| {
                // The other games stop too; those finished are recorded.
                stop.store(true, Ordering::SeqCst);
                let rest = if out.is_some() {
                    " (the games finished are recorded: a rerun with --shard plays the rest)"
                } else {
                    ""
                };
                anyhow::anyhow!(
                    "game {}: {} = {} did not start: {f}; the match stops{rest}",
                    g + 1,
                    ["A", "B"][k],
                    specs[k].name()
                )
            })
        };
        let mut a = started(0, game_seed ^ 0xA)?;
        let mut b = started(1, game_seed ^ 0xB)?;
        let Some(r) = play_game(
            [a.as_mut(), b.as_mut()],
            g % 2,
            start,
            &opening,
            clock,
            &stop,
        )?
        else {
            return Ok(None);
        };
        let seconds = began.elapsed().as_secs_f64();
        if let Some(dir) = out {
            save(&game_file(dir, g), g, &r, specs, source.as_deref())?;
        }
        let line = line_of(g, &r, specs, plan, seconds);
        if let Some(recorder) = plan.recorder {
            recorder.append(&line)?;
        }
        let mut t = tally.lock().expect("lock");
        t[(2.0 * r.score) as usize] += 1;
        let [l, d, w] = *t;
        drop(t);
        let done = w + d + l;
        let head = format!("{done}/{} games", plan.todo.len());
        let message = if score_a {
            format!(
                "{head}  A {w}-{d}-{l} {:.1}%",
                100.0 * (f64::from(w) + 0.5 * f64::from(d)) / f64::from(done)
            )
        } else {
            format!("{head}  last: {}", r.position.status())
        };
        if log_lines {
            eprintln!("game {} done: {message}", g + 1);
        }
        bar.set_message(message);
        bar.inc(1);
        Ok(Some(line))
    };
    let results = play_concurrently(games, concurrency, play_one);
    bar.finish_and_clear();
    let mut lines = Vec::new();
    for r in results {
        lines.extend(r?);
    }
    Ok((lines, stop.load(Ordering::SeqCst)))
}

/// The record of game `g` (from 0).
fn line_of(g: usize, r: &GameRecord, specs: &[Spec; 2], plan: &Plan, seconds: f64) -> ResultRecord {
    let one = r.player_one();
    let (result, ended) = match (&r.forfeit, r.position.status()) {
        (Some(f), _) if f.loser == one => ("p2", "adjudication"),
        (Some(_), _) => ("p1", "adjudication"),
        (None, Status::Won { by, .. } | Status::Draw { by }) => {
            (r.position.status().code(), by.name())
        }
        (None, s) => (s.code(), "unfinished"),
    };
    let moves: Vec<String> = r.position.moves().iter().map(|&m| move_line(m)).collect();
    ResultRecord {
        header: plan.header.clone(),
        game: g + 1,
        shard: plan.shard.to_string(),
        opening: moves[..r.opening.min(moves.len())].to_vec(),
        player_one: ["A", "B"][one].into(),
        score: r.score,
        result: result.into(),
        ended: ended.into(),
        reason: result_text(r, specs),
        forfeit: r.forfeit.as_ref().map(|f| ForfeitLine {
            loser: ["A", "B"][f.loser].into(),
            kind: f.fault.kind().into(),
        }),
        placements: moves,
        thought: r.thought.map(|t| t.as_secs_f64()),
        moves: r.moves,
        seconds,
        search: if plan.header.kind == "selfplay" {
            r.searches
                .iter()
                .map(|n| {
                    n.as_ref().map(|n| SearchLine {
                        winrate: n.winrate,
                        iterations: n.iterations,
                        visits: n.visits.iter().map(|&(m, v)| (m.to_string(), v)).collect(),
                    })
                })
                .collect()
        } else {
            Vec::new()
        },
    }
}

/// The result line of a game: as `cabra check` says it, or the forfeit.
pub fn result_text(r: &GameRecord, specs: &[Spec; 2]) -> String {
    match &r.forfeit {
        None => crate::cli::render::status_line(&r.position),
        Some(f) => {
            let one = r.player_one();
            let loser_number = if f.loser == one { 1 } else { 2 };
            format!(
                "player {} wins: player {loser_number} ({} = {}) lost by adjudication after {} placements: {}",
                3 - loser_number,
                ["A", "B"][f.loser],
                specs[f.loser].name(),
                f.ply,
                crate::cli::chain(&f.fault)
            )
        }
    }
}

/// Writes one game with a header of comments; `source` says which
/// opening of which file it played (none: a random one).
fn save(
    path: &Path,
    g: usize,
    r: &GameRecord,
    specs: &[Spec; 2],
    source: Option<&str>,
) -> anyhow::Result<()> {
    let one = r.player_one();
    let n = r.opening;
    let s = if n == 1 { "" } else { "s" };
    let opening = match source {
        Some(source) => format!("{n} placement{s}, {source}"),
        None => format!("{n} random placement{s}"),
    };
    let (p1, p2) = (one_line(specs[one].name()), one_line(specs[1 - one].name()));
    let text = format!(
        "# cabra game {}: player 1 = {p1}, player 2 = {p2}\n# opening: {}\n# result: {}\n{}",
        g + 1,
        one_line(&opening),
        one_line(&result_text(r, specs)),
        write_game(&r.position)
    );
    save_atomically(path, text.as_bytes())
}

/// `text` fit for a comment line: a program's answer or name may hold line
/// breaks, which would end the comment and start a placement line.
fn one_line(text: &str) -> String {
    super::process::printable(text, ' ')
}
