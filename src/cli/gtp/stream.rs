//! Live analysis: `cabra-analyze` and `genmove_analyze`. The search runs
//! on a thread of its own and writes one `info` line per interval (from
//! the engine's progress callback) while this thread waits for the next
//! input line; that line raises the engine's stop flag, the search thread
//! ends its answer, and the line is then run as usual. The end of the
//! input ends `cabra-analyze` but lets `genmove_analyze` use its budget.
//!
//! An `info` line holds one `info move ... visits ... winrate ... proven
//! ... order ... pv ...` entry per candidate placement, as `lz-analyze`
//! and `kata-analyze` write them; placements are three words each.

use std::fmt::Write as _;
use std::io::{self, BufRead};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use cabra::engine::{Budget, Listener, Progress, ReportView, Request as Search, parse_duration};
use cabra::engine::{Proven, Report};
use cabra::game::{MOVE_COUNT, Move, Position};

use super::line::{MAX_LINE, answer};
use super::{Gtp, emit};
use crate::cli::lines::{Line, read_line};

/// How often an `info` line is written when the command does not say.
const DEFAULT_INTERVAL: Duration = Duration::from_millis(500);

/// The shortest interval (shorter ones are raised to it).
const MIN_INTERVAL: Duration = Duration::from_millis(10);

/// Candidates per `info` line when the command does not say.
const DEFAULT_MAXMOVES: usize = 10;

/// Which command started the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `cabra-analyze`: search until the next line.
    Analyze,
    /// `genmove_analyze`: search within the move's budget, then play.
    Genmove,
}

/// A stream as asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    kind: Kind,
    interval: Duration,
    maxmoves: usize,
}

/// Reads an interval: a number without a unit is centiseconds (as
/// `lz-analyze` and `kata-analyze` read it; `50.0` too), or a duration
/// with a unit (`250ms`, `1s`).
fn parse_interval(word: &str) -> Result<Duration, String> {
    let bad = || format!("'{word}' is not an interval (centiseconds, or a duration such as 250ms)");
    let d = if word.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        let cs: f64 = word.parse().map_err(|_| bad())?;
        Duration::try_from_secs_f64(cs / 100.0).map_err(|_| bad())?
    } else {
        parse_duration(word).map_err(|_| bad())?
    };
    Ok(d.max(MIN_INTERVAL))
}

impl Request {
    /// Reads the arguments after the player: `[INTERVAL] [interval I]
    /// [maxmoves N]`.
    pub fn parse(kind: Kind, args: &[String]) -> Result<Request, String> {
        let mut r = Request {
            kind,
            interval: DEFAULT_INTERVAL,
            maxmoves: DEFAULT_MAXMOVES,
        };
        let mut i = 0;
        while i < args.len() {
            let value = args.get(i + 1);
            match (args[i].as_str(), value) {
                ("interval", Some(v)) => r.interval = parse_interval(v)?,
                ("maxmoves", Some(v)) => {
                    r.maxmoves = match v.parse::<usize>() {
                        Ok(n) if (1..=MOVE_COUNT).contains(&n) => n,
                        _ => {
                            return Err(format!(
                                "'{v}' is not a number of moves from 1 to {MOVE_COUNT}"
                            ));
                        }
                    }
                }
                ("interval" | "maxmoves", None) => {
                    return Err(format!("missing value after '{}'", args[i]));
                }
                (word, _) if i == 0 => {
                    r.interval = parse_interval(word)?;
                    i += 1;
                    continue;
                }
                (word, _) => return Err(format!("unexpected '{word}'")),
            }
            i += 2;
        }
        Ok(r)
    }
}

/// One `info` line for the candidates of `view` (most visited first);
/// `None` before any candidate has been searched.
pub fn info_line(view: &ReportView, maxmoves: usize) -> Option<String> {
    if view.top.is_empty() {
        return None;
    }
    let mut s = String::new();
    for (order, m) in view.top.iter().take(maxmoves).enumerate() {
        let _ = write!(
            s,
            "{}info move {} visits {} winrate {:.4} proven {} order {order} pv {}",
            if order == 0 { "" } else { " " },
            m.mv,
            m.visits,
            m.winrate,
            m.proven.map_or("none", Proven::word),
            m.pv.join(" ")
        );
    }
    s.push('\n');
    Some(s)
}

/// The placement to play after a search: `None` to resign (proven lost
/// with resigning on, or nothing found).
pub fn decide(report: &Report<Move>, resign: bool) -> Option<Move> {
    if resign && report.proven == Some(Proven::Loss) {
        return None;
    }
    report.best
}

/// Writes the `info` lines of a stream as the search goes; stops the
/// search when nobody can read them any more.
struct InfoLines {
    pos: Position,
    maxmoves: usize,
    written: io::Result<()>,
    /// The last line written, which the final one does not repeat.
    last: Option<String>,
}

impl InfoLines {
    /// Writes `line` unless it is the one written last.
    fn write(&mut self, line: String) {
        if self.written.is_ok() && self.last.as_ref() != Some(&line) {
            self.written = emit(&line);
            self.last = Some(line);
        }
    }
}

impl Listener for InfoLines {
    fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
        let view = ReportView::new(&self.pos, p.report, false);
        if let Some(line) = info_line(&view, self.maxmoves) {
            self.write(line);
        }
        match self.written {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }
}

impl Gtp {
    /// Runs a stream: writes its answer as the search goes, until the
    /// search ends (`genmove_analyze`) and in any case until the next input
    /// line, which it returns (`None` at the end of the input) for the
    /// session loop to run.
    pub(super) fn stream(
        &mut self,
        id: Option<u64>,
        request: Request,
        input: &mut impl BufRead,
    ) -> io::Result<Option<Line>> {
        // The first line of the answer; the rest follows as it comes.
        let head = answer(id, true, "");
        emit(head.trim_end_matches('\n'))?;
        emit("\n")?;
        let pos = *self.line.position();
        let mover = pos.to_move();
        let search = match request.kind {
            // Until the next line, within the configuration's node limit
            // (until stopped without one).
            Kind::Analyze => {
                let nodes = self.limits.nodes.or(self.engine.config().budget.nodes);
                Search::analysis(pos).limits(Budget {
                    nodes,
                    ..Budget::UNLIMITED
                })
            }
            Kind::Genmove => self.move_request(),
        };
        let search = search
            .report_every(request.interval)
            .top_moves(request.maxmoves);
        let (resign, maxmoves, kind) = (self.resign, request.maxmoves, request.kind);
        let start = Instant::now();
        let job = self.engine.spawn(move |t| -> io::Result<Option<Move>> {
            let mut lines = InfoLines {
                pos,
                maxmoves,
                written: Ok(()),
                last: None,
            };
            let thought = t.search(&search, &mut lines).map_err(io::Error::other)?;
            let view = ReportView::of(&pos, &thought);
            let decision = decide(&thought.report, resign);
            if kind == Kind::Genmove || !thought.interrupted {
                if let Some(line) = info_line(&view, maxmoves) {
                    lines.write(line);
                }
            }
            lines.written?;
            if kind == Kind::Genmove {
                let word = decision.map_or("resign".to_string(), |m| m.to_string());
                emit(&format!("play {word}\n\n"))?;
            }
            Ok(decision)
        });
        let next = read_line(input, MAX_LINE);
        // A line stops the search early; the end of the input does not
        // stop a move's search, which has a budget of its own.
        if kind == Kind::Analyze || !matches!(next, Ok(None)) {
            job.stop();
        }
        let decision = job.wait().map_err(io::Error::other)??;
        match kind {
            Kind::Analyze => emit("\n")?,
            Kind::Genmove => {
                self.clock.charge(mover, start.elapsed());
                if let Some(mv) = decision {
                    self.line.play(mv).expect("the engine plays legal moves");
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn intervals_and_options() {
        let r = Request::parse(Kind::Analyze, &words("50 maxmoves 3")).unwrap();
        assert_eq!((r.interval, r.maxmoves), (Duration::from_millis(500), 3));
        let r = Request::parse(Kind::Analyze, &words("interval 250ms")).unwrap();
        assert_eq!(r.interval, Duration::from_millis(250));
        let r = Request::parse(Kind::Genmove, &[]).unwrap();
        assert_eq!(
            (r.interval, r.maxmoves),
            (DEFAULT_INTERVAL, DEFAULT_MAXMOVES)
        );
        assert_eq!(
            Request::parse(Kind::Analyze, &words("0")).unwrap().interval,
            MIN_INTERVAL
        );
        // A decimal is centiseconds too (not seconds, as a duration).
        for (word, ms) in [("50.0", 500), ("1.5", 15), ("2.", 20), ("1s", 1000)] {
            let r = Request::parse(Kind::Analyze, &words(word)).unwrap();
            assert_eq!(r.interval, Duration::from_millis(ms), "{word}");
        }
        for bad in [
            "x",
            "50 60",
            "maxmoves 0",
            "maxmoves",
            "interval soon",
            "1.2.3",
            "1e400",
        ] {
            assert!(Request::parse(Kind::Analyze, &words(bad)).is_err(), "{bad}");
        }
    }
}
