//! `cabra analyze PATH... --out DIR [--shard INDEX/COUNT]`: the games of a
//! collection that fall to a shard (all of them without `--shard`)
//! analyzed one after the other, each with an engine of its own (so that
//! its analysis does not depend on the games analyzed before it in the
//! same process), and recorded in `DIR/results.jsonl` as it is done.

use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use cabra::engine::{Request, Stopper};
use cabra::game::Position;

use super::collection::{Item, gather, hash, save_list};
use super::records::{GameRecord, WorkHeader, check_same, read_records};
use super::summary::{Notes, summary};
use super::{AnalyzeArgs, analyze_game};
use crate::cli::defaults;
use crate::cli::shards::jsonl::Appender;
use crate::cli::shards::lock::lock_records;
use crate::cli::shards::{Shard, check_shard, engine_identity, records_file};

/// The identity of the analysis of `items` under `args`.
fn header(args: &AnalyzeArgs, items: &[Item]) -> WorkHeader {
    let engine = args.engine.handle(&defaults::ANALYZE);
    let config = engine.config();
    let budget = engine.budget(&Request::analysis(Position::with_rules(args.rules.rules())));
    WorkHeader {
        kind: "analyze".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        engine: engine_identity(&config),
        limits: budget.to_string(),
        threads: config.threads.unwrap_or(1) as u64,
        seed: config.seed.unwrap_or(0),
        rules: args.rules.rules().to_string(),
        games: items.len() as u64,
        collection: hash(items),
    }
}

/// Runs the shard of `args` into `out`, then prints the summary of its
/// games.
pub fn run(args: &AnalyzeArgs, out: &Path) -> anyhow::Result<()> {
    let items = gather(&args.paths)?;
    let header = header(args, &items);
    let part = args.shard.unwrap_or(Shard::WHOLE);
    std::fs::create_dir_all(out).map_err(|e| crate::cli::files::io_error("create", out, &e))?;
    let path = records_file(out);
    let _lock = lock_records(&path)?;
    let (lines, keep) = read_records(&path)?;
    check_same(&header, &lines, &path, "here (use another --out)")?;
    check_shard(lines.iter().map(|l| l.shard.as_str()), part, out)?;
    let mut games: Vec<Option<GameRecord>> = (0..items.len()).map(|_| None).collect();
    for line in lines {
        let i = line.index;
        if part.owns_item(i) {
            games[i] = Some(line);
        }
    }
    // Every game of the shard is read before any is analyzed: a bad file
    // stops the run at once.
    let mut todo = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if part.owns_item(i) && games[i].is_none() {
            let pos = args
                .rules
                .load(Some(&item.path))
                .with_context(|| format!("game {i} ({})", item.name))?
                .position;
            todo.push((i, pos));
        }
    }
    let done = games.iter().flatten().count();
    if done > 0 {
        eprintln!(
            "shard {part}: {done} games already recorded, {} to analyze",
            todo.len()
        );
    }
    save_list(out, &items)?;
    let recorder = Appender::open(&path, keep)?;
    // One engine a game; a signal stops the one at work and the rest.
    let current: Arc<Mutex<Option<Stopper>>> = Arc::new(Mutex::new(None));
    let slot = current.clone();
    crate::cli::signals::stop_on_signal(move || {
        if let Some(s) = slot.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            s.stop();
        }
    })?;
    let mut interrupted = false;
    for (i, pos) in todo {
        if crate::cli::signals::exit_code().is_some() {
            interrupted = true;
            break;
        }
        let engine = args.engine.handle(&defaults::ANALYZE);
        *current.lock().unwrap_or_else(|e| e.into_inner()) = Some(engine.stopper());
        let item = &items[i];
        let analysis = analyze_game(&engine, pos, item.name.clone())?;
        if analysis.interrupted {
            interrupted = true;
            break;
        }
        let record = GameRecord {
            work: header.clone(),
            index: i,
            file: item.name.clone(),
            file_hash: item.hash.clone(),
            shard: part.to_string(),
            analysis: serde_json::to_value(&analysis)?,
        };
        recorder.append(&record)?;
        games[i] = Some(record);
    }
    let notes = Notes {
        shard: args.shard.map(|s| s.to_string()),
        interrupted,
        ..Notes::default()
    };
    crate::cli::style::print(&summary(&header, &games, &notes, args.json)?)
}
