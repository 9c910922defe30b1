//! `cabra analysis`: a JSON-lines analysis engine for scripts. One query
//! per input line (`query.rs` says what it holds), one answer per
//! analysed turn, written as soon as it is ready. Queries run at once on
//! a pool of workers, each with an engine of its own, so answers to
//! different queries may come in any order: each carries its query's id.

mod query;

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};

use cabra::engine::{Budget, Engine, parse_threads};

use super::analyze::DEFAULT_ITERATIONS;
use super::lines::read_line;
use super::options::{EngineOptions, all_cores};
use query::{Answer, Defaults, Failure, Query};

/// The longest query line read (a whole game is well under 2 KB).
const MAX_LINE: usize = 1 << 20;

/// Arguments of `cabra analysis`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Reads one JSON query per line on standard input and writes one JSON answer \
                  per analysed turn on standard output (docs/PROTOCOL.md). A query's own limits, \
                  engine and seed win over the options; without any, each search runs 50,000 \
                  iterations. With one thread per query and a fixed seed the answers are reproducible."
)]
pub struct AnalysisArgs {
    #[command(flatten)]
    pub engine: EngineOptions,
    /// Queries analysed at once [default: cores / threads per query].
    #[arg(long, value_parser = parse_threads, value_name = "N")]
    pub workers: Option<usize>,
}

/// Writes one line of JSON to standard output at once (workers share it).
fn emit(value: &impl serde::Serialize) -> io::Result<()> {
    let mut line = serde_json::to_string(value).map_err(io::Error::other)?;
    line.push('\n');
    let mut out = io::stdout().lock();
    out.write_all(line.as_bytes())?;
    out.flush()
}

/// Analyses the turns of one query, answering each as it is done.
fn answer(q: &Query, threads: usize) -> io::Result<()> {
    let mut engine = Engine::new(q.config.clone(), q.seed);
    engine.set_threads(threads);
    engine.set_top_moves(q.top);
    for &turn in &q.turns {
        let pos = q.position(turn);
        // Each turn from scratch: every position gets the same effort, and
        // its answer does not depend on the other turns asked.
        engine.forget();
        let report = if pos.status().is_over() {
            None
        } else {
            Some(engine.think(&pos, q.budget, &mut |_| {}).report)
        };
        emit(&Answer::new(q, turn, &pos, report))?;
    }
    Ok(())
}

/// A worker: takes queries until the queue closes.
fn work(queue: &Mutex<Receiver<Query>>, threads: usize) -> io::Result<()> {
    loop {
        // The lock is held only to take the next query.
        let next = queue.lock().map_err(|_| io::Error::other("queue"))?.recv();
        let Ok(q) = next else {
            return Ok(());
        };
        answer(&q, threads)?;
    }
}

/// Runs `cabra analysis`.
pub fn run(args: &AnalysisArgs) -> anyhow::Result<()> {
    let threads = args.engine.budget.threads.unwrap_or(1);
    let workers = args
        .workers
        .unwrap_or_else(|| (all_cores() / threads).max(1));
    let defaults = Defaults {
        config: args.engine.engine.clone(),
        budget: args
            .engine
            .budget
            .budget()
            .or(Budget::iterations(DEFAULT_ITERATIONS)),
        seed: args.engine.budget.seed.unwrap_or(0),
    };
    // A short queue: reading stays a little ahead of the workers.
    let (tx, rx) = sync_channel::<Query>(workers);
    let queue = Arc::new(Mutex::new(rx));
    let pool: Vec<_> = (0..workers)
        .map(|i| {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("cabra-analysis-{i}"))
                .spawn(move || work(&queue, threads))
        })
        .collect::<io::Result<_>>()?;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let read = (|| -> io::Result<()> {
        while let Some(line) = read_line(&mut input, MAX_LINE)? {
            if line.too_long {
                emit(&Failure {
                    id: serde_json::Value::Null,
                    error: format!("line too long (at most {MAX_LINE} bytes)"),
                })?;
                continue;
            }
            let Ok(text) = std::str::from_utf8(&line.bytes) else {
                emit(&Failure {
                    id: serde_json::Value::Null,
                    error: "the line is not UTF-8 text".into(),
                })?;
                continue;
            };
            if text.trim().is_empty() {
                continue;
            }
            match Query::parse(text, &defaults) {
                Ok(q) => {
                    if tx.send(q).is_err() {
                        // Every worker has stopped (their error follows).
                        break;
                    }
                }
                Err(f) => emit(&f)?,
            }
        }
        Ok(())
    })();
    drop(tx);
    for w in pool {
        w.join()
            .map_err(|_| anyhow::anyhow!("an analysis worker failed"))??;
    }
    read?;
    Ok(())
}
