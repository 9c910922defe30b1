//! `cabra analysis`: a JSON-lines analysis engine for scripts. One query
//! per input line (`query.rs` says what it holds), one answer per
//! analyzed turn, written as soon as it is ready. Queries run at once on
//! a pool of workers, each with an engine of its own, so answers to
//! different queries may come in any order: each carries its query's id.

mod control;
mod query;

use std::io::{self, Write};
use std::sync::mpsc;

use cabra::engine::{EngineHandle, Job, Progress, Thinker, parse_threads};

use super::lines::read_line;
use super::options::{EngineOptions, all_cores};
use crate::cli::defaults;
use control::{Control, Tag};
use query::{Answer, Defaults, Failure, Query};

/// The longest query line read (a whole game is well under 2 KB).
const MAX_LINE: usize = 1 << 20;

/// Queries read ahead of the engines at most: far more than a script
/// writes before it reads (a folder of games, each turn of each), and a
/// bound on the memory they hold (a query holds a game: some KB).
const READ_AHEAD: usize = 1 << 16;

/// A line of input, read.
enum Input {
    Query(Box<Query>, Tag),
    Failure(Failure),
    /// A terminate that has taken effect, to acknowledge.
    Done(serde_json::Value),
    /// The end of the input, or a signal (then the queries still
    /// waiting are dropped).
    End,
}

/// Reads the queries on standard input into `queue` until its end, or
/// until no one takes them; carries out the terminations at once.
fn read_queries(
    defaults: &Defaults,
    control: &Control,
    queue: &mpsc::SyncSender<io::Result<Input>>,
) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut number: u64 = 0;
    loop {
        let line = match read_line(&mut input, MAX_LINE) {
            Ok(Some(line)) => line,
            Ok(None) => {
                // Said in so many words: the signal handler holds a
                // sender too, so the queue never closes by itself.
                let _ = queue.send(Ok(Input::End));
                return;
            }
            Err(e) => {
                let _ = queue.send(Err(e));
                return;
            }
        };
        number += 1;
        let parsed = if line.too_long {
            Err(format!("line too long (at most {MAX_LINE} bytes)"))
        } else {
            match std::str::from_utf8(&line.bytes) {
                Err(_) => Err("the line is not UTF-8 text".into()),
                // (A line of a byte order mark alone is as blank.)
                Ok(text) if text.trim_start_matches('\u{feff}').trim().is_empty() => continue,
                Ok(text) => Ok(query::object(text).and_then(|q| {
                    if q.contains_key("action") {
                        let action = control::parse_action(&q)?;
                        let key = action.target.as_ref().map(control::key);
                        control.terminate(key.as_deref(), number);
                        Ok(Input::Done(action.ack))
                    } else {
                        let query = Query::of(&q, defaults)?;
                        let tag = Tag::new(&query.id, number);
                        Ok(Input::Query(Box::new(query), tag))
                    }
                })),
            }
        };
        let item = match parsed {
            Ok(Ok(input)) => input,
            Ok(Err(f)) => Input::Failure(f),
            Err(error) => Input::Failure(Failure::new(&serde_json::Value::Null, error)),
        };
        let item = match item {
            // Without an id, the line number is what finds the query.
            Input::Failure(mut f) if f.id.is_null() => {
                f.line = Some(number as usize);
                Input::Failure(f)
            }
            other => other,
        };
        if queue.send(Ok(item)).is_err() {
            return;
        }
    }
}

/// Arguments of `cabra analysis`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Reads one JSON query per line on standard input and writes one JSON answer \
                  per analyzed turn on standard output (docs/PROTOCOL.md). A query's own limits, \
                  engine and seed win over the options; without any, each search runs 50,000 \
                  iterations on one thread (not all cores: the queries run side by side), seed 0. \
                  With one thread per query and a fixed seed the answers are reproducible."
)]
pub struct AnalysisArgs {
    #[command(flatten)]
    pub engine: EngineOptions,
    /// Queries analyzed at once [default: cores / threads per query].
    #[arg(long, value_parser = parse_workers, value_name = "N")]
    pub workers: Option<usize>,
}

/// A count of workers: as many as there may be threads.
fn parse_workers(s: &str) -> Result<usize, String> {
    parse_threads(s).map_err(|_| {
        let max = cabra::engine::MAX_THREADS;
        format!("'{s}' is not a number of queries at once from 1 to {max}")
    })
}

/// Writes one line of JSON to standard output at once (workers share it).
fn emit(value: &impl serde::Serialize) -> io::Result<()> {
    let mut line = serde_json::to_string(value).map_err(io::Error::other)?;
    line.push('\n');
    let mut out = io::stdout().lock();
    out.write_all(line.as_bytes())?;
    out.flush()
}

/// Analyzes the turns of one query, answering each as it is done; stops
/// when the answers can no longer be written.
fn answer(q: &Query, thinker: &mut Thinker) -> io::Result<()> {
    for &turn in &q.turns {
        if thinker.stopped() {
            // Terminated: the turns left are answered, not searched.
            emit(&control::terminated_turn(&q.id, turn))?;
            continue;
        }
        let pos = q.position(turn);
        let thought = if pos.status().is_over() {
            None
        } else {
            let search = thinker.search(&q.request(turn), &mut |_: &Progress| {});
            Some(search.expect("a query's limits are above 0 (Query::of)"))
        };
        emit(&Answer::new(q, turn, &pos, thought.as_ref()))?;
    }
    // Nothing is kept for the next query, which starts afresh anyway.
    thinker.forget();
    Ok(())
}

/// Runs `cabra analysis`.
pub fn run(args: &AnalysisArgs) -> anyhow::Result<()> {
    let defaults = Defaults {
        config: args.engine.engine.clone(),
        options: args.engine.budget.options(),
    };
    let threads = args.engine.config(&defaults::ANALYSIS).threads.unwrap_or(1);
    let workers = args
        .workers
        .unwrap_or_else(|| (all_cores() / threads).max(1));
    // One engine per query analyzed at once; each says when it is free
    // again, and how its query went.
    let engines: Vec<EngineHandle> = (0..workers)
        .map(|_| args.engine.handle(&defaults::ANALYSIS))
        .collect();
    let (free, freed) = mpsc::channel::<(usize, io::Result<()>)>();
    for i in 0..workers {
        let _ = free.send((i, Ok(())));
    }
    let mut jobs: Vec<Option<Job<()>>> = (0..workers).map(|_| None).collect();
    // Reading runs ahead of the engines, so that a script may write all its
    // queries before it reads an answer: otherwise, once both pipes are
    // full, each side would wait for the other for ever.
    let (queue, queued) = mpsc::sync_channel::<io::Result<Input>>(READ_AHEAD);
    let control = std::sync::Arc::new(Control::new(workers));
    // Ctrl-C, SIGTERM or SIGHUP: the searches under way stop and are
    // answered as they stand, and the program ends with the signal's
    // status once they are written.
    let (signalled, end) = (control.clone(), queue.clone());
    super::signals::stop_on_signal(move || {
        signalled.close();
        let _ = end.try_send(Ok(Input::End));
    })?;
    let (reader_defaults, reader_control) = (defaults.clone(), control.clone());
    std::thread::Builder::new()
        .name("cabra-analysis-input".into())
        .spawn(move || read_queries(&reader_defaults, &reader_control, &queue))?;
    let read = (|| -> io::Result<()> {
        for input in queued {
            if control.closed() {
                break;
            }
            let (q, tag) = match input? {
                Input::End => break,
                Input::Query(q, tag) => (q, tag),
                Input::Failure(f) => {
                    emit(&f)?;
                    continue;
                }
                Input::Done(ack) => {
                    emit(&ack)?;
                    continue;
                }
            };
            // The next free engine.
            let (i, done) = freed.recv().map_err(io::Error::other)?;
            done?;
            if let Some(job) = jobs[i].take() {
                job.wait().map_err(io::Error::other)?;
            }
            engines[i].set_config(q.config.clone());
            let free_again = free.clone();
            let (id, turns) = (q.id.clone(), q.turns.clone());
            let started = control.start(i, tag, || {
                let job = engines[i].spawn(move |t| {
                    let done = answer(&q, t);
                    let _ = free_again.send((i, done));
                });
                let stopper = job.stopper();
                jobs[i] = Some(job);
                stopper
            });
            if !started {
                if control.closed() {
                    // A signal: a query not started gets no answer.
                    break;
                }
                // Terminated before it started: every turn answered so.
                let _ = free.send((i, Ok(())));
                for turn in turns {
                    emit(&control::terminated_turn(&id, turn))?;
                }
            }
        }
        Ok(())
    })();
    drop(free);
    for job in jobs.into_iter().flatten() {
        job.wait()?;
    }
    // What the queries met: the first failure to write, if any.
    for (_, done) in freed.try_iter() {
        done?;
    }
    read?;
    Ok(())
}
