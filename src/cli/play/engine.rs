//! Running the engine for the front end: a budget, a searcher kept in step
//! with the game (tree reuse), and a search cut into short slices so that a
//! progress line can be shown and Ctrl-C can stop it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cabra::game::{Placement, Position};
use cabra::search::{Limits, Proven, Report, SearchConfig, Searcher};

/// How long one slice of a timed search lasts: short enough for a lively
/// progress line and a prompt reaction to Ctrl-C.
const SLICE: Duration = Duration::from_millis(100);

/// Iterations in the first slice of a search with an iteration budget; later
/// slices are sized from the measured speed to last about [`SLICE`].
const FIRST_SLICE_ITERATIONS: u64 = 2_000;

/// How much the engine searches for one move: a wall-clock time or a number
/// of iterations (playouts, all threads together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Think this long.
    Time(Duration),
    /// Run this many iterations (reproducible with one thread and a seed).
    Iterations(u64),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Time(d) => write!(f, "{}", format_duration(*d)),
            Budget::Iterations(n) => write!(f, "{} iterations", group(*n)),
        }
    }
}

/// `2s`, `250ms`, `1.5s`, `2m`: the short form `parse_duration` reads back.
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms == 0 {
        format!("{}us", d.as_micros())
    } else if ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else if ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// A number with thin thousands separators: `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Raised while a search runs, so that a Ctrl-C handler can tell stopping
/// a search from leaving the program.
pub static SEARCHING: AtomicBool = AtomicBool::new(false);

/// What the progress display is told after each slice.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Iterations so far in this search.
    pub iterations: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// How far through the budget, 0 to 1.
    pub fraction: f64,
    /// The best move so far.
    pub best: Option<Placement>,
    /// Its win probability for the side to move.
    pub winrate: f64,
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The report of the whole search (iterations and time are totals).
    pub report: Report<Placement>,
    /// Whether the search was stopped by the stop flag (Ctrl-C).
    pub interrupted: bool,
}

/// The engine of a session: settings, the searcher (built on first use and
/// rebuilt when the threads or the seed change), and the stop flag.
pub struct Engine {
    threads: usize,
    seed: u64,
    top_moves: usize,
    searcher: Option<Searcher<Position>>,
    stop: Arc<AtomicBool>,
}

impl Engine {
    /// An engine with these settings; `stop` is the flag Ctrl-C raises.
    pub fn new(threads: usize, seed: u64, stop: Arc<AtomicBool>) -> Engine {
        Engine {
            threads: threads.max(1),
            seed,
            top_moves: SearchConfig::default().top_moves,
            searcher: None,
            stop,
        }
    }

    /// Threads (independent trees) searched in parallel.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The base seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Changes the number of threads (the trees are dropped).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.searcher = None;
    }

    /// Changes the seed (the trees are dropped).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.searcher = None;
    }

    /// Reports list this many root moves (all of them with a large number).
    pub fn set_top_moves(&mut self, n: usize) {
        self.top_moves = n.max(1);
        self.searcher = None;
    }

    /// Drops the trees: the next search starts from scratch.
    pub fn forget(&mut self) {
        self.searcher = None;
    }

    /// A searcher at `pos`, keeping the trees when `pos` continues the game
    /// they were grown for.
    fn searcher_at(&mut self, pos: &Position) -> &mut Searcher<Position> {
        let (threads, seed, top_moves) = (self.threads, self.seed, self.top_moves);
        let s = self.searcher.get_or_insert_with(|| {
            Searcher::new(
                *pos,
                SearchConfig {
                    threads,
                    seed,
                    top_moves,
                    ..SearchConfig::default()
                },
            )
        });
        let root = *s.position();
        if root != *pos {
            let (old, new) = (root.history(), pos.history());
            if new.len() >= old.len() && new[..old.len()] == *old {
                for &p in &new[old.len()..] {
                    s.advance(p);
                }
            } else {
                s.set_position(*pos);
            }
        }
        s
    }

    /// Searches `pos` (which must be in progress) within `budget`, calling
    /// `progress` after each slice. Stops early when the stop flag is
    /// raised (the caller lowers it before the command) or the position is
    /// solved.
    pub fn think(
        &mut self,
        pos: &Position,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress),
    ) -> Thought {
        let stop = self.stop.clone();
        SEARCHING.store(true, Ordering::SeqCst);
        let searcher = self.searcher_at(pos);
        let start = Instant::now();
        let mut total = 0u64;
        let mut slice_iterations = FIRST_SLICE_ITERATIONS;
        let mut last: Option<Report<Placement>>;
        let mut interrupted = false;
        loop {
            let mut limits = Limits::none().stop_flag(stop.clone());
            match budget {
                Budget::Time(t) => {
                    let left = t.saturating_sub(start.elapsed());
                    limits = limits.time(left.min(SLICE));
                }
                Budget::Iterations(n) => {
                    limits = limits.iterations((n - total).min(slice_iterations));
                }
            }
            let slice_start = Instant::now();
            let report = searcher.search(&limits);
            total += report.iterations;
            if let Budget::Iterations(_) = budget {
                // Size the next slice to last about one SLICE.
                let secs = slice_start.elapsed().as_secs_f64().max(1e-4);
                let rate = report.iterations as f64 / secs;
                slice_iterations = ((rate * SLICE.as_secs_f64()) as u64).clamp(256, 1 << 24);
            }
            let ran = report.iterations;
            let solved = report.proven.is_some();
            last = Some(report);
            if stop.load(Ordering::SeqCst) {
                interrupted = true;
                break;
            }
            let fraction = match budget {
                Budget::Time(t) => start.elapsed().as_secs_f64() / t.as_secs_f64().max(1e-9),
                Budget::Iterations(n) => total as f64 / n.max(1) as f64,
            };
            if solved || ran == 0 || fraction >= 1.0 {
                break;
            }
            let r = last.as_ref().expect("set above");
            progress(&Progress {
                iterations: total,
                elapsed: start.elapsed(),
                fraction,
                best: r.best,
                winrate: r.winrate,
            });
        }
        SEARCHING.store(false, Ordering::SeqCst);
        let mut report = last.expect("at least one slice ran");
        let seconds = start.elapsed().as_secs_f64();
        report.iterations = total;
        report.seconds = seconds;
        report.iterations_per_second = if seconds > 0.0 {
            total as f64 / seconds
        } else {
            0.0
        };
        Thought {
            report,
            interrupted,
        }
    }
}

/// A win probability for people: `63%`, or `won` / `lost` / `drawn` when proven.
pub fn describe_value(winrate: f64, proven: Option<Proven>) -> String {
    match proven {
        Some(Proven::Win) => "a proven win".to_string(),
        Some(Proven::Loss) => "a proven loss".to_string(),
        Some(Proven::Draw) => "a proven draw".to_string(),
        None => format!("{:.0}%", 100.0 * winrate),
    }
}

/// Reads a number of iterations as people write it: `20000`, `20,000`,
/// `20_000`, `20k`, `1.5M`. Zero is refused.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let t: String = text
        .trim()
        .chars()
        .filter(|&c| c != ',' && c != '_')
        .collect();
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1e3),
        Some((i, 'm' | 'M')) => (&t[..i], 1e6),
        Some((i, 'g' | 'G' | 'b' | 'B')) => (&t[..i], 1e9),
        _ => (t.as_str(), 1.0),
    };
    let bad = || {
        format!(
            "expected a number of iterations such as 20000 or 50k, found '{}'",
            text.trim()
        )
    };
    if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    let value = num.parse::<f64>().map_err(|_| bad())? * mult;
    if value.is_nan() || value < 1.0 {
        return Err("the number of iterations must be at least 1".to_string());
    }
    if value > 1e12 {
        return Err("at most 1,000,000,000,000 iterations".to_string());
    }
    Ok(value.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_durations_read_and_print() {
        assert_eq!(parse_count("20000"), Ok(20_000));
        assert_eq!(parse_count("20,000"), Ok(20_000));
        assert_eq!(parse_count("50k"), Ok(50_000));
        assert_eq!(parse_count("1.5M"), Ok(1_500_000));
        assert!(parse_count("0").is_err());
        assert!(parse_count("-3").is_err());
        assert!(parse_count("lots").is_err());
        assert!(parse_count("").is_err());
        assert!(parse_count("1e3").is_err());
        assert_eq!(group(1_234_567), "1,234,567");
        assert_eq!(group(12), "12");
        for d in ["2s", "250ms", "1.5s", "2m"] {
            let parsed = crate::cli::duration::parse_duration(d).unwrap();
            assert_eq!(format_duration(parsed), d);
        }
    }
}
