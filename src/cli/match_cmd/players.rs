//! Who plays in a match: an engine configuration of this program, a
//! program speaking the protocol (`gtp:COMMAND LINE`), or an old build of
//! Cabra driven through `search --json` (`legacy:PATH`).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cabra::engine::clock::TimeControl;
use cabra::engine::matches::{Contestant, EnginePlayer, Fault};
use cabra::engine::{EngineConfig, format_duration};
use cabra::game::{Position, Rules};

use super::gtp_player::GtpPlayer;
use super::legacy::LegacyPlayer;
use super::process::split_command;
use crate::cli::defaults;

/// The limits of a program's moves (an engine configuration carries its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time per placement.
    pub time: Option<Duration>,
    /// Iterations per placement (for programs that know `cabra-set` or
    /// `search --iterations`).
    pub iterations: Option<u64>,
    /// Tree size per placement.
    pub nodes: Option<u64>,
    /// The game clock, instead of limits per placement.
    pub clock: Option<TimeControl>,
    /// Threads the program is asked to use.
    pub threads: usize,
    /// What a program may take beyond its time per placement (or in all,
    /// without one) before it loses the game.
    pub margin: Duration,
}

impl Limits {
    /// The most a program may take for one placement.
    pub fn move_limit(&self) -> Duration {
        self.time.unwrap_or_default() + self.margin
    }

    /// The limits as text, for the summary.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = self.time {
            parts.push(format_duration(t));
        }
        if let Some(n) = self.iterations {
            parts.push(format!("{n} iterations"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        let threads = format!(
            "{} thread{}",
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        );
        // No margin where nothing is timed (engines alone, self-play).
        let margin = !self.margin.is_zero();
        match self.clock {
            Some(c) if margin => format!(
                "clock {c} a game, {threads}, lost beyond the time left + {}",
                format_duration(self.margin)
            ),
            Some(c) => format!("clock {c} a game, {threads}, lost beyond the time left"),
            None if margin => format!(
                "{} a placement, {threads}, lost beyond {}",
                parts.join(" or "),
                format_duration(self.move_limit())
            ),
            None => format!("{} a placement, {threads}", parts.join(" or ")),
        }
    }
}

/// One side of a match, as given on the command line.
#[derive(Clone, Debug)]
pub enum Spec {
    /// An engine configuration, played in this process.
    Engine(EngineConfig),
    /// A program speaking the protocol: its command line, split.
    Gtp {
        /// What was given (for reports).
        text: String,
        argv: Vec<String>,
    },
    /// An old build driven through `search --json`.
    Legacy {
        /// What was given (for reports).
        text: String,
        path: PathBuf,
    },
}

/// Parses `--a`/`--b`: `gtp:COMMAND LINE`, `legacy:PATH`, or an engine
/// configuration.
pub fn parse_spec(text: &str) -> Result<Spec, String> {
    if let Some(line) = text.strip_prefix("gtp:") {
        let argv = split_command(line)?;
        return Ok(Spec::Gtp {
            text: text.to_string(),
            argv,
        });
    }
    if let Some(path) = text.strip_prefix("legacy:") {
        if path.trim().is_empty() {
            return Err("legacy: needs the path of a cabra build".into());
        }
        return Ok(Spec::Legacy {
            text: text.to_string(),
            path: PathBuf::from(path.trim()),
        });
    }
    crate::cli::options::parse_engine(text).map(Spec::Engine)
}

impl Spec {
    /// The name in reports: the configuration or the text given.
    pub fn name(&self) -> &str {
        match self {
            Spec::Engine(c) => &c.name,
            Spec::Gtp { text, .. } | Spec::Legacy { text, .. } => text,
        }
    }

    /// The cores this player keeps busy while it thinks: an engine
    /// configuration's own `threads`, else the match's.
    pub fn threads(&self, limits: &Limits) -> usize {
        match self {
            Spec::Engine(c) => c.threads.unwrap_or(limits.threads),
            _ => limits.threads,
        }
    }

    /// Whether another program plays (and is judged on time).
    pub fn is_program(&self) -> bool {
        !matches!(self, Spec::Engine(_))
    }

    /// A fresh player for one game, or why a program could not be started
    /// (or set up): not a move of its, so no game is lost by it, and the
    /// match stops (as cutechess-cli stops when an engine fails to start).
    pub fn start(
        &self,
        limits: &Limits,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> Result<Box<dyn Contestant>, Fault> {
        Ok(match self {
            Spec::Engine(config) => {
                let config = EngineConfig {
                    seed: Some(seed ^ config.seed.unwrap_or(0)),
                    ..config.clone()
                };
                Box::new(EnginePlayer::new(defaults::MATCH.handle(config), stop))
            }
            Spec::Gtp { argv, .. } => {
                let mut p = GtpPlayer::start(argv, limits.clone(), seed)?;
                p.stop_on(stop);
                Box::new(p)
            }
            Spec::Legacy { path, .. } => {
                let mut p = LegacyPlayer::new(path.clone(), limits.clone(), seed);
                p.stop_on(stop);
                Box::new(p)
            }
        })
    }

    /// Checks before a match that a program starts and answers (and an
    /// old build is asked for the only rules it knows): an error here
    /// stops the match before its first game.
    pub fn check(&self, limits: &Limits, rules: Rules) -> Result<(), String> {
        match self {
            Spec::Legacy { text, .. } if !rules.is_default() => Err(format!(
                "{text}: an old build plays only the caminos rules, not {rules}"
            )),
            Spec::Engine(_) => Ok(()),
            Spec::Gtp { text, argv } => {
                let mut p = GtpPlayer::start(argv, limits.clone(), 0)
                    .map_err(|f| format!("{text}: {f}"))?;
                let empty = Position::with_rules(rules);
                let ready = p.sync(&empty);
                p.finish(&empty);
                ready.map_err(|f| format!("{text}: {f}"))
            }
            Spec::Legacy { text, path } => {
                // One short search of the empty board.
                let quick = Limits {
                    time: None,
                    iterations: Some(100),
                    nodes: None,
                    clock: None,
                    ..limits.clone()
                };
                LegacyPlayer::new(path.clone(), quick, 0)
                    .genmove(&Position::new(), None)
                    .map(|_| ())
                    .map_err(|f| format!("{text}: {f}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_programs_and_configurations() {
        match parse_spec("gtp:target/release/cabra gtp --engine 'baseline, c=1'").unwrap() {
            Spec::Gtp { argv, .. } => {
                assert_eq!(
                    argv,
                    ["target/release/cabra", "gtp", "--engine", "baseline, c=1"]
                )
            }
            s => panic!("{s:?}"),
        }
        assert!(matches!(
            parse_spec("legacy:/opt/cabra").unwrap(),
            Spec::Legacy { .. }
        ));
        assert!(matches!(
            parse_spec("baseline,c=0.5").unwrap(),
            Spec::Engine(_)
        ));
        assert!(parse_spec("gtp:").is_err());
        assert!(parse_spec("legacy: ").is_err());
        assert!(parse_spec("fast").is_err());
        let l = Limits {
            time: Some(Duration::from_millis(100)),
            iterations: None,
            nodes: None,
            clock: None,
            threads: 1,
            margin: Duration::from_secs(1),
        };
        assert_eq!(l.move_limit(), Duration::from_millis(1100));
        // An engine's own threads count for how many games run at once.
        assert_eq!(parse_spec("default,threads=2").unwrap().threads(&l), 2);
        assert_eq!(parse_spec("default").unwrap().threads(&l), 1);
        assert_eq!(parse_spec("legacy:/opt/cabra").unwrap().threads(&l), 1);
        assert_eq!(
            l.describe(),
            "100ms a placement, 1 thread, lost beyond 1.1s"
        );
        let on_clock = Limits {
            time: None,
            clock: Some(TimeControl::parse("5s+100ms").unwrap()),
            ..l
        };
        assert_eq!(
            on_clock.describe(),
            "clock 5s+100ms a game, 1 thread, lost beyond the time left + 1s"
        );
        // Limits without a margin (engines alone) name no time to lose by.
        let selfplay = Limits {
            time: None,
            iterations: Some(20),
            margin: Duration::ZERO,
            ..l
        };
        assert_eq!(selfplay.describe(), "20 iterations a placement, 1 thread");
        let selfplay_clock = Limits {
            clock: Some(TimeControl::parse("5s").unwrap()),
            ..selfplay
        };
        assert_eq!(
            selfplay_clock.describe(),
            "clock 5s a game, 1 thread, lost beyond the time left"
        );
    }
}
