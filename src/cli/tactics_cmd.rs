//! `cabra tactics`: how many tactical test positions an engine solves.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use cabra::engine::Request;
use cabra::engine::tactics::{Kind, SUITE, kind_in, solutions, solves};
use cabra::game::Position;
use cabra::game::record::parse_record;
use serde::Serialize;

use super::files::read_input;
use super::options::EngineOptions;
use crate::cli::defaults;

/// Arguments of `cabra tactics`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a limit each position gets 100,000 iterations on one thread, seed 1."
)]
pub struct TacticsArgs {
    /// A `.caminos` file with a `# tactic: KIND` comment (win1, block,
    /// win2), or a directory holding them [default: the built-in suite of
    /// 18 positions].
    pub path: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineOptions,
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

/// The test files: `(name, text)`.
fn tests(path: Option<&Path>) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let Some(path) = path else {
        return Ok(SUITE
            .iter()
            .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
            .collect());
    };
    let files = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| crate::cli::files::io_error("read", path, &e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "caminos"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    if files.is_empty() {
        bail!("no .caminos files in {}", path.display());
    }
    files
        .into_iter()
        .map(|f| {
            let bytes = read_input(&f).map_err(|e| crate::cli::files::io_error("read", &f, &e))?;
            Ok((f.display().to_string(), bytes))
        })
        .collect()
}

/// A test position and what it asks for.
fn load(name: &str, bytes: &[u8]) -> anyhow::Result<(Position, Kind)> {
    let text = String::from_utf8_lossy(bytes);
    let kind = kind_in(&text)
        .with_context(|| format!("{name}: no '# tactic: KIND' comment"))?
        .map_err(anyhow::Error::msg)
        .with_context(|| name.to_string())?;
    let pos = parse_record(bytes)
        .with_context(|| format!("{name} is not a valid game"))?
        .position;
    // A test no move can pass is a broken test, not an engine's failure.
    if pos.status().is_over() {
        bail!(
            "{name}: the game is over ({}): a tactic needs a move to find",
            pos.status()
        );
    }
    let asks = match kind {
        Kind::Win1 => Some("wins at once"),
        Kind::Block => Some("stops the opponent's win in one"),
        // (An exhaustive check of a win in two takes too long to run first.)
        Kind::Win2 => None,
    };
    if let Some(asks) = asks {
        let passing = solutions(&pos, kind).len();
        if passing == 0 {
            bail!("{name}: no placement {asks} here: the test cannot be solved");
        }
        if kind == Kind::Block && passing == pos.count_legal_placements() {
            bail!("{name}: the opponent threatens no win in one here: there is nothing to block");
        }
    }
    Ok((pos, kind))
}

/// Runs `cabra tactics`.
pub fn run(args: &TacticsArgs) -> anyhow::Result<()> {
    let files = tests(args.path.as_deref())?;
    let engine = args.engine.handle(&defaults::TACTICS);
    let mut positions = Vec::new();
    let mut text = String::new();
    for (name, bytes) in &files {
        let (pos, kind) = load(name, bytes)?;
        // Each position from scratch, as a move to play.
        let report = engine.search(Request::new(pos).fresh())?.report;
        let best = report.best;
        let proven = report.proven.map(|p| p.word().to_string());
        let solved = best
            .and_then(|m| m.placement())
            .is_some_and(|m| solves(&pos, kind, m));
        text.push_str(&format!(
            "{:<5} {:<8} {:<16} {:<8} {}\n",
            kind,
            if solved { "solved" } else { "FAILED" },
            best.map_or("-".into(), |m| m.to_string()),
            proven.as_deref().unwrap_or("-"),
            name
        ));
        positions.push(Outcome {
            file: name.clone(),
            kind: kind.to_string(),
            answer: best.map(|m| m.to_string()),
            proven,
            solved,
        });
    }
    let solved = positions.iter().filter(|p| p.solved).count();
    let total = positions.len();
    if args.json {
        let json = serde_json::to_string(&Summary {
            total,
            solved,
            positions,
        })?;
        super::style::print(&format!("{json}\n"))?;
    } else {
        text.push_str(&format!("solved {solved}/{total}\n"));
        super::style::print(&text)?;
    }
    Ok(())
}
