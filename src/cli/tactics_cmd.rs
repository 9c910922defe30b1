//! `cabra tactics`: how many tactical test positions an engine solves.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use cabra::engine::EngineConfig;
use cabra::engine::tactics::{Kind, kind_in, solves};
use cabra::game::Position;
use cabra::game::record::parse_game;
use cabra::search::Limits;
use serde::Serialize;

use super::duration::parse_duration;

/// Where the suite lives in the repository.
const DEFAULT_DIR: &str = "tests/data/tactics";

/// Arguments of `cabra tactics`.
#[derive(clap::Args, Debug)]
pub struct TacticsArgs {
    /// A `.caminos` file with a `# tactic: KIND` comment, or a directory
    /// holding them (default: tests/data/tactics).
    pub path: Option<PathBuf>,
    /// The engine configuration (see docs/STRENGTH.md).
    #[arg(long, default_value = "default")]
    pub engine: String,
    /// Time per position.
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Iterations per position (the default when no limit is given: 100000).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Outcome {
    file: String,
    kind: String,
    answer: Option<String>,
    /// What the engine proved about the position, if anything.
    proven: Option<String>,
    solved: bool,
}

#[derive(Serialize)]
struct Summary {
    total: usize,
    solved: usize,
    positions: Vec<Outcome>,
}

/// Runs `cabra tactics`.
pub fn run(args: &TacticsArgs) -> anyhow::Result<()> {
    let path = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DIR));
    let files = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "caminos"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.clone()]
    };
    if files.is_empty() {
        bail!("no .caminos files in {}", path.display());
    }
    let mut limits = Limits {
        time: args.time,
        iterations: args.iterations,
        nodes: None,
        stop: None,
    };
    if limits.time.is_none() && limits.iterations.is_none() {
        limits.iterations = Some(100_000);
    }
    let config = EngineConfig::parse(&args.engine)
        .context("--engine")?
        .with_fallback(&limits, args.threads);
    let mut positions = Vec::new();
    for f in &files {
        let (pos, kind) = load(f)?;
        let mut engine = cabra::engine::Engine::new(config.clone(), args.seed);
        let report = engine.think(&pos);
        let best = report.best;
        let proven = report.proven.map(|p| format!("{p:?}").to_lowercase());
        let solved = best.is_some_and(|m| solves(&pos, kind, m));
        if !args.json {
            println!(
                "{:<5} {:<8} {:<16} {:<8} {}",
                kind,
                if solved { "solved" } else { "FAILED" },
                best.map_or("-".into(), |m| m.to_string()),
                proven.as_deref().unwrap_or("-"),
                f.display()
            );
        }
        positions.push(Outcome {
            file: f.display().to_string(),
            kind: kind.to_string(),
            answer: best.map(|m| m.to_string()),
            proven,
            solved,
        });
    }
    let solved = positions.iter().filter(|p| p.solved).count();
    let total = positions.len();
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&Summary {
                total,
                solved,
                positions
            })?
        );
    } else {
        println!("solved {solved}/{total}");
    }
    Ok(())
}

/// A test position and what it asks for.
fn load(f: &Path) -> anyhow::Result<(Position, Kind)> {
    let text =
        std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
    let kind = kind_in(&text)
        .with_context(|| format!("{}: no '# tactic: KIND' comment", f.display()))?
        .map_err(anyhow::Error::msg)
        .with_context(|| f.display().to_string())?;
    let pos = parse_game(&text).with_context(|| format!("{} is not a valid game", f.display()))?;
    Ok((pos, kind))
}
