//! `cabra engines`: the engine configurations and their keys, the
//! strength levels with their ratings, and the calibration that measures
//! those ratings (`--calibrate`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

mod ladder;

use crate::cli::plural;
use cabra::engine::levels::{LEVELS, Level, TOP, TOP_TIME_MS};
use ladder::Pairing;

/// Arguments of `cabra engines`.
#[derive(clap::Args, Debug)]
pub struct EnginesArgs {
    /// Also print every key's value in this configuration, e.g. "baseline,c=0.5".
    #[arg(value_parser = super::options::parse_engine, value_name = "CONFIG")]
    pub config: Option<cabra::engine::EngineConfig>,
    /// Measure the levels' ratings: play every pair of adjacent levels and of levels two apart (--games each, on all cores but the top level's pairs) and print the ratings fitted by maximum likelihood, the random player (level 0) at 0. docs/LEVELS.md shows the last run
    #[arg(long)]
    pub calibrate: bool,
    /// Games of each pair of levels in a calibration (played in pairs of colours)
    #[arg(long, default_value_t = 200, requires = "calibrate", value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub games: u32,
    /// Games of each pair with the full engine (level 11), whose games take most of a calibration's time [default: --games]
    #[arg(long, value_name = "N", requires = "calibrate", value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub top_games: Option<u32>,
    /// The full engine's time a move in a calibration, e.g. 200ms
    #[arg(long, value_name = "T", requires = "calibrate", value_parser = cabra::engine::parse_duration)]
    pub time: Option<Duration>,
    /// The seed of a calibration's openings and engines
    #[arg(long, default_value_t = 1, requires = "calibrate")]
    pub seed: u64,
    /// Record each pair's result as a line of DIR/pairs.jsonl, and play only the pairs not yet recorded there (with the same --games or --top-games, --time and --seed): a calibration stopped part way goes on where it stopped, and a pair whose line is deleted is played again
    #[arg(long, value_name = "DIR", requires = "calibrate")]
    pub out: Option<std::path::PathBuf>,
}

/// One pair's result in a calibration's record.
#[derive(serde::Serialize, serde::Deserialize)]
struct Recorded {
    a: u8,
    b: u8,
    games: u32,
    score: f64,
    /// What the pair was played with.
    games_asked: u32,
    top_time_ms: u64,
    seed: u64,
}

/// The pairs recorded in `file` for this calibration's settings.
fn recorded(
    file: &std::path::Path,
    args: &EnginesArgs,
    top_ms: u64,
) -> anyhow::Result<Vec<Pairing>> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => anyhow::bail!("cannot read {}: {e}", file.display()),
    };
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let r: Recorded = serde_json::from_str(line)
            .map_err(|e| anyhow::anyhow!("{}, line {}: {e}", file.display(), i + 1))?;
        let asked = games_of(args, (r.a, r.b));
        if (r.games_asked, r.top_time_ms, r.seed) == (asked, top_ms, args.seed) {
            out.push(Pairing {
                a: usize::from(r.a),
                b: usize::from(r.b),
                games: r.games,
                score: r.score,
            });
        }
    }
    Ok(out)
}

/// Whether the full engine plays in `pair`.
fn with_top((a, b): (u8, u8)) -> bool {
    a == TOP || b == TOP
}

/// The games asked of pair `(a, b)`: `--top-games` for the full engine's
/// pairs, `--games` for the others.
fn games_of(args: &EnginesArgs, pair: (u8, u8)) -> u32 {
    if with_top(pair) {
        args.top_games.unwrap_or(args.games)
    } else {
        args.games
    }
}

/// Prints the help of the configuration keys (from the one table of
/// keys) and the levels, or runs the calibration.
pub fn run(args: &EnginesArgs) -> anyhow::Result<()> {
    if args.calibrate {
        return calibrate(args);
    }
    let mut text = keys_help();
    text.push_str(&levels_table());
    if let Some(c) = &args.config {
        text.push_str(&format!("\n{}:\n", c.name));
        for k in cabra::engine::KEYS {
            text.push_str(&format!("  {}={}\n", k.name, k.get(c)));
        }
    }
    super::style::print(&text)
}

/// The help of the configurations and keys: the named configurations,
/// then each key with its value in the default and the baseline engine.
fn keys_help() -> String {
    let (d, b) = (
        cabra::engine::EngineConfig::default(),
        cabra::engine::EngineConfig::baseline(),
    );
    let mut s = String::from("Named configurations:\n");
    for (name, what) in cabra::engine::NAMES {
        s.push_str(&format!("  {name:<10} {what}\n"));
    }
    s.push_str("Keys (name=value, comma-separated, applied left to right):\n");
    let width = cabra::engine::KEYS
        .iter()
        .map(|k| k.name.len() + 1 + k.value.len())
        .max()
        .unwrap_or(0);
    for k in cabra::engine::KEYS {
        let (dv, bv) = (k.get(&d), k.get(&b));
        let defaults = if dv == "-" {
            String::new()
        } else if dv == bv {
            format!(" [default {dv}]")
        } else {
            format!(" [default {dv}; baseline {bv}]")
        };
        s.push_str(&format!(
            "  {:<width$}  {}{defaults}\n",
            format!("{}={}", k.name, k.value),
            k.help
        ));
    }
    s
}

/// How a level plays, in words.
fn how(l: &Level) -> String {
    if l.is_random() {
        return "a uniformly random legal move".to_string();
    }
    let Some(n) = l.iterations else {
        return format!("the full engine (rated at {TOP_TIME_MS} ms a move)");
    };
    let mut s = format!("{} a move", plural(n, "iteration"));
    if l.temperature > 0.0 {
        s.push_str(&format!(", chosen at temperature {}", l.temperature));
    }
    if l.randomness > 0 {
        s.push_str(&format!(", {}% of moves random", l.randomness));
    }
    s
}

/// The levels with their ratings, for `cabra engines`.
fn levels_table() -> String {
    let mut s = String::from(
        "Levels (level=N or elo=E; Elo with its 95% interval, the random player at 0; docs/LEVELS.md):\n",
    );
    for l in LEVELS {
        let rating = if l.is_random() {
            "0 (reference)".to_string()
        } else {
            format!("{} ± {}", l.elo, l.interval)
        };
        s.push_str(&format!(
            "  level={:<3} {:<14} {}\n",
            l.number,
            rating,
            how(l)
        ));
    }
    s
}

/// Plays the calibration's pairs and prints the fitted ratings.
fn calibrate(args: &EnginesArgs) -> anyhow::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    let on_signal = stop.clone();
    super::signals::stop_on_signal(move || on_signal.store(true, Ordering::SeqCst))?;
    let top_time = args.time.unwrap_or(Duration::from_millis(TOP_TIME_MS));
    let cores = crate::cli::defaults::all_cores();
    let top_ms = top_time.as_millis() as u64;
    let record = match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
            Some(dir.join("pairs.jsonl"))
        }
        None => None,
    };
    let mut pairings: Vec<Pairing> = match &record {
        Some(file) => recorded(file, args, top_ms)?,
        None => Vec::new(),
    };
    // The full engine's pairs, which need the machine to themselves, last.
    let mut schedule = ladder::schedule();
    schedule.sort_by_key(|&pair| with_top(pair));
    for (a, b) in schedule {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        if pairings
            .iter()
            .any(|p| (p.a, p.b) == (usize::from(a), usize::from(b)))
        {
            continue;
        }
        // The full engine is timed: its games one at a time, so that no
        // other game takes its core.
        let concurrency = if with_top((a, b)) { 1 } else { cores };
        let games = games_of(args, (a, b));
        let p = ladder::play_pairing((a, b), games, top_time, args.seed, concurrency, &stop);
        let score = if p.games > 0 {
            p.score / f64::from(p.games)
        } else {
            0.5
        };
        eprintln!(
            "level {a} against level {b}: {} games, {:.1}% for level {a}",
            p.games,
            100.0 * score
        );
        if let (Some(file), true) = (&record, p.games == games) {
            let line = serde_json::to_string(&Recorded {
                a,
                b,
                games: p.games,
                score: p.score,
                games_asked: games,
                top_time_ms: top_ms,
                seed: args.seed,
            })?;
            append_line(file, &line)?;
        }
        pairings.push(p);
    }
    let ratings = ladder::ratings(&pairings);
    let mut out = "| level | how it plays | Elo | 95% interval |\n|---|---|---|---|\n".to_string();
    for (l, r) in LEVELS.iter().zip(&ratings) {
        let (elo, interval) = match r {
            Some(r) => (format!("{:.0}", r.elo), format!("± {:.0}", r.interval)),
            None => ("-".to_string(), "no games".to_string()),
        };
        out.push_str(&format!(
            "| {} | {} | {elo} | {interval} |\n",
            l.number,
            how(l)
        ));
    }
    out.push_str("\n| pair | games | score |\n|---|---|---|\n");
    for p in &pairings {
        let score = if p.games > 0 {
            p.score / f64::from(p.games)
        } else {
            0.5
        };
        out.push_str(&format!(
            "| {} - {} | {} | {:.1}% |\n",
            p.a,
            p.b,
            p.games,
            100.0 * score
        ));
    }
    print!("{out}");
    Ok(())
}

/// Appends `line` to `file` (created if need be).
fn append_line(file: &std::path::Path, line: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
    writeln!(f, "{line}").map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_help_names_every_key_with_its_defaults() {
        let help = super::keys_help();
        for k in cabra::engine::KEYS {
            assert!(help.contains(&format!("  {}=", k.name)), "{}", k.name);
        }
        assert!(help.contains("[default 0.2; baseline 1.4142135]"), "{help}");
    }
}
